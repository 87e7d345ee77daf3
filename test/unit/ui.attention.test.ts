// The attention room's notifications as the person meets them, on a host stub whose states the
// test emits: what they did themselves a moment ago does not come back as a notification.
import { vscodeStub } from '../helpers/vscodeStub';
import { attentionHost } from '../helpers/attentionHost';
import assert from 'node:assert/strict';
import type { TurnSummary, WorkerState } from '../../src/core/api';
import { Commands, type CommandServices } from '../../src/ui/commands/commands';
import { LaunchConfigGate } from '../../src/ui/settings/launchConfigGate';
import type { Settings } from '../../src/ui/settings/settings';
import { badgeFor, tabTitle } from '../../src/ui/attention/attentionLook';
import { LogTabs } from '../../src/ui/attention/logTabs';
import { workerTooltip } from '../../src/ui/views/sessionsTree';
import type { EventLog } from '../../src/ui/eventLog/eventLogView';

function turn(index: number, over: Partial<TurnSummary> = {}): TurnSummary {
  return { index, submissionId: null, source: null, submitter: null, startedAt: index * 10, endedAt: null, endReason: null, error: null, tools: [], ...over };
}

function state(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w1', name: 'Fixer', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: null, pid: 1, cwd: '/w', dialect: 'pi', command: 'pi',
    args: [], model: null, sessionId: null, session: null, usage: null, agent: null, guarded: false, writeGuard: null, tools: null, turnCount: 0, lastEndReason: null, lastError: null,
    exitCode: null, signal: null, startedAt: 0, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: true, followUp: 'worker' }, ...over,
  };
}

const streaming = (n: number) => state({ streaming: true, turns: [turn(n)] });
const aborted = (n: number) => state({ turns: [turn(n, { endedAt: n * 10 + 5, endReason: 'aborted' })] });

/** A host stub: `emit` is a state change as the supervisor reports it (synchronously, as it does). */
const host = () => attentionHost(state());

