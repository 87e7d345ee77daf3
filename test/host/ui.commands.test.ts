// The commands, driven as a keybinding, a task or another extension would: with a
// `{ workerId, message }` argument, so nothing asks. Each resolves with the host's honest result.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/ui/extension';
import { extensionApi, nextEvent, startDemo, state, stopAll, waitFor } from './ui.support';

type R = { status: string; workerId?: string; error?: string; streamingBehavior?: string | null; aborted?: boolean; note?: string; pid?: number };
const run = (id: string, arg?: unknown) => vscode.commands.executeCommand<R>(id, arg);

describe('UI commands', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  before(async () => { api = await extensionApi(); });
  afterEach(stopAll);

  it('Start Demo Worker starts a worker the tree, status bar and selection know', async () => {
    const id = await startDemo(api);
    const ui = api.__ui;
    assert.equal(state(api, id).status, 'running');
    assert.equal(ui.selection.current, id, 'the new worker is not the selected one');
    await waitFor(api, 'the tree to list the worker', () => ui.tree.getChildren().some((n) => 'workerId' in n && n.workerId === id));
    const item = ui.tree.getTreeItem(ui.tree.getChildren().find((n) => 'workerId' in n && n.workerId === id)!);
    assert.equal(item.label, 'Demo worker');
    assert.equal(item.contextValue, 'rpcWorker.idle.live');
    await waitFor(api, 'the status bar to count it', () => ui.statusBar.item.text.includes('1'));
  });

  it('Prompt with { workerId, message } is accepted and the turn carries its provenance', async () => {
    const id = await startDemo(api);
    const sent = nextEvent(api, id, 'prompt_sent');
    const end = nextEvent(api, id, 'agent_end');
    const r = await run('rpcWorkers.prompt', { workerId: id, message: 'hello from a test' });
    assert.equal(r.status, 'accepted', JSON.stringify(r));
    const p = await sent;
    assert.equal(p.source, 'api');
    assert.equal(p.submitter, 'unknown');
    assert.match(String(p.submission_id), /^sub-/);
    assert.equal((await end).end_reason, 'done');
    const turn = state(api, id).turns.at(-1)!;
    assert.equal(turn.submissionId, p.submission_id, 'the turn does not carry the submission id the command gave it');
  });

  it('a caller may name its own source and submitter', async () => {
    const id = await startDemo(api);
    const sent = nextEvent(api, id, 'prompt_sent');
    const r = await run('rpcWorkers.prompt', { workerId: id, message: 'hi', source: 'task', submitter: 'my.extension' });
    assert.equal(r.status, 'accepted');
    const p = await sent;
    assert.equal(p.source, 'task');
    assert.equal(p.submitter, 'my.extension');
  });

  it('Steer and Follow Up queue while streaming; Abort cuts a real command short; a second Abort is not_streaming', async () => {
    const id = await startDemo(api);
    const toolStarted = nextEvent(api, id, 'tool_execution_start');
    assert.equal((await run('rpcWorkers.prompt', { workerId: id, message: 'run: sleep 30' })).status, 'accepted');
    await toolStarted;
    assert.equal(state(api, id).streaming, true);
    const item = api.__ui.tree.getTreeItem({ kind: 'worker', workerId: id });
    await waitFor(api, 'the tree to show streaming', () => api.__ui.tree.getTreeItem({ kind: 'worker', workerId: id }).contextValue === 'rpcWorker.streaming.live' || undefined);
    assert.ok(item);
    const steer = await run('rpcWorkers.steer', { workerId: id, message: 'also look at the tests' });
    assert.equal(steer.status, 'accepted');
    assert.equal(steer.streamingBehavior, 'steer');
    const follow = await run('rpcWorkers.followUp', { workerId: id, message: 'then summarise' });
    assert.equal(follow.streamingBehavior, 'followUp');
    const t0 = Date.now();
    const aborted = await run('rpcWorkers.abort', { workerId: id });
    assert.equal(aborted.status, 'aborted', JSON.stringify(aborted));
    assert.ok(Date.now() - t0 < 10_000, 'abort did not cut sleep 30 short');
    assert.equal(state(api, id).lastEndReason, 'aborted');
    const again = await run('rpcWorkers.abort', { workerId: id });
    assert.equal(again.status, 'not_streaming');
  });

  it('Redirect aborts the running turn and starts the new one', async () => {
    const id = await startDemo(api);
    const toolStarted = nextEvent(api, id, 'tool_execution_start');
    await run('rpcWorkers.prompt', { workerId: id, message: 'run: sleep 30' });
    await toolStarted;
    const sent = nextEvent(api, id, 'prompt_sent', (e) => e.data?.text === 'do this instead');
    const r = await run('rpcWorkers.redirect', { workerId: id, message: 'do this instead' });
    assert.equal(r.status, 'redirected', JSON.stringify(r));
    assert.equal(r.aborted, true);
    const p = await sent;
    assert.equal((p.correlation as Record<string, unknown>).action, 'redirect');
  });

  it('Compact compacts an idle worker', async () => {
    const id = await startDemo(api);
    const end = nextEvent(api, id, 'agent_end');
    await run('rpcWorkers.prompt', { workerId: id, message: 'something to remember' });
    await end;
    const r = await run('rpcWorkers.compact', { workerId: id });
    assert.equal(r.status, 'compacted', JSON.stringify(r));
  });

  it('Stop removes the worker; Stop All stops every one', async () => {
    const a = await startDemo(api, 'A');
    const b = await startDemo(api, 'B');
    const pid = state(api, a).pid!;
    const r = await run('rpcWorkers.stop', { workerId: a });
    assert.equal(r.status, 'stopped');
    assert.equal(api.state(a).status, 'not_found');
    assert.throws(() => process.kill(pid, 0), 'the stopped worker process is still alive');
    const all = await vscode.commands.executeCommand<R[]>('rpcWorkers.stopAll');
    assert.deepEqual(all.map((x) => x.status), ['stopped']);
    assert.equal(api.state(b).status, 'not_found');
    await waitFor(api, 'the status bar item to hide', () => api.__ui.statusBar.item.text === '' || !api.list().length);
  });

  it('Copy PID puts the pid on the clipboard; Show Worker Output shows its channel', async () => {
    const id = await startDemo(api);
    const r = await run('rpcWorkers.copyPid', { workerId: id });
    assert.equal(r.status, 'copied');
    assert.equal(await vscode.env.clipboard.readText(), String(state(api, id).pid));
    const o = await run('rpcWorkers.showOutput', { workerId: id });
    assert.equal(o.status, 'shown');
  });

  it('answers honestly: an unknown worker is not_found, a bad argument is named', async () => {
    const missing = await run('rpcWorkers.prompt', { workerId: 'w-nope', message: 'x' });
    assert.equal(missing.status, 'not_found');
    const bad = await run('rpcWorkers.prompt', { workerId: 42, message: 'x' });
    assert.equal(bad.status, 'error');
    assert.match(String(bad.error), /invalid command argument: workerId/);
    const id = await startDemo(api);
    const empty = await run('rpcWorkers.prompt', { workerId: id, message: '   ' });
    assert.equal(empty.status, 'error');
    assert.match(String(empty.error), /empty/);
  });

  it('the view commands and Forget Always-Allowed Actions name a bad argument as the worker commands do', async () => {
    for (const command of ['rpcWorkers.copyPid', 'rpcWorkers.showOutput', 'rpcWorkers.openEventLogPanel', 'rpcWorkers.forgetAllowed']) {
      const bad = await run(command, { workerId: 42 });
      assert.equal(bad.status, 'error', command);
      assert.match(String(bad.error), /invalid command argument: workerId/, command);
    }
  });

  it('Start Worker by profile: an unknown profile is named, a configured one starts', async () => {
    const unknown = await run('rpcWorkers.startWorker', { profile: 'no such profile' });
    assert.equal(unknown.status, 'error');
    assert.match(String(unknown.error), /no worker profile named "no such profile"/);
    const demoPath = path.join(vscode.extensions.getExtension('rpc-workers.rpc-workers')!.extensionPath, 'dist', 'demo-worker.js');
    const config = vscode.workspace.getConfiguration('rpcWorkers');
    await config.update('profiles', [{ name: 'Configured demo', dialect: 'tau', command: process.execPath, args: [demoPath], env: { ELECTRON_RUN_AS_NODE: '1' }, model: 'scripted' }], vscode.ConfigurationTarget.Global);
    try {
      await waitFor(api, 'the profile setting to be read', () => api.__ui.settings.profiles.some((p) => p.name === 'Configured demo'));
      const r = await run('rpcWorkers.startWorker', { profile: 'Configured demo' });
      assert.equal(r.status, 'started', JSON.stringify(r));
      const s = state(api, r.workerId!);
      assert.equal(s.name, 'Configured demo');
      assert.deepEqual(s.args.slice(-1), [demoPath]);
    } finally {
      await config.update('profiles', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('Prompt right after a second worker was started offers it, and waits for it to run', async () => {
    const first = await startDemo(api);
    // A demo worker that starts only when the test opens its gate: it stays `starting` till then.
    const demoPath = path.join(vscode.extensions.getExtension('rpc-workers.rpc-workers')!.extensionPath, 'dist', 'demo-worker.js');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rpcw-gate-'));
    const gate = path.join(dir, 'open');
    const script = path.join(dir, 'gated-demo.js');
    writeFileSync(script, `const fs = require('fs'); const t = setInterval(() => { if (fs.existsSync(${JSON.stringify(gate)})) { clearInterval(t); require(${JSON.stringify(demoPath)}); } }, 20);`);
    const config = vscode.workspace.getConfiguration('rpcWorkers');
    await config.update('profiles', [{ name: 'Gated demo', dialect: 'tau', command: process.execPath, args: [script], env: { ELECTRON_RUN_AS_NODE: '1' } }], vscode.ConfigurationTarget.Global);
    try {
      await waitFor(api, 'the profile setting to be read', () => api.__ui.settings.profiles.some((p) => p.name === 'Gated demo'));
      const starting = run('rpcWorkers.startWorker', { profile: 'Gated demo' });
      const second = await waitFor(api, 'the second worker to be starting', () => api.list().find((s) => s.status === 'starting')?.workerId);
      api.__ui.selection.set(second);
      // Two candidates now, one of them starting: a picker (the starting one preselected), not worker #1 at once.
      const prompted = run('rpcWorkers.prompt', { message: 'for the new one' });
      await waitFor(api, 'the prompt to wait for the starting worker', () => {
        if (api.__ui.commands.waitingForStart.has(second)) return true;
        void vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return false;
      });
      assert.equal(state(api, second).status, 'starting');
      writeFileSync(gate, '');
      assert.equal((await starting).status, 'started');
      const r = await prompted;
      assert.equal(r.status, 'accepted', JSON.stringify(r));
      assert.equal(r.workerId, second);
      assert.equal(api.events(first).filter((e) => e.type === 'prompt_sent').length, 0, 'the running worker got the prompt');
      assert.equal(api.__ui.commands.waitingForStart.size, 0);
    } finally {
      await config.update('profiles', undefined, vscode.ConfigurationTarget.Global);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a worker that fails to start: the error carries its stderr and its output channel has it', async () => {
    const config = vscode.workspace.getConfiguration('rpcWorkers');
    await config.update('profiles', [{ name: 'Broken', dialect: 'tau', command: process.execPath, args: ['-e', 'console.error("boom: no model configured"); process.exit(3)'], env: { ELECTRON_RUN_AS_NODE: '1' } }], vscode.ConfigurationTarget.Global);
    try {
      await waitFor(api, 'the profile setting to be read', () => api.__ui.settings.profiles.some((p) => p.name === 'Broken'));
      const r = await run('rpcWorkers.startWorker', { profile: 'Broken' });
      assert.equal(r.status, 'error');
      assert.match(String(r.error), /boom: no model configured/);
      assert.ok(r.workerId && api.__ui.outputs.has(r.workerId), 'no output channel for the failed worker');
    } finally {
      await config.update('profiles', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('an invalid setting is named and its default used', async () => {
    const config = vscode.workspace.getConfiguration('rpcWorkers');
    await config.update('eventLogSize', 'lots', vscode.ConfigurationTarget.Global);
    try {
      await waitFor(api, 'the setting error', () => api.__ui.settingErrors.some((e) => e.includes('rpcWorkers.eventLogSize is invalid')));
      assert.equal(api.__ui.settings.eventLogSize, 10_000);
    } finally {
      await config.update('eventLogSize', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('with rpcWorkers.trace on, every message sent and received goes to the worker\'s output channel', async () => {
    const outputs = api.__ui.outputs;
    const seen: Array<'send' | 'receive'> = [];
    const original = outputs.trace;
    outputs.trace = function (this: typeof outputs, id, direction, message) {
      seen.push(direction);
      original.call(this, id, direction, message);
    };
    const config = vscode.workspace.getConfiguration('rpcWorkers');
    try {
      const id = await startDemo(api);
      let end = nextEvent(api, id, 'agent_end');
      await run('rpcWorkers.prompt', { workerId: id, message: 'untraced' });
      await end;
      assert.equal(seen.length, 0, 'traced with the setting off');
      await config.update('trace', true, vscode.ConfigurationTarget.Global);
      await waitFor(api, 'the trace setting', () => api.__ui.settings.trace);
      end = nextEvent(api, id, 'agent_end');
      await run('rpcWorkers.prompt', { workerId: id, message: 'traced' });
      await end;
      assert.ok(seen.includes('send') && seen.includes('receive'), `trace saw ${seen.length} messages`);
    } finally {
      outputs.trace = original;
      await config.update('trace', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('the API that activate() returns starts and prompts, stamping its source as api', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const ext = vscode.extensions.getExtension('rpc-workers.rpc-workers')!;
    const r = await api.start({ dialect: 'tau', command: process.execPath, args: [path.join(ext.extensionPath, 'dist', 'demo-worker.js')], env: { ELECTRON_RUN_AS_NODE: '1' }, cwd: folder });
    assert.equal(r.status, 'started');
    if (r.status !== 'started') return;
    const sent = nextEvent(api, r.workerId, 'prompt_sent');
    assert.equal((await api.prompt(r.workerId, 'from another extension')).status, 'accepted');
    assert.equal((await sent).source, 'api');
    assert.deepEqual(Object.keys(api).sort(), ['abort', 'compact', 'events', 'exportHtml', 'exportMarkdown', 'forgetAllowed', 'fork', 'limits', 'list', 'newSession', 'onEvent', 'onOutput', 'onRemoved', 'onState', 'prompt', 'redirect', 'setMode', 'setModel', 'start', 'state', 'stop', 'stopAll']);
  });
});
