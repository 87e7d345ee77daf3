// The event log's composer: buttons that stay put, a status line that tells the truth, and a
// message that comes back only when it was the one that failed.
import * as assert from 'node:assert/strict';
import type { WorkerView } from '../../src/protocol/messages';
import { workerPhase } from '../../src/protocol/words';
import { parseHostMessage } from '../../src/protocol/hostMessages';
import { afterResult, BUTTONS, composerView, emptySendLine, focusHeir, isSendKey, keySendRefusal, lineText, prefillBox, queuedAfter, queueLine, stateLine } from '../../src/webview/composer';
import { spokenLine, statusChip } from '../../src/webview/statusChip';

const view = (over: Partial<WorkerView> = {}): WorkerView => ({ workerId: 'w1-a', name: 'Demo worker', status: 'running', streaming: false, compacting: false, model: null, dialect: 'tau', pid: 1, ...over });

describe('ui event log composer', () => {
  it('Abort clicked twice never compacts: when the turn ends Abort stays where it was (disabled) and Compact does not take its place', () => {
    const streaming = composerView(view({ streaming: true }));
    const idle = composerView(view());
    // Every button is always there: what changes is only whether it can be pressed.
    assert.deepEqual(Object.keys(streaming.disabled), [...BUTTONS]);
    assert.deepEqual(Object.keys(idle.disabled), [...BUTTONS]);
    assert.equal(streaming.disabled.abort, false);
    assert.equal(idle.disabled.abort, true, 'a second click on Abort after the turn ended must hit a disabled Abort');
    assert.equal(idle.disabled.compact, false);
    assert.equal(streaming.disabled.compact, true);
    assert.ok(BUTTONS.indexOf('compact') > BUTTONS.indexOf('abort'));
  });

  it('while the worker compacts: no second Compact, no Redirect or Send; Stop stays', () => {
    const v = composerView(view({ compacting: true }));
    assert.equal(v.disabled.compact, true);
    assert.equal(v.disabled.redirect, true);
    assert.equal(v.disabled.send, true);
    assert.equal(v.disabled.stop, false);
    assert.equal(composerView(view()).disabled.redirect, false, 'an idle worker takes a redirect (a prompt)');
  });

  it('a worker still starting can be stopped (a start that hangs is ended from the log), but takes no message yet', () => {
    const v = composerView(view({ status: 'starting' }));
    assert.equal(v.disabled.stop, false);
    assert.equal(v.disabled.send, true);
    assert.equal(v.textareaDisabled, true);
  });

  it("a result without the host's tone: not_streaming and cancelled are information, an unknown status an error", () => {
    const line = (status: string) => afterResult(null, { action: 'abort', status, message: status, own: true }, '').line.cls;
    assert.equal(line('not_streaming'), 'info');
    assert.equal(line('cancelled'), 'info');
    assert.equal(line('aborted'), 'ok');
    assert.equal(line('not_found'), 'error');
  });

  it('a stopped worker can be stopped no more, and its text box is off', () => {
    const v = composerView(view({ status: 'stopped' }));
    assert.equal(v.disabled.stop, true);
    assert.equal(v.textareaDisabled, true);
    assert.equal(composerView(view({ status: 'failed' })).disabled.stop, true);
  });

  it('a failed Abort or Stop does not put an old, delivered message back in the box', () => {
    // "hello" was sent and accepted...
    let pending = afterResult({ action: 'prompt', text: 'hello' }, { action: 'prompt', status: 'accepted', message: 'Prompt accepted by Demo worker', own: true }, '').pending;
    assert.equal(pending, null);
    // ...then an Abort and a Stop fail: nothing comes back.
    for (const action of ['abort', 'stop', 'compact']) {
      const r = afterResult(pending, { action, status: 'error', message: `${action} failed`, own: true }, '');
      assert.equal(r.restore, null, `a failed ${action} brought back a message`);
      pending = r.pending;
    }
    // Even with a message still on its way, another action's failure leaves it alone.
    const inFlight = { action: 'steer', text: 'look at b.ts' };
    const r = afterResult(inFlight, { action: 'abort', status: 'error', message: 'Aborting failed', own: true }, '');
    assert.equal(r.restore, null);
    assert.deepEqual(r.pending, inFlight);
  });

  it('the message that failed comes back, once, above what was typed since', () => {
    const r = afterResult({ action: 'prompt', text: 'hello' }, { action: 'prompt', status: 'error', message: 'Prompting Demo worker failed: busy', tone: 'error', own: true }, '');
    assert.equal(r.restore, 'hello');
    assert.equal(r.pending, null);
    assert.deepEqual(r.line, { text: 'Prompting Demo worker failed: busy', cls: 'error' });
    const typed = afterResult({ action: 'prompt', text: 'hello' }, { action: 'prompt', status: 'error', message: 'Prompting Demo worker failed: busy', tone: 'error', own: true }, 'typed since');
    assert.equal(typed.restore, 'hello\n\ntyped since', 'the failed message was lost: it came back into an empty box only');
    assert.deepEqual(typed.line, { text: 'Prompting Demo worker failed: busy Your message is back in the box, above what you typed since.', cls: 'error' });
    // A palette prompt that failed is not the composer's message.
    assert.equal(afterResult({ action: 'prompt', text: 'hello' }, { action: 'prompt', status: 'error', message: 'x', own: false }, '').restore, null);
  });

  it('results from the palette replace the line, in words', () => {
    const r = afterResult(null, { action: 'abort', status: 'aborted', message: 'Aborted the turn of Demo worker', tone: 'ok', own: false }, '');
    assert.deepEqual(r.line, { text: 'Aborted the turn of Demo worker', cls: 'ok' });
    const stop = afterResult(null, { action: 'stop', status: 'not_found', message: 'Demo worker is already stopped', tone: 'info', own: false }, '');
    assert.equal(stop.line.cls, 'info');
  });

  it('a worker that stops makes the line say so instead of a stale green "accepted"', () => {
    assert.deepEqual(stateLine(view(), view({ status: 'stopped' })), { text: 'Demo worker was stopped.', cls: 'info' });
    assert.equal(stateLine(view(), view({ status: 'failed' }))?.cls, 'error');
    assert.equal(stateLine(view(), view({ streaming: true })), null, 'a turn starting leaves the line alone');
    assert.equal(stateLine(null, view({ status: 'stopped' })), null);
    // Said once: a later state of the same stopped worker leaves the line (a second Stop's "already stopped") alone.
    assert.equal(stateLine(view({ status: 'stopped' }), view({ status: 'stopped', pid: null })), null);
  });

  it('a worker found no longer reading its input makes the line say so, and that Stop is what is left, not a stale "Prompt sent…"', () => {
    const said = { text: 'Demo worker no longer reads its input (its stdin closed): nothing sent can reach it. Stop is what is left.', cls: 'error' };
    assert.deepEqual(stateLine(view({ streaming: true }), view({ streaming: true, inputLost: true })), said);
    assert.deepEqual(stateLine(view(), view({ inputLost: true })), said);
    // Said once, as it happens: its turn ending afterwards leaves the line alone.
    assert.equal(stateLine(view({ streaming: true, inputLost: true }), view({ inputLost: true })), null);
    // Stopped, the line says so.
    assert.deepEqual(stateLine(view({ inputLost: true }), view({ status: 'stopped' })), { text: 'Demo worker was stopped.', cls: 'info' });
  });

  it('Abort is greyed out, saying why, while the worker compacts where its abort does not reach; pressable where it does', () => {
    const unreachable = composerView(view({ compacting: true, noAbort: "pi 0.73.1's abort does not reach a running compaction; it will finish on its own" }));
    assert.equal(unreachable.disabled.abort, true);
    assert.match(unreachable.abortTitle ?? '', /^pi 0\.73\.1's abort does not reach a running compaction/);
    const reachable = composerView(view({ compacting: true }));
    assert.equal(reachable.disabled.abort, false);
    assert.equal(reachable.abortTitle, null);
  });

  it('Ctrl+Enter asks no more than Send: greyed out (compacting, an agent that cannot be steered), it says why and sends nothing', () => {
    assert.equal(keySendRefusal(view()), null);
    assert.equal(keySendRefusal(view({ streaming: true })), null, 'a steer');
    assert.match(keySendRefusal(view({ compacting: true }))!.text, /compacting: nothing was sent/);
    assert.match(keySendRefusal(view({ streaming: true, noSteer: true }))!.text, /cannot be steered inside its turn: Follow-up/);
    assert.match(keySendRefusal(view({ status: 'stopped' }))!.text, /stopped: nothing was sent/);
    for (const w of [view({ compacting: true }), view({ streaming: true, noSteer: true })]) assert.equal(composerView(w).disabled.send, true, 'only where Send is greyed out');
  });

  it('an empty Send says what to do', () => {
    assert.equal(emptySendLine(view()).cls, 'info');
    assert.match(emptySendLine(view()).text, /Type a message/);
    assert.match(emptySendLine(null).text, /start one/);
  });
});

describe('ui composer: a queued message taken up', () => {
  it('"Follow-up queued" gives way to "delivered" once the worker\'s follow-up queue empties (issue 28); a steer likewise; nothing else ends it', () => {
    assert.equal(queuedAfter({ action: 'followUp', status: 'accepted' }), 'followUp');
    assert.equal(queuedAfter({ action: 'steer', status: 'accepted' }), 'steer');
    assert.equal(queuedAfter({ action: 'abort', status: 'aborted' }), null);
    assert.equal(queuedAfter({ action: 'followUp', status: 'error' }), null);
    // One an extension of the worker handled was never queued: no "delivered" is to come.
    assert.equal(queuedAfter({ action: 'followUp', status: 'accepted', handled: true }), null);
    assert.equal(queuedAfter({ action: 'steer', status: 'accepted', handled: true }), null);
    // The page's parse of the host's result keeps `handled`, or the page would wait all the same.
    const parsed = parseHostMessage({ type: 'result', workerId: 'w1', action: 'steer', status: 'accepted', message: "W's extension handled the steer", tone: 'ok', handled: true });
    assert.ok(parsed.success && parsed.data.type === 'result');
    assert.equal(queuedAfter(parsed.data), null);
    const pi = (steering: string[], followUp: string[]) => ({ type: 'queue_update', data: { steering, followUp } });
    assert.deepEqual(queueLine('followUp', [pi([], ['x']), { type: 'turn_end' }], 'W'), { line: null, queued: 'followUp' });
    assert.deepEqual(queueLine('followUp', [pi(['x'], [])], 'W'), { line: { text: 'Follow-up delivered to W', cls: 'ok' }, queued: null });
    assert.deepEqual(queueLine('steer', [pi(['a'], []), pi([], [])], 'W'), { line: { text: 'Steer delivered to W', cls: 'ok' }, queued: null });
    assert.deepEqual(queueLine(null, [pi([], [])], 'W'), { line: null, queued: null });
  });
  it('a worker that is not running is said in English in the box and on a refused Ctrl+Enter: "has failed", not "is failed"', () => {
    assert.equal(composerView(view({ status: 'failed' })).placeholder, 'The worker has failed');
    assert.equal(composerView(view({ status: 'exited' })).placeholder, 'The worker has exited');
    assert.equal(composerView(view({ status: 'stopped' })).placeholder, 'The worker has stopped');
    assert.equal(composerView(view({ status: 'starting' })).placeholder, 'The worker is starting');
    assert.equal(keySendRefusal(view({ status: 'failed' }))?.text, 'The worker has failed: nothing was sent');
    assert.equal(keySendRefusal(view({ status: 'exited' }))?.text, 'The worker has exited: nothing was sent');
  });
});

describe('ui event log composer: a greyed-out button says why', () => {
  /** The tooltip of each button that cannot be pressed in `w`'s state. */
  const greyed = (w: WorkerView | null) => {
    const v = composerView(w);
    return Object.fromEntries(BUTTONS.filter((b) => v.disabled[b]).map((b) => [b, v.titles[b]]));
  };

  it('an idle worker: Follow-up and Abort say no turn is running; Redirect does not promise to abort one', () => {
    const v = composerView(view());
    assert.deepEqual(greyed(view()), { followUp: 'No turn is running: Send delivers the message now', abort: 'No turn is running: there is nothing to abort' });
    assert.equal(v.titles.redirect, 'Send this now (no turn is running to abort)');
    assert.equal(v.titles.send, 'Send as a prompt (Ctrl+Enter)');
  });

  it('a streaming worker: Compact waits for the turn to end', () => {
    assert.deepEqual(greyed(view({ streaming: true })), { compact: 'The worker is in a turn: compact when it ends' });
  });

  it('a compacting worker: the sends wait for the compaction', () => {
    const g = greyed(view({ compacting: true }));
    assert.equal(g.send, 'The worker is compacting: send when the compaction has ended');
    assert.equal(g.redirect, 'The worker is compacting: send when the compaction has ended');
    assert.equal(g.compact, 'The worker is compacting already');
  });

  it('a worker that exited, a past session, no worker: every greyed-out button says so', () => {
    for (const b of BUTTONS) assert.equal(greyed(view({ status: 'exited' }))[b], 'The worker has exited', b);
    const note = 'Past session (ended): read-only.';
    for (const b of BUTTONS) assert.equal(greyed(view({ status: 'stopped', note }))[b], note, b);
    for (const b of BUTTONS) assert.equal(greyed(null)[b], 'No worker selected', b);
  });
});

describe('ui composer: the send key', () => {
  const key = (over: Partial<{ key: string; ctrlKey: boolean; metaKey: boolean; isComposing: boolean; keyCode: number }>) => ({ key: 'Enter', ctrlKey: false, metaKey: false, isComposing: false, keyCode: 13, ...over });

  it('Ctrl+Enter (Cmd+Enter) sends; Enter and Shift+Enter are a new line', () => {
    assert.equal(isSendKey(key({ ctrlKey: true })), true);
    assert.equal(isSendKey(key({ metaKey: true })), true);
    assert.equal(isSendKey(key({})), false);
  });

  it('an Enter that ends an IME composition (Japanese, Chinese, Korean input) confirms the word and sends nothing', () => {
    assert.equal(isSendKey(key({ ctrlKey: true, isComposing: true })), false);
    // Chromium and Safari mark a key the IME took with keyCode 229, at times without isComposing.
    assert.equal(isSendKey(key({ metaKey: true, keyCode: 229 })), false);
  });
});

describe('ui composer: the focus when its control is greyed out', () => {
  it('goes to the text box, else the first button still usable; with none (a worker stopped by keyboard), to the log, not the page', () => {
    // The text box, then Send, Follow-up, Redirect, Abort, Compact, Stop.
    assert.equal(focusHeir([true, true, false, true, false, true, true]), 0);
    assert.equal(focusHeir([false, false, false, false, false, false, true]), 6, "a deaf worker's Stop");
    assert.equal(focusHeir([false, false, false, false, false, false, false]), 'log');
    // The worker stopped reading its input while the person typed: not to Stop, which a space would press.
    assert.equal(focusHeir([false, false, false, false, false, false, true], true), 'log');
  });
});

describe("ui composer: the worker's text for the box (pi's set_editor_text)", () => {
  it('an empty box takes it as it is, with nothing said', () => {
    assert.deepEqual(prefillBox('', 'Review the diff', 'Demo worker'), { value: 'Review the diff', line: null });
    assert.deepEqual(prefillBox(' \n', 'Review the diff', 'Demo worker'), { value: 'Review the diff', line: null });
  });

  it('a draft typed and not sent is kept whole: the text goes below it, and the line says so', () => {
    const r = prefillBox('half a thought', 'Review the diff', 'Demo worker');
    assert.equal(r.value, 'half a thought\n\nReview the diff');
    assert.deepEqual(r.line, { text: 'Demo worker put its text in the box, below what you had typed.', cls: 'info' });
  });

  it('the same text again (already in the box) is not put in twice', () => {
    assert.deepEqual(prefillBox('Review the diff', 'Review the diff', 'Demo worker'), { value: 'Review the diff', line: null });
    assert.deepEqual(prefillBox('mine\n\nReview the diff', 'Review the diff', 'Demo worker'), { value: 'mine\n\nReview the diff', line: null });
  });
});

describe('ui composer: a worker that exits is said once to a screen reader', () => {
  const spoken = (w: WorkerView) => statusChip(w, workerPhase(w)).spoken;

  it('the composer\'s line says it; the chip\'s live line, which said "Demo worker: exited" after it, is emptied', () => {
    const before = view({ streaming: true });
    const after = view({ status: 'exited' });
    const line = stateLine(before, after);
    assert.deepEqual(line, { text: 'Demo worker exited.', cls: 'info' });
    assert.equal(spoken(after), 'Demo worker: exited', 'the same news, were it said');
    assert.equal(spokenLine(spoken(before), spoken(after), line !== null), '');
    // Its next state (the pid cleared) says nothing new: the chip's line stays quiet.
    const later = view({ status: 'exited', pid: null });
    assert.equal(spokenLine(spoken(after), spoken(later), stateLine(after, later) !== null), null);
  });

  it('a change the line does not say is heard from the chip, as before', () => {
    const before = view({ streaming: true });
    const after = view();
    assert.equal(stateLine(before, after), null);
    assert.equal(spokenLine(spoken(before), spoken(after), false), 'Demo worker: idle');
    assert.equal(spokenLine(spoken(after), spoken(after), false), null, 'the same words again are not said again');
  });
});

describe('ui composer: the same line again is read out again', () => {
  it('Send pressed twice on an empty box, or a refused Ctrl+Enter twice: the second line differs from the first, unseen, so its live region speaks', () => {
    const refusal = emptySendLine(view()).text;
    const first = lineText('', refusal);
    const second = lineText(first, refusal);
    const third = lineText(second, refusal);
    assert.equal(first, refusal);
    assert.notEqual(second, first, 'a live region says nothing when its text does not change');
    assert.equal(second.trim(), refusal, 'the difference is a space no one sees or hears');
    assert.notEqual(third, second);
    const stopped = keySendRefusal(view({ status: 'stopped' }))!.text;
    assert.equal(lineText(lineText('', stopped), stopped).trim(), stopped);
    assert.notEqual(lineText(lineText('', stopped), stopped), stopped);
  });

  it('another line, or a blank one, is put as it is', () => {
    assert.equal(lineText('Prompt sent…', 'Prompt accepted by Demo worker'), 'Prompt accepted by Demo worker');
    assert.equal(lineText(lineText('x', 'Type a message first, then send it.'), 'Prompt sent…'), 'Prompt sent…');
    assert.equal(lineText('', ''), '');
  });
});
