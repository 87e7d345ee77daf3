// What the worker is doing, derived from its events alone, so that it is right whatever order
// responses and events are processed in. A turn (one agent run, agent_start to its settling)
// is settled by `agent_settled` where the worker sends it (pi 1.x), otherwise by an `agent_end`
// that promises no retry while nothing is queued. Settling is the one moment a turn ends for
// everyone: the host accepts a plain prompt from then on, and the worker tells its listeners
// with an `agent_settled` event (pi's own, or one the host makes where the worker sends none).
// Between a pi 1.x `agent_end` and its `agent_settled` the worker still works after the turn
// (a retry, an automatic compaction, a queued continuation, or only the settling itself):
// `afterTurn` names it. pi 0.73.1 says it retries only after the agent_end that settled the turn:
// its auto_retry_start begins the retry's own turn, busy (`afterTurn: 'retry'`) through the
// retry's delay, and ended by its run or by the retry's cancellation. τ's compaction brackets
// itself in an unstamped agent_start/agent_end pair that is not a turn: alone, or inside a
// running turn, which goes on after it.
//
// This fold is the one place that decides what a turn is: it stamps every event it sees with
// the turn it belongs to (`AgentEvent.turn`), the turn's opening event with its origin and its
// ending event with how it ended, before the event is delivered. Everyone downstream (the
// tree, the verbs, the Event Log, API listeners, the persisted history) reads the stamps and
// counts nothing itself.
import { resolve } from 'node:path';
import type { LoginCommand, Provenance, TurnSummary } from '../api';
import { isKnownEvent, type AgentEvent, type TurnStamp } from '../events/agentEvent';
import type { DialectTraits } from '../wire/dialect';
import { WentOn } from '../../protocol/callEnd';

const MAX_TURNS_KEPT = 50;
const WRITE_TOOLS = new Set(['write', 'edit', 'multi_edit', 'apply_patch', 'create_file']);
const MAX_FILES_KEPT = 200;
/** Tool calls kept per turn (about; the oldest fall out), so one long run cannot grow the state without bound. */
export const MAX_TOOLS_PER_TURN = 1000;

type ToolSummary = TurnSummary['tools'][number];

export interface Settlement {
  endReason: string | null;
  error: string | null;
  /** The error is the agent's refusal for want of a login or a key (AgentEndEvent's `needsLogin`). */
  needsLogin?: true;
  at: number;
}

/** What a worker does after its turn's run ended and before the turn settles. */
export type AfterTurn = 'retry' | 'compaction' | 'continuation' | 'settling';

/**
 * Where the worker is in its turns, one state at a time (the transitions are `to()`'s callers
 * in `fold`, `begin`, `end`, `settle`, `exited`):
 * - `idle`: no turn;
 * - `compactionRun`: no turn; τ's compaction runs in an agent_start/agent_end pair of its own
 *   (inside a turn the turn's phase stands, and the pair is `bracket`);
 * - `running`: a turn's run goes on;
 * - `runEnded`: the turn's run ended (agent_end) and its settling is awaited;
 * - `retrying`: the run ended and another attempt follows within the same turn (pi 1.x), or
 *   pi 0.73.1 announced a retry after its failed run's turn had settled: the retry is a turn of
 *   its own, which the worker began with that announcement, and it waits out the retry's delay.
 */
export type TurnPhase = 'idle' | 'compactionRun' | 'running' | 'runEnded' | 'retrying';

const IN_TURN: ReadonlySet<TurnPhase> = new Set(['running', 'runEnded', 'retrying']);

