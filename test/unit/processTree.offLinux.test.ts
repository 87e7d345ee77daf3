// The process table off Linux (macOS), where `ps` gives it instead of /proc. Simulated here: a child
// Node that believes it is on darwin, with a `ps` on PATH that prints a given table (the host and a
// tree member may share a group: a command spawned without a group of its own), counts its calls and
// can fail, and process.kill recording instead of signalling.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SRC = pathToFileURL(path.resolve(__dirname, '../../src/core/worker/processTree.ts')).href;

/**
 * Runs `body` (an expression of `signalTree`, `stillAlive`, `listProcesses` and `host`, the child's
 * own pid) in a darwin Node whose `ps` prints `table` (`HOST` for the child's pid); its value, the
 * signals sent, what it threw, and how many times `ps` ran. With `failAfter`, `ps` fails from its
 * call `failAfter + 1` on; `readFirst` reads the table once before, as a tree's reading does.
 */
function onDarwin(bin: string, table: string, body: string, { failAfter = Infinity, readFirst = false } = {}): { value: unknown; sent: { target: number; sig: string }[]; psCalls: number; threw?: string } {
  const calls = path.join(bin, 'calls');
  writeFileSync(calls, '');
  writeFileSync(path.join(bin, 'ps'), `#!/bin/sh\necho x >> '${calls}'\nif [ "$(wc -l < '${calls}')" -gt ${Number.isFinite(failAfter) ? failAfter : 1000000} ]; then echo 'ps: broken' >&2; exit 1; fi\ncat <<'EOF' | sed "s/HOST/$RPC_TEST_HOST_PID/g"\n${table}\nEOF\n`);
  chmodSync(path.join(bin, 'ps'), 0o755);
  const code = `Object.defineProperty(process, 'platform', { value: 'darwin' });
process.env.RPC_TEST_HOST_PID = String(process.pid);
const { signalTree, stillAlive, listProcesses, killChildTreesSync } = (await import(${JSON.stringify(SRC)})).default;
if (${readFirst}) listProcesses();
const sent = [];
process.kill = (target, sig) => { sent.push({ target, sig }); return true; };
const host = process.pid;
let value, threw;
try {
  value = ${body};
} catch (e) { threw = String(e.message); }
process.stdout.write(JSON.stringify({ value, sent, threw }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
  const psCalls = readFileSync(calls, 'utf8').split('\n').filter(Boolean).length;
  return { ...(JSON.parse(out) as { value: unknown; sent: { target: number; sig: string }[]; threw?: string }), psCalls };
}

const TREE = `[{ pid: 900001, ppid: host, pgid: 4242, start: 'Sun Dec 6 10:00:01 2026', zombie: false }, { pid: 900002, ppid: 900001, pgid: 777, start: 'Sun Dec 6 10:00:02 2026', zombie: false }]`;
const signalsOnDarwin = (bin: string, table: string, options?: { failAfter?: number; readFirst?: boolean }) => onDarwin(bin, table, `signalTree(${TREE}, 'SIGKILL')`, options);

const TABLE = [
  '  HOST     1  4242 S    Sun Dec  6 09:00:00 2026',
  '900001  HOST  4242 S    Sun Dec  6 10:00:01 2026',
  '900002 900001   777 S    Sun Dec  6 10:00:02 2026',
].join('\n');

describe('processTree: signalTree spares the host\'s own group off Linux', () => {
  let bin: string;
  beforeEach(() => (bin = mkdtempSync(path.join(tmpdir(), 'own-group-'))));
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  it('the group `ps` gives the host is not signalled; the other group and the live processes are, from one reading of the table', () => {
    const { sent, psCalls } = signalsOnDarwin(bin, TABLE);
    assert.deepEqual(sent.filter((s) => s.target < 0).map((s) => s.target), [-777]);
    assert.deepEqual(sent.filter((s) => s.target > 0).map((s) => s.target).sort(), [900001, 900002]);
    // One `ps` for the tree, not one more per member: the editor's thread waits for each.
    assert.equal(psCalls, 1);
  });

  it('a `ps` that fails by the time of the signal: the groups but the host\'s are signalled, no single pid, nothing thrown', () => {
    const { sent, threw, psCalls } = signalsOnDarwin(bin, TABLE, { failAfter: 1, readFirst: true });
    assert.equal(threw, undefined);
    assert.equal(psCalls, 2, 'the tree\'s reading, then the failed one');
    // The host's group (4242) as the tree's reading gave it is spared; a pid cannot be told from a reused one.
    assert.deepEqual(sent, [{ target: -777, sig: 'SIGKILL' }]);
  });

  it('a `ps` that never worked: nothing is signalled (the host\'s group cannot be told)', () => {
    const { sent, threw } = signalsOnDarwin(bin, TABLE, { failAfter: 0 });
    assert.equal(threw, undefined);
    assert.deepEqual(sent, []);
  });
});

describe('processTree: stillAlive reads the table once off Linux', () => {
  let bin: string;
  beforeEach(() => (bin = mkdtempSync(path.join(tmpdir(), 'still-alive-'))));
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  // 900001 alive; 900002 a zombie; 900003 gone; 900004's pid reused by another process.
  const RECORDED = `stillAlive([900001, 900002, 900003, 900004].map((pid) => ({ pid, start: 'Sun Dec 6 10:00:0' + (pid - 900000) + ' 2026' }))).map((p) => p.pid)`;
  const NOW = [
    '  HOST     1  4242 S    Sun Dec  6 09:00:00 2026',
    '900001  HOST  4242 S    Sun Dec  6 10:00:01 2026',
    '900002  HOST  4242 Z    Sun Dec  6 10:00:02 2026',
    '900004  HOST  4242 S    Sun Dec  6 11:30:00 2026',
  ].join('\n');

  it('the recorded processes still alive as recorded, from one `ps` for all of them', () => {
    const { value, psCalls } = onDarwin(bin, NOW, RECORDED);
    assert.deepEqual(value, [900001]);
    // The waits after a kill poll this every 10 ms: a `ps` each would hold the editor's thread.
    assert.equal(psCalls, 1);
  });

  it('a `ps` that fails: all of them, none known to be gone (a wait goes on to its deadline)', () => {
    const { value, threw } = onDarwin(bin, NOW, RECORDED, { failAfter: 0 });
    assert.equal(threw, undefined);
    assert.deepEqual(value, [900001, 900002, 900003, 900004]);
  });
});

/**
 * Runs `code` (an ES module body that writes `{ pid, ...result }` as JSON) in a Node that believes it
 * is on darwin, with a `ps` on PATH that always fails (a full process table fails its fork, as a
 * runaway worker's can); ends the group of the `pid` it names, in case the code under test left it
 * running, and returns the rest.
 */
function withBrokenPs(bin: string, code: string): Record<string, unknown> {
  writeFileSync(path.join(bin, 'ps'), `#!/bin/sh\necho 'ps: broken' >&2\nexit 1\n`);
  chmodSync(path.join(bin, 'ps'), 0o755);
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `Object.defineProperty(process, 'platform', { value: 'darwin' });\n${code}`], { cwd: ROOT, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
  const { pid, ...result } = JSON.parse(out) as { pid: number };
  try {
    // Left running by a stop that failed: not left behind by the test.
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Ended, as it should be.
  }
  return result;
}
const ROOT = path.resolve(__dirname, '../..');
const srcUrl = (f: string) => JSON.stringify(pathToFileURL(path.join(ROOT, f)).href);

