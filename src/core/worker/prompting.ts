// The prompt verb: refused with the reason when the worker cannot take it now (not running, too
// long, mid-turn without steer or follow-up, busy after its turn), otherwise sent and bounded;
// a prompt the worker accepts without starting a turn raises a doubt the state check settles.
import type { PromptOptions, PromptResult, Provenance } from '../api';
import { WorkerRefusal } from '../wire/dialect';
import { elapsed, type InterruptPort } from './interrupts';
import { checkPrompt } from './limits';
import { openingAnother } from './sessions';
import type { Doubt } from './resync';
import type { AfterTurn } from './turns';

/** What of its worker the prompt uses beyond what the interrupts do. */
export interface PromptPort extends Omit<InterruptPort, 'prompt' | 'cancelQuestions' | 'sweepAfterAbort' | 'endTerminals'> {
  /** Asks the worker for its state if `doubt` is not cleared by its events soon. */
  doubt(doubt: Doubt): void;
  /** The worker refused for an extension's lock: put its request to the person again. */
  retryExtensionRequests(): void;
}

const AFTER_TURN_WORDS: Record<AfterTurn, string> = {
  retry: 'retrying the model call',
  compaction: 'compacting the conversation',
  continuation: 'going on with queued messages',
  settling: 'settling',
};

export async function sendPrompt(w: PromptPort, message: string, options: PromptOptions = {}): Promise<PromptResult> {
  const t0 = performance.now();
  const fail = (error: string): PromptResult => ({ status: 'error', workerId: w.id, error, ms: elapsed(t0) });
  const refused = w.refuseUnlessRunning() ?? checkPrompt(message, w.limits);
  if (refused) return fail(refused);
  // Sent now, it would run in the session being left (an ACP prompt names its session), before
  // the new one's mark, and the next prompt would go on without it.
  const moving = w.sessionMove();
  if (moving) return fail(openingAnother(moving, 'send the message'));
  // As the composer's Send is: an ACP agent would take the prompt as a turn run beside its
  // compaction (itself a prompt), and the fold would count the one as the other.
  if (w.turns.compacting && !w.turns.streaming) return fail('the worker is compacting its conversation; prompt again once the compaction ends');
  const queued = w.turns.streaming ? options.streamingBehavior ?? null : null;
  const midTurn = w.dialect.midTurn?.(w.connection);
  if (queued === 'steer' && midTurn && !midTurn.steer) {
    return fail(`${w.versionName()} cannot be steered inside its turn (the protocol has no steer): redirect instead (abort the turn, then send this), or send it as a follow-up`);
  }
  if (w.turns.streaming && !queued) {
    const after = w.turns.afterTurn;
    if (after) return fail(`the worker is still busy after its turn (${AFTER_TURN_WORDS[after]}); prompt again once it settles (agent_settled), or send the message as follow-up`);
    return fail('the worker is streaming a turn: send the message as steer (delivered after the current tool) or follow-up (delivered when the turn ends), or redirect');
  }
  const provenance: Provenance = { source: options.source, submitter: options.submitter, submissionId: options.submissionId, correlation: options.correlation };
  const startsBefore = w.turns.agentStarts;
  const recordedAs = w.turns.nextPrompt;
  w.emit({ type: 'prompt_sent', source: options.source ?? null, submitter: options.submitter ?? null, submission_id: options.submissionId ?? null, correlation: options.correlation ?? null, data: { text: message, streamingBehavior: queued, ...(queued === 'followUp' && midTurn?.followUp === 'host' ? { queuedBy: 'host' } : {}) } });
  try {
    const sent = w.dialect.prompt(w.connection, { ...provenance, text: message, streamingBehavior: queued ?? undefined });
    const ack = await (queued === 'followUp' ? followUpAck(w, sent, midTurn?.followUp === 'host') : w.request(sent, 'prompt'));
    if (!queued && ack.handled) w.turns.dropProvenance(recordedAs);
    else if (!queued) {
      w.turns.promptAccepted(startsBefore);
      if (w.turns.agentStarts === startsBefore) {
        w.doubt({ reason: 'it accepted a prompt and no turn began', cleared: () => w.turns.agentStarts !== startsBefore });
      }
    }
    w.stateChanged();
    return { status: 'accepted', workerId: w.id, submissionId: ack.submissionId, streamingBehavior: queued, ...(ack.handled ? { handled: true } : {}), ms: elapsed(t0) };
  } catch (error) {
    // Refused for an extension's lock: put the request to the person (again, if dismissed).
    if (error instanceof WorkerRefusal && (error.data as { lock?: unknown } | undefined)?.lock) w.retryExtensionRequests();
    // Refused, the prompt starts no turn. (Unanswered, it may yet: its record stays.)
    if (error instanceof WorkerRefusal && !queued) w.turns.dropProvenance(recordedAs);
    return fail((error as Error).message);
  }
}

/**
 * A follow-up is answered when the turns before it have ended: τ admits an enqueued prompt when
 * it can start its turn, and the host sends an ACP agent's then. A turn may rightly run for many
 * minutes, so the wait through a running turn is bounded only by the worker's exit (an abort ends
 * it too), and so is the wait through a compaction τ runs on its own after the turn (a model call
 * of its own, which holds the turn's lock: τ admits nothing before its end); once neither runs,
 * the answer, or the start of a turn admitted before it (an earlier follow-up's, which this one
 * then waits behind), comes within the command timeout. A fixed bound here answered `error`
 * while τ, or the host itself, still held the message and ran it later.
 * `heldByHost`: the host holds it (ACP) until every turn before it has ended, so its answer is the
 * send itself, bounded by the exit alone.
 */
async function followUpAck<T>(w: PromptPort, sent: Promise<T>, heldByHost: boolean): Promise<T> {
  if (heldByHost) return w.request(sent, 'follow-up', Infinity);
  const answered = sent.then(() => 'answered' as const);
  for (;;) {
    const running = w.turns.streaming || w.turns.compacting;
    const next = w.turns.streaming ? w.waits.nextSettlement() : w.turns.compacting ? w.waits.nextEvent('compaction_end') : w.waits.nextEvent('agent_start');
    try {
      const first = await w.request(Promise.race([answered, next.promise.then(() => 'turn' as const)]), 'follow-up', running ? Infinity : undefined);
      if (first === 'answered') return await sent;
    } finally {
      next.cancel();
    }
  }
}
