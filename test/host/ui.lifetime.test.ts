// Lifetime: activation is quick, and no worker process (nor what it started) outlives the
// extension. The last-resort kill runs here as a test; deactivate() itself runs once every other
// test is done (a root `after` hook), since it ends the extension for the rest of the run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/ui/extension';
import { descendants, extensionApi, isAlive, nextEvent, startDemo, waitFor } from './ui.support';

async function busyWorker(api: ExtensionApi, name: string): Promise<{ id: string; pids: number[] }> {
  const id = await startDemo(api, name);
  const started = nextEvent(api, id, 'tool_execution_start');
  await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: id, message: 'run: sleep 60' });
  await started;
  const pid = api.state(id).status === 'not_found' ? 0 : (api.state(id) as { state: { pid: number } }).state.pid;
  const pids = await waitFor(api, 'the sleep under the worker', () => {
    const below = descendants(pid);
    return below.length >= 1 ? [pid, ...below] : undefined;
  });
  return { id, pids };
}

describe('UI lifetime', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  before(async () => { api = await extensionApi(); });

  it('activates without loading the core: the bundle holds only the UI, the core comes from dist/core.js on first use', () => {
    const ext = vscode.extensions.getExtension('rpc-workers.rpc-workers')!;
    const bundle = path.join(ext.extensionPath, 'dist', 'extension-main.js');
    const text = fs.readFileSync(bundle, 'utf8');
    // What makes activation cheap is structural, so that is what is asserted; the times are
    // printed here and measured against a baseline by `npm run bench` (a shared machine's
    // wall clock is no test).
    assert.ok(fs.statSync(bundle).size < 400_000, 'the extension bundle grew past 400 kB (the core belongs in dist/core.js)');
    assert.ok(!text.includes('createMessageConnection'), 'vscode-jsonrpc was bundled into extension-main.js');
    assert.match(text, /["']dist["'],\s*["']core\.js["']/, 'extension-main.js no longer loads dist/core.js lazily');
    const cached = require.cache[bundle];
    process.setSourceMapsEnabled(false);
    let loadMs = Infinity;
    try {
      for (let i = 0; i < 3; i++) {
        delete require.cache[bundle];
        const t0 = performance.now();
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- what is measured is Node loading the bundle, as VS Code does
        require(bundle);
        loadMs = Math.min(loadMs, performance.now() - t0);
      }
    } finally {
      process.setSourceMapsEnabled(true);
      if (cached) require.cache[bundle] = cached;
    }
    console.log(`      (activate() ${api.__ui.activationMs} ms, bundle load ${loadMs.toFixed(1)} ms)`);
  });

  it('the entry ran the bundle through its code cache, and the next window has one (src/ui/boot.ts)', async () => {
    const ext = vscode.extensions.getExtension('rpc-workers.rpc-workers')!;
    // The entry as VS Code required it: its own record of what became of the cache.
    const entry = require.cache[path.join(ext.extensionPath, 'dist', 'extension.js')]?.exports as { codeCache?: () => string | undefined } | undefined;
    const use = entry?.codeCache?.();
    assert.ok(use === 'none' || use === 'used' || use === 'rejected', `the entry says ${use}`);
    const dir = path.join(api.__ui.context.globalStorageUri.fsPath, 'code-cache');
    // Written a few seconds after activation, unless this window used it.
    const file = await waitFor(api, `a code cache in ${dir}`, () => (fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.startsWith('extension-main-') && f.endsWith('.cache')) : undefined));
    assert.ok(fs.statSync(path.join(dir, file)).size > 10_000, 'the cache holds the compiled bundle');
    console.log(`      (code cache: ${use} at this activation)`);
  });

  it('a command loads the parts only commands run (dist/extension-later.js) through a code cache of its own', async () => {
    const ext = vscode.extensions.getExtension('rpc-workers.rpc-workers')!;
    const entry = require.cache[path.join(ext.extensionPath, 'dist', 'extension.js')]?.exports as { laterCodeCache?: () => string | undefined } | undefined;
    assert.deepEqual(await vscode.commands.executeCommand('rpcWorkers.history.hideArchived'), { status: 'hidden' });
    const use = entry?.laterCodeCache?.();
    assert.ok(use === 'none' || use === 'used' || use === 'rejected', `the entry says ${use}`);
    const dir = path.join(api.__ui.context.globalStorageUri.fsPath, 'code-cache');
    const file = await waitFor(api, `a code cache of extension-later.js in ${dir}`, () => (fs.existsSync(dir) ? fs.readdirSync(dir).find((f) => f.startsWith('extension-later-') && f.endsWith('.cache')) : undefined));
    assert.ok(fs.statSync(path.join(dir, file)).size > 10_000, 'the cache holds the compiled bundle');
  });

  it('the last-resort kill ends every worker and its children at once', async () => {
    const { id, pids } = await busyWorker(api, 'Doomed');
    const n = api.__ui.killAllSync();
    // The count is of signals that found their target (a group's kill may already have ended a
    // member before it is signalled by pid); what matters is checked below: every process is gone.
    assert.ok(n >= 1, `signalled ${n} processes`);
    await waitFor(api, 'the worker to be seen dead', () => api.state(id).status === 'failed' || api.state(id).status === 'exited');
    await waitFor(api, 'every process to be gone', () => pids.every((p) => !isAlive(p)));
    await api.stop(id);
  });
});

// Runs after every test of the run: deactivate() stops every worker and what it started.
after(async function () {
  this.timeout(60_000);
  const api = await extensionApi();
  const { pids } = await busyWorker(api, 'Survivor?');
  const idle = await startDemo(api, 'Idle');
  const idlePid = (api.state(idle) as { state: { pid: number } }).state.pid;
  await api.__deactivate();
  const alive = [...pids, idlePid].filter(isAlive);
  assert.deepEqual(alive, [], `processes outlived deactivate(): ${alive.join(' ')}`);
  assert.equal(api.list().length, 0);
  console.log(`      (deactivate(): ${pids.length + 1} worker processes, none left)`);
});
