// The event log's status chip says what the worker's row in the Sessions view says: a worker with
// a dialog open or an extension's request standing "needs input" (it said "idle"), a turn that
// ended unseen "done", a failure "failed"; one word from protocol/words.ts on both sides, carried
// to the page by a strict schema.
import * as assert from 'node:assert/strict';
import type { TurnSummary, WorkerState } from '../../src/core/api';
import { AttentionBoard, attentionOf, NOTHING_SEEN, type Attention } from '../../src/core/attention';
import { hostMessageSchema, parseHostMessage, workerViewSchema, type WorkerView } from '../../src/protocol/hostMessages';
import { ATTENTION_STATES, newsWord, workerPhase } from '../../src/protocol/words';
import { ATTENTION_LOOK, tabTitle } from '../../src/ui/attention/attentionLook';
import { toWorkerView } from '../../src/ui/eventLog/workerView';
import { QUIET_AFTER_MS, statusChip } from '../../src/webview/statusChip';

function state(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w1-a', name: 'Demo worker', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: null, pid: 42, cwd: '/w', dialect: 'tau', command: 'node',
    args: [], model: 'demo-model', sessionId: null, session: null, usage: null, agent: null, guarded: false, writeGuard: null, tools: null, turnCount: 0, lastEndReason: null, lastError: null,
    exitCode: null, signal: null, startedAt: 0, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: true, followUp: 'worker' }, ...over,
  };
}
const turn = (index: number, over: Partial<TurnSummary> = {}): TurnSummary => ({ index, submissionId: null, source: null, submitter: null, startedAt: 1, endedAt: 2, endReason: 'done', error: null, tools: [], ...over });
const request = { kind: 'extension_request' as const, id: 'r1', method: 'confirm', title: 'Ship it?', since: 1 };

/** What the page shows for a worker state, through the same steps as the extension: attention, WorkerView, the schema, the chip. */
function chipFor(s: WorkerState) {
  const info = attentionOf(s, NOTHING_SEEN);
  const view = toWorkerView(s, info);
  const parsed = parseHostMessage({ type: 'state', worker: view });
  assert.ok(parsed.success, JSON.stringify(view));
  const worker = (parsed.data as { worker: WorkerView }).worker;
  return { info, chip: statusChip(worker, workerPhase(worker)) };
}