export class TurnTracker {
  private phase: TurnPhase = 'idle';
  /** Prompts the worker accepted whose agent_start has not been seen yet. */
  private pendingStarts = 0;
  private starts = 0;
  /** Whether the worker ends turns with agent_settled: by its version, else learned (null: not known). */
  private sendsSettled: boolean | null = null;
  /** The worker stamps its turns with their submission (τ): an unstamped agent_start is a compaction's. */
  private stampsTurns = false;
  /**
   * It was seen doing so: a program that speaks τ's protocol without stamping (a user's own, an
   * older one) keeps its turns. τ's first turn is a prompt's, stamped, before any compaction.
   */
  private seenStamp = false;
  /** A tool event outside a turn begins one (not in ACP: see DialectTraits.toolsOpenTurns). */
  private toolsOpenTurns = true;
  /**
   * A compaction's own agent_start/agent_end pair, while it runs: the phase to go back to at its
   * end, whether the worker began it unasked (the host did not send `compact`), and its error.
   */
  private bracket: { outer: TurnPhase; unasked: boolean; error: string | null } | null = null;
  /** The host's compaction_start or _end for a compaction the worker began unasked: an outbox, as `unannounced`. */
  private announced: AgentEvent | null = null;
  /** Messages the worker last said it holds queued (steer and follow-up): at its exit, never delivered. Set by its queue_update only. */
  queued = 0;
  /** A compaction runs (the worker's own, or one the host asked for): beside a turn or alone. */
  compacting = false;
  turnCount = 0;
  lastEndReason: string | null = null;
  lastError: string | null = null;
  /** `lastError` is a refusal for want of a login (the agent_end's `data.needsLogin`). */
  private lastNeedsLogin = false;
  readonly turns: TurnSummary[] = [];
  readonly filesTouched: string[] = [];
  /** Provenance the host recorded for prompts whose turn has not started (pi stamps none), by the prompt's number. */
  private readonly provenance: Array<Provenance & { seq: number }> = [];
  /** Plain prompts recorded so far: the next one's number. */
  private recorded = 0;
  private readonly toolArgs = new Map<string, Record<string, unknown>>();
  /** The current turn's tool calls by id (the first of an id, as a search from the start finds). */
  private readonly toolsById = new Map<string | null, ToolSummary>();
  /** The current turn's calls that ended since a call last started or the model last wrote (callEnd.ts). */
  private readonly wentOn = new WentOn<ToolSummary>();
  /**
   * The turn that settled on an event other than agent_settled, for the host's agent_settled
   * that `observe` makes right after that event: an outbox, emptied in the same `observe`.
   */
  private unannounced: { index: number | null; settlement: Settlement } | null = null;
  /** The stamp of every event inside the current turn but its opening and its end. */
  private inTurnStamp: TurnStamp = Object.freeze({ index: 0 });

  /** `turnsBefore`: turns the conversation had before this worker (a resumed session's). */
  constructor(private readonly onSettled: (s: Settlement) => void, private readonly cwd: string, turnsBefore = 0) {
    this.turnCount = turnsBefore;
  }

  /** Inside a turn: its run, or the work after it until it settles. */
  private get inTurn(): boolean {
    return IN_TURN.has(this.phase);
  }

  /** Busy with a turn (its run, or the work after it): a plain prompt is refused. */
  get streaming(): boolean {
    return this.inTurn || this.pendingStarts > 0;
  }

  /** What the worker does after the turn's run, until it settles; null while the run goes on, or idle. */
  get afterTurn(): AfterTurn | null {
    if (this.phase !== 'runEnded' && this.phase !== 'retrying') return null;
    if (this.compacting) return 'compaction';
    if (this.phase === 'retrying') return 'retry';
    if (this.queued > 0) return 'continuation';
    return 'settling';
  }

  /** Set from the worker's version (pi 1.x: true) before its first turn. */
  setSendsSettled(sends: boolean | null): void {
    this.sendsSettled = sends;
  }

  /** Set from the worker's dialect (τ: true) before its first turn. */
  setStampsTurns(stamps: boolean): void {
    this.stampsTurns = stamps;
  }

  /** Set from the worker's dialect and version before its first turn. */
  setTraits(traits: Pick<DialectTraits, 'sendsSettled' | 'stampsTurns' | 'toolsOpenTurns'>): void {
    ({ sendsSettled: this.sendsSettled, stampsTurns: this.stampsTurns, toolsOpenTurns: this.toolsOpenTurns } = traits);
  }

  /** The running compaction is one the worker began unasked (τ's abort does not reach those). */
  get compactingUnasked(): boolean {
    return this.bracket?.unasked === true;
  }

  get agentStarts(): number {
    return this.starts;
  }

  /** A plain prompt was accepted; `startsBefore` is `agentStarts` when it was sent. */
  promptAccepted(startsBefore: number): void {
    if (this.starts === startsBefore) this.pendingStarts++;
  }

  /** The number the next plain prompt's provenance is recorded under (see dropProvenance). */
  get nextPrompt(): number {
    return this.recorded;
  }

  /**
   * The prompt recorded under `seq` starts no turn (the worker refused it, or handled it
   * otherwise): its origin must not stamp the next turn, nor every one after.
   */
  dropProvenance(seq: number): void {
    this.dropRecord((p) => p.seq === seq);
  }

