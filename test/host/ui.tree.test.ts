// The Sessions tree: one item per worker with status, icon, tooltip and contextValue; turns with
// their tool calls; files written, which open on click. Driven by the real host for what the
// demo worker does, and by a fake host for what it cannot (blocked calls, written files).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Supervisor, WorkerState } from '../../src/core/api';
import type { ExtensionApi } from '../../src/ui/extension';
import { SessionsTree, WorkerLeftTree, type SessionNode } from '../../src/ui/views/sessionsTree';
import { WorkerSelection } from '../../src/ui/views/workerSelection';
import { extensionApi, nextEvent, startDemo, state, stopAll, waitFor, workspaceFolder } from './ui.support';

function fakeState(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w-fake', name: 'Fake', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: '1.6.0', pid: 4242, cwd: '/tmp/ws', dialect: 'pi',
    command: 'pi', args: ['--mode', 'rpc'], model: 'mock/m1', sessionId: null, session: null, usage: null, agent: null, guarded: true, writeGuard: 'vetoed', tools: null, turnCount: 1,
    lastEndReason: 'done', lastError: null, exitCode: null, signal: null, startedAt: Date.now(), protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [],
    filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: true, followUp: 'worker' }, ...over,
  };
}

function fakeHost(states: WorkerState[]): Supervisor {
  const none = () => () => {};
  return { list: () => states, onState: none, onEvent: none, onOutput: none, onRemoved: none } as unknown as Supervisor;
}

