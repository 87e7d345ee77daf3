// The attention room's notifications as the person meets them, on a host stub whose states the
// test emits: what they did themselves a moment ago does not come back as a notification.
import { vscodeStub } from '../helpers/vscodeStub';
import { attentionHost } from '../helpers/attentionHost';
import assert from 'node:assert/strict';
import type { TurnSummary, WorkerState } from '../../src/core/api';
import { Commands, type CommandServices } from '../../src/ui/commands/commands';
import { LaunchConfigGate } from '../../src/ui/settings/launchConfigGate';
import type { Settings } from '../../src/ui/settings/settings';
import { badgeFor } from '../../src/ui/attention/attentionLook';

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

  it("the view's badge counts the workers that wait for the person, in the right number, and is gone at none", () => {
    assert.equal(badgeFor(0), undefined);
    assert.deepEqual(badgeFor(1), { value: 1, tooltip: '1 worker needs your input' });
    assert.deepEqual(badgeFor(2), { value: 2, tooltip: '2 workers need your input' });
  });
});