  private dropRecord(match: (p: Provenance & { seq: number }) => boolean): void {
    const i = this.provenance.findIndex(match);
    if (i >= 0) this.provenance.splice(i, 1);
  }

  /**
   * The worker exited: the turn a prompt would have started is not coming, and a running turn
   * ends here, cut short; the exit event is stamped as its end.
   */
  private exited(e: AgentEvent): void {
    const turn = this.current;
    if (turn) {
      turn.endedAt = e.timestamp;
      turn.endReason = e.data?.status === 'stopped' ? 'stopped' : 'worker_exited';
      // The worker's last end is this one: the history's summary says what its log says.
      this.lastEndReason = turn.endReason;
      e.turn = { index: turn.index, ends: true };
      e.end_reason ??= turn.endReason;
    }
    this.phase = 'idle';
    this.pendingStarts = 0;
    this.compacting = false;
    this.bracket = null;
    // No prompt sent before the exit starts a turn now.
    this.provenance.length = 0;
  }

  /**
   * The worker says it is idle while the host believed it streaming: the turn's end (or the
   * turn itself) was lost. Waiters are released with `error`.
   */
  private lost(error: string, at: number): void {
    if (!this.streaming) return;
    this.pendingStarts = 0;
    // The worker is idle: no prompt it took is still to start a turn.
    this.provenance.length = 0;
    this.lastEndReason = null;
    this.lastError = error;
    this.lastNeedsLogin = false;
    const turn = this.current;
    if (turn) {
      turn.error = error;
      delete turn.needsLogin;
      delete turn.login;
    }
    // An idle worker compacts no more inside the turn either (its pair's end was lost with it).
    if (this.inTurn && this.bracket) {
      if (this.bracket.unasked) this.compacting = false;
      this.bracket = null;
    }
    if (this.inTurn) this.settle(null, error, at, null);
    else {
      // An accepted prompt whose turn never began: no turn to end, but the host still says it settled.
      const settlement = { endReason: null, error, at };
      this.onSettled(settlement);
      this.unannounced = { index: null, settlement };
    }
  }

  get current(): TurnSummary | undefined {
    return this.inTurn ? this.turns[this.turns.length - 1] : undefined;
  }

  /**
   * Folds in one event, the worker's or the host's own, and stamps it. Returns the host's own
   * agent_settled to deliver right after it when the event settled the turn without being one
   * (pi 0.73.1 and τ send none; a lost end found by a state check), so that every turn of every
   * worker ends with one agent_settled; or its compaction_start/_end when the event began or
   * ended a compaction the worker said only with its agent_start/agent_end (τ's own).
   */
  observe(e: AgentEvent): AgentEvent | null {
    // An earlier session's events, replayed while it reopens: history, not this worker's turns.
    if (e.replayed) return null;
    // Events come unstamped: a worker's own `turn` field is kept in `data` by its codec.
    this.fold(e);
    if (!e.turn) this.stampInTurn(e);
    return this.settledEvent(e.timestamp) ?? this.takeAnnounced();
  }

  private takeAnnounced(): AgentEvent | null {
    const e = this.announced;
    this.announced = null;
    return e;
  }

  private stampInTurn(e: AgentEvent): void {
    // One frozen stamp shared by the turn's events: no allocation per event.
    if (this.inTurn) e.turn = this.inTurnStamp;
  }

  /** The host's agent_settled for a turn that settled without one, once. */
  private settledEvent(at: number): AgentEvent | null {
    const u = this.unannounced;
    if (!u) return null;
    this.unannounced = null;
    const e: AgentEvent = { type: 'agent_settled', timestamp: at, data: { aborted: u.settlement.endReason === 'aborted', synthesized: true } };
    this.describe(e, u);
    return e;
  }

  /** The turn's ending event says how it ended. */
  private describe(e: AgentEvent, u: { index: number | null; settlement: Settlement }): void {
    if (u.index !== null) e.turn = { index: u.index, ends: true };
    e.end_reason ??= u.settlement.endReason;
    if (u.settlement.error) {
      e.is_error = true;
      e.error ??= u.settlement.error;
    }
    // The page's "Turn ended" row is this event's: it says the login too.
    if (u.settlement.needsLogin) e.data = { ...e.data, needsLogin: true };
  }

