// A worker's row in the Sessions view says its news word first ("failed · idle"), but not twice: a
// worker that itself failed already says "failed" as its status ("failed · failed · exit 3" was
// what a crashed worker's row read).
import * as assert from 'node:assert/strict';
import type { WorkerState } from '../../src/core/api';
import { attentionOf, NOTHING_SEEN } from '../../src/core/attention';
import { newsWord } from '../../src/protocol/words';
import { reasonLine, rowDescription } from '../../src/ui/attention/attentionLook';
import { workerDescription } from '../../src/ui/views/describe';

function state(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w1-a', name: 'Fake agent', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: null, pid: 42, cwd: '/w', dialect: 'acp', command: 'node',
    args: [], model: null, sessionId: null, session: null, usage: null, agent: null, guarded: false, writeGuard: null, tools: null, turnCount: 1, lastEndReason: null, lastError: null,
    exitCode: null, signal: null, startedAt: 0, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: true, followUp: 'worker' }, ...over,
  };
}

const row = (s: WorkerState) => rowDescription(newsWord(attentionOf(s, NOTHING_SEEN).attention), workerDescription(s));

describe('ui sessions row: the news word first, once', () => {
  it('a crashed worker reads "failed · exit 3", not "failed · failed · exit 3"', () => {
    assert.equal(row(state({ status: 'failed', exitCode: 3, pid: null })), 'failed · exit 3');
  });
  it('a running worker whose turn failed still says the news before its phase', () => {
    assert.equal(rowDescription('failed', workerDescription(state())), 'failed · idle');
  });
  it('no news: the description as it is', () => {
    assert.equal(rowDescription(null, 'idle · demo-model'), 'idle · demo-model');
  });
  it("the tooltip's reason line says the state's word once", () => {
    const line = (word: string, reason: string) => { const r = reasonLine(word, reason); return `${r.word}${r.rest}`; };
    assert.equal(line('failed', 'failed (exit code 3)'), 'failed (exit code 3)');
    assert.equal(line('stopped', 'stopped'), 'stopped');
    assert.equal(line('failed', 'its turn ended in an error: boom'), 'failed: its turn ended in an error: boom');
    assert.equal(line('stopped', 'stoppedness'), 'stopped: stoppedness');
  });
});
