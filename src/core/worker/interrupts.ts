// The verbs that end what a worker is doing, or wait for it to end: abort (a turn, or a
// compaction where the worker's abort reaches one), redirect (abort, then prompt), compact.
// Each waits for the worker's own word that it is over (the turn settled, compaction_end),
// bounded by the settle timeout and by the worker's exit.
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { AbortResult, CompactResult, PromptResult, Provenance, RedirectResult, SupervisorLimits } from '../api';
import type { Untimed } from '../events/agentEvent';
import type { Dialect, DialectTraits } from '../wire/dialect';
import { checkPrompt } from './limits';
import { openingAnother } from './sessions';
import type { TurnTracker } from './turns';
import { NoAnswer, type Waits } from './waits';

/** What of its worker these verbs use. */
export interface InterruptPort {
  /** A host event, through the turn fold. */
  emit(event: Untimed): void;
  readonly id: string;
  readonly limits: SupervisorLimits;
  readonly dialect: Dialect;
  readonly connection: MessageConnection;
  readonly turns: TurnTracker;
  readonly waits: Waits;
  /** What the worker's dialect and version do (the version may be learned after the start). */
  traits(): DialectTraits;
  versionName(): string;
  refuseUnlessRunning(): string | null;
  /** A request to the worker, bounded by the command timeout (or `timeoutMs`) and by its exit. */
  request<T>(pending: Promise<T>, what: string, timeoutMs?: number): Promise<T>;
  prompt(message: string, provenance: Provenance): Promise<PromptResult>;
  stateChanged(): void;
  /** Answers every question the agent has open (ACP permission requests) `cancelled`. */
  cancelQuestions(reason: string): void;
  /** Ends what the agent left running of an aborted turn (dialects that sweep). */
  sweepAfterAbort(): Promise<void>;
  /** Ends the commands the host runs for the agent (ACP terminals), as an abort is sent. */
  endTerminals(): Promise<void>;
  /** Messages written to its stdin so far, and the number of the first it refused (null: none); see WorkerProcess. */
  messagesSent(): number;
  firstUnsent(): number | null;
  /** The session verb moving the worker to another session, while it runs (sessions.ts); null: none. */
  sessionMove(): string | null;
}

/** Milliseconds since `since` (performance.now()), to the microsecond. */
export const elapsed = (since: number) => Math.round((performance.now() - since) * 1000) / 1000;

/**
 * Why the worker's abort cannot reach what it is doing: a compaction between turns that its
 * abort does not end (τ's abort reaches one asked for with `compact`, not one it began on its own:
 * its rpc `abort` notes "What abort still does NOT reach: an auto-compaction"; pi 0.73.1's reaches
 * none; an ACP agent's /compact is a prompt of its own). null: it can, or nothing runs.
 */
export function abortUnreachable(turns: Pick<TurnTracker, 'streaming' | 'compacting' | 'compactingUnasked'>, traits: Pick<DialectTraits, 'abortCancelsCompaction'>, versionName: string): string | null {
  if (turns.streaming || !turns.compacting) return null;
  const unasked = turns.compactingUnasked;
  if (traits.abortCancelsCompaction && !unasked) return null;
  return `${versionName}'s abort does not reach ${unasked ? 'a compaction it began on its own' : 'a running compaction'}; it will finish on its own`;
}

/**
 * Said as the abort goes out, in the stream and so in the history: a call that ends from now on
 * ran under the abort, whatever its end says (τ's aborted bash may end without an error), and a
 * session read back says of it what the live views did (protocol/callEnd.ts).
 */
function abortSent(w: InterruptPort, verb: 'abort' | 'redirect'): void {
  if (w.turns.streaming) w.emit({ type: 'abort_sent', data: { verb } });
}

/**
 * Sends the worker's abort, the questions it left open answered first (ACP: one left open would
 * hold its turn). A turn's commands the host runs for the agent end with it (not when the agent
 * gets round to it), once it got out: a cancel its stdin refused (its input lost, found by this
 * very write or before) reached no one, and the verb's error says so with nothing ended.
 * Returns their ending (null: none begun), wrapped so that it is not awaited here.
 */
async function sendAbort(w: InterruptPort, verb: 'abort' | 'redirect'): Promise<{ terminalsEnding: Promise<void> | null }> {
  const turn = w.turns.streaming;
  w.cancelQuestions(verb === 'abort' ? 'the turn was aborted' : 'the turn was redirected');
  abortSent(w, verb);
  const sending = w.dialect.abort(w.connection);
  // The connection writes as it sends: the cancel is the last message numbered so far.
  const cancel = w.messagesSent();
  await w.request(sending, 'abort');
  const unsent = w.firstUnsent();
  return { terminalsEnding: turn && (unsent === null || unsent > cancel) ? w.endTerminals() : null };
}

/** The abort ends the compaction running now (pi 1.x's; τ's asked for with Compact), not only the turn. */
const abortCancels = (w: InterruptPort): boolean => w.traits().abortCancelsCompaction && !w.turns.compactingUnasked;

