// The extensionTestsPath of one window of bench/hostactivation.mjs, run inside code-server's
// extension host: it activates the extension under test, a trivial one and the floor
// (host-activation-floor.cjs), in the order the window's file gives, and reads what VS Code
// itself timed of each (its performance marks `code/extHost/{will,did}LoadExtensionCode/<id>`
// around the require of the entry and `{will,did}ActivateExtension/<id>` around activate()).
// Prints one `HOST-ACTIVATION {json}` line; the page hands it to the bench.
'use strict';
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

/** The marks of one extension: load (require) and activate() in ms, from VS Code's own marks. */
function spans(marks, id) {
  const at = (name) => {
    const m = marks.find((x) => x.name === `code/extHost/${name}/${id}`);
    if (!m) throw new Error(`no performance mark ${name}/${id} in this extension host`);
    return m.startTime;
  };
  return { loadMs: at('didLoadExtensionCode') - at('willLoadExtensionCode'), activateMs: at('didActivateExtension') - at('willActivateExtension') };
}

/** Where the runner keeps the ids of ours's commands, which the floor registers renamed (learnt in the bench's first window). */
const COMMANDS = path.join(__dirname, 'floor-commands.json');
const floorCommands = (ids) => ids.filter((c) => c.startsWith('rpcWorkers.')).map((c) => c.replace(/^rpcWorkers\./, 'rpcWorkersFloor.'));

exports.run = async function run() {
  const vscode = require('vscode');
  const window = JSON.parse(readFileSync(path.join(__dirname, 'window.json'), 'utf8'));
  if (existsSync(COMMANDS)) globalThis.rpcWorkersFloorCommands = JSON.parse(readFileSync(COMMANDS, 'utf8'));
  // The window's own start-up activates extensions of its own meanwhile (git, emmet, merge
  // conflicts ...): their promise chains and their garbage would land inside the spans measured.
  // Measured once the set of active extensions has not grown for a second (at most 20 s).
  const active = () => vscode.extensions.all.filter((e) => e.isActive).length;
  for (let seen = active(), still = 0, i = 0; still < 10 && i < 200; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const now = active();
    still = now === seen ? still + 1 : 0;
    seen = now;
  }
  const perf = globalThis.MonacoPerformanceMarks;
  if (typeof perf?.getMarks !== 'function') throw new Error('this extension host keeps no performance marks (globalThis.MonacoPerformanceMarks)');
  // VS Code's marks in a Node extension host are Date.now(): whole milliseconds. While the three
  // activations run, Date.now() answers with performance.now()'s fraction, so that the marks
  // resolve the few ms being measured; it is put back once they have run.
  const dateNow = Date.now;
  Date.now = () => performance.timeOrigin + performance.now();
  try {
    for (const id of window.order) {
      const ext = vscode.extensions.getExtension(id);
      if (!ext) throw new Error(`extension ${id} is not in this window (it has ${vscode.extensions.all.map((e) => e.id).filter((e) => !e.startsWith('vscode.')).join(', ')})`);
      if (ext.isActive) throw new Error(`extension ${id} was active before the bench activated it (this window's order: ${window.order.join(', ')})`);
      if (id === window.ids.floor && !globalThis.rpcWorkersFloorCommands) {
        // Ours has run in this window (the bench puts it first in its first): its commands are VS Code's now.
        if (!vscode.extensions.getExtension(window.ids.ours)?.isActive) throw new Error('the floor needs ours\'s commands: ours must come first in the first window');
        globalThis.rpcWorkersFloorCommands = floorCommands(await vscode.commands.getCommands(true));
        writeFileSync(COMMANDS, JSON.stringify(globalThis.rpcWorkersFloorCommands));
      }
      await ext.activate();
    }
  } finally {
    Date.now = dateNow;
  }
  const marks = perf.getMarks();
  const result = { kind: window.kind };
  for (const [key, id] of Object.entries(window.ids)) result[key] = spans(marks, id);
  // Which code cache the extension's entry found (src/ui/boot.ts): a first window's must be none.
  result.codeCache = require(window.entry).codeCache?.() ?? null;
  result.commands = globalThis.rpcWorkersFloorCommands.length;
  console.log(`HOST-ACTIVATION ${JSON.stringify(result)}`);
  // A first window leaves its code cache for the next: written now rather than 3 s after the bundle's load.
  if (window.kind === 'first') {
    const file = await require(window.entry).saveCodeCache();
    if (!file || !existsSync(file)) throw new Error(`the first window wrote no code cache (${file})`);
  }
};
