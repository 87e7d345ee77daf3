// The event log's model: AgentEvents of either dialect folded into entries a person reads
// (a prompt, a turn, assistant text assembled from its deltas, thinking, a tool call with its
// streamed output, an end reason, a compaction, a queue change, a retry, a warning). Pure, no
// DOM: the renderer draws entries, the tests feed events. Entries are capped: the oldest fall
// out and are counted.
// What a turn is, who started it and how it ended is the host's word, stamped on the events
// (`turn`, see core/events/agentEvent.ts): this model groups by the stamps and counts nothing.
import type { PageEvent } from '../protocol/messages';
import type { CompactionEntry, EndEntry, Entry, PlanEntry, PromptEntry, QuestionEntry, TextEntry, ToolEntry, TurnEntry, WarningEntry } from './entries';
import { cutNotice, exitLine, NOTICES, other, sessionMark, stateResync, type NewEntry } from './notices';
import { messageText, optionNames, resultText } from '../protocol/eventText';
import { plainText } from '../protocol/plainText';
import { capTail, changesOf, MAX_OUTPUT, MAX_TEXT, obj, provOf, str, terminalsOf } from './payload';
import { cutByThePerson, guardHeading, WentOn } from '../protocol/callEnd';

export const MAX_ENTRIES = 20_000;

export class LogModel {
  readonly entries: Entry[] = [];
  /** Entries that fell out of the cap. */
  dropped = 0;
  /** Events folded so far (a test reads it). */
  eventCount = 0;
  private seq = 0;
  private head = 0; // entries[0..head) are dropped lazily, for O(1) trimming
  private text: TextEntry | null = null;
  private thinking: TextEntry | null = null;
  private readonly tools = new Map<string, ToolEntry>();
  /** The turn's calls, for the judgement of those its end cut short (protocol/callEnd.ts). */
  private turnCalls: ToolEntry[] = [];
  /** Its calls that ended since the model last went on from them. */
  private readonly wentOn = new WentOn<ToolEntry>();
  /** The host sent the turn an abort (`abort_sent`): a call that ends from then on ran under it. */
  private abortSent = false;
  /** Calls whose end the worker never reported (their run's end ended them). */
  private readonly unreported = new WeakSet<ToolEntry>();
  private readonly questions = new Map<string, QuestionEntry>();
  private plan: PlanEntry | null = null;
  private userText: PromptEntry | null = null;
  private compaction: CompactionEntry | null = null;
  /** Entries changed since the renderer last asked. */
  readonly dirty = new Set<Entry>();
  /**
   * The event (its place among those folded, from 0) that made each entry: an entry of a past
   * log's page is found again in the next page, whose entries have other ids (eventList.ts).
   */
  private readonly madeBy = new Map<number, number>();
  /** One event's entries, noted as it is folded (see `watch`). */
  private watched: { event: number; made: number[]; touched: number[] } | null = null;
  /** How the worker's agent takes a key (WorkerView `login`), for a turn it refused for want of one. */
  login: string | null = null;
  /**
   * The log is a past session's (no worker behind it, read a page at a time): a question in it
   * waits for no one, and its answer may lie on a page not drawn.
   */
  pastSession = false;

  constructor(readonly maxEntries = MAX_ENTRIES) {}

  get length(): number {
    return this.entries.length - this.head;
  }

  /** The live entries, oldest first. */
  all(): Entry[] {
    return this.head ? this.entries.slice(this.head) : this.entries;
  }

  at(i: number): Entry {
    return this.entries[this.head + i];
  }

  private add<E extends Entry>(entry: Omit<E, 'id' | 'version'> | NewEntry): E {
    const e = { ...entry, id: ++this.seq, version: 0 } as E;
    this.entries.push(e);
    this.madeBy.set(e.id, this.eventCount - 1);
    if (this.watched?.event === this.eventCount - 1) this.watched.made.push(e.id);
    if (this.entries.length - this.head > this.maxEntries) {
      const gone = this.entries[this.head];
      this.head++;
      this.dropped++;
      this.forget(gone);
      if (this.head > 4096) {
        this.entries.splice(0, this.head);
        this.head = 0;
      }
    }
    this.dirty.add(e);
    return e;
  }

