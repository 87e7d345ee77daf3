// The composer's rules, pure (no DOM), so the tests hold them: which buttons may be pressed in
// which phase, what its status line says after a result or a state change, and when a message
// goes back into the text box. The buttons never appear or disappear: a person who clicks the
// same spot twice must hit the same button (a vanishing Follow-up once put Compact under a
// second click on Abort).
import type { PageEvent, WorkerView } from '../protocol/messages';
import { workerPhase } from '../protocol/words';

export const BUTTONS = ['send', 'followUp', 'redirect', 'abort', 'compact', 'stop'] as const;
export type ButtonName = typeof BUTTONS[number];

export interface ComposerView {
  phase: string;
  sendLabel: 'Send' | 'Steer';
  sendTitle: string;
  /** Why Compact is greyed out for good (the worker has none), or null. */
  compactTitle: string | null;
  /** Why Abort is greyed out while the worker compacts (its abort does not reach the compaction). */
  abortTitle: string | null;
  /** Every button, always present; only whether it can be pressed changes. */
  disabled: Record<ButtonName, boolean>;
  /** Each button's tooltip: what it does, or, greyed out, why it cannot be pressed now. */
  titles: Record<ButtonName, string>;
  textareaDisabled: boolean;
  placeholder: string;
}

export function composerView(w: WorkerView | null): ComposerView {
  // A worker that no longer reads its input takes nothing: only Stop is left (as on its row).
  const deaf = w?.status === 'running' && w.inputLost === true;
  const live = w?.status === 'running' && !deaf;
  const phase = !w ? 'none' : workerPhase(w);
  const streaming = !!(live && w!.streaming);
  const compacting = !!(live && w!.compacting);
  const noSteer = streaming && w!.noSteer === true;
  // Why the worker takes nothing (null: it takes messages): the box and every greyed-out button say it.
  const off = !w ? 'No worker selected' : w.note ? w.note : deaf ? INPUT_LOST_PLACEHOLDER : !live ? notRunning(w) : null;
  const sendTitle = noSteer ? 'This agent cannot be steered inside its turn: Follow-up sends it when the turn ends, Redirect aborts the turn and sends it now'
    : streaming ? 'Steer: delivered after the current tool call (Ctrl+Enter)' : 'Send as a prompt (Ctrl+Enter)';
  // Its turn runs on, followed to its end: the Abort greyed out says why, and what ends it.
  const abortTitle = deaf && (w!.streaming || w!.compacting) ? INPUT_LOST_ABORT : compacting && !streaming ? w!.noAbort ?? null : null;
  const disabled = {
    send: !live || compacting || noSteer,
    followUp: !streaming,
    redirect: !live || compacting,
    abort: !(streaming || (compacting && !w!.noAbort)),
    compact: !live || streaming || compacting || !!w?.noCompact,
    stop: !w || (w.status !== 'running' && w.status !== 'starting'),
  };
  const waitCompaction = 'The worker is compacting: send when the compaction has ended';
  return {
    phase,
    sendLabel: streaming ? 'Steer' : 'Send',
    sendTitle,
    compactTitle: w?.noCompact ?? null,
    abortTitle,
    disabled,
    // A greyed-out button that only said what it does read as broken: it says why it is greyed out.
    titles: {
      send: off ?? (compacting && !streaming ? waitCompaction : sendTitle),
      followUp: off ?? (streaming ? 'Deliver when the current turn ends' : compacting ? 'The worker is compacting, not in a turn: send when the compaction has ended' : 'No turn is running: Send delivers the message now'),
      redirect: off ?? (compacting ? waitCompaction : streaming ? 'Abort the current turn and send this instead' : 'Send this now (no turn is running to abort)'),
      abort: abortTitle ?? off ?? (streaming ? 'Abort the current turn' : compacting ? 'Abort the compaction' : 'No turn is running: there is nothing to abort'),
      compact: w?.noCompact ?? off ?? (compacting ? 'The worker is compacting already' : streaming ? 'The worker is in a turn: compact when it ends' : 'Compact the conversation'),
      stop: disabled.stop ? off ?? notRunning(w!) : 'Stop the worker',
    },
    textareaDisabled: !live,
    placeholder: off ?? (noSteer ? 'Follow up (sent when the turn ends) or redirect' : streaming ? 'Steer or follow up (Ctrl+Enter steers)' : 'Message the worker (Ctrl+Enter sends)'),
  };
}