/**
 * A compaction inside the turn that the abort does not reach (τ's own) holds the turn: the abort
 * lands once it ends. Its end, waited for from before the abort is sent; null when none holds it.
 */
function holdingCompaction(w: InterruptPort): ReturnType<Waits['nextEvent']> | null {
  return w.turns.compacting && !abortCancels(w) ? w.waits.nextEvent('compaction_end') : null;
}

/** The turn settled after the abort: through a compaction holding it, however long its model call takes, then within the settle bound. */
async function settledAfterAbort(w: InterruptPort, settled: ReturnType<Waits['nextSettlement']>, holding: ReturnType<Waits['nextEvent']> | null) {
  if (holding) await w.waits.bounded(Promise.race([holding.promise, settled.promise]), Infinity, 'the compaction the turn runs');
  return w.waits.bounded(settled.promise, w.limits.settleTimeoutMs, 'settling after abort');
}

export async function abort(w: InterruptPort): Promise<AbortResult> {
  const t0 = performance.now();
  const fail = (error: string): AbortResult => ({ status: 'error', workerId: w.id, error, ms: elapsed(t0) });
  const refused = w.refuseUnlessRunning();
  if (refused) return fail(refused);
  const compacting = w.turns.compacting;
  if (!w.turns.streaming && !compacting) return { status: 'not_streaming', workerId: w.id, ms: elapsed(t0) };
  const unreachable = abortUnreachable(w.turns, w.traits(), w.versionName());
  if (unreachable) return fail(unreachable);
  const settled = w.turns.streaming ? w.waits.nextSettlement() : null;
  const compactionEnd = compacting && abortCancels(w) ? w.waits.nextEvent('compaction_end') : null;
  const holding = settled ? holdingCompaction(w) : null;
  const sent = performance.now();
  let terminalsEnding: Promise<void> | null = null;
  try {
    ({ terminalsEnding } = await sendAbort(w, 'abort'));
    let compactionCancelled: boolean | null = null;
    let turnAborted = false;
    if (settled) {
      const s = await settledAfterAbort(w, settled, holding);
      turnAborted = s.endReason === 'aborted';
      if (!turnAborted && !compactionEnd) {
        return { status: 'not_streaming', workerId: w.id, note: `the turn ended by itself (${s.endReason ?? 'no reason given'}) before the abort landed`, ms: elapsed(t0) };
      }
      await w.sweepAfterAbort();
    }
    if (compactionEnd) {
      const end = await w.waits.bounded(compactionEnd.promise, w.limits.settleTimeoutMs, 'the compaction ending after abort');
      // τ says `cancelled`, pi 1.x `aborted`.
      compactionCancelled = end.data?.cancelled === true || end.data?.aborted === true;
      // Its end crossed the abort, and no turn ran, or the turn it ran after settled by itself
      // too (pi 1.x compacting after its run): nothing was aborted.
      if (!compactionCancelled && !turnAborted) {
        const note = settled ? 'the compaction and its turn ended by themselves before the abort landed' : 'the compaction ended by itself before the abort landed';
        return { status: 'not_streaming', workerId: w.id, note, compactionCancelled: false, ms: elapsed(t0) };
      }
    }
    return { status: 'aborted', workerId: w.id, settleMs: elapsed(sent), compactionCancelled, ms: elapsed(t0) };
  } catch (error) {
    return fail((error as Error).message);
  } finally {
    settled?.cancel();
    compactionEnd?.cancel();
    holding?.cancel();
    await terminalsEnding;
  }
}

export async function redirect(w: InterruptPort, message: string, provenance: Provenance): Promise<RedirectResult> {
  const t0 = performance.now();
  const fail = (error: string, aborted?: boolean): RedirectResult => ({ status: 'error', workerId: w.id, error, aborted, ms: elapsed(t0) });
  const refused = w.refuseUnlessRunning() ?? checkPrompt(message, w.limits);
  if (refused) return fail(refused);
  let aborted = false;
  const sent = performance.now();
  const hadTurn = w.turns.streaming;
  if (hadTurn) {
    const settled = w.waits.nextSettlement();
    const holding = holdingCompaction(w);
    let terminalsEnding: Promise<void> | null = null;
    try {
      ({ terminalsEnding } = await sendAbort(w, 'redirect'));
      const s = await settledAfterAbort(w, settled, holding);
      aborted = s.endReason === 'aborted';
      if (aborted) await w.sweepAfterAbort();
    } catch (error) {
      return fail(`${(error as Error).message}; the new instruction was not sent`);
    } finally {
      settled.cancel();
      holding?.cancel();
      await terminalsEnding;
    }
  }
  const settleMs = elapsed(sent);
  const prompted = await w.prompt(message, provenance);
  if (prompted.status !== 'accepted') {
    // Without a turn nothing was aborted, nor settled: the refusal is the whole story.
    if (!hadTurn) return fail(`the new instruction was refused: ${prompted.error}`);
    return fail(`the turn settled (aborted: ${aborted}) but the new instruction was refused: ${prompted.error}`, aborted);
  }
  return { status: 'redirected', workerId: w.id, aborted, settleMs, submissionId: prompted.submissionId, ms: elapsed(t0) };
}

