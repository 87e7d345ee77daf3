// A tests module (extensionTestsPath) for scripts/test-package.mjs: runs in a host where the
// extension was INSTALLED from the .vsix (no extensionDevelopmentPath pointing at the repo) and
// checks what a user would get. Plain CommonJS, no build step, no mocha: four checks, counted.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

const EXTENSION_ID = 'rpc-workers.rpc-workers';

exports.run = async function run() {
  const results = { passed: 0, failed: 0, pending: 0 };
  const check = async (name, fn) => {
    try { await fn(); results.passed++; console.log(`  ✔ ${name}`); }
    catch (err) { results.failed++; console.log(`  ✘ ${name}\n      ${String(err && err.message || err).split('\n').join('\n      ')}`); }
  };
  const expectedDir = process.env.RPC_WORKERS_EXPECT_EXTENSIONS_DIR;
  console.log('package: the extension installed from the .vsix');
  let ext;
  await check('is installed from the .vsix into the extensions dir (not loaded from the repo)', () => {
    ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    assert.ok(expectedDir, 'RPC_WORKERS_EXPECT_EXTENSIONS_DIR is not set');
    assert.ok(ext.extensionPath.startsWith(expectedDir + path.sep), `loaded from ${ext.extensionPath}, not from ${expectedDir}`);
    assert.equal(fs.existsSync(path.join(ext.extensionPath, 'src')), false, 'the .vsix carries sources');
  });
  const commands = ext ? (ext.packageJSON.contributes?.commands ?? []).map((c) => c.command) : [];
  await check(`activates on its first command (${commands[0] ?? 'none'})`, async () => {
    assert.ok(ext, 'not installed');
    assert.ok(commands.length > 0, 'the manifest contributes no command');
    // The package test opens an empty folder, so no workspaceContains event fires; another
    // activation event (onStartupFinished, say) may still have activated it: said, not failed.
    if (ext.isActive) console.log('    (already active through an activation event before the command ran)');
    // Not awaited: a command may open an input box and wait for a person. The extension is
    // activated before its handler runs, so isActive turns true either way.
    const ran = Promise.resolve(vscode.commands.executeCommand(commands[0])).catch((err) => err);
    const deadline = Date.now() + 30_000;
    while (!ext.isActive && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(ext.isActive, true, 'not active 30 s after running its command');
    const outcome = await Promise.race([ran, new Promise((r) => setTimeout(() => r('still running'), 2000))]);
    if (outcome instanceof Error) throw new Error(`the command failed: ${outcome.message}`);
  });
  await check('registers every contributed command', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = commands.filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });
  await check('starts the demo worker from the installed copy, which streams a turn to its end', async () => {
    assert.ok(ext, 'not installed');
    const api = await ext.activate();
    assert.equal(typeof api?.list, 'function', 'the extension exports no API');
    const r = await vscode.commands.executeCommand('rpcWorkers.startDemoWorker', { task: 'say hello from the package test', name: 'Package demo' });
    assert.equal(r?.status, 'started', `the demo worker did not start: ${JSON.stringify(r)}`);
    try {
      const s0 = api.list().find((s) => s.workerId === r.workerId);
      assert.ok(s0, 'the started worker is not listed');
      // The demo worker is the .vsix's own dist/demo-worker.js, run by the host's Node.
      assert.ok(s0.args.some((a) => a.startsWith(ext.extensionPath + path.sep) && a.endsWith('demo-worker.js')), `not the installed demo worker: ${s0.command} ${s0.args.join(' ')}`);
      const ended = await new Promise((resolve, reject) => {
        const done = (s) => s.workerId === r.workerId && s.turns.some((t) => t.endedAt !== null);
        const now = api.list().find(done);
        if (now) return resolve(now);
        const timer = setTimeout(() => { off(); reject(new Error(`no turn ended within 30 s: ${JSON.stringify(api.list().find((s) => s.workerId === r.workerId)?.turns)}`)); }, 30_000);
        const off = api.onState((s) => { if (done(s)) { clearTimeout(timer); off(); resolve(s); } });
      });
      const turn = ended.turns.find((t) => t.endedAt !== null);
      assert.equal(turn.error, null, `the turn ended in an error: ${turn.error}`);
      assert.equal(ended.protocolErrors, 0, 'the worker wrote lines that are not its protocol');
    } finally {
      await api.stop(r.workerId);
    }
  });
  console.log(`HOST-TOTALS passed=${results.passed} failed=${results.failed} pending=${results.pending}`);
  if (process.env.RPC_WORKERS_STATS_FILE) fs.writeFileSync(process.env.RPC_WORKERS_STATS_FILE, JSON.stringify({ suite: 'package', ...results }));
  if (results.failed > 0) throw new Error(`${results.failed} package check(s) failed`);
};
