// The host's audit of each tool call, for workers it cannot load a guard into (τ, others): after
// the fact, not a sandbox, since the call may already be running when its arguments are judged.
// τ's events carry no arguments, so they are read from the worker's messages.
import type { AgentEvent, Untimed } from '../events/agentEvent';
import { auditKindCall, auditToolCall, extractPaths, extractRelativeNames, WRITING_KINDS } from '../guard/audit';
import type { Dialect } from '../wire/dialect';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Launch } from './launch';
import type { TurnTracker } from './turns';
import { keepNewest } from '../keepNewest';

/** What the audit reads and does in its worker. */
export interface AuditPort {
  readonly cwd: string;
  readonly dialect: Dialect;
  readonly connection: MessageConnection;
  readonly turns: TurnTracker;
  /** A request to the worker, bounded by the command timeout and by its exit. */
  request<T>(pending: Promise<T>, what: string): Promise<T>;
  /** The host's finding, as a guard_violation event marked on its tool call. */
  report(event: Untimed): void;
  abort(): Promise<unknown>;
  /** Its stdin broke while it runs on: nothing sent reaches it, not an abort (WorkerProcess.inputLost). */
  inputLost(): boolean;
  /** Stops the worker as the person's Stop does (the supervisor's: its tree, its cgroup, the lists). */
  stop(): Promise<unknown>;
  /** A Stop of it (the person's, or the guard's own) is under way: the turn ends with it. */
  stopping(): boolean;
  /** Calls `listener` once its input is found lost, before its state says so; the returned function takes it back. */
  onceInputLost(listener: () => void): () => void;
  /** Messages written to its stdin so far, and the number of the first it refused (null: none); see WorkerProcess. */
  messagesSent(): number;
  firstUnsent(): number | null;
}

/** What a violation's row says when the guard stopped the worker: its abort could not be sent. */
const STOPPED_UNTOLD = 'the worker could not be told to abort its turn (it no longer reads its input), so it was stopped';
/** The same, when a Stop was already under way: the turn ends with it. */
const BEING_STOPPED = 'the worker no longer reads its input and is being stopped';