export async function compact(w: InterruptPort, instructions?: string): Promise<CompactResult> {
  const t0 = performance.now();
  const fail = (error: string): CompactResult => ({ status: 'error', workerId: w.id, error, ms: elapsed(t0) });
  const refused = w.refuseUnlessRunning();
  if (refused) return fail(refused);
  const unavailable = w.dialect.compactUnavailable?.(w.connection);
  if (unavailable) return fail(unavailable);
  if (w.turns.compacting) return fail('a compaction is already running');
  // ACP's /compact is a prompt: it would run in the session being left, or in the new one unmarked.
  const moving = w.sessionMove();
  if (moving) return fail(openingAnother(moving, 'compact'));
  if (w.turns.streaming) return fail('the worker is streaming a turn; abort it or wait for it to end before compacting');
  // The summary is a model call, which may rightly take minutes: the verb answers within the
  // settle bound, while the compaction is followed to its end (or the worker's exit, or the loss
  // of its output), so that the worker shows compacting as long as it is, and a prompt is not
  // sent into it meanwhile.
  const run = runCompaction(w, instructions, t0);
  try {
    return await w.waits.bounded(run, w.limits.settleTimeoutMs, 'the compaction');
  } catch (error) {
    if (error instanceof NoAnswer) return fail(`${error.message}; it goes on, and the worker shows compacting until it ends`);
    return fail((error as Error).message);
  }
}

/** The compaction from its request to its end, bounded only by the worker's exit and the loss of its output. */
async function runCompaction(w: InterruptPort, instructions: string | undefined, t0: number): Promise<CompactResult> {
  const fail = (error: string): CompactResult => ({ status: 'error', workerId: w.id, error, ms: elapsed(t0) });
  let compactionId: string | null = null;
  // pi names no compaction; τ's compaction_end names the one its ack announced.
  const ended = w.waits.nextEvent('compaction_end', (e) => compactionId === null || e.data?.compaction_id === compactionId);
  w.turns.compacting = true;
  // τ announces no compaction until its end: the host says it began, so the stream says it too.
  if (!w.dialect.announcesCompaction) w.emit({ type: 'compaction_start', data: { reason: 'manual', synthesized: true } });
  w.stateChanged();
  try {
    const ack = await w.request(w.dialect.compact(w.connection, instructions), 'compact', Infinity);
    if (ack.result) {
      // pi answers when the compaction is over; its compaction_end event came first.
      if (ended.seen?.data?.aborted === true) return { status: 'aborted', workerId: w.id, ms: elapsed(t0) };
      // A compaction the host announced (ACP's slash command) ends where the worker answered.
      if (!w.dialect.announcesCompaction) {
        w.emit({ type: 'compaction_end', is_error: false, data: { synthesized: true, performed: ack.result.performed ?? true, cancelled: ack.result.note === 'cancelled' } });
        if (ack.result.note === 'cancelled') return { status: 'aborted', workerId: w.id, ms: elapsed(t0) };
      }
      return { status: 'compacted', workerId: w.id, performed: ack.result.performed ?? true, summary: ack.result.summary, tokensBefore: ack.result.tokensBefore, ms: elapsed(t0) };
    }
    compactionId = ack.compactionId;
    const end = ended.seen?.data?.compaction_id === compactionId ? ended.seen : await w.waits.bounded(ended.promise, Infinity, 'the compaction');
    const d = end.data ?? {};
    if (d.cancelled === true) return { status: 'aborted', workerId: w.id, ms: elapsed(t0) };
    if (d.is_error === true) return fail(`the compaction failed: ${String(d.error ?? 'no detail')}`);
    return {
      status: 'compacted', workerId: w.id, performed: d.performed === true,
      summary: typeof d.summary === 'string' ? d.summary : null,
      tokensBefore: typeof d.tokens_before === 'number' ? d.tokens_before : null, ms: elapsed(t0),
    };
  } catch (error) {
    // pi 1.x: an abort cancelled it (compaction_end {aborted: true}, then "Compaction cancelled").
    if (ended.seen?.data?.aborted === true) return { status: 'aborted', workerId: w.id, ms: elapsed(t0) };
    const message = (error as Error).message;
    // The start the host announced gets its end, or the log says "Compacting…" for good (a
    // worker that exited ends it with its exit; one whose output was lost, with that).
    if (!w.dialect.announcesCompaction && !ended.seen && w.turns.compacting && !w.refuseUnlessRunning()) {
      w.emit({ type: 'compaction_end', is_error: true, error: message, data: { synthesized: true } });
    }
    return fail(message);
  } finally {
    ended.cancel();
    w.turns.compacting = false;
    w.stateChanged();
  }
}
