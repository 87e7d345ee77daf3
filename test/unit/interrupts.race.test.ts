// The abort verb against a worker whose events the test writes (no process): what it answers
// when what it was to end ends by itself as the abort goes out.
import assert from 'node:assert/strict';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { AgentEvent, Untimed } from '../../src/core/events/agentEvent';
import { EventBus } from '../../src/core/events/eventBus';
import { abort, type InterruptPort } from '../../src/core/worker/interrupts';
import { resolveLimits } from '../../src/core/worker/limits';
import { TurnTracker } from '../../src/core/worker/turns';
import { Waits } from '../../src/core/worker/waits';
import { piDialect } from '../../src/core/wire/pi';
import { traitsOf, type Dialect } from '../../src/core/wire/dialect';
import type { WorkerProcess } from '../../src/core/worker/workerProcess';

/** A process that runs on, its output flowing (as wire.droppedAnswer.test.ts's). */
const alive = { exit: null, outputLost: false, inputLost: false, messagesSent: 0, firstUnsent: null, onceExit: () => () => {}, onceOutputLost: () => () => {}, onceInputLost: () => () => {}, exitDescription: () => 'running' } as unknown as WorkerProcess;

/** pi 1.6.0 as the host drives it: `onAbort` is what the worker says as the abort reaches it. */
function worker(onAbort: (say: (e: Untimed) => void) => void): { port: InterruptPort; say: (e: Untimed) => void } {
  const bus = new EventBus<AgentEvent>();
  const waits = new Waits(bus, alive);
  const turns = new TurnTracker((s) => waits.settled(s), '/');
  const traits = traitsOf(piDialect, '1.6.0');
  turns.setTraits(traits);
  const say = (partial: Untimed) => {
    const e = { ...partial, timestamp: Date.now() } as AgentEvent;
    const after = turns.observe(e);
    bus.emit(e);
    if (after) bus.emit(after);
  };
  const dialect = { ...piDialect, abort: async () => (onAbort(say), { compactionId: null }) } as Dialect;
  const port: InterruptPort = {
    emit: say, id: 'w1', limits: resolveLimits({ commandTimeoutMs: 1000, settleTimeoutMs: 1000 }), dialect, connection: {} as MessageConnection, turns, waits,
    traits: () => traits, versionName: () => 'pi 1.6.0', refuseUnlessRunning: () => null,
    request: (pending, what) => waits.bounded(pending, 1000, what),
    prompt: () => assert.fail('no prompt'), stateChanged: () => {}, cancelQuestions: () => {}, sweepAfterAbort: async () => {}, endTerminals: async () => {},
    messagesSent: () => 0, firstUnsent: () => null, sessionMove: () => null,
  };
  return { port, say };
}

describe('abort: what ended by itself as the abort went out', () => {
  it("pi 1.x compacting on its own after its turn's run: the compaction and the turn both ended by themselves, so not_streaming, not aborted", async () => {
    const { port, say } = worker((s) => {
      // Both crossed the abort on the pipe: the compaction finished, and the turn settled, not aborted.
      s({ type: 'compaction_end', data: { reason: 'threshold', aborted: false } });
      s({ type: 'agent_settled', data: { aborted: false } });
    });
    say({ type: 'agent_start' });
    say({ type: 'agent_end', end_reason: 'done', will_retry: false });
    say({ type: 'compaction_start', data: { reason: 'threshold' } });
    assert.deepEqual([port.turns.streaming, port.turns.afterTurn], [true, 'compaction']);
    const r = await abort(port);
    assert.equal(r.status, 'not_streaming', JSON.stringify(r));
    assert.equal(r.status === 'not_streaming' && r.compactionCancelled, false);
  });

  it('the same abort that cancels the compaction says aborted, the compaction cancelled', async () => {
    const { port, say } = worker((s) => {
      s({ type: 'compaction_end', data: { reason: 'threshold', aborted: true } });
      s({ type: 'agent_settled', data: { aborted: true } });
    });
    say({ type: 'agent_start' });
    say({ type: 'agent_end', end_reason: 'done', will_retry: false });
    say({ type: 'compaction_start', data: { reason: 'threshold' } });
    const r = await abort(port);
    assert.deepEqual([r.status, r.status === 'aborted' && r.compactionCancelled], ['aborted', true], JSON.stringify(r));
  });
});