export async function auditToolCallOf(w: AuditPort, audit: NonNullable<Launch['audit']>, event: AgentEvent): Promise<void> {
  const { policy, onViolation } = audit;
  const toolName = event.tool_name ?? '';
  const violation = (error: string, action?: string) => ({ type: 'guard_violation' as const, tool_call_id: event.tool_call_id ?? null, tool_name: toolName, is_error: true, error, ...(action ? { data: { action } } : {}) });
  // A worker that no longer reads its input cannot be told to abort: the turn a violation should
  // end would go on (its write with it), so the guard keeps its word the one way left, a Stop.
  const stopUntold = async (error: string) => {
    // Its Stop already under way ends the turn: said as found, not as the guard's stop (whose
    // notification would blame the guard for the person's Stop), and not stopped twice.
    if (w.stopping()) return w.report(violation(`${error}; ${BEING_STOPPED}`, onViolation));
    w.report(violation(`${error}; ${STOPPED_UNTOLD}`, 'stop'));
    await w.stop();
  };
  const mustEnd = () => onViolation === 'abort' && w.turns.streaming;
  // The guard's own write (its read of the call, its abort) may be what finds the input lost: its
  // stop is then said as the loss is found, before the state that says it, so the stop's
  // notification says it all and "not reading its input: stop it" is not said first, stale at
  // once (workerAttention.ts). `why`: what the stop is for, or null when the guard does not stop.
  const said = { stop: false };
  const ownWrite = async <T>(send: () => Promise<T>, why: () => string | null): Promise<T> => {
    const before = w.messagesSent();
    // Its messages are written as it is sent (the connection writes at once): those numbered past
    // `before` up to `upTo`. One of them refused means the rest were too (jsonlWriter.ts); a
    // refusal past them says nothing of whether they were read.
    let upTo = Infinity;
    const off = w.onceInputLost(() => {
      const unsent = w.firstUnsent();
      const error = unsent !== null && unsent > before && unsent <= upTo && !w.stopping() ? why() : null;
      if (error === null) return;
      said.stop = true;
      w.report(violation(`${error}; ${STOPPED_UNTOLD}`, 'stop'));
    });
    try {
      const sent = send();
      upTo = w.messagesSent();
      return await sent;
    } finally {
      off();
    }
  };
  const unread = "the guard could not read the call's arguments";
  let args: unknown = event.args;
  if (args === undefined && event.tool_call_id && w.dialect.toolCallArgs) {
    const id = event.tool_call_id;
    const read = w.dialect.toolCallArgs;
    try {
      args = await ownWrite(() => w.request(read(w.connection, id), 'reading the tool call\'s arguments'), () => (mustEnd() && auditToolCall(policy, toolName, {}, w.cwd).violation ? unread : null));
    } catch (error) {
      if (said.stop) return void (await w.stop());
      // Unread for good: a call that passes whatever it names (a read) still passes; any other is
      // one the guard can neither judge nor abort.
      if (w.inputLost() && mustEnd() && auditToolCall(policy, toolName, {}, w.cwd).violation) return stopUntold(unread);
      w.report(violation(`the guard could not read the call's arguments: ${(error as Error).message}`));
      return;
    }
  }
  // An agent that says what its call does (ACP's kinds) is judged by that and every path it names.
  const verdict = event.tool_kind
    ? await auditKindCall(policy, event.tool_kind, [...new Set([...(event.locations ?? []).map((l) => l.path), ...(event.diffs ?? []).map((d) => d.path), ...extractPaths(args ?? {})])], w.cwd, extractRelativeNames(args ?? {}), event.title)
    : auditToolCall(policy, toolName, args ?? {}, w.cwd);
  if (!verdict.violation) return;
  if (mustEnd() && w.inputLost()) return stopUntold(verdict.violation);
  w.report({ ...violation(verdict.violation, onViolation), args: (args ?? null) as Record<string, unknown> | null });
  if (!mustEnd()) return;
  // The abort's own write found the input lost: said on the call, and the worker stopped.
  await ownWrite(() => w.abort(), () => (w.turns.streaming ? verdict.violation : null));
  if (said.stop) await w.stop();
  // Found lost by anything else as it aborted (a probe of its stdin) with the turn going on.
  else if (w.inputLost() && w.turns.streaming && !w.stopping()) await stopUntold(verdict.violation);
}

/** The paths a report of a call names as where it acts: its locations and diffs. */
function reportedPaths(event: AgentEvent): string[] {
  return [...(event.locations ?? []).map((l) => l.path), ...(event.diffs ?? []).map((d) => d.path)];
}

/** The paths an event of a call names itself: its locations and diffs, and what its input names. */
function pathsOf(event: AgentEvent): string[] {
  return event.args ? [...reportedPaths(event), ...extractPaths(event.args)] : reportedPaths(event);
}

/** A call's reports. */
const TOOL_EVENTS = new Set(['tool_execution_start', 'tool_execution_update', 'tool_execution_end']);
/** Calls remembered as seen: far more than a session's calls in flight at once. */
const SEEN_KEPT = 10_000;
/** Changing calls followed as they run: far more than run at once; one never said to end is forgotten, oldest first. */
const RUNNING_KEPT = 1_000;