describe('processTree off Linux: a `ps` that always fails', () => {
  let bin: string;
  beforeEach(() => (bin = mkdtempSync(path.join(tmpdir(), 'no-ps-'))));
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  it('stop() ends a real worker whose tree could never be read, and does not throw', function () {
    this.timeout(30_000);
    // The worker, a child of this process leading its own group, is still ended.
    const result = withBrokenPs(bin, `const { WorkerProcess } = (await import(${srcUrl('src/core/worker/workerProcess.ts')})).default;
const { PiCodec } = (await import(${srcUrl('src/core/wire/pi.ts')})).default;
const none = () => {};
// A program deaf to its stdin's end: only a signal ends it.
const launch = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], env: {}, guarded: false, tools: null, agent: null, audit: null };
const worker = new WorkerProcess(launch, { cwd: ${JSON.stringify(ROOT)}, codec: new PiCodec(), maxLineBytes: 1 << 20, ringLines: 10, killGraceMs: 2000, inputProbeMs: 60000 }, {
  onEvent: none, onProtocolError: none, onRequest: () => Promise.resolve(null), onNotification: none, onStderr: none,
  onConnectionError: none, onExit: none, onOutputLost: none, onInputLost: none,
});
const pid = worker.pid;
let threw, exit;
try {
  exit = (await worker.stop()).exit;
} catch (e) { threw = String(e.message); }
let alive = true;
try { process.kill(pid, 0); } catch { alive = false; }
process.stdout.write(JSON.stringify({ pid, threw, ended: !!exit, alive }));
process.exit(0);`);
    assert.deepEqual(result, { ended: true, alive: false });
  });

  it('an agent\'s host terminal: its output is still said and terminal/kill ends its command, nothing thrown', function () {
    this.timeout(30_000);
    const result = withBrokenPs(bin, `const { Terminals } = (await import(${srcUrl('src/core/worker/terminals.ts')})).default;
const events = [];
const terminals = new Terminals({ root: ${JSON.stringify(ROOT)}, cwd: ${JSON.stringify(ROOT)}, env: {}, emit: (e) => events.push(e), killGraceMs: 2000, shellBlocked: false, report: () => {} });
const { terminalId } = terminals.create({ command: process.execPath, args: ['-e', 'console.log("tick"); setInterval(() => {}, 1000)'], env: [], cwd: null, outputByteLimit: null });
const pid = events.find((e) => e.data.op === 'create').data.pid;
while (!terminals.output(terminalId).output.includes('tick')) await new Promise((r) => setTimeout(r, 10));
const threw = [];
// The tool call that shows it: its output is said at once (a reading of the tree with it).
try { terminals.observe({ type: 'tool_execution_update', tool_call_id: 'call-1', data: { terminals: [terminalId] } }); } catch (e) { threw.push('observe: ' + e.message); }
try { await terminals.kill(terminalId); } catch (e) { threw.push('kill: ' + e.message); }
let alive = true;
try { process.kill(pid, 0); } catch { alive = false; }
process.stdout.write(JSON.stringify({ pid, threw, alive }));
process.exit(0);`);
    assert.deepEqual(result, { threw: [], alive: false });
  });
});

describe('processTree: the exit-time kill off Linux', () => {
  let bin: string;
  beforeEach(() => (bin = mkdtempSync(path.join(tmpdir(), 'exit-kill-'))));
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  const TABLE = [
    '  HOST     1  4242 S    Sun Dec  6 09:00:00 2026',
    '900001  HOST  900001 S    Sun Dec  6 10:00:01 2026',
    '900002 900001  900002 S    Sun Dec  6 10:00:02 2026',
  ].join('\n');

  it('kills each worker\'s tree, its groups and its processes, from the table', () => {
    const { sent, threw } = onDarwin(bin, TABLE, 'killChildTreesSync([900001])');
    assert.equal(threw, undefined);
    assert.deepEqual(sent.map((s) => s.target).sort((a, b) => a - b), [-900002, -900001, 900001, 900002]);
  });

  it('a `ps` that fails: each worker and the group it leads are killed all the same, nothing thrown', () => {
    const { sent, threw } = onDarwin(bin, TABLE, 'killChildTreesSync([900001])', { failAfter: 0 });
    assert.equal(threw, undefined);
    assert.deepEqual(sent, [{ target: -900001, sig: 'SIGKILL' }, { target: 900001, sig: 'SIGKILL' }]);
  });
});