  private fold(e: AgentEvent): void {
    // A type the host does not know tells it nothing of turns.
    if (!isKnownEvent(e)) return;
    switch (e.type) {
      // The host's own events: what it sent, what it found, how the worker went.
      case 'prompt_sent':
        // A plain prompt starts a turn whose agent_start (pi's) will not say who asked.
        if (!e.data?.streamingBehavior) this.provenance.push({ seq: this.recorded++, source: e.source ?? undefined, submitter: e.submitter ?? undefined, submissionId: e.submission_id ?? undefined, correlation: e.correlation ?? undefined });
        return;
      case 'state_resync':
        this.lost(e.error ?? 'the worker is idle', e.timestamp);
        return;
      case 'worker_exit':
        this.exited(e);
        return;
      case 'agent_start':
        // A compaction's own pair names no submission: the one the host asked for, or any from a
        // worker that stamps its turns (τ's automatic compaction, after a turn or inside one).
        if (e.submission_id) this.seenStamp = true;
        else if ((this.stampsTurns && this.seenStamp) || (this.compacting && !this.inTurn)) {
          this.openBracket(e);
          return;
        }
        this.begin(e);
        return;
      case 'agent_end':
        if (this.bracket) {
          this.closeBracket(e);
          return;
        }
        this.end(e);
        return;
      case 'agent_settled':
        this.sendsSettled = true;
        if (!this.inTurn) return;
        // pi 1.x says the person's abort ended the run: a retry it was waiting to make, or a
        // continuation, was cancelled, whatever the last run's own end said.
        if (e.data?.aborted === true) {
          this.lastEndReason = 'aborted';
          this.lastError = null;
          this.lastNeedsLogin = false;
          if (this.current) this.current.endReason = 'aborted';
        }
        this.settle(this.lastEndReason, this.lastError, e.timestamp, e);
        return;
      case 'auto_retry_start':
        // pi 0.73.1 says it retries only after the failed run's agent_end, which ended the turn:
        // the retry is a turn of its own, begun by the worker, not by the next prompt, and begun
        // here: pi waits out the retry's delay before its run, busy (a prompt is refused, an
        // abort cancels the retry).
        if (this.phase === 'idle') this.begin(e, true);
        else if (this.phase !== 'runEnded') return;
        this.phase = 'retrying';
        return;
      case 'auto_retry_end':
        // pi 0.73.1's abort cancels the retry it waits to make ("Retry cancelled") and sends no
        // more: the retry's turn ends here (pi 1.x's agent_settled ends it).
        if (this.phase === 'retrying' && e.data?.success === false && !this.sendsSettled) this.retryCancelled(e);
        return;
      case 'queue_update': {
        const d = e.data ?? {};
        const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
        this.queued = count(d.steering) + count(d.followUp);
        return;
      }
      case 'compaction_start':
        this.compacting = true;
        return;
      case 'compaction_end':
        this.compacting = false;
        return;
      case 'side_completion_end':
        // The summary's model call inside the pair (τ) is how a failed compaction shows.
        if (this.bracket?.unasked && e.is_error) this.bracket.error = e.error ?? 'the compaction failed';
        return;
      case 'tool_execution_start':
        this.toolStart(e);
        return;
      case 'tool_execution_end':
        this.toolEnd(e);
        return;
      case 'message_update':
        // The model writing after a call ended went on from it: an abort then cuts the reply, not the
        // call. In its turn only, and not a compaction's summary (τ streams one inside a run or after it).
        if (this.wentOn.pending && this.inTurn && !this.bracket && typeof e.delta === 'string' && e.delta !== '') this.wentOn.goneOn();
        return;
      case 'abort_sent': {
        // The host's abort went out: a call of the turn that ends from now on was running under it.
        const turn = this.current;
        if (turn) turn.abortSent = true;
        return;
      }
      case 'guard_violation':
        // Folded here, not only marked by the worker's report: a past session read back says it too.
        if (e.tool_call_id !== undefined) this.markViolation(e.tool_call_id, e.error ?? 'guard violation', e.blocked === true ? (e.blocked_by ?? null) : undefined);
        return;
    }
  }

  private openBracket(e: AgentEvent): void {
    const unasked = !this.compacting;
    this.bracket = { outer: this.inTurn ? this.phase : 'idle', unasked, error: null };
    if (!this.inTurn) this.phase = 'compactionRun';
    if (!unasked) return;
    // τ says its own compaction with this pair alone: the host says it as it says one it asked for.
    this.compacting = true;
    this.announce({ type: 'compaction_start', timestamp: e.timestamp, data: { reason: 'threshold', synthesized: true } });
  }