describe('UI attention: notifications of what the person did', () => {
  beforeEach(() => vscodeStub.reset());

  it("the person's own Abort is no news: no \"aborted\" notification, the row idle; one by anything else still notifies", async () => {
    const { attention, emit } = host();
    emit(streaming(1));
    // The host answers the abort once the turn has settled: its state comes inside the call.
    await attention.byThePerson('w1', async () => emit(aborted(1)));
    assert.equal(attention.notified.length, 0);
    assert.equal(attention.get('w1')?.attention, 'idle');
    // Another extension's abort (through the API): the person did not do it, and is told.
    emit(streaming(2));
    emit(aborted(2));
    assert.deepEqual(attention.notified.map((n) => n.message), ['Fixer: its turn was aborted']);
    assert.equal(attention.get('w1')?.attention, 'done');
    // The person's Redirect: its abort is part of it, and the new turn runs.
    emit(streaming(3));
    await attention.byThePerson('w1', async () => {
      emit(aborted(3));
      emit(state({ streaming: true, turns: [turn(3, { endedAt: 35, endReason: 'aborted' }), turn(4)] }));
    });
    assert.equal(attention.notified.length, 1);
    assert.equal(attention.get('w1')?.attention, 'working');
    attention.dispose();
  });

  it('the Abort and Redirect commands count as the person\'s when the person asked (palette, row, log), not when another extension called them', async () => {
    const { supervisor, emit } = host();
    const theirs: string[] = [];
    let calls = 0;
    Object.assign(supervisor, {
      abort: async () => (calls++, emit(aborted(1)), { status: 'aborted', workerId: 'w1', settleMs: 1, compactionCancelled: null, ms: 1 }),
      redirect: async () => (calls++, { status: 'redirected', workerId: 'w1', aborted: true, settleMs: 1, submissionId: null, ms: 1 }),
    });
    const services = {
      supervisor, outputs: { show() {}, has: () => true }, tree: { reveal: async () => {} }, selection: { current: undefined, set() {} }, settings: () => ({}),
      launchConfig: new LaunchConfigGate(supervisor, () => ({ agentDirs: [], profiles: [] }) as unknown as Settings),
      eventLog: { label: () => 'Fixer', stateOf: () => undefined, result: () => undefined }, extensionPath: '/ext', tauSessionDir: '/tmp/tau',
      byThePerson: <T>(id: string, run: () => Promise<T>) => (theirs.push(id), run()),
    } as unknown as CommandServices;
    const commands = new Commands(services);
    await commands.abort({ kind: 'worker', workerId: 'w1' });
    await commands.abort({ workerId: 'w1', source: 'event-log', submitter: 'user' });
    await commands.abort({ workerId: 'w1' });
    await commands.redirect({ workerId: 'w1', message: 'instead', source: 'event-log', submitter: 'user' });
    await commands.redirect({ workerId: 'w1', message: 'instead' });
    assert.equal(calls, 5);
    assert.deepEqual(theirs, ['w1', 'w1', 'w1']);
    commands.dispose();
  });

  it("a worker that failed to start is not notified (the start's own error says it, once); one that ran and then failed is", () => {
    const { attention, emit } = attentionHost(state({ status: 'starting', pid: null }));
    emit(state({ status: 'failed', exitCode: 1, pid: null }));
    assert.deepEqual(attention.notified, []);
    assert.equal(attention.get('w1')?.attention, 'failed', 'its row still says it failed');
    attention.dispose();
    const ran = host();
    ran.emit(state({ status: 'failed', exitCode: 1 }));
    assert.equal(ran.attention.notified.length, 1);
    ran.attention.dispose();
  });

  it('a crash after a turn refused for want of a login is said as a crash: no login words, no login button', () => {
    const { attention, emit } = attentionHost(state(), { loginHint: () => 'run `claude /login`' });
    const refused = turn(1, { endedAt: 15, endReason: 'error', error: 'no key', needsLogin: true, login: { label: 'Claude Login', line: 'claude /login' } });
    emit(streaming(1));
    emit(state({ turns: [refused] }));
    assert.deepEqual(vscodeStub.messages, ['RPC Workers: Fixer: its turn ended in an error: no key. For Fixer: run `claude /login`']);
    // Unseen, then its process dies: news again, and not for want of a login.
    emit(state({ status: 'failed', exitCode: 3, turns: [refused] }));
    assert.deepEqual(attention.notified.map((n) => n.message), ['Fixer: its turn ended in an error: no key. For Fixer: run `claude /login`', 'Fixer: failed (exit code 3)']);
    attention.dispose();
    // Seen (its log looked at), then it crashes.
    vscodeStub.reset();
    const seen = attentionHost(state(), { loginHint: () => 'run `claude /login`' });
    seen.emit(streaming(1));
    seen.emit(state({ turns: [refused] }));
    seen.attention.board.markSeen('w1');
    seen.emit(state({ status: 'failed', exitCode: 3, turns: [refused] }));
    assert.equal(seen.attention.notified.at(-1)?.message, 'Fixer: failed (exit code 3)');
    seen.attention.dispose();
  });

  it('a worker that exits on its own is told (a question it left open with it); one that exits before it ran is left to its start', () => {
    const { attention, emit } = host();
    emit(state({ streaming: true, turns: [turn(1)], pendingInput: [{ kind: 'dialog', id: 'q', method: 'permission', title: 'Run `ls`', since: 1 }] }));
    emit(state({ status: 'exited', exitCode: 0, turns: [turn(1, { endedAt: 15, endReason: 'worker_exited' })] }));
    assert.deepEqual(attention.notified.map((n) => [n.level, n.message]), [['warning', 'Fixer: waits for your answer to a permission question: Run `ls`'], ['info', 'Fixer: exited on its own (exit code 0)']]);
    assert.equal(attention.badge, 0);
    attention.dispose();
    const early = attentionHost(state({ status: 'starting', pid: null }));
    early.emit(state({ status: 'exited', exitCode: 0 }));
    assert.deepEqual(early.attention.notified, []);
    early.attention.dispose();
  });

  it("a question asked after a turn's end is told once, and its answer does not tell that turn's end again", () => {
    const { attention, emit } = host();
    const request = { kind: 'extension_request' as const, id: 'r', method: null, title: 'gate: review', asking: true, since: 1 };
    const ended = [turn(1, { endedAt: 15, endReason: 'done' })];
    emit(streaming(1));
    emit(state({ turns: ended }));
    // τ looks for a request as the turn settles: one stands, and the person answers it.
    emit(state({ turns: ended, pendingInput: [request] }));
    emit(state({ turns: ended }));
    assert.deepEqual(attention.notified.map((n) => n.message), ['Fixer: its turn ended', "Fixer: waits for your answer to an extension's request: gate: review"]);
    assert.equal(attention.get('w1')?.attention, 'done', 'the row still says the turn ended unseen');
    // A turn that ends after that is news again.
    emit(state({ streaming: true, turns: [...ended, turn(2)] }));
    emit(state({ turns: [...ended, turn(2, { endedAt: 25, endReason: 'done' })] }));
    assert.equal(attention.notified.length, 3);
    attention.dispose();
  });

  it('a worker removed is forgotten: no row state, no count, no badge of it is kept', () => {
    const badges: Array<number | undefined> = [];
    const { attention, emit, remove } = attentionHost(state(), { setBadge: (b) => badges.push(b?.value) });
    const changed: string[] = [];
    attention.onDidChange((id) => changed.push(id));
    emit(state({ streaming: true, turns: [turn(1)], pendingInput: [{ kind: 'dialog', id: 'q', method: 'permission', title: 'Run `ls`', since: 1 }] }));
    assert.equal(attention.badge, 1);
    emit(state({ status: 'exited', exitCode: 0, turns: [turn(1, { endedAt: 15, endReason: 'worker_exited' })] }));
    assert.equal(attention.badge, 0);
    changed.length = 0;
    remove('w1');
    assert.equal(attention.get('w1'), null);
    assert.deepEqual(attention.board.counts(), { 'needs-input': 0, working: 0, failed: 0, done: 0, stopped: 0, idle: 0 });
    assert.deepEqual(changed, ['w1'], 'its row and tab are told');
    assert.equal(badges.at(-1), undefined);
    attention.dispose();
  });

  it("a removed worker's log kept in its tab is still titled for how it ended", () => {
    const { attention, emit, remove } = host();
    const stopped = state({ status: 'stopped', turns: [turn(1, { endedAt: 15, endReason: 'stopped' })] });
    const panel = { title: '' };
    const none = () => ({ dispose() {} });
    const eventLog = { panelSessions: [{ panel, workerId: 'w1' }], stateOf: () => stopped, label: () => 'Fixer', isPast: () => false, onDidOpenPanel: none, onDidChangeLooking: none } as unknown as EventLog;
    const tabs = new LogTabs(eventLog, attention);
    emit(stopped);
    assert.equal(panel.title, 'Fixer · stopped');
    remove('w1');
    assert.equal(panel.title, 'Fixer · stopped');
    tabs.dispose();
    attention.dispose();
  });

  it("a worker that exited on its own has its tab say so, in its row's word; only the person's Stop says stopped", () => {
    const { attention, emit, remove } = host();
    const exited = state({ status: 'exited', exitCode: 0, turns: [turn(1, { endedAt: 15, endReason: 'worker_exited' })] });
    const panel = { title: '' };
    const none = () => ({ dispose() {} });
    let shown = exited;
    const eventLog = { panelSessions: [{ panel, workerId: 'w1' }], stateOf: () => shown, label: () => 'Fixer', isPast: () => false, onDidOpenPanel: none, onDidChangeLooking: none } as unknown as EventLog;
    const tabs = new LogTabs(eventLog, attention);
    emit(exited);
    assert.equal(panel.title, 'Fixer · exited');
    remove('w1');
    assert.equal(panel.title, 'Fixer · exited', 'its kept log, once it is removed');
    assert.equal(tabTitle('Fixer', 'stopped', state({ status: 'stopped' })), 'Fixer · stopped');
    assert.equal(tabTitle('Fixer', 'failed', state({ status: 'failed', exitCode: 3 })), 'Fixer · failed');
    shown = state({ status: 'stopped' });
    tabs.retitle();
    assert.equal(panel.title, 'Fixer · stopped');
    tabs.dispose();
    attention.dispose();
  });

  it("an exited worker's tooltip says its last turn's end in words, not the host's token", () => {
    const tip = workerTooltip(state({ status: 'exited', exitCode: 0, lastEndReason: 'worker_exited', turns: [turn(1, { endedAt: 15, endReason: 'worker_exited' })] })).value;
    assert.doesNotMatch(tip, /worker_exited/);
    assert.match(tip, /Last end reason: worker exited/);
  });

  it('several workers and two questions on one: the badge counts the workers waiting, as their rows do, and each answer or end takes it down', () => {
    const badges: Array<number | undefined> = [];
    // Each badge set, the same one set again left out.
    const { attention, emit } = attentionHost(state(), { setBadge: (b) => b?.value !== badges.at(-1) && badges.push(b?.value) });
    const ask = (id: string) => ({ kind: 'dialog' as const, id, method: 'permission', title: id, since: 1 });
    const other = (over: Partial<WorkerState>) => state({ workerId: 'w2', name: 'Other', ...over });
    emit(other({ status: 'starting' }));
    emit(state({ streaming: true, turns: [turn(1)], pendingInput: [ask('a'), ask('b')] }));
    emit(other({ streaming: true, turns: [turn(1)], pendingInput: [ask('c')] }));
    assert.equal(attention.badge, 2);
    emit(state({ streaming: true, turns: [turn(1)], pendingInput: [ask('b')] }));
    assert.equal(attention.badge, 2, 'one of two answered: still waiting');
    assert.equal(attention.get('w1')?.reason, 'waits for your answer to a permission question: b');
    emit(state({ streaming: true, turns: [turn(1)] }));
    assert.equal(attention.badge, 1);
    emit(other({ status: 'stopped', turns: [turn(1, { endedAt: 15, endReason: 'stopped' })] }));
    assert.equal(attention.badge, 0);
    assert.deepEqual(badges, [1, 2, 1, undefined]);
    attention.dispose();
  });

  it("the view's badge counts the workers that wait for the person, in the right number, and is gone at none", () => {
    assert.equal(badgeFor(0), undefined);
    assert.deepEqual(badgeFor(1), { value: 1, tooltip: '1 worker needs your input' });
    assert.deepEqual(badgeFor(2), { value: 2, tooltip: '2 workers need your input' });
  });
});