describe('ui event log status chip', () => {
  it('a worker whose extension request stands needs input: the chip says so, as the row and the tab do (it said "idle")', () => {
    const { info, chip } = chipFor(state({ pendingInput: [request] }));
    assert.equal(info.attention, 'needs-input');
    assert.equal(chip.text, 'needs input · demo-model · pid 42');
    assert.equal(newsWord(info.attention), ATTENTION_LOOK['needs-input'].word);
    assert.equal(tabTitle('Demo worker', info.attention), 'Demo worker · needs input');
    assert.match(chip.cls, /\bphase-idle\b/);
    assert.match(chip.cls, /\battention-needs-input\b/);
    assert.match(chip.title, /needs input: waits for your answer to an extension's request: Ship it\?/);
  });

  it('a stopped worker\'s chip shows no pid: its process is gone (issue 28)', () => {
    assert.equal(chipFor(state({ status: 'stopped' })).chip.text, 'stopped · demo-model');
    assert.equal(chipFor(state({ status: 'failed', exitCode: 1 })).chip.text, 'failed · demo-model');
    assert.equal(chipFor(state()).chip.text, 'idle · demo-model · pid 42');
  });

  it('a pi dialog open mid-turn needs input too, and the chip says that and not "streaming"', () => {
    const dialog = { kind: 'dialog' as const, id: 'd1', method: 'select', title: 'Pick one', since: 1 };
    const { chip } = chipFor(state({ streaming: true, pendingInput: [dialog] }));
    assert.equal(chip.text.split(' · ')[0], 'needs input');
    assert.match(chip.cls, /\bphase-streaming\b/);
  });

  it('done and failed read as the row reads them; working, idle and stopped leave the phase', () => {
    assert.equal(chipFor(state({ turns: [turn(1)] })).chip.text.split(' · ')[0], 'done');
    assert.equal(chipFor(state({ turns: [turn(1, { error: 'rate limited' })] })).chip.text.split(' · ')[0], 'failed');
    assert.equal(chipFor(state({ status: 'failed', exitCode: 1 })).chip.text.split(' · ')[0], 'failed');
    assert.equal(chipFor(state()).chip.text.split(' · ')[0], 'idle');
    assert.equal(chipFor(state({ streaming: true, turns: [turn(1, { endedAt: null, endReason: null })] })).chip.text.split(' · ')[0], 'streaming');
    assert.equal(chipFor(state({ status: 'exited' })).chip.text.split(' · ')[0], 'exited');
    // One word for each state, the same on the row, the tab and the chip.
    for (const a of ATTENTION_STATES) {
      const news = newsWord(a);
      if (news !== null) assert.equal(news, ATTENTION_LOOK[a].word, a);
    }
    assert.deepEqual(ATTENTION_STATES.filter((a) => newsWord(a) !== null), ['needs-input', 'failed', 'done']);
  });

  it('a turn the person has seen ends as idle, on the row and on the chip (the page on screen is looking)', () => {
    const board = new AttentionBoard();
    const s = state({ turns: [turn(1)] });
    const peeked = board.peek(s, { looking: true });
    assert.equal(board.get(s.workerId), null, 'peek keeps nothing');
    assert.deepEqual(peeked, board.update(s, { looking: true }).info);
    assert.equal(statusChip(toWorkerView(s, peeked), 'idle').text.split(' · ')[0], 'idle');
    // Not looking, a later turn is news, and peek says what update will keep.
    const later = state({ turns: [turn(1), turn(2)] });
    assert.equal(board.peek(later).attention, 'done');
    assert.equal(board.update(later).info.attention, 'done');
  });

  it('a past session is history whatever its attention; no worker says so', () => {
    const view: WorkerView = { ...toWorkerView(state({ pendingInput: [request] }), attentionOf(state({ pendingInput: [request] }))), note: 'a past session: read-only' };
    assert.equal(statusChip(view, 'idle').text, 'history (read-only) · demo-model');
    assert.doesNotMatch(statusChip(view, 'idle').cls, /attention-/);
    assert.equal(statusChip(null, 'none').text, 'no worker');
  });

  it('the schema takes the six attention states and nothing else, on both parse paths', () => {
    const base = toWorkerView(state());
    assert.equal('attention' in base, false, 'no attention known: none sent');
    for (const a of ATTENTION_STATES) assert.equal(workerViewSchema.safeParse({ ...base, attention: a satisfies Attention }).success, true, a);
    for (const bad of ['needs_input', 'Needs input', 'urgent', 1, null]) {
      const msg = { type: 'state', worker: { ...base, attention: bad } };
      assert.equal(hostMessageSchema.safeParse(msg).success, false, `schema took ${JSON.stringify(bad)}`);
      assert.equal(parseHostMessage(msg).success, false, `fast path took ${JSON.stringify(bad)}`);
    }
    assert.equal(parseHostMessage({ type: 'state', worker: { ...base, attention: 'idle', attentionReason: 3 } }).success, false);
  });

  it('a running turn quiet for 30 s or more says for how long, and why it may be (an agent retrying its model says nothing)', () => {
    const running = chipFor(state({ streaming: true })).chip;
    assert.equal(running.text, 'streaming · demo-model · pid 42');
    const view = toWorkerView(state({ streaming: true }), attentionOf(state({ streaming: true }), NOTHING_SEEN));
    assert.equal(statusChip(view, 'streaming', QUIET_AFTER_MS - 1).text, 'streaming · demo-model · pid 42');
    const quiet = statusChip(view, 'streaming', QUIET_AFTER_MS);
    assert.equal(quiet.text, 'streaming · quiet for 30 s · demo-model · pid 42');
    assert.match(quiet.title, /sent nothing since its last event[\s\S]*Abort ends the turn/);
    assert.equal(statusChip(view, 'compacting', 95_400).text, 'compacting · quiet for 1 min 35 s · demo-model · pid 42');
    // Not a turn: an idle worker is quiet by right; a question waiting is the news, not the silence.
    const idle = toWorkerView(state(), attentionOf(state(), NOTHING_SEEN));
    assert.equal(statusChip(idle, 'idle', 600_000).text, 'idle · demo-model · pid 42');
    const asking = state({ streaming: true, pendingInput: [request] });
    assert.equal(statusChip(toWorkerView(asking, attentionOf(asking, NOTHING_SEEN)), 'streaming', 600_000).text, 'needs input · demo-model · pid 42');
  });

  it('what a screen reader hears (the live line) changes with the state, not once a second as a quiet turn counts, nor with the usage', () => {
    const s = state({ streaming: true, usage: { input: 1, output: 2 } as unknown as WorkerState['usage'] });
    const view = toWorkerView(s, attentionOf(s, NOTHING_SEEN));
    const heard = (ms: number) => statusChip(view, 'streaming', ms).spoken;
    assert.equal(heard(0), 'Demo worker: streaming');
    // The chip's text counts on; the words spoken stay the same, once quiet is said.
    assert.notEqual(statusChip(view, 'streaming', 31_000).text, statusChip(view, 'streaming', 32_000).text);
    assert.equal(heard(31_000), 'Demo worker: streaming, quiet');
    assert.equal(heard(32_000), heard(31_000));
    assert.equal(heard(95_400), heard(31_000));
    const idle = toWorkerView(state(), attentionOf(state(), NOTHING_SEEN));
    assert.equal(statusChip(idle, 'idle').spoken, 'Demo worker: idle');
    const asking = state({ streaming: true, pendingInput: [request] });
    assert.equal(statusChip(toWorkerView(asking, attentionOf(asking, NOTHING_SEEN)), 'streaming', 600_000).spoken, 'Demo worker: needs input');
    assert.equal(statusChip(null, 'none').spoken, 'no worker');
  });
});