describe('UI Sessions tree', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  before(async () => { api = await extensionApi(); });
  afterEach(stopAll);

  it('shows a worker with its status, icon, Markdown tooltip and a contextValue by phase', async () => {
    const id = await startDemo(api);
    const tree = api.__ui.tree;
    const node: SessionNode = { kind: 'worker', workerId: id };
    await waitFor(api, 'the worker in the tree', () => tree.getChildren().some((n) => 'workerId' in n && n.workerId === id));
    const idle = tree.getTreeItem(node);
    assert.equal(idle.contextValue, 'rpcWorker.idle.live');
    assert.match(String(idle.description), /^idle\b/);
    assert.equal((idle.iconPath as vscode.ThemeIcon).id, 'circle-filled');
    const tip = idle.tooltip as vscode.MarkdownString;
    assert.ok(tip instanceof vscode.MarkdownString);
    const s = state(api, id);
    for (const part of [String(s.pid), 'tau', 'demo-worker.js', 'Turns', 'Last end reason']) assert.ok(tip.value.includes(part), `tooltip lacks ${part}: ${tip.value}`);
    assert.equal(tip.isTrusted, false);

    const started = nextEvent(api, id, 'tool_execution_start');
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: id, message: 'run: sleep 30' });
    await started;
    await waitFor(api, 'the streaming item', () => tree.getTreeItem(node).contextValue === 'rpcWorker.streaming.live');
    const streaming = tree.getTreeItem(node);
    assert.equal((streaming.iconPath as vscode.ThemeIcon).id, 'sync~spin');
    assert.match(String(streaming.description), /streaming/);
    // Children: the running turn with its tool call.
    await waitFor(api, 'the turn with its tool', () => {
      const turn = tree.getChildren(node).find((n) => n.kind === 'turn');
      return turn && tree.getChildren(turn).length === 1 ? turn : undefined;
    });
    await vscode.commands.executeCommand('rpcWorkers.abort', { workerId: id });
    await waitFor(api, 'the aborted turn', () => {
      const turn = tree.getChildren(node).find((n) => n.kind === 'turn');
      return turn && /aborted/.test(String(tree.getTreeItem(turn).description));
    });
    const turn = tree.getChildren(node).find((n) => n.kind === 'turn')!;
    const tool = tree.getTreeItem(tree.getChildren(turn)[0]);
    assert.equal(tool.label, 'bash');
    // The person's Abort cut the call short: stopped, not an error of its own (it said 'error' before).
    assert.equal(tool.description, 'stopped');
  });

  it('refreshes on events, throttled, and not while nothing happens', async () => {
    const id = await startDemo(api);
    const tree = api.__ui.tree;
    await waitFor(api, 'the first refresh', () => tree.refreshCount > 0);
    const before = tree.refreshCount;
    const usageBefore = state(api, id).usage?.at ?? null;
    const end = nextEvent(api, id, 'agent_end');
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: id, message: 'one two three four five six seven eight nine ten' });
    await end;
    const node: SessionNode = { kind: 'worker', workerId: id };
    // The turn's last news is the worker's usage, which the host asks for once the turn settled.
    await waitFor(api, 'the tree to show the ended turn and its usage, with no refresh pending', () => {
      const turn = tree.getChildren(node).find((n) => n.kind === 'turn');
      const usage = state(api, id).usage;
      return turn && /^done/.test(String(tree.getTreeItem(turn).description)) && usage && usage.at !== usageBefore && !tree.refreshPending;
    });
    assert.ok(tree.refreshCount > before, 'no refresh after the turn');
    const deltas = api.events(id).filter((e) => e.type === 'message_update').length;
    assert.ok(tree.refreshCount - before < deltas, `the tree refreshed ${tree.refreshCount - before} times for ${deltas} deltas: not throttled`);
    const settled = tree.refreshCount;
    await new Promise((r) => setTimeout(r, 600)); // idle: observe that nothing refreshes
    assert.equal(tree.refreshCount, settled, 'the tree refreshed with nothing happening (polling?)');
  });

  it('lists turns with blocked calls and end reasons, and written files that open on click', async () => {
    const ws = workspaceFolder().uri.fsPath;
    const file = path.join(ws, 'src', 'hello.js');
    const s = fakeState({
      filesTouched: [file],
      turns: [{ index: 1, submissionId: 's1', source: 'editor', submitter: 'user', startedAt: 1000, endedAt: 3500, endReason: 'done', error: null,
        tools: [
          { toolCallId: 't1', toolName: 'edit', isError: false, blocked: false, blockedBy: null, violation: null, ended: true },
          { toolCallId: 't2', toolName: 'write', isError: true, blocked: true, blockedBy: 'rpc-workers-guard', violation: null, ended: true },
        ] }],
    });
    const tree = new SessionsTree(fakeHost([s]), new WorkerSelection(), { createView: false });
    try {
      const [worker] = tree.getChildren();
      const kids = tree.getChildren(worker);
      assert.deepEqual(kids.map((k) => k.kind), ['files', 'turn']);
      const turnItem = tree.getTreeItem(kids[1]);
      assert.equal(turnItem.label, 'Turn 1');
      assert.match(String(turnItem.description), /done · from editor · 2\.5 s · 2 tools, 1 blocked/);
      const tools = tree.getChildren(kids[1]).map((n) => tree.getTreeItem(n));
      assert.equal(tools[1].description, '⛔ blocked by rpc-workers-guard');
      const [fileNode] = tree.getChildren(kids[0]);
      const fileItem = tree.getTreeItem(fileNode);
      assert.equal(fileItem.label, 'hello.js');
      assert.equal(fileItem.command?.command, 'vscode.open');
      const uri = fileItem.command!.arguments![0] as vscode.Uri;
      assert.equal(uri.fsPath, file);
      await vscode.commands.executeCommand(fileItem.command!.command, ...fileItem.command!.arguments!);
      await waitFor(api, 'the file to open', () => vscode.window.activeTextEditor?.document.uri.fsPath === file);
    } finally {
      tree.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  // VS Code refuses a reveal while its view still holds rows of workers that left (it asks for
  // their items, which getTreeItem refuses): seen in the full host suite, where the first start of
  // a file after the last one's workers stopped failed to select its row. A stand-in view refuses
  // on cue, as VS Code's does then.
  it('a reveal VS Code refuses is tried again, unless the view was put away; reveals land in the order asked, the newest last', async () => {
    const states = [fakeState({ workerId: 'w-a' }), fakeState({ workerId: 'w-b' })];
    const calls: string[] = [];
    let refuse = 1;
    /** The person puts the view away as VS Code refuses (before any try again can run). */
    let hideOnRefusal = false;
    let hold: Promise<void> | undefined;
    let selection: SessionNode[] = [];
    let onVisibility: ((e: vscode.TreeViewVisibilityChangeEvent) => void) | undefined;
    const view = {
      visible: true,
      get selection() { return selection; },
      onDidChangeSelection: () => ({ dispose() {} }),
      onDidChangeVisibility: (f: (e: vscode.TreeViewVisibilityChangeEvent) => void) => {
        onVisibility = f;
        return { dispose() { onVisibility = undefined; } };
      },
      dispose() {},
      async reveal(node: SessionNode) {
        const id = 'workerId' in node ? node.workerId : '?';
        calls.push(id);
        if (refuse > 0) {
          refuse--;
          if (hideOnRefusal) onVisibility?.({ visible: false });
          throw new Error(`TreeError [rpcWorkers.sessions] Data tree node not found: 1/${id}`);
        }
        if (hold && id === 'w-a') await hold;
        selection = [node];
      },
    } as unknown as vscode.TreeView<SessionNode>;
    const tree = new SessionsTree(fakeHost(states), new WorkerSelection(), { createView: () => view });
    try {
      await tree.reveal('w-a');
      assert.deepEqual(calls, ['w-a', 'w-a'], 'a refused reveal was not tried again');
      assert.deepEqual(selection.map((n) => 'workerId' in n && n.workerId), ['w-a']);
      // A's reveal held in flight when B's is asked for: B's must land after it.
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      const first = tree.reveal('w-a');
      await waitFor(api, 'the first reveal to be in flight', () => calls.length === 3);
      const second = tree.reveal('w-b');
      hold = undefined;
      release();
      await Promise.all([first, second]);
      assert.deepEqual(calls, ['w-a', 'w-a', 'w-a', 'w-b']);
      assert.deepEqual(selection.map((n) => 'workerId' in n && n.workerId), ['w-b'], 'the first reveal landed last');
      // Refused, then the view put away before the try again (its `visible` not yet caught up, as
      // in the extension host): the try again must not show it again. Put away as it is refused:
      // a wait for the refusal, then the hiding, raced the try again 50 ms later (CI, loaded).
      refuse = 1;
      hideOnRefusal = true;
      await tree.reveal('w-a');
      assert.equal(calls.length, 5, 'a reveal was tried again after the view was put away');
    } finally {
      tree.dispose();
    }
  });

  // Seen in code-server: a worker started, its reveal slow to land; the person clicked the first
  // worker's row meanwhile, and the late reveal's selection took the log back to the new one.
  it('a reveal the person overtook does not move the log: the selection it reports is ignored, and the person\'s row is selected again', async () => {
    const states = [fakeState({ workerId: 'w-a' }), fakeState({ workerId: 'w-b' })];
    const calls: string[] = [];
    let hold: Promise<void> | undefined;
    let shown: SessionNode[] = [];
    let report: ((e: vscode.TreeViewSelectionChangeEvent<SessionNode>) => void) | undefined;
    const view = {
      visible: true,
      get selection() { return shown; },
      onDidChangeSelection: (f: (e: vscode.TreeViewSelectionChangeEvent<SessionNode>) => void) => {
        report = f;
        return { dispose() { report = undefined; } };
      },
      onDidChangeVisibility: () => ({ dispose() {} }),
      dispose() {},
      // As VS Code does: the row selected, and the new selection reported back before the reveal resolves.
      async reveal(node: SessionNode) {
        calls.push('workerId' in node ? node.workerId : '?');
        if (hold) await hold;
        shown = [node];
        report?.({ selection: shown });
      },
    } as unknown as vscode.TreeView<SessionNode>;
    const selection = new WorkerSelection();
    const tree = new SessionsTree(fakeHost(states), selection, { createView: () => view });
    try {
      // A person's click on a row reports it (VS Code's own selection, not a reveal's): the log follows.
      report?.({ selection: [{ kind: 'worker', workerId: 'w-a' }] });
      assert.equal(selection.current, 'w-a');
      // B is started and revealed; its reveal is held in flight while the person picks A.
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      selection.set('w-b');
      const late = tree.reveal('w-b');
      await waitFor(api, 'B\'s reveal in flight', () => calls.length === 1);
      hold = undefined;
      selection.set('w-a');
      release();
      await late;
      await waitFor(api, 'A\'s row selected again', () => calls.length === 2);
      assert.deepEqual(calls, ['w-b', 'w-a']);
      assert.equal(selection.current, 'w-a', 'the late reveal took the log back to B');
      assert.deepEqual(shown.map((n) => 'workerId' in n && n.workerId), ['w-a']);
      // A reveal the person overtook before it was tried is not tried at all.
      hold = new Promise((r) => (release = r));
      const first = tree.reveal('w-b');
      await waitFor(api, 'B\'s reveal in flight again', () => calls.length === 3);
      const queued = tree.reveal('w-a');
      selection.set('w-b');
      hold = undefined;
      release();
      await Promise.all([first, queued]);
      assert.deepEqual(calls, ['w-b', 'w-a', 'w-b'], 'the reveal of A, overtaken before it ran, was tried');
      assert.equal(selection.current, 'w-b');
    } finally {
      tree.dispose();
    }
  });

  it('a click on a worker\'s row selects it even where the tree already showed it selected (its item\'s command)', async () => {
    const a = await startDemo(api, 'A');
    const b = await startDemo(api, 'B');
    const item = api.__ui.tree.getTreeItem({ kind: 'worker', workerId: a });
    assert.deepEqual(item.command && { command: item.command.command, arguments: item.command.arguments }, { command: 'rpcWorkers.selectWorker', arguments: [a] });
    assert.equal(api.__ui.selection.current, b, 'a start selects the new worker');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    assert.equal(api.__ui.selection.current, a);
    await vscode.commands.executeCommand('rpcWorkers.selectWorker', 'no-such-worker');
    assert.equal(api.__ui.selection.current, a, 'a worker the host does not have was selected');
  });

  it('a worker that left the tree is refused, not drawn as "(gone)", so revealing it as it leaves ends quietly', async () => {
    const states = [fakeState()];
    const tree = new SessionsTree(fakeHost(states), new WorkerSelection(), { createView: false });
    const node: SessionNode = { kind: 'worker', workerId: 'w-fake' };
    assert.equal(tree.getTreeItem(node).id, 'w-fake');
    states.length = 0;
    tree.invalidate();
    await waitFor(api, 'the refresh', () => !tree.refreshPending || undefined);
    assert.deepEqual(tree.getChildren(), []);
    // VS Code 1.139 logs "Failed to resolve tree node for element 0/0:(gone)" for an item it is
    // given that is not under the root; an item refused makes its reveal reject, which
    // reveal() swallows.
    assert.throws(() => tree.getTreeItem(node), WorkerLeftTree);
    // Its turns and files, asked for by a view that has not caught up, are still drawn empty.
    assert.equal(tree.getTreeItem({ kind: 'files', workerId: 'w-fake' }).label, '(gone)');
    tree.dispose();
  });

  it('Stop on a worker that had exited by itself takes its row away, and the last Stop greys Stop All out', async () => {
    const id = await startDemo(api, 'Exits by itself');
    const pid = state(api, id).pid!;
    process.kill(pid, 'SIGKILL');
    await waitFor(api, 'the worker to have failed', () => state(api, id).status === 'failed');
    const row = () => api.__ui.tree.getChildren().some((n) => n.kind === 'worker' && n.workerId === id);
    assert.ok(row(), 'the failed worker is listed until it is stopped');
    assert.equal((await vscode.commands.executeCommand<{ status: string }>('rpcWorkers.stop', { workerId: id })).status, 'stopped');
    await waitFor(api, 'its row to leave the Sessions view', () => !row());
    await waitFor(api, 'hasWorkers to be false once no worker is left', () => api.__ui.contextKeys.value('rpcWorkers.hasWorkers') === false);
  });

  it('a failed worker shows the error icon and its last error in the tooltip; worker text is escaped', async () => {
    const s = fakeState({ status: 'failed', exitCode: 2, name: '<img src=x onerror=alert(1)> **bold**', lastError: 'model said [click](command:evil)' });
    const tree = new SessionsTree(fakeHost([s]), new WorkerSelection(), { createView: false });
    try {
      const item = tree.getTreeItem(tree.getChildren()[0]);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'error');
      assert.equal(item.contextValue, 'rpcWorker.failed');
      const md = (item.tooltip as vscode.MarkdownString).value;
      assert.ok(!md.includes('<img'), `raw HTML in the tooltip: ${md}`);
      assert.ok(!md.includes('](command:evil)'), `a live link in the tooltip: ${md}`);
      assert.match(md, /exit(&nbsp;| )2/);
    } finally {
      tree.dispose();
    }
  });
});