  /** The pair's end ends the compaction only: a turn it ran inside goes on. */
  private closeBracket(e: AgentEvent): void {
    const { outer, unasked, error } = this.bracket!;
    this.bracket = null;
    this.phase = outer;
    if (!unasked) return;
    this.compacting = false;
    this.announce({ type: 'compaction_end', timestamp: e.timestamp, is_error: error !== null, error, data: { reason: 'threshold', synthesized: true } });
  }

  private announce(e: AgentEvent): void {
    if (this.inTurn) e.turn = this.inTurnStamp;
    this.announced = e;
  }

  /** `blockedBy` (a guard's name, or null) when the guard refused the call before it ran (an ACP question, a write through the host). */
  private markViolation(toolCallId: string | null, violation: string, blockedBy?: string | null): void {
    const tool = this.tool(toolCallId);
    if (!tool) return;
    tool.violation = violation;
    if (blockedBy === undefined) return;
    tool.blocked = true;
    tool.blockedBy = blockedBy;
  }

  /** `retry`: the turn is a retry the worker began itself (pi 0.73.1's auto_retry_start), no prompt's. */
  private begin(e: AgentEvent, retry = false): void {
    // A retry's (or a continuation's) agent_start belongs to the same turn.
    const inTurn = this.inTurn;
    this.phase = 'running';
    if (inTurn) return;
    // A prompt's turn starts with its run; a retry is no prompt's, whichever is awaited.
    if (!retry) {
      this.starts++;
      if (this.pendingStarts > 0) this.pendingStarts--;
    }
    this.toolsById.clear();
    this.wentOn.reset();
    this.turnCount++;
    // A turn the worker stamps (τ) takes its own origin, and its prompt's record goes with it.
    if (e.submission_id) this.dropRecord((p) => p.submissionId === e.submission_id);
    const recorded = e.submission_id || retry ? undefined : this.provenance.shift();
    if (retry) e.source ??= 'retry';
    // The opening event carries the turn's origin: the worker's own (τ), else the one the host
    // recorded when it sent the prompt (pi stamps none).
    this.inTurnStamp = Object.freeze({ index: this.turnCount });
    if (recorded) {
      e.submission_id ??= recorded.submissionId ?? null;
      e.source ??= recorded.source ?? null;
      e.submitter ??= recorded.submitter ?? null;
      if (recorded.correlation) e.correlation = { ...recorded.correlation, ...e.correlation };
    }
    const origin = (typeof e.correlation?.origin === 'string' ? e.correlation.origin : e.source) ?? null;
    e.turn = origin === null ? { index: this.turnCount, opens: true } : { index: this.turnCount, opens: true, origin };
    this.turns.push({
      index: this.turnCount,
      submissionId: e.submission_id ?? null,
      source: origin,
      submitter: e.submitter ?? null,
      startedAt: e.timestamp,
      endedAt: null,
      endReason: null,
      error: null,
      tools: [],
    });
    if (this.turns.length > MAX_TURNS_KEPT) this.turns.shift();
  }

  private end(e: AgentEvent): void {
    if (!this.inTurn) this.begin(e);
    const needsLogin = e.is_error === true && e.data?.needsLogin === true;
    this.recordEnd(e.end_reason ?? null, e.is_error ? (e.error ?? 'the turn ended in an error') : null, needsLogin, needsLogin ? loginOf(e.data?.login) : null);
    this.phase = e.will_retry === true ? 'retrying' : 'runEnded';
    // Messages still queued mean a continuation follows, except after an abort: pi keeps its
    // queue then and goes on with the next prompt only (0.73.1 sends no agent_settled).
    if (e.will_retry || this.sendsSettled || (this.queued > 0 && e.end_reason !== 'aborted')) return;
    e.turn ??= this.inTurnStamp;
    this.settle(this.lastEndReason, this.lastError, e.timestamp, null);
  }

  /** The retry the turn waited to make will not come: cancelled (an abort), or given up. */
  private retryCancelled(e: AgentEvent): void {
    const cancelled = /cancel/i.test(e.error ?? '');
    this.recordEnd(cancelled ? 'aborted' : 'error', cancelled ? null : (e.error ?? 'the retry was given up'));
    e.turn ??= this.inTurnStamp;
    this.settle(this.lastEndReason, this.lastError, e.timestamp, null);
  }