/**
 * Where the focus goes when the composer's control holding it is greyed out (Abort once the turn
 * ended, Stop once the worker stopped), of the text box and the buttons in order (`usable`): the
 * first that can still take it, else the log. Stop pressed by keyboard greys out all of them, and
 * the focus fell to the page, where a screen reader says nothing and Tab starts from the top. The
 * text box (`fromBox`: its worker stopped while the person typed) hands it to the log, never to a
 * button, which their next space would press.
 */
export function focusHeir(usable: readonly boolean[], fromBox = false): number | 'log' {
  const i = usable.indexOf(true);
  return i >= 0 && !fromBox ? i : 'log';
}

export type LineClass = 'ok' | 'info' | 'error' | 'pending';
export interface Line { text: string; cls: LineClass }

const INPUT_LOST_PLACEHOLDER = 'The worker no longer reads its input: stop it';
const INPUT_LOST_ABORT = 'An abort cannot reach the worker (it no longer reads its input): its turn goes on until it ends by itself, or Stop ends it with the worker';

/** A worker that takes no message, said in English ("has failed", not "is failed"). */
function notRunning(w: WorkerView): string {
  return `The worker ${w.status === 'starting' ? 'is starting' : `has ${w.status}`}`;
}

/**
 * Ctrl+Enter (Cmd+Enter) sends; Enter alone is a new line. Not the Enter that ends an IME's
 * composition (Japanese, Chinese, Korean input): it confirms the word being composed, and a send
 * then went with the word half-typed. Chromium marks such a key with keyCode 229.
 */
export function isSendKey(ev: { key: string; ctrlKey: boolean; metaKey: boolean; isComposing?: boolean; keyCode?: number }): boolean {
  return ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey) && !ev.isComposing && ev.keyCode !== 229;
}

/** Ctrl+Enter while Send is greyed out: what the line says instead of sending (null: it sends). */
export function keySendRefusal(w: WorkerView | null): Line | null {
  const v = composerView(w);
  if (!w || !v.disabled.send) return null;
  if (w.status !== 'running') return { text: `${notRunning(w)}: nothing was sent`, cls: 'info' };
  if (w.inputLost) return { text: `${INPUT_LOST_PLACEHOLDER}: nothing was sent`, cls: 'info' };
  if (w.compacting) return { text: 'The worker is compacting: nothing was sent; send when the compaction has ended', cls: 'info' };
  return { text: v.sendTitle, cls: 'info' };
}

/** Statuses that mean the action went as asked. */
const OK = new Set(['accepted', 'aborted', 'redirected', 'compacted', 'stopped', 'started']);
/** Statuses that are information, not failure. */
const INFO = new Set(['not_streaming', 'cancelled']);

export function resultClass(status: string): LineClass {
  return OK.has(status) ? 'ok' : INFO.has(status) ? 'info' : 'error';
}

/** Actions that carry the composer's text. */
const CARRIES_TEXT = new Set(['prompt', 'steer', 'followUp', 'redirect']);

/** A message the composer sent and whose result has not come yet. */
export interface Pending { action: string; text: string }

/**
 * What a result does to the composer. `message` is the sentence the host words it in. The
 * text goes back into the box only when this very message failed: a failed Abort or Stop, or
 * the result of a command from elsewhere, never brings back an old message.
 */
export function afterResult(pending: Pending | null, r: { action: string; status: string; message: string; tone?: LineClass; own: boolean }, boxValue: string): { line: Line; restore: string | null; pending: Pending | null } {
  const cls = r.tone ?? resultClass(r.status);
  const line = { text: r.message, cls };
  const mine = r.own && pending !== null && CARRIES_TEXT.has(r.action) && pending.action === r.action;
  if (!mine) return { line, restore: null, pending };
  if (cls !== 'error') return { line, restore: null, pending: null };
  // Typed since it was sent: both are kept (giveBack), and the line says where the message went.
  const merged = boxValue !== '' ? { text: `${r.message} Your message is back in the box, above what you typed since.`, cls } : line;
  return { line: merged, restore: giveBack(pending!.text, boxValue), pending: null };
}

/**
 * A failed message back in a box (or draft) the person may have typed in since it was sent. It
 * goes in front, a blank line apart: it was written first, so the box reads in the order written,
 * and what was typed since is kept whole. Restoring into an empty box only lost it for good.
 */
export function giveBack(failed: string, typed: string): string {
  return typed ? `${failed}\n\n${typed}` : failed;
}