  /**
   * Note the entries the event at place `event` (among those folded, from 0) makes, and those it
   * carries on (a reply's delta, a tool call's output): the same event may make an entry on one
   * page of a past log and carry one on in the page before, whose fold began earlier.
   */
  watch(event: number): void {
    this.watched = { event, made: [], touched: [] };
  }

  /** What the watched event made and carried on, in order; null until it is folded. */
  watchedEntries(): { made: readonly number[]; touched: readonly number[] } | null {
    const w = this.watched;
    return w && this.eventCount > w.event ? w : null;
  }

  /** The place among the events folded of the event that made entry `id` (-1: not kept). */
  madeByEvent(id: number): number {
    return this.madeBy.get(id) ?? -1;
  }

  private forget(e: Entry): void {
    this.dirty.delete(e);
    this.madeBy.delete(e.id);
    if (e.kind === 'tool' && e.toolCallId && this.tools.get(e.toolCallId) === e) this.tools.delete(e.toolCallId);
    if (this.text === e) this.text = null;
    if (this.thinking === e) this.thinking = null;
    if (this.compaction === e) this.compaction = null;
    if (this.plan === e) this.plan = null;
    if (this.userText === e) this.userText = null;
    if (e.kind === 'question') for (const [k, q] of this.questions) if (q === e) this.questions.delete(k);
  }

  private touch(e: Entry): void {
    e.version++;
    this.dirty.add(e);
    const w = this.watched;
    if (w?.event === this.eventCount - 1 && !w.made.includes(e.id) && !w.touched.includes(e.id)) w.touched.push(e.id);
  }

  apply(events: readonly PageEvent[]): void {
    for (const e of events) this.fold(e);
  }

  fold(e: PageEvent): void {
    this.eventCount++;
    const t = e.timestamp;
    if (e.turn?.opens) {
      this.closeMessage();
      this.plan = null;
      this.add<TurnEntry>({ kind: 'turn', time: t, index: e.turn.index, prov: provOf(e, e.turn.origin ?? null) });
    }
    const cut = cutNotice(e, t);
    if (cut) this.add(cut);
    switch (e.type) {
      case 'prompt_sent': return this.promptSent(e, t);
      case 'agent_start': return this.closeMessage();
      case 'message_start': return this.closeMessage();
      case 'message_update': return this.messageUpdate(e, t);
      case 'message_end': return this.messageEnd(e, t);
      case 'tool_execution_start': return this.toolExecutionStart(e, t);
      case 'tool_execution_update': return this.toolExecutionUpdate(e, t);
      case 'tool_execution_end': return this.toolExecutionEnd(e, t);
      case 'permission_request': return this.permissionRequest(e, t);
      case 'permission_end': return this.permissionEnd(e);
      case 'ui_dialog': return this.uiDialog(e, t);
      case 'ui_dialog_end': return this.uiDialogEnd(e);
      case 'plan': return this.planUpdate(e, t);
      case 'user_message': return this.userMessage(e, t);
      case 'guard_violation': return this.guardViolation(e, t);
      case 'agent_end': return this.agentEnd(e, t);
      case 'agent_settled': return this.agentSettled(e, t);
      case 'compaction_start': return this.compactionStart(e, t);
      case 'compaction_end': return this.compactionEnd(e, t);
      case 'state_resync': return this.notice(e, t, stateResync, true);
      case 'session_resumed':
        // A new worker's log (a resumed session's): what the earlier one asked is moot, and its
        // ids (permission-1…) are the new worker's again.
        this.closeQuestions('the worker that asked has ended', true);
        return this.notice(e, t, sessionMark, true);
      case 'session_changed': case 'model_changed': return this.notice(e, t, sessionMark, true);
      case 'worker_exit': return this.workerExit(e, t);
      case 'abort_sent': this.abortSent = true; return;
      default: return this.notice(e, t, NOTICES.get(e.type) ?? other, false);
    }
  }

  /** `prompt_sent`. */
  private promptSent(e: PageEvent, t: number): void {
    const d = obj(e.data);
    const behavior = d?.streamingBehavior === 'steer' || d?.streamingBehavior === 'followUp' ? d.streamingBehavior : null;
    this.add<PromptEntry>({ kind: 'prompt', time: t, text: capTail(str(d?.text) ?? '', MAX_TEXT), behavior, prov: provOf(e, e.source ?? null) });
  }

