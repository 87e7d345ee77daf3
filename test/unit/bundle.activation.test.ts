// Activation does nothing the first command can do (issue 24): loading dist/extension.js and
// running activate() under the bench's vscode stub loads neither node:crypto nor
// node:child_process (a worker's start or the exit-time kill needs them), and the bundle does
// not carry the host-to-page message schemas, which only the page parses; activation does not
// even load zod (settings, command arguments and the rest are validated by schemas made on their
// first parse, and zod is a bundle of its own, dist/zod-mini.js, loaded then); and the bundle copies the `vscode` namespace once, not once per module that
// imports it (`npm test` and `npm run test:unit` build first). The entry (dist/extension.js, src/ui/boot.ts)
// runs the bundle (dist/extension-main.js) from V8's code cache from the second window on.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { HistoryStore } from '../../src/core/history/store';

const ROOT = path.resolve(__dirname, '..', '..');
/** What VS Code loads: the entry, which runs the bundle. */
const ENTRY = path.join(ROOT, 'dist', 'extension.js');
const BUNDLE = path.join(ROOT, 'dist', 'extension-main.js');
/**
 * A window's activation under the bench's vscode stub whose registerCommand keeps the handlers;
 * then the command argv[2] with the argument argv[3] (JSON), the workspace untrusted when
 * UNTRUSTED is set. Prints the files loaded after activation and after the call, and the call's result.
 */