  /** How the running turn's run ended: on the turn, and as the worker's last end. */
  private recordEnd(endReason: string | null, error: string | null, needsLogin = false, login: LoginCommand | null = null): void {
    this.lastEndReason = endReason;
    this.lastError = error;
    this.lastNeedsLogin = needsLogin;
    const turn = this.current;
    if (turn) {
      turn.endReason = endReason;
      turn.error = error;
      if (needsLogin) turn.needsLogin = true;
      else delete turn.needsLogin;
      if (login) turn.login = login;
      else delete turn.login;
    }
  }

  /** `by` is the worker's own agent_settled, or null when the host must say it. */
  private settle(endReason: string | null, error: string | null, at: number, by: AgentEvent | null): void {
    const turn = this.current;
    if (turn) turn.endedAt = at;
    const settlement: Settlement = error !== null && this.lastNeedsLogin ? { endReason, error, needsLogin: true, at } : { endReason, error, at };
    const u = { index: turn ? turn.index : null, settlement };
    if (by) this.describe(by, u);
    else this.unannounced = u;
    this.phase = 'idle';
    this.onSettled(settlement);
  }

  private toolStart(e: AgentEvent): void {
    // An ACP call outside a turn is shown in none: only a prompt's answer could end a turn it opened.
    if (!this.inTurn && this.toolsOpenTurns) this.begin(e);
    const tools = this.current?.tools;
    if (tools) {
      this.wentOn.goneOn();
      const id = e.tool_call_id ?? null;
      const tool: ToolSummary = { toolCallId: id, toolName: e.tool_name ?? null, isError: false, blocked: false, blockedBy: null, violation: null, ended: false };
      tools.push(tool);
      if (!this.toolsById.has(id)) this.toolsById.set(id, tool);
      // Trimmed in steps of a tenth, so a long run does not move the whole list on every call.
      if (tools.length > MAX_TOOLS_PER_TURN + MAX_TOOLS_PER_TURN / 10) {
        for (const old of tools.splice(0, tools.length - MAX_TOOLS_PER_TURN)) {
          if (this.toolsById.get(old.toolCallId) === old) this.toolsById.delete(old.toolCallId);
        }
      }
    }
    if (e.tool_call_id && e.args) this.toolArgs.set(e.tool_call_id, e.args);
  }

  private toolEnd(e: AgentEvent): void {
    // Calls without an id end in the order they started (the map keeps the first of them only).
    const tool = e.tool_call_id === null || e.tool_call_id === undefined
      ? this.current?.tools.find((t) => t.toolCallId === null && !t.ended)
      : this.tool(e.tool_call_id);
    if (tool) {
      if (!tool.ended) {
        this.wentOn.end(tool);
        if (this.current?.abortSent) tool.afterAbort = true;
      }
      tool.ended = true;
      tool.isError = e.is_error === true;
      // A call the host's guard refused before it ran stays blocked whatever the agent reports after.
      if (!tool.blocked) {
        tool.blocked = e.blocked === true;
        tool.blockedBy = e.blocked_by ?? null;
      }
    }
    const args = (e.tool_call_id && this.toolArgs.get(e.tool_call_id)) || e.args;
    if (e.tool_call_id) this.toolArgs.delete(e.tool_call_id);
    if (!e.is_error && !e.blocked && args && WRITE_TOOLS.has(String(e.tool_name))) {
      const path = args.path ?? args.file_path ?? args.filePath;
      if (typeof path === 'string') this.touched(path);
    }
  }

  /** A tool call of the current turn: a map lookup, since a long run makes thousands. */
  private tool(toolCallId: string | null | undefined): ToolSummary | undefined {
    return this.inTurn && toolCallId !== undefined ? this.toolsById.get(toolCallId) : undefined;
  }

  private touched(path: string): void {
    const abs = resolve(this.cwd, path);
    const i = this.filesTouched.indexOf(abs);
    if (i !== -1) this.filesTouched.splice(i, 1);
    this.filesTouched.push(abs);
    if (this.filesTouched.length > MAX_FILES_KEPT) this.filesTouched.shift();
  }
}

/** The login command an agent_end names (the ACP codec's `data.login`), checked: a worker's own data is not trusted to have the shape. */
function loginOf(value: unknown): LoginCommand | null {
  const v = value as { label?: unknown; line?: unknown } | null | undefined;
  return v && typeof v.label === 'string' && typeof v.line === 'string' && v.line ? { label: v.label, line: v.line } : null;
}