  /** `message_update`. */
  private messageUpdate(e: PageEvent, t: number): void {
    if (typeof e.delta !== 'string') return;
    // The model writing after a call ended went on from it: an abort then cuts the reply, not the call.
    if (e.delta !== '') this.wentOn.goneOn();
    const kind = e.block_type === 'thinking' ? 'thinking' : 'assistant';
    let entry = kind === 'thinking' ? this.thinking : this.text;
    if (!entry) {
      entry = this.add<TextEntry>({ kind, time: t, text: '', streaming: true, stopReason: null });
      if (kind === 'thinking') this.thinking = entry;
      else this.text = entry;
    }
    entry.text = e.replace ? e.delta : entry.text.length + e.delta.length > MAX_TEXT ? capTail(entry.text + e.delta, MAX_TEXT) : entry.text + e.delta;
    this.touch(entry);
  }

  /** `message_end`. */
  private messageEnd(e: PageEvent, t: number): void {
    const role = str(obj(e.message)?.role);
    if (role !== null && role !== 'assistant') {
      this.closeMessage();
      return;
    }
    // A worker that sent no deltas: the whole message is in message_end.
    if (!this.text) {
      const whole = messageText(e.message, 'text');
      if (whole) this.text = this.add<TextEntry>({ kind: 'assistant', time: t, text: capTail(whole, MAX_TEXT), streaming: false, stopReason: null });
    }
    if (!this.thinking) {
      const whole = messageText(e.message, 'thinking');
      if (whole) this.thinking = this.add<TextEntry>({ kind: 'thinking', time: t, text: capTail(whole, MAX_TEXT), streaming: false, stopReason: null });
    }
    if (this.text) this.text.stopReason = e.stop_reason ?? null;
    this.closeMessage();
  }

  /** `tool_execution_start`. */
  private toolExecutionStart(e: PageEvent, t: number): void {
    this.closeMessage();
    // The calls that ended before this one started were not cut by an abort that comes later.
    this.wentOn.goneOn();
    const entry = this.add<ToolEntry>({
      kind: 'tool', time: t, toolCallId: e.tool_call_id ?? null, name: e.tool_name ?? 'tool', title: e.title ?? null, changes: changesOf(e.diffs), args: e.args ?? null, output: '', result: null,
      startedAt: t, endedAt: null, isError: false, blocked: false, blockedBy: null, reason: null, violation: null, ...this.pastMark(),
    });
    if (entry.toolCallId) this.tools.set(entry.toolCallId, entry);
    this.turnCalls.push(entry);
    this.learnTool(entry, e);
  }

  /** `tool_execution_update`. */
  private toolExecutionUpdate(e: PageEvent, _t: number): void {
    const entry = this.tool(e);
    this.learnTool(entry, e);
    // The dialect says whether the update is the output so far (`replace`) or a chunk to add.
    if (e.result !== undefined && e.result !== null) entry.output = capTail(e.replace ? resultText(e.result) : entry.output + resultText(e.result), MAX_OUTPUT);
    this.touch(entry);
  }

  /** `tool_execution_end`. */
  private toolExecutionEnd(e: PageEvent, t: number): void {
    const entry = this.tool(e);
    this.learnTool(entry, e);
    if (entry.endedAt === null) {
      this.wentOn.end(entry);
      if (this.abortSent) entry.afterAbort = true;
    }
    entry.endedAt = t;
    entry.isError = e.is_error === true;
    entry.result = capTail(resultText(e.result), MAX_OUTPUT);
    // A call the host's guard refused before it ran stays blocked whatever the agent reports after.
    if (e.blocked === true) {
      entry.blocked = true;
      entry.blockedBy = e.blocked_by ?? null;
      entry.reason = e.error ?? str(obj(e.data)?.reason) ?? entry.result;
    }
    if (entry.toolCallId) this.tools.delete(entry.toolCallId);
    this.touch(entry);
  }