/** The audit of calls as they run, holding back a call reported pending until it runs. */
export class AuditWhenRun {
  private readonly later = new Map<string, AgentEvent>();
  /** Calls still held when their turn ended, let go (their input with them): ids only, at most SEEN_KEPT. */
  private readonly letGo = new Set<string>();
  /**
   * Those let go at the last turn's end, with what they said while held, until the next turn's
   * end: one that runs after all, said by its status alone (ACP's bare tool_call_update), is judged
   * with it. Never more than `later` held at one turn's end.
   */
  private lastHeld = new Map<string, AgentEvent>();
  /**
   * Calls of a changing kind audited as they ran, until they end: their start and the paths
   * judged. An update that names another path (Zed's codex-acp reports a patch's changes again as
   * it applies them and as it ends) is audited for it: a path said only after the call started
   * ran unjudged. Kept past its turn's end, as `seen` is: an update after it was not judged.
   */
  private readonly running = new Map<string, { start: Pick<AgentEvent, 'tool_kind' | 'tool_name' | 'title'>; judged: Set<string> }>();
  /** The paths each running call's reports named (locations, diffs), until it ends. */
  private readonly named = new Map<string, string[]>();
  /**
   * Every call seen (reported, or judged by the wall), so a call first reported past its start
   * (an ACP tool_call already "completed", a tool_call_update with no tool_call before it) is
   * audited then, once. Kept across turns (an update may come after its turn ended), the oldest
   * forgotten past SEEN_KEPT.
   */
  private readonly seen = new Set<string>();

  constructor(private readonly audit: (event: AgentEvent) => Promise<void>) {}

  /**
   * The paths a call's own reports named before its question: the wall judges them with it.
   * codex-acp 2.6.0 reports a move's destination only in its call's diff and asks about its
   * source only (the question's locations), so neither alone names both ends.
   */
  namedBy(toolCallId: string): string[] {
    return this.named.get(toolCallId) ?? [];
  }

  private remember(event: AgentEvent): void {
    const id = event.tool_call_id;
    if (!id) return;
    if (event.type === 'tool_execution_end') {
      this.named.delete(id);
      return;
    }
    // A tool's streamed output names no path: nothing allocated for it.
    if (!event.locations?.length && !event.diffs?.length) return;
    this.named.set(id, [...new Set([...(this.named.get(id) ?? []), ...reportedPaths(event)])]);
  }

  /** A call the wall judged as a question before it could run is not audited again. */
  judged(toolCallId: string): void {
    this.saw(toolCallId);
    this.later.delete(toolCallId);
    this.letGo.delete(toolCallId);
    this.lastHeld.delete(toolCallId);
    this.running.delete(toolCallId);
  }

  /**
   * Whether `id` is seen for the first time; it is seen from now on. A call seen again moves to the
   * newest place: the oldest forgotten is the one longest silent, not a call still reporting.
   */
  private saw(id: string): boolean {
    const known = this.seen.delete(id);
    this.seen.add(id);
    if (!known) keepNewest(this.seen, SEEN_KEPT);
    return !known;
  }

  /** Audits `event` as its call's, and remembers a changing call's paths for its later updates. */
  private run(id: string | null | undefined, event: AgentEvent): void {
    // An end has no updates after it to judge.
    if (id && event.type !== 'tool_execution_end' && WRITING_KINDS.has(event.tool_kind ?? '')) {
      // What the later audits need of the start, not its input (a write's whole text).
      this.running.set(id, { start: { tool_kind: event.tool_kind, tool_name: event.tool_name, title: event.title }, judged: new Set(pathsOf(event)) });
      keepNewest(this.running, RUNNING_KEPT);
    }
    void this.audit(event);
  }

  /** An update of a running changing call that names a path not yet judged is audited for what it names. */
  private more(id: string, event: AgentEvent): void {
    const call = this.running.get(id);
    if (!call) return;
    if (event.type === 'tool_execution_end') this.running.delete(id);
    const fresh = pathsOf(event).filter((p) => !call.judged.has(p));
    if (fresh.length === 0) return;
    for (const p of fresh) call.judged.add(p);
    const { start } = call;
    // Only the fresh paths: judged whole, an update that repeats a path already flagged flagged
    // it again, and its first finding hid the new path's. The input's paths are among `fresh`
    // already (pathsOf), in the same spelling, so it is not handed on to be read again.
    void this.audit({ ...event, tool_kind: start.tool_kind, tool_name: start.tool_name, title: start.title, args: {}, locations: fresh.map((p) => ({ path: p, line: null })), diffs: null });
  }

