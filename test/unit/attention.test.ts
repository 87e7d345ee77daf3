// Attention states and the notification policy, on hand-made worker states (the real-worker
// side, a pi dialog and a τ request that make a worker need input, is in attention.real.test.ts).
import assert from 'node:assert/strict';
import type { TurnSummary, WorkerState } from '../../src/core/api';
import {
  AttentionBoard, attentionOf, decideNotification, NOTHING_SEEN, parseNotifySetting, seenNow,
  type AttentionChange, type NotifySetting,
} from '../../src/core/attention';

function turn(index: number, over: Partial<TurnSummary> = {}): TurnSummary {
  return { index, submissionId: null, source: null, submitter: null, startedAt: index * 10, endedAt: index * 10 + 5, endReason: 'done', error: null, tools: [], ...over };
}

function state(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w1', name: 'Fixer', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: null, pid: 1, cwd: '/w', dialect: 'pi', command: 'pi',
    args: [], model: null, sessionId: null, session: null, usage: null, agent: null, guarded: false, writeGuard: null, tools: null, turnCount: 0, lastEndReason: null, lastError: null,
    exitCode: null, signal: null, startedAt: 0, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: true, followUp: 'worker' }, ...over,
  };
}

const dialog = { kind: 'dialog' as const, id: 'd1', method: 'confirm', title: 'Write x.txt?', since: 1 };