  /** `permission_request`: the worker asks the person before a tool runs. */
  private permissionRequest(e: PageEvent, t: number): void {
    const d = obj(e.data) ?? {};
    this.openQuestion(str(d.id), { time: t, title: e.title ?? 'A tool call', command: str(d.command), options: optionNames(d.options), note: null });
    if (e.tool_call_id) {
      const tool = this.tools.get(e.tool_call_id);
      if (tool) this.learnTool(tool, e);
    }
  }

  /** `permission_end`: the question's answer, or none (cancelled). */
  private permissionEnd(e: PageEvent): void {
    const d = obj(e.data) ?? {};
    this.endQuestion(str(d.id), str(d.optionName), e.error ?? str(d.note));
  }

  /**
   * `ui_dialog`: a pi extension asks the person (select, confirm, input, editor). Shown without
   * the terminal's escape codes its extension coloured them with (kept as they came in the event).
   */
  private uiDialog(e: PageEvent, t: number): void {
    const d = obj(e.data) ?? {};
    const options = optionNames(d.options).map(plainText);
    const message = str(d.message);
    this.openQuestion(str(d.id), { time: t, title: plainText(e.title ?? 'An extension asks'), command: null, options, note: message === null ? null : plainText(message) });
  }

  /** `ui_dialog_end`: the option picked, "answered" for typed text (not kept), or why none came. */
  private uiDialogEnd(e: PageEvent): void {
    const d = obj(e.data) ?? {};
    this.endQuestion(str(d.id), d.outcome === 'answered' ? plainText(str(d.answer) ?? 'answered') : null, str(d.note) ?? undefined);
  }

  /** What a row opened in a past session's log carries: its end may lie on a page not drawn. */
  private pastMark(): { past?: true } {
    return this.pastSession ? { past: true } : {};
  }

  /** A question's row, open, found again by `id` when its answer comes. */
  private openQuestion(id: string | null, fields: Pick<QuestionEntry, 'time' | 'title' | 'command' | 'options' | 'note'>): void {
    this.closeMessage();
    const q = this.add<QuestionEntry>({ kind: 'question', ...fields, answer: null, dismissed: false, ...this.pastMark() });
    if (id) this.questions.set(id, q);
  }

  /** The question `id` answered (`answer` null: none came); `note` undefined keeps the question's own. */
  private endQuestion(id: string | null, answer: string | null, note: string | null | undefined): void {
    const q = id ? this.questions.get(id) : undefined;
    if (!q || !id) return;
    this.questions.delete(id);
    q.answer = answer;
    q.dismissed = answer === null;
    if (note !== undefined) q.note = note;
    this.touch(q);
  }

  /** `plan`. */
  private planUpdate(e: PageEvent, t: number): void {
    const d = obj(e.data) ?? {};
    const items = Array.isArray(d.entries)
      ? d.entries.flatMap((x) => {
          const o = obj(x);
          return o && typeof o.content === 'string' ? [{ content: o.content, status: str(o.status) ?? 'pending' }] : [];
        })
      : [];
    // An agent sends its whole plan each time: the turn's plan is one entry, kept current.
    if (this.plan && !e.turn?.opens) {
      this.plan.items = items;
      this.touch(this.plan);
    } else this.plan = this.add<PlanEntry>({ kind: 'plan', time: t, items });
  }

  /** `user_message`: a conversation the agent replays (a loaded session): the person's words, in chunks. */
  private userMessage(e: PageEvent, t: number): void {
    if (typeof e.delta !== 'string') return;
    if (!this.userText) {
      this.closeMessage();
      this.userText = this.add<PromptEntry>({ kind: 'prompt', time: t, text: '', behavior: null, prov: provOf(e, e.source ?? null) });
    }
    this.userText.text = capTail(this.userText.text + e.delta, MAX_TEXT);
    this.touch(this.userText);
  }

  /** What an update or end says of the call that its start did not (an agent's title, input, changes). */
  private learnTool(entry: ToolEntry, e: PageEvent): void {
    if (e.title && e.title !== entry.title) entry.title = e.title;
    // ACP: a field an update carries replaces the call's (Claude and OpenCode open with {} and
    // say the command in an update); pi's and τ's updates repeat the start's.
    if (e.args !== undefined && e.args !== null) entry.args = e.args;
    const changes = changesOf(e.diffs);
    if (changes.length) entry.changes = changes;
    for (const id of terminalsOf(e.data)) if (!entry.terminals?.includes(id)) entry.terminals = [...(entry.terminals ?? []), id];
  }

