// How a tool call ended, judged once and said in one set of words by the Sessions tree, the
// Event Log, the Markdown export and a past session read back (each folds its own events into
// the facts below and asks here). In src/protocol, which both bundles import and which imports
// nothing else: the page reaches the extension's code only through it (imports.cycles.test.ts).

/** What a fold keeps of a call for the judgement. */
export interface CallFacts {
  /** The worker reported the call's end (tool_execution_end). */
  ended: boolean;
  isError: boolean;
  /** A later call started, or the model wrote on, after this one ended (see WentOn). */
  wentOn?: true;
  /**
   * Its end came after the host sent its turn an abort (`abort_sent`): it was running when the
   * abort went out (or began after it).
   */
  afterAbort?: true;
  blocked?: boolean;
  blockedBy?: string | null;
  /** The guard's finding on it (τ's audit after the call ran, or a refusal). */
  violation?: string | null;
}

/** What a fold keeps of the call's turn. */
export interface TurnFacts {
  endedAt: number | null;
  endReason?: string | null;
  /** The host sent the turn an abort (an `abort_sent` event came in it). */
  abortSent?: true;
}

export type CallEnd = 'running' | 'ok' | 'error' | 'stopped' | 'blocked';

/** A turn's end reasons that are the person's doing: its Abort, its Stop of the worker. */
const CUT_BY_THE_PERSON = new Set(['aborted', 'stopped']);

/**
 * In a turn the person aborted, or whose worker they stopped: the calls the abort or the stop
 * cut short, not errors of their own. A call that never reported its end, and one that ended
 * after the host sent the abort whatever its is_error says: τ's aborted bash ends `is_error:
 * false` "Command was aborted" (or true, "killed by signal 15", by a race inside τ), Gemini's and
 * OpenCode's `completed` after session/cancel, pi's and Claude's with an error. A call still
 * running when the abort went out that ran to its end after it is said so too: the host cannot
 * tell it from one cut (τ's two results for the same abort), and the person's abort was in force
 * for it. A call that ended before the abort keeps its own end. A turn recorded before the host
 * said when it sent the abort (no `abort_sent`) has only the order of its events: a call that
 * failed with nothing after it (no call, no word of the model's) is taken as cut.
 */
export function cutByThePerson(turn: TurnFacts, call: CallFacts): boolean {
  if (!CUT_BY_THE_PERSON.has(turn.endReason ?? '')) return false;
  if (!call.ended || call.afterAbort) return true;
  return !turn.abortSent && call.isError && !call.wentOn;
}

/**
 * The call's end: `blocked` (the guard refused it before it ran), `stopped` (see cutByThePerson),
 * `error`, running until the worker reports its end (calls run side by side, and the last one
 * may end while the model writes on), `ok`. A call whose turn ended without its end is not said
 * to run on, nor to have ended well when its worker exited under it (a crash: cut short).
 */
export function callEnd(turn: TurnFacts, call: CallFacts): CallEnd {
  if (call.blocked) return 'blocked';
  if (cutByThePerson(turn, call)) return 'stopped';
  if (call.isError || (turn.endReason === 'worker_exited' && !call.ended)) return 'error';
  return turn.endedAt === null && !call.ended ? 'running' : 'ok';
}

/** The guard's two kinds of finding, as the log's warning row and the export's note say them. */
export const GUARD_REFUSED = 'refused before it happened';
export const GUARD_FLAGGED = 'not prevented: the call may have run';
export const FLAGGED_BY_THE_GUARD = 'flagged by the guard';

/** A guard finding's heading: `Guard (refused before it happened)`, `Guard (not prevented: …)`. */
export const guardHeading = (blocked: boolean): string => `Guard (${blocked ? GUARD_REFUSED : GUARD_FLAGGED})`;

/**
 * The call's end in words, one line: `ok`, `error`, `stopped`, `running`, `blocked by NAME`, and
 * `, flagged by the guard` after a call the guard judged after it ran (its write landed).
 */
export function callEndWords(end: CallEnd, call: Pick<CallFacts, 'blockedBy' | 'violation'>): string {
  if (end === 'blocked') return `blocked by ${call.blockedBy ?? 'a guard'}`;
  return call.violation ? `${end}, ${FLAGGED_BY_THE_GUARD}` : end;
}

/**
 * The calls that ended since the model last went on from them: the next call's start or the
 * model's next words mark them `wentOn`. A list of the ended ones only, so a start or a delta does
 * nothing when none ended, however many calls still run (it is on every event's path).
 */
export class WentOn<C extends { wentOn?: true }> {
  private ended: C[] = [];

  /** `call` reported its end. */
  end(call: C): void {
    this.ended.push(call);
  }

  /** The model went on (a call started, or it wrote). */
  goneOn(): void {
    if (this.ended.length === 0) return;
    for (const c of this.ended) c.wentOn = true;
    this.ended = [];
  }

  /** A new turn: what ended in the last one is no longer looked at. */
  reset(): void {
    this.ended = [];
  }

  get pending(): boolean {
    return this.ended.length > 0;
  }
}
