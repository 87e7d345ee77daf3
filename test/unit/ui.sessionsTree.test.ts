// The Sessions tree's rows below a worker, on a host stub whose states the test emits: a tool
// call's row keeps its id (and so VS Code's selection) when its turn's list is trimmed.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type { Supervisor, TurnSummary, WorkerState } from '../../src/core/api';
import { SessionsTree, type SessionNode } from '../../src/ui/views/sessionsTree';
import type { WorkerSelection } from '../../src/ui/views/workerSelection';

type Tool = TurnSummary['tools'][number];
const call = (n: number, over: Partial<Tool> = {}): Tool => ({ toolCallId: `call-${n}`, toolName: `tool${n}`, isError: false, blocked: false, blockedBy: null, violation: null, ended: true, ...over });

function state(tools: Tool[]): WorkerState {
  const turn: TurnSummary = { index: 1, submissionId: null, source: null, submitter: null, startedAt: 0, endedAt: null, endReason: null, error: null, tools };
  return { workerId: 'w1', name: 'Fixer', status: 'running', streaming: true, compacting: false, turns: [turn], filesTouched: [], pendingInput: [],
    cwd: '/w', command: 'agent', args: [], dialect: 'pi', guarded: false, startedAt: 0, turnCount: 1, pid: 1 } as unknown as WorkerState;
}

function tree(first: WorkerState) {
  let current = first;
  const listeners: Array<(s: WorkerState) => void> = [];
  const none = () => () => {};
  const supervisor = { list: () => [current], onState: (l: (s: WorkerState) => void) => (listeners.push(l), none), onEvent: none, onOutput: none, onRemoved: none } as unknown as Supervisor;
  const t = new SessionsTree(supervisor, { current: undefined, set() {} } as unknown as WorkerSelection, { createView: false });
  /** The new state, once the tree has taken it (its change event, not a wait). */
  const emit = (s: WorkerState) => {
    current = s;
    const taken = new Promise<void>((resolve) => { const sub = t.onDidChangeTreeData(() => (sub.dispose(), resolve())); });
    for (const l of listeners) l(s);
    return taken;
  };
  const turnNode: SessionNode = { kind: 'turn', workerId: 'w1', index: 1 };
  const row = (callId: string) => {
    const node = t.getChildren(turnNode).find((n) => String(t.getTreeItem(n).tooltip).includes(`(${callId})`));
    assert.ok(node, `a row for ${callId}`);
    return { node, id: t.getTreeItem(node).id };
  };
  return { t, emit, turnNode, row };
}