  /** `guard_violation`. */
  private guardViolation(e: PageEvent, t: number): void {
    const entry = this.turnCall(e.tool_call_id);
    if (entry) {
      entry.violation = e.error ?? 'guard violation';
      // Refused before it ran (an ACP question or a write through the host): shown as pi's vetoes are.
      if (e.blocked === true) {
        entry.blocked = true;
        entry.blockedBy = e.blocked_by ?? null;
        entry.reason = e.error ?? 'guard violation';
      }
      this.touch(entry);
    }
    // The audit judges a call as it runs (τ runs it first): not saying so, the row read as a refusal.
    this.add<WarningEntry>({ kind: 'warning', time: t, title: `${guardHeading(e.blocked === true)}: ${e.tool_name ?? 'tool call'}`, text: e.error ?? 'guard violation' });
  }

  /** A call of the turn by its id, running or ended (τ's audit may judge a call after its end). */
  private turnCall(id: string | null | undefined): ToolEntry | undefined {
    if (!id) return undefined;
    const running = this.tools.get(id);
    if (running) return running;
    for (let i = this.turnCalls.length - 1; i >= 0; i--) if (this.turnCalls[i].toolCallId === id) return this.turnCalls[i];
    return undefined;
  }

  /** `agent_end`. */
  private agentEnd(e: PageEvent, t: number): void {
    // The run ended; the turn ends where the host stamps its end (agent_settled). A run that
    // failed and will be retried is said here, with its error.
    this.closeMessage();
    for (const tool of this.tools.values()) if (tool.endedAt === null) { tool.endedAt = t; this.unreported.add(tool); this.touch(tool); }
    this.tools.clear();
    if (e.will_retry) this.addEnd(e, true);
  }

  /** `agent_settled`. */
  private agentSettled(e: PageEvent, _t: number): void {
    this.closeMessage();
    if (e.turn?.ends) this.addEnd(e, false);
  }

  /** `compaction_start`. */
  private compactionStart(e: PageEvent, t: number): void {
    const d = obj(e.data);
    this.compaction = this.add<CompactionEntry>({ kind: 'compaction', time: t, phase: 'running', reason: str(d?.reason), summary: null, tokensBefore: null, error: null, endedAt: null });
  }

  /** `compaction_end`: its outcome in the model's names, whatever the dialect (the dialects say it so). */
  private compactionEnd(e: PageEvent, t: number): void {
    const d = obj(e.data) ?? {};
    const entry = this.compaction ?? this.add<CompactionEntry>({ kind: 'compaction', time: t, phase: 'running', reason: null, summary: null, tokensBefore: null, error: null, endedAt: null });
    entry.endedAt = t;
    entry.summary = str(d.summary);
    entry.tokensBefore = typeof d.tokens_before === 'number' ? d.tokens_before : null;
    const failed = e.is_error === true;
    entry.phase = d.cancelled === true ? 'cancelled' : failed ? 'failed' : 'done';
    entry.error = failed ? (e.error ?? 'the compaction failed') : null;
    if (d.performed === false && entry.phase === 'done') entry.nothing = true;
    this.compaction = null;
    this.touch(entry);
  }