describe('attention states', () => {
  it('derives each state from WorkerState and the seen mark', () => {
    const a = (s: WorkerState, seen = NOTHING_SEEN) => attentionOf(s, seen).attention;
    assert.equal(a(state({ status: 'starting' })), 'working');
    assert.equal(a(state()), 'idle');
    assert.equal(a(state({ streaming: true, turns: [turn(1, { endedAt: null })] })), 'working');
    assert.equal(a(state({ compacting: true })), 'working');
    // A dialog mid-turn wins over working.
    assert.equal(a(state({ streaming: true, pendingInput: [dialog] })), 'needs-input');
    assert.match(attentionOf(state({ pendingInput: [dialog] })).reason, /confirm dialog: Write x.txt\?/);
    const ended = state({ turns: [turn(1)] });
    assert.equal(a(ended), 'done');
    assert.equal(a(ended, seenNow(ended)), 'idle');
    const erred = state({ turns: [turn(1), turn(2, { error: 'model overloaded', endReason: 'error' })] });
    assert.equal(a(erred), 'failed');
    assert.match(attentionOf(erred).reason, /model overloaded/);
    assert.equal(a(erred, seenNow(erred)), 'idle');
    assert.equal(a(erred, { turn: 1 }), 'failed', 'seen up to turn 1 is not seen turn 2');
    assert.equal(a(state({ status: 'failed', exitCode: 3 })), 'failed');
    assert.match(attentionOf(state({ status: 'failed', signal: 'SIGKILL' })).reason, /killed by SIGKILL/);
    assert.equal(a(state({ status: 'stopped', turns: [turn(1)] })), 'stopped');
    assert.equal(a(state({ status: 'exited', exitCode: 0 })), 'stopped');
    // The seen mark survives the turn list's trimming: it is a turn index, not a position.
    const long = state({ turns: [turn(60), turn(61)] });
    assert.equal(a(long, { turn: 60 }), 'done');
    assert.equal(a(long, { turn: 61 }), 'idle');
  });

  it('a worker that no longer reads its input has failed until it ends, whatever it runs or asks, and a look does not clear it', () => {
    const deaf = (over: Partial<WorkerState>) => state({ inputLost: true, ...over });
    const lost = { attention: 'failed', reason: 'not reading its input: stop it' };
    for (const s of [deaf({}), deaf({ streaming: true }), deaf({ compacting: true }), deaf({ pendingInput: [dialog] }), deaf({ turns: [turn(1)] })]) {
      assert.deepEqual(attentionOf(s), lost);
      assert.deepEqual(attentionOf(s, seenNow(s)), lost);
    }
    // Once it exited, the exit says how it ended.
    assert.equal(attentionOf(deaf({ status: 'stopped' })).attention, 'stopped');
    const board = new AttentionBoard();
    board.update(state({ streaming: true }));
    assert.equal(board.update(deaf({ streaming: true })).change?.to.reason, lost.reason);
    assert.equal(board.update(deaf({ turns: [turn(1)] })).change, null);
    assert.equal(board.markSeen('w1')?.change, null);
  });

  it('two things waiting at once: the oldest named, the others counted; an agent\'s question is a question', () => {
    const question = { kind: 'dialog' as const, id: 'permission-1', method: 'permission', title: 'Run `ls`', since: 1 };
    const request = { kind: 'extension_request' as const, id: 'r', method: null, title: 'gate: review', asking: true, since: 2 };
    assert.equal(attentionOf(state({ pendingInput: [question] })).reason, 'waits for your answer to a permission question: Run `ls`');
    assert.equal(attentionOf(state({ pendingInput: [question, dialog] })).reason, 'waits for your answer to a permission question: Run `ls` (and 1 more)');
    assert.equal(attentionOf(state({ pendingInput: [dialog, question, request] })).reason, 'waits for your answer to a confirm dialog: Write x.txt? (and 2 more)');
    // The first answered: the next one is named, and it still needs input.
    const board = new AttentionBoard();
    board.update(state({ streaming: true, pendingInput: [question, dialog] }));
    const { info, change } = board.update(state({ streaming: true, pendingInput: [dialog] }));
    assert.equal(change, null);
    assert.equal(info.reason, 'waits for your answer to a confirm dialog: Write x.txt?');
    assert.equal(board.badge(), 1, 'one worker, however many questions');
  });

  it('what a turn\'s end says is marked as that turn\'s; a crash or an exit is the worker\'s own', () => {
    const refused = turn(2, { error: 'no key', endReason: 'error', needsLogin: true });
    assert.equal(attentionOf(state({ turns: [turn(1), refused] })).turn, 2);
    assert.equal(attentionOf(state({ turns: [turn(1)] })).turn, 1);
    assert.equal(attentionOf(state({ status: 'failed', exitCode: 3, turns: [refused] })).turn, undefined);
    assert.equal(attentionOf(state({ inputLost: true, turns: [refused] })).turn, undefined);
    assert.equal(attentionOf(state({ status: 'exited', exitCode: 0 })).exited, true);
    assert.equal(attentionOf(state({ status: 'stopped' })).exited, undefined);
  });

  it('the board: a worker that had failed and fails anew is a change again; the same failure repeated is not', () => {
    const board = new AttentionBoard();
    board.update(state({ streaming: true, turns: [turn(1, { endedAt: null })] }));
    const erred = [turn(1, { error: 'overloaded', endReason: 'error' })];
    assert.equal(board.update(state({ turns: erred })).change?.to.attention, 'failed');
    assert.equal(board.update(state({ turns: erred })).change, null);
    const crash = board.update(state({ status: 'failed', exitCode: 3, turns: erred })).change;
    assert.deepEqual(crash && { from: crash.from, to: crash.to.reason, again: crash.again }, { from: 'failed', to: 'failed (exit code 3)', again: true });
    assert.equal(board.update(state({ status: 'failed', exitCode: 3, turns: erred })).change, null);
  });

  it("the board: a turn's end come back to after a question asked after it is marked told; a new turn's is not", () => {
    const board = new AttentionBoard();
    const erred = [turn(1, { error: 'overloaded', endReason: 'error' })];
    board.update(state({ streaming: true, turns: [turn(1, { endedAt: null })] }));
    assert.equal(board.update(state({ turns: erred })).change?.retold, undefined);
    board.update(state({ turns: erred, pendingInput: [dialog] }));
    const back = board.update(state({ turns: erred })).change;
    assert.deepEqual(back && { to: back.to.attention, retold: back.retold }, { to: 'failed', retold: true });
    assert.equal(back && decideNotification('all', back, false).notify, false);
    board.update(state({ streaming: true, turns: [...erred, turn(2, { endedAt: null })] }));
    assert.equal(board.update(state({ turns: [...erred, turn(2)] })).change?.retold, undefined);
  });

  it('the board: working → needs-input → working → done → (seen) idle → working → failed; badge and counts', () => {
    const board = new AttentionBoard();
    const steps: Array<[WorkerState, string | null]> = [
      [state({ status: 'starting' }), null],
      [state({ streaming: true, turns: [turn(1, { endedAt: null })] }), null],
      [state({ streaming: true, turns: [turn(1, { endedAt: null })], pendingInput: [dialog] }), 'working→needs-input'],
      [state({ streaming: true, turns: [turn(1, { endedAt: null })] }), 'needs-input→working'],
      [state({ turns: [turn(1)] }), 'working→done'],
      [state({ turns: [turn(1)] }), null],
    ];
    const first = board.update(steps[0][0]);
    assert.deepEqual(first.change?.from, null);
    for (const [s, want] of steps.slice(1)) {
      const { change } = board.update(s);
      assert.equal(change ? `${change.from}→${change.to.attention}` : null, want);
    }
    assert.equal(board.get('w1')?.attention, 'done');
    const seen = board.markSeen('w1');
    assert.equal(seen?.change?.to.attention, 'idle');
    assert.equal(board.update(state({ turns: [turn(1)] })).change, null, 'stays seen');
    assert.equal(board.update(state({ streaming: true, turns: [turn(1), turn(2, { endedAt: null })] })).change?.to.attention, 'working');
    assert.equal(board.update(state({ turns: [turn(1), turn(2, { error: 'boom' })] })).change?.to.attention, 'failed');

    // Looking at the log while the turn ends: never "done".
    board.update(state({ workerId: 'w2', streaming: true, turns: [turn(1, { endedAt: null })] }), { looking: true });
    assert.equal(board.update(state({ workerId: 'w2', turns: [turn(1)] }), { looking: true }).info.attention, 'idle');

    board.update(state({ workerId: 'w3', pendingInput: [dialog] }));
    board.update(state({ workerId: 'w4', pendingInput: [{ kind: 'extension_request', id: 'r', method: null, title: 'gate: review', asking: false, since: 1 }] }));
    assert.equal(board.badge(), 2);
    assert.deepEqual(board.counts(), { 'needs-input': 2, working: 0, failed: 1, done: 0, stopped: 0, idle: 1 });
    board.forget('w3');
    assert.equal(board.badge(), 1);
    assert.equal(board.markSeen('nope'), null);
  });
});