describe('UI Sessions tree rows', () => {
  beforeEach(() => vscodeStub.reset());

  it("a tool call's row keeps its id when its turn's list is trimmed from the front, and a row VS Code holds still shows its call", async () => {
    const all = Array.from({ length: 1200 }, (_, n) => call(n));
    const { t, emit, turnNode, row } = tree(state(all.slice(0, 1100)));
    const before = row('call-500');
    const tooltip = t.getTreeItem(before.node).tooltip;
    // The host trims the oldest calls of a long turn (MAX_TOOLS_PER_TURN) as new ones come.
    await emit(state(all.slice(100, 1101)));
    assert.equal(t.getChildren(turnNode).length, 1001);
    assert.equal(row('call-500').id, before.id);
    assert.equal(t.getTreeItem(before.node).tooltip, tooltip, 'the node VS Code kept is still call 500');
    assert.equal(t.getTreeItem(before.node).id, before.id);
    // A trimmed call's row is not shown as another call: it is the "no longer kept" placeholder,
    // with no id or tooltip of a call (the stub's TreeItem keeps only what is set on it).
    const trimmed = { ...before.node, key: 'id:call-50' } as SessionNode;
    assert.notEqual(typeof t.getTreeItem(trimmed).id, 'string');
    assert.notEqual(typeof t.getTreeItem(trimmed).tooltip, 'string');
    t.dispose();
  });

  it("a worker's row opens on its files written, then its turns, each newest first", () => {
    const turn = (index: number): TurnSummary => ({ index, submissionId: null, source: null, submitter: null, startedAt: 0, endedAt: 1, endReason: 'done', error: null, tools: [] });
    const s = { ...state([]), turns: [turn(1), turn(2), turn(3)], filesTouched: ['/w/a.ts', '/w/b.ts'] } as WorkerState;
    const { t } = tree(s);
    const worker: SessionNode = { kind: 'worker', workerId: 'w1' };
    assert.equal(t.getTreeItem(worker).collapsibleState, vscodeStub.collapsible.Collapsed);
    const rows = t.getChildren(worker);
    assert.deepEqual(rows.map((n) => (n.kind === 'turn' ? `turn ${n.index}` : n.kind)), ['files', 'turn 3', 'turn 2', 'turn 1']);
    assert.equal(t.getTreeItem(rows[0]).label, 'Files written (2)');
    assert.deepEqual(t.getChildren(rows[0]).map((n) => (n.kind === 'file' ? n.file : n.kind)), ['/w/b.ts', '/w/a.ts']);
    t.dispose();
  });

  it('a worker that only wrote files still opens on them; one with nothing under it does not open', async () => {
    const { t, emit } = tree({ ...state([]), turns: [], filesTouched: ['/w/a.ts'] } as WorkerState);
    const worker: SessionNode = { kind: 'worker', workerId: 'w1' };
    assert.equal(t.getTreeItem(worker).collapsibleState, vscodeStub.collapsible.Collapsed);
    assert.deepEqual(t.getChildren(worker).map((n) => n.kind), ['files']);
    await emit({ ...state([]), turns: [], filesTouched: [] } as WorkerState);
    assert.equal(t.getTreeItem(worker).collapsibleState, vscodeStub.collapsible.None);
    assert.deepEqual(t.getChildren(worker), []);
    t.dispose();
  });

  it("a tool call's icon says how it ended: stopped, error, blocked, flagged, or done", () => {
    const base = { submissionId: null, source: null, submitter: null, startedAt: 0, endedAt: 5, error: null };
    const aborted: TurnSummary = { ...base, index: 1, endReason: 'aborted', tools: [call(1, { ended: false })] };
    const done: TurnSummary = { ...base, index: 2, endReason: 'done', tools: [call(2, { isError: true }), call(3, { blocked: true, blockedBy: 'guard' }), call(4, { violation: 'write ".env": forbidden' }), call(5)] };
    const { t } = tree({ ...state([]), turns: [aborted, done] } as WorkerState);
    const icons = [1, 2].flatMap((index) => t.getChildren({ kind: 'turn', workerId: 'w1', index }).map((n) => (t.getTreeItem(n).iconPath as { id: string }).id));
    assert.deepEqual(icons, ['debug-stop', 'error', 'circle-slash', 'warning', 'tools']);
    t.dispose();
  });

  it("a worker's tooltip points at Forget Always-Allowed Actions… while it runs, and not once it has exited (its row no longer offers it)", async () => {
    const allowedAlways = [{ key: 'execute: ls', since: 0 }];
    const { t, emit } = tree({ ...state([]), allowedAlways } as WorkerState);
    const worker: SessionNode = { kind: 'worker', workerId: 'w1' };
    const tip = () => (t.getTreeItem(worker).tooltip as { value: string }).value;
    assert.match(tip(), /Allowed always \(Forget Always-Allowed Actions… clears them\)/);
    assert.match(tip(), /execute: ls/);
    await emit({ ...state([]), status: 'exited', allowedAlways } as WorkerState);
    assert.match(tip(), /Allowed always while it ran/);
    assert.doesNotMatch(tip(), /Forget/);
    t.dispose();
  });

  it('tells apart calls that share an id or have none, each with an id of its own', () => {
    const { t, turnNode } = tree(state([call(1), call(2, { toolCallId: 'call-1' }), call(3, { toolCallId: null }), call(4, { toolCallId: null }), call(5, { toolCallId: 'call-1#1' })]));
    const ids = t.getChildren(turnNode).map((n) => t.getTreeItem(n).id);
    assert.equal(new Set(ids).size, 5, JSON.stringify(ids));
    assert.deepEqual(t.getChildren(turnNode).map((n) => String(t.getTreeItem(n).tooltip).split(' ')[0]), ['tool1', 'tool2', 'tool3:', 'tool4:', 'tool5']);
    t.dispose();
  });
});