  /** `worker_exit`. */
  private workerExit(e: PageEvent, t: number): void {
    this.closeMessage();
    const d = obj(e.data) ?? {};
    const status = str(d.status) ?? 'exited';
    // A worker stopped mid-turn sends no end: its running tools and its turn end here, or
    // they would spin "running…" forever.
    for (const tool of this.tools.values()) {
      if (tool.endedAt !== null) continue;
      tool.endedAt = t;
      tool.isError = true;
      // Cut short, its end never reported: the stop's (or the crash's), not its own.
      this.unreported.add(tool);
      if (tool.result === null) tool.result = capTail(`${tool.output ? `${tool.output}\n` : ''}[cut short: the worker ${status === 'failed' ? 'failed' : 'was stopped'}]`, MAX_OUTPUT);
      this.touch(tool);
    }
    this.tools.clear();
    this.turnEnded(e.end_reason ?? (status === 'stopped' ? 'stopped' : 'worker_exited'));
    // A compaction cut short by the exit sends no end either.
    const compaction = this.compaction;
    if (compaction) {
      compaction.endedAt = t;
      compaction.phase = 'failed';
      compaction.error = `cut short: the worker ${status === 'failed' ? 'failed' : 'was stopped'}`;
      this.compaction = null;
      this.touch(compaction);
    }
    if (e.turn?.ends) this.add<EndEntry>({ kind: 'end', time: t, reason: e.end_reason ?? 'stopped', error: null, willRetry: false });
    // Nothing it asked waits any longer: a question whose end the log never got (a host that
    // went down, a session cut off) no longer reads "waiting for you" with an Answer… that finds
    // nothing. Kept findable: the end the exit's own cancel sends comes after this, and says it.
    this.closeQuestions(`closed: the worker ${status === 'failed' ? 'failed' : status === 'stopped' ? 'was stopped' : 'exited'}`, false);
    this.add(exitLine(e, t));
  }

  /** Every question still open, ended without an answer (`forget`: no later end is theirs). */
  private closeQuestions(note: string, forget: boolean): void {
    for (const q of this.questions.values()) {
      if (q.answer !== null || q.dismissed) continue;
      q.dismissed = true;
      q.note = note;
      this.touch(q);
    }
    if (forget) this.questions.clear();
  }

  /** An event that is one entry of its own (notices.ts); `closes`: it ends the message being streamed. */
  private notice(e: PageEvent, t: number, make: (e: PageEvent, t: number) => NewEntry | null, closes: boolean): void {
    if (closes) this.closeMessage();
    const entry = make(e, t);
    if (entry) this.add(entry);
  }

  /**
   * The turn ended (`endReason`): the calls the person's Abort or Stop cut short are stopped, not
   * errors of their own (pi ends the call it runs with an error on abort, τ's bash may end without
   * one); the judgement is protocol/callEnd.ts's, as the tree's and the export's.
   */
  private turnEnded(endReason: string): void {
    const turn = { endedAt: 0, endReason, ...(this.abortSent ? { abortSent: true as const } : {}) };
    for (const c of this.turnCalls) {
      const facts = { ended: c.endedAt !== null && !this.unreported.has(c), isError: c.isError, wentOn: c.wentOn, afterAbort: c.afterAbort };
      if (!c.stopped && cutByThePerson(turn, facts)) { c.stopped = true; this.touch(c); }
    }
    this.turnCalls = [];
    this.wentOn.reset();
    this.abortSent = false;
  }

  private addEnd(e: PageEvent, willRetry: boolean): void {
    if (!willRetry) this.turnEnded(e.end_reason ?? 'ended');
    const login = e.is_error && obj(e.data)?.needsLogin === true && this.login ? { login: this.login } : {};
    this.add<EndEntry>({ kind: 'end', time: e.timestamp, reason: e.end_reason ?? 'ended', error: e.is_error ? (e.error ?? 'the turn ended in an error') : (e.error ?? null), willRetry, ...login });
  }

  private tool(e: PageEvent): ToolEntry {
    const known = e.tool_call_id ? this.tools.get(e.tool_call_id) : undefined;
    if (known) return known;
    // An update or end whose start fell out of the store (or never came).
    const entry = this.add<ToolEntry>({
      kind: 'tool', time: e.timestamp, toolCallId: e.tool_call_id ?? null, name: e.tool_name ?? 'tool', title: e.title ?? null, changes: [], args: e.args ?? null, output: '', result: null,
      startedAt: e.timestamp, endedAt: null, startUnseen: true, isError: false, blocked: false, blockedBy: null, reason: null, violation: null, ...this.pastMark(),
    });
    if (entry.toolCallId) this.tools.set(entry.toolCallId, entry);
    return entry;
  }

  private closeMessage(): void {
    for (const entry of [this.text, this.thinking]) {
      if (entry && entry.streaming) {
        entry.streaming = false;
        this.touch(entry);
      }
    }
    this.text = null;
    this.thinking = null;
    this.userText = null;
  }

  takeDirty(): Entry[] {
    const list = [...this.dirty];
    this.dirty.clear();
    return list;
  }
}