describe('notification policy', () => {
  const change = (from: AttentionChange['from'], to: AttentionChange['to']['attention']): AttentionChange =>
    ({ workerId: 'w1', name: 'Fixer', from, to: { attention: to, reason: `reason for ${to}` } });
  const table: Array<[NotifySetting, AttentionChange['from'], AttentionChange['to']['attention'], boolean, boolean]> = [
    // setting, from, to, log visible, notify?
    ['all', 'working', 'done', false, true],
    ['all', 'working', 'needs-input', false, true],
    ['all', 'working', 'failed', false, true],
    ['all', 'working', 'done', true, false],
    ['all', 'needs-input', 'working', false, false],
    ['all', 'done', 'idle', false, false],
    ['all', 'working', 'stopped', false, false],
    ['all', null, 'failed', false, false],
    ['all', 'done', 'done', false, false],
    ['needsInputAndFailures', 'working', 'done', false, false],
    ['needsInputAndFailures', 'working', 'needs-input', false, true],
    ['needsInputAndFailures', 'idle', 'failed', false, true],
    ['needsInputAndFailures', 'working', 'needs-input', true, false],
    ['none', 'working', 'needs-input', false, false],
    ['none', 'working', 'failed', false, false],
  ];
  for (const [setting, from, to, visible, want] of table) {
    it(`${setting}: ${from} → ${to}${visible ? ', log visible' : ''}: ${want ? 'notify' : 'quiet'}`, () => {
      const d = decideNotification(setting, change(from, to), visible);
      assert.equal(d.notify, want, JSON.stringify(d));
      if (d.notify) {
        assert.equal(d.message, `Fixer reason for ${to}`);
        assert.equal(d.level, to === 'failed' ? 'error' : to === 'needs-input' ? 'warning' : 'info');
      }
    });
  }

  it('an exit on its own is news (info, under all); a Stop is not; a new failure of a failed worker is', () => {
    const exited: AttentionChange = { workerId: 'w1', name: 'Fixer', from: 'idle', to: { attention: 'stopped', reason: 'exited on its own (exit code 0)', exited: true } };
    assert.deepEqual(decideNotification('all', exited, false), { notify: true, level: 'info', message: 'Fixer exited on its own (exit code 0)' });
    assert.equal(decideNotification('needsInputAndFailures', exited, false).notify, false);
    assert.equal(decideNotification('all', exited, true).notify, false, 'its log is visible');
    assert.equal(decideNotification('all', { ...exited, to: { attention: 'stopped', reason: 'stopped' } }, false).notify, false);
    const again: AttentionChange = { workerId: 'w1', name: 'Fixer', from: 'failed', to: { attention: 'failed', reason: 'failed (exit code 3)' }, again: true };
    assert.deepEqual(decideNotification('needsInputAndFailures', again, false), { notify: true, level: 'error', message: 'Fixer failed (exit code 3)' });
    assert.equal(decideNotification('all', { ...again, again: undefined }, false).notify, false);
  });

  it('reads the setting, falling back with a reason', () => {
    assert.deepEqual(parseNotifySetting('none'), { setting: 'none', error: null });
    assert.deepEqual(parseNotifySetting(undefined), { setting: 'all', error: null });
    const bad = parseNotifySetting('loud');
    assert.equal(bad.setting, 'all');
    assert.match(bad.error ?? '', /"loud" is not one of/);
  });
});