const CALL_AFTER_ACTIVATION = `
const Module = require('node:module');
const path = require('node:path');
const STUB = ${JSON.stringify(path.join(ROOT, 'bench', 'lib', 'vscode-stub.cjs'))};
const original = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? STUB : original.call(this, request, ...rest); };
const vscode = require(STUB);
const handlers = new Map();
vscode.commands.registerCommand = (id, fn) => { handlers.set(id, fn); return { dispose() {} }; };
vscode.window.showErrorMessage = async () => undefined;
const storage = vscode.Uri.file(process.env.ACTIVATE_STORAGE);
const memento = { get: (_k, d) => d, update: async () => {}, keys: () => [] };
const context = { subscriptions: [], extensionPath: ${JSON.stringify(ROOT)}, extensionUri: vscode.Uri.file(${JSON.stringify(ROOT)}), extensionMode: 1,
  globalState: memento, workspaceState: memento, storageUri: undefined, globalStorageUri: storage, logUri: storage, environmentVariableCollection: {},
  secrets: { get: async () => undefined, store: async () => {}, delete: async () => {} }, asAbsolutePath: (p) => path.join(${JSON.stringify(ROOT)}, p) };
(async () => {
  const ext = require(path.resolve(process.argv[1]));
  const api = ext.activate(context);
  if (process.env.UNTRUSTED) api.__ui.trust.isTrusted = () => false;
  const atActivation = Object.keys(require.cache);
  const laterAtActivation = ext.laterCodeCache() ?? null;
  const result = await handlers.get(process.argv[2])(JSON.parse(process.argv[3]));
  const afterCall = Object.keys(require.cache);
  const laterCache = ext.laterCodeCache() ?? null;
  await ext.deactivate();
  process.stdout.write(JSON.stringify({ atActivation, result, afterCall, laterAtActivation, laterCache }) + '\\n');
  process.exit(0);
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;
/**
 * CALL_AFTER_ACTIVATION's window, then two agents' permission questions (the supervisor's
 * onPermission) one after the other: what became of each within a second.
 */
const TWO_QUESTIONS = `${CALL_AFTER_ACTIVATION.slice(0, CALL_AFTER_ACTIVATION.indexOf('(async () => {'))}
(async () => {
  const api = require(path.resolve(process.argv[1])).activate(context);
  const options = api.__ui.supervisorOptions({}, undefined);
  const outcomes = [];
  for (const n of [1, 2]) {
    const asked = Promise.resolve().then(() => options.onPermission({ workerId: 'w', title: 'Q' + n, options: [], signal: new AbortController().signal }));
    outcomes.push(await Promise.race([asked.then(() => 'answered', (e) => 'failed: ' + e.message), new Promise((r) => setTimeout(() => r('waiting'), 1000))]));
  }
  process.stdout.write(JSON.stringify(outcomes) + '\\n');
  process.exit(0);
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;

/**
 * CALL_AFTER_ACTIVATION's window with the folder argv[2] open, until its first check of the
 * workspace for worktrees (git) has answered: what that answered, the files required by then, and
 * what became of dist/extension-later.js's and dist/core.js's code caches (null: not loaded; the
 * entry runs those bundles itself, not through require).
 */
const FIRST_CHECK = `${CALL_AFTER_ACTIVATION.slice(0, CALL_AFTER_ACTIVATION.indexOf('const handlers'))}
const stubbed = vscode.workspace;
vscode.workspace = new Proxy({}, { get: (_t, key) => (key === 'workspaceFolders' ? [{ uri: vscode.Uri.file(process.argv[2]), name: 'w', index: 0 }] : stubbed[key]) });
${CALL_AFTER_ACTIVATION.slice(CALL_AFTER_ACTIVATION.indexOf('const storage'), CALL_AFTER_ACTIVATION.indexOf('(async () => {'))}
(async () => {
  const ext = require(path.resolve(process.argv[1]));
  const api = ext.activate(context);
  const checked = await api.__ui.worktrees.checked;
  process.stdout.write(JSON.stringify({ checked, loaded: Object.keys(require.cache), later: ext.laterCodeCache() ?? null, core: ext.coreCodeCache() ?? null }) + '\\n');
  process.exit(0);
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;

/**
 * CALL_AFTER_ACTIVATION's window with a workspace storage (argv[2]), until the Sessions view's
 * first listing of past sessions: what it listed, and whether the core was loaded for it.
 */
const FIRST_LISTING = `${CALL_AFTER_ACTIVATION.slice(0, CALL_AFTER_ACTIVATION.indexOf('(async () => {')).replace('storageUri: undefined', 'storageUri: vscode.Uri.file(process.argv[2])')}
(async () => {
  const ext = require(path.resolve(process.argv[1]));
  const api = ext.activate(context);
  await api.__ui.past.load();
  const past = api.__ui.past;
  process.stdout.write(JSON.stringify({ sessions: past.sessions().map((s) => [s.name, s.status, s.turns]), unreadable: past.unreadable, error: past.error, loaded: Object.keys(require.cache), core: ext.coreCodeCache() ?? null }) + '\\n');
  process.exit(0);
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;

/** CALL_AFTER_ACTIVATION's window, which loads the core (as a first start does) and ends: what became of the core's code cache. */
const CORE_LOAD = `${CALL_AFTER_ACTIVATION.slice(0, CALL_AFTER_ACTIVATION.indexOf('(async () => {'))}
(async () => {
  const ext = require(path.resolve(process.argv[1]));
  const api = ext.activate(context);
  const before = ext.coreCodeCache() ?? null;
  const host = api.__ui.supervisor.host();
  const core = ext.coreCodeCache() ?? null;
  await ext.deactivate();
  process.stdout.write(JSON.stringify({ before, core, hosts: typeof host.start, required: Object.keys(require.cache).filter((f) => f.endsWith('core.js')) }) + '\\n');
  process.exit(0);
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;

/** A window under the bench's vscode stub (Node run with `argv`), its global storage in `storage`: what its last line printed. */
function stubWindow<T>(argv: string[], storage: string, env: NodeJS.ProcessEnv = {}): T {
  const out = execFileSync(process.execPath, argv, { encoding: 'utf8', env: { ...process.env, ACTIVATE_STORAGE: storage, ...env } });
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

/** One window's activation. */
function activation(storage: string, env: NodeJS.ProcessEnv = {}) {
  return stubWindow<{ builtins: string[]; api: number; codeCache: string | null }>([path.join(ROOT, 'bench', 'lib', 'activate-child.cjs'), ENTRY], storage, env);
}

/** CALL_AFTER_ACTIVATION's run. */
function callAfterActivation(storage: string, command: string, arg: unknown, env: NodeJS.ProcessEnv = {}) {
  return stubWindow<{ atActivation: string[]; result: { status: string; error?: string }; afterCall: string[]; laterAtActivation: string | null; laterCache: string | null }>(['-e', CALL_AFTER_ACTIVATION, ENTRY, command, JSON.stringify(arg)], storage, env);
}

describe('bundles: what activation loads', () => {
  before(function () {
    this.timeout(120_000);
    if (!existsSync(BUNDLE)) execFileSync(process.execPath, ['esbuild.mjs', '--no-typecheck'], { cwd: ROOT, stdio: 'inherit' });
  });
  let storage: string;
  beforeEach(() => (storage = mkdtempSync(path.join(tmpdir(), 'rpc-workers-storage-'))));
  afterEach(() => rmSync(storage, { recursive: true, force: true }));

  it('the first window makes the code cache and the next one runs the bundle from it', () => {
    const first = activation(storage);
    assert.deepEqual([first.codeCache, first.api > 0], ['none', true]);
    assert.equal(readdirSync(path.join(storage, 'code-cache')).filter((f) => f.startsWith('extension-main-') && f.endsWith('.cache')).length, 1);
    const next = activation(storage);
    assert.deepEqual([next.codeCache, next.api], ['used', first.api]);
  });

  it('load + activate() + deactivate() loads neither node:crypto nor node:child_process', () => {
    const { builtins, api } = activation(storage);
    assert.ok(api > 0, 'activate() returned the API');
    assert.ok(builtins.includes('fs'), `the list is read: ${builtins.join(', ')}`);
    assert.deepEqual(builtins.filter((m) => m === 'crypto' || m === 'child_process'), []);
  });

  it('load + activate() loads no zod, and a command\'s argument is still checked by zod (scripts/zodLater.mjs)', () => {
    // The bundle carries zod's forwarders, not zod: activation must not load dist/zod-mini.js, and
    // the first schema parse (an Open Log of a Past Session given a number for its id) must.
    const code = readFileSync(BUNDLE, 'utf8');
    assert.doesNotMatch(code, /node_modules\/zod\//, 'zod is bundled into the extension');
    const { atActivation, result, afterCall } = callAfterActivation(storage, 'rpcWorkers.history.openLog', { sessionId: 5 });
    assert.ok(atActivation.some((f) => f.endsWith('dist/extension.js')), `the list is read: ${atActivation.join(', ')}`);
    assert.deepEqual(atActivation.filter((f) => f.endsWith('zod-mini.js')), [], 'zod was loaded at activation');
    assert.equal(result.status, 'error');
    assert.match(result.error ?? '', /^invalid argument: ./);
    assert.deepEqual(afterCall.filter((f) => f.endsWith('zod-mini.js')).map((f) => path.basename(f)), ['zod-mini.js']);
  });

  it('the commands\' classes are dist/extension-later.js, loaded by the first command, not at activation (scripts/uiLater.mjs)', () => {
    const code = readFileSync(BUNDLE, 'utf8');
    // The dev build names each module it carries in a comment.
    assert.match(code, /^\/\/ src\/ui\/extension\.ts$/m, 'the modules are named');
    for (const part of ['commands/commands', 'history/historyCommands', 'worktrees/worktreeActions', 'host/extensionUi']) {
      assert.doesNotMatch(code, new RegExp(`^// src/ui/${part}\\.ts$`, 'm'), `${part} is in the extension's bundle`);
    }
    // The entry loads it (src/ui/boot.ts), through its code cache: the entry says what became of that.
    const { laterAtActivation, result, laterCache } = callAfterActivation(storage, 'rpcWorkers.history.openLog', { sessionId: 5 });
    assert.equal(laterAtActivation, null, 'loaded at activation');
    assert.match(result.error ?? '', /^invalid argument: ./, 'the command ran');
    assert.equal(laterCache, 'none', 'loaded by the command, in a first window');
  });

  it('a window\'s first check of its folder for worktrees runs git without loading dist/core.js (900 KB, compiled on the extension host\'s thread)', () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'rpc-workers-first-check-'));
    try {
      const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, stdio: 'pipe' });
      git('init', '-q');
      git('commit', '-q', '--allow-empty', '-m', 'first');
      const { checked, loaded, later, core } = stubWindow<{ checked: { available: boolean; reason: string | null }; loaded: string[]; later: string | null; core: string | null }>(['-e', FIRST_CHECK, ENTRY, repo], storage);
      assert.deepEqual(checked, { available: true, reason: null }, 'the check found the repository');
      assert.equal(later, 'none', 'git ran from dist/extension-later.js, loaded in this first window');
      assert.ok(loaded.some((f) => f.endsWith('dist/extension.js')), `the list is read: ${loaded.join(', ')}`);
      assert.deepEqual([core, loaded.filter((f) => f.endsWith('dist/core.js'))], [null, []], 'the first check loaded the core');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('the Sessions view\'s first listing reads past sessions without loading the core, and names a record that does not fit in words', async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), 'rpc-workers-workspace-'));
    try {
      const made = HistoryStore.create({ dir: path.join(workspace, 'history') });
      assert.ok(made.ok);
      const opened = made.store.open({ workerId: 'w1', name: 'pi #1', dialect: 'pi', cwd: workspace, command: 'pi' });
      assert.ok(opened.ok);
      await made.store.end(opened.sessionId, { reason: 'stopped' });
      await made.store.close();
      writeFileSync(path.join(workspace, 'history', 's-zzz-0123abcd.meta.json'), JSON.stringify({ version: 1, id: 's-zzz-0123abcd' }));
      const shown = stubWindow<{ sessions: unknown[]; unreadable: Array<{ file: string; error: string }>; error: string | null; loaded: string[]; core: string | null }>(['-e', FIRST_LISTING, ENTRY, workspace], storage);
      assert.deepEqual([shown.sessions, shown.error], [[['pi #1', 'ended', 0]], null]);
      assert.deepEqual(shown.unreadable.map((u) => u.file), ['s-zzz-0123abcd.meta.json']);
      // zod/mini's own word is "Invalid input" alone: the later bundle has no locale loaded.
      assert.match(shown.unreadable[0].error, /^workerId: Invalid input: expected string, received undefined/);
      assert.ok(shown.loaded.some((f) => f.endsWith('dist/extension.js')), `the list is read: ${shown.loaded.join(', ')}`);
      assert.deepEqual([shown.core, shown.loaded.filter((f) => f.endsWith('dist/core.js'))], [null, []], 'the listing loaded the core');
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('dist/core.js, loaded by a first start, runs from a code cache of its own from the second window on', () => {
    const load = () => stubWindow<{ before: string | null; core: string | null; hosts: string; required: string[] }>(['-e', CORE_LOAD, ENTRY], storage);
    const first = load();
    assert.deepEqual(first, { before: null, core: 'none', hosts: 'function', required: [] }, 'the first window compiles the core, through the entry');
    assert.equal(readdirSync(path.join(storage, 'code-cache')).filter((f) => f.startsWith('core-') && f.endsWith('.cache')).length, 1);
    assert.deepEqual(load(), { ...first, core: 'used' });
  });

  it('dist/extension-later.js runs from a code cache of its own from the second window on', () => {
    const first = callAfterActivation(storage, 'rpcWorkers.history.openLog', { sessionId: 5 });
    assert.equal(first.laterCache, 'none');
    assert.equal(readdirSync(path.join(storage, 'code-cache')).filter((f) => f.startsWith('extension-later-') && f.endsWith('.cache')).length, 1);
    const next = callAfterActivation(storage, 'rpcWorkers.history.openLog', { sessionId: 5 });
    assert.deepEqual([next.laterCache, next.result.status], ['used', 'error']);
  });

  it('a command of dist/extension-later.js reads the window\'s trust, which the host tests swap (src/ui/later.ts)', () => {
    // That bundle has its own copy of trust.ts: unlinked, it would read VS Code's (the stub's: trusted).
    const untrusted = callAfterActivation(storage, 'rpcWorkers.startDemoWorker', {}, { UNTRUSTED: '1' });
    assert.equal(untrusted.result.status, 'error');
    assert.match(untrusted.result.error ?? '', /does not start workers in an untrusted workspace/);
    assert.equal(untrusted.laterCache, 'none', 'the command ran from dist/extension-later.js');
  });

  it('a command, and each agent\'s question, says what failed when dist/extension-later.js cannot be loaded (src/ui/later.ts, extension.ts)', () => {
    // The entry and the extension's bundle without the later one beside them (a broken install).
    const dist = mkdtempSync(path.join(tmpdir(), 'rpc-workers-dist-'));
    try {
      for (const f of ['extension.js', 'extension-main.js', 'zod-mini.js']) copyFileSync(path.join(ROOT, 'dist', f), path.join(dist, f));
      const run = () => execFileSync(process.execPath, ['-e', CALL_AFTER_ACTIVATION, path.join(dist, 'extension.js'), 'rpcWorkers.history.hideArchived', '{}'], { encoding: 'utf8', stdio: 'pipe', env: { ...process.env, ACTIVATE_STORAGE: path.join(dist, 'storage') } });
      assert.throws(run, (e: { stderr?: string }) => /RPC Workers could not load dist\/extension-later\.js, which its commands and agents' questions run: ENOENT.*Reload the window/.test(e.stderr ?? ''));
      // An agent's question fails too, and says why; the next one is not left waiting behind it.
      const outcomes = stubWindow<string[]>(['-e', TWO_QUESTIONS, path.join(dist, 'extension.js')], path.join(dist, 'storage'));
      assert.equal(outcomes.length, 2);
      for (const o of outcomes) assert.match(o, /^failed: RPC Workers could not load dist\/extension-later\.js/);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('dist/core.js runs a dialect\'s modules (their schemas) on a first start of that dialect, not when it loads (wire/dialects.ts)', () => {
    // esbuild wraps a module that is required on use in an init function, called at the top of the
    // bundle if any module the bundle runs at load imports it.
    const code = readFileSync(path.join(ROOT, 'dist', 'core.js'), 'utf8');
    for (const module of ['acp', 'acpProtocol', 'acpEvents', 'pi', 'piMethods', 'tau', 'tauMethods', 'tauEvent']) {
      assert.match(code, new RegExp(`^var init_${module} = __esm\\(`, 'm'), `${module} is run on first use`);
      assert.doesNotMatch(code, new RegExp(`^init_${module}\\(\\);`, 'm'), `${module} is run when the core loads`);
    }
  });

  it('dist/extension-main.js requires vscode once and copies none of its names', () => {
    // esbuild wraps each module's `import * as vscode` in a copy of the API's names of its own
    // (scripts/importsOnce.mjs explains); the modules share one module that reads the names they
    // use as constants, with no getter per name (as `export * from 'vscode'` made).
    const code = readFileSync(BUNDLE, 'utf8');
    assert.equal(code.match(/require\("vscode"\)/g)?.length, 1);
    assert.doesNotMatch(code, /__(?:reExport|toESM)\([^()]*require\("vscode"\)/);
    assert.match(code, /var (\w+) = require\("vscode"\);\nvar \w+ = \1\.\w+;/);
  });

  it('dist/extension-main.js copies none of node:path\'s and node:os\'s names either (scripts/importsOnce.mjs)', () => {
    const code = readFileSync(BUNDLE, 'utf8');
    assert.doesNotMatch(code, /__toESM\(require\("node:(?:path|os)"\)\)/);
    assert.equal(code.match(/require\("node:path"\)/g)?.length, 1);
  });

  it('dist/extension-main.js does not build the host-to-page schemas (protocol/hostMessages.ts)', () => {
    const code = readFileSync(BUNDLE, 'utf8');
    assert.deepEqual(code.match(/\bhostMessageSchema\b|src\/protocol\/hostMessages\.ts/g), null);
  });
});