  /**
   * A call reported pending (an ACP agent that may still ask) is judged when it runs; one the
   * agent asked about was judged as a question (the wall), before it could run.
   */
  see(event: AgentEvent): void {
    // A turn's end ends its calls for the wall, whether or not each was said to end. A changing
    // call is still followed (running): an update that comes after the end, as `seen` allows for,
    // and names another path was not audited at all (not first seen, and no longer running).
    if (event.type === 'agent_end') {
      this.named.clear();
      // A call still held at its turn's end never ran in it: it is let go, its input with it (see
      // letGo for a report of it after the end).
      for (const held of this.later.keys()) this.letGo.add(held);
      keepNewest(this.letGo, SEEN_KEPT);
      this.lastHeld = new Map(this.later);
      this.later.clear();
    } else this.remember(event);
    const id = event.tool_call_id;
    const status = (event.data as { status?: unknown } | null | undefined)?.status;
    // A call first seen past its start is audited as it is seen, as its start would have been.
    // A report that says nothing of its call (the host's own terminal output, which can come before
    // the agent's tool_call) is not its first: it has nothing to judge, and would take the start's place.
    const report = !!id && TOOL_EVENTS.has(event.type);
    const says = report && saysWhatItIs(event);
    const first = says && this.saw(id!);
    // Still reporting, though it says nothing of itself: not the call to forget first.
    if (report && !says && this.seen.delete(id)) this.seen.add(id);
    if (event.type === 'tool_execution_start' || first) {
      if (status === 'pending' && id) this.later.set(id, event);
      else this.run(id, event);
      return;
    }
    if (!id) return;
    // A call let go at its turn's end and reported after it: one that ends without running is done
    // with; one whose held report is still kept is held again, and judged with it as it runs (below);
    // otherwise one that says what it is is audited then, as a call first seen past its start (as a
    // running call's update after the end is). A bare report (its status only) has nothing to judge.
    if (this.letGo.has(id) && TOOL_EVENTS.has(event.type)) {
      const kept = this.lastHeld.get(id);
      this.lastHeld.delete(id);
      if (event.type === 'tool_execution_end' && status !== 'completed') {
        this.letGo.delete(id);
        return;
      }
      if (!kept) {
        if (saysWhatItIs(event)) {
          this.letGo.delete(id);
          if (status === 'pending') this.later.set(id, event);
          else this.run(id, event);
        }
        return;
      }
      this.letGo.delete(id);
      this.later.set(id, kept);
    }
    if (!this.later.has(id)) {
      this.more(id, event);
      return;
    }
    if (event.type === 'tool_execution_end' && status !== 'completed') {
      this.later.delete(id);
      return;
    }
    const start = this.later.get(id)!;
    // What an update of a pending call says (its input, the paths it names) is judged when it runs,
    // with every path said before: an update replaces the call's locations, not what it named.
    // Each path once (an agent that reports a call's diff again at every update would grow it by a
    // copy each time), its latest report's.
    const held: AgentEvent = { ...start, args: event.args ?? start.args, locations: byPath(start.locations, event.locations), diffs: byPath(start.diffs, event.diffs) };
    if (status === 'in_progress' || status === 'completed') {
      this.later.delete(id);
      this.run(id, held);
    } else this.later.set(id, held);
  }
}

/** `before` then `now`, each path once, as `now` last said it, in the order first named. */
function byPath<T extends { path: string }>(before: readonly T[] | null | undefined, now: readonly T[] | null | undefined): T[] {
  const out = new Map<string, T>();
  for (const x of [...(before ?? []), ...(now ?? [])]) out.set(x.path, x);
  return [...out.values()];
}

/** Whether a report names its call's tool or what it acts on: only such a report can be judged. */
function saysWhatItIs(event: AgentEvent): boolean {
  return !!(event.tool_kind || event.tool_name || event.args || event.locations?.length || event.diffs?.length);
}