/**
 * The worker's text for the box (pi's set_editor_text) and what the line says of it. It used to
 * replace the box: a draft being typed vanished with nothing said. A box with a draft keeps it
 * whole, with the worker's text below it (in the order written, as giveBack), and the line says
 * so; an empty box simply takes it. Text that is already there, or none, changes nothing.
 */
export function prefillBox(typed: string, offered: string, name: string): { value: string; line: Line | null } {
  if (!typed.trim()) return { value: offered, line: null };
  if (!offered.trim() || typed.endsWith(offered)) return { value: typed, line: null };
  return { value: `${typed}\n\n${offered}`, line: { text: `${name} put its text in the box, below what you had typed.`, cls: 'info' } };
}

/** Seen as a space, read as nothing. */
const REPEAT_MARK = '\u00a0';

/**
 * The text put in the composer's line (`shown`: what it holds now). A live region speaks only when
 * its text changes, so the same line twice in a row (Send pressed again on an empty box, a refused
 * Ctrl+Enter again) was silent the second time, as if nothing had happened. A repeat toggles a
 * trailing no-break space: the text changes, the words do not. Blank stays blank.
 */
export function lineText(shown: string, text: string): string {
  return text !== '' && shown === text ? text + REPEAT_MARK : text;
}

export function pendingLine(kind: 'prompt' | 'steer' | 'followUp' | 'redirect'): Line {
  // A follow-up is answered when the turn ends, which may be minutes away.
  if (kind === 'followUp') return { text: 'Follow-up waits for the turn to end…', cls: 'pending' };
  return { text: `${kind === 'steer' ? 'Steer' : kind === 'redirect' ? 'Redirect' : 'Prompt'} sent…`, cls: 'pending' };
}

/** Send pressed with nothing typed. */
export function emptySendLine(w: WorkerView | null): Line {
  return { text: w ? 'Type a message first, then send it.' : 'No worker is selected: start one first.', cls: 'info' };
}

/**
 * What a state change does to the line: a worker that is no longer running makes what the line
 * said about it stale (a green "Prompt accepted" under a stopped worker), so the line says
 * what happened to the worker instead; so does one found no longer reading its input (its
 * "Prompt sent…" or "Steer delivered" reads as if it still took them). null: the line stays.
 */
export function stateLine(before: WorkerView | null, after: WorkerView): Line | null {
  if (!before || before.workerId !== after.workerId) return null;
  if (after.status === 'running' && after.inputLost && !before.inputLost) {
    return { text: `${after.name} no longer reads its input (its stdin closed): nothing sent can reach it. Stop is what is left.`, cls: 'error' };
  }
  if (before.status === after.status) return null;
  if (after.status === 'running' || after.status === 'starting') return null;
  const how = after.status === 'failed' ? 'failed' : after.status === 'stopped' ? 'was stopped' : 'exited';
  return { text: `${after.name} ${how}.`, cls: after.status === 'failed' ? 'error' : 'info' };
}

/** What a queued steer or follow-up waits for: the worker's queue of that kind to empty. */
export type Queued = 'steer' | 'followUp' | null;

/**
 * A result that queues a message starts the wait; any other result ends it (it said something newer).
 * One an extension of the worker handled (`handled`) was never queued: no "delivered" is to come.
 */
export function queuedAfter(r: { action: string; status: string; handled?: boolean }): Queued {
  return (r.action === 'steer' || r.action === 'followUp') && r.status === 'accepted' && !r.handled ? r.action : null;
}

/**
 * The worker's queue emptied of what the line said was queued: the line says it was delivered,
 * instead of "Follow-up queued…" standing after the worker took it up. null: the line stays.
 */
export function queueLine(queued: Queued, events: ReadonlyArray<Pick<PageEvent, 'type'> & { data?: unknown }>, name: string): { line: Line | null; queued: Queued } {
  if (!queued) return { line: null, queued };
  const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  for (const e of events) {
    if (e.type !== 'queue_update') continue;
    const d = (e.data && typeof e.data === 'object' ? e.data : {}) as Record<string, unknown>;
    const left = queued === 'steer' ? count(d.steering) : count(d.followUp);
    if (left === 0) return { line: { text: `${queued === 'steer' ? 'Steer' : 'Follow-up'} delivered to ${name}`, cls: 'ok' }, queued: null };
  }
  return { line: null, queued };
}
