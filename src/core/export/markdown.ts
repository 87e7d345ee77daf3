// A session as Markdown, made from its events alone (live from the host, or read back from the
// history): each prompt with where it came from, the replies, each tool call with its arguments
// and result, how each turn ended, and the session's own marks (resumed, new session, fork,
// model, compaction, exit). Pure: the same events give the same text, whatever the dialect.
import type { AgentEvent, ToolDiff } from '../events/agentEvent';
import { fenceFor, longestTicks } from '../../protocol/backticks';
import { contentText, optionNames } from '../../protocol/eventText';
import { callEnd, callEndWords, guardHeading, WentOn, type CallFacts } from '../../protocol/callEnd';
import { replyMarkdown } from './replyMarkdown';

export interface MarkdownMeta {
  title?: string;
  dialect?: string;
  model?: string | null;
  cwd?: string;
  /**
   * Tool calls' arguments and results by call id, for workers whose events carry neither (τ
   * 0.15.0): see `toolDetailsFromMessages`.
   */
  tools?: ReadonlyMap<string, ToolDetail>;
  /** What of the session these events leave out (evicted, torn, unreadable): said at the top, never silently. */
  missing?: readonly string[];
  /**
   * How this agent takes a key or login ("For Claude: set ANTHROPIC_API_KEY …", the UI's words),
   * said after a turn it refused for want of one (`data.needsLogin`), as the Event Log's row says it.
   */
  login?: string | null;
  /**
   * The worker is in a turn as it is exported: a turn the events leave open ends with a line that
   * says so. Without it, a turn exported as it streams read as one that said nothing after its prompt.
   */
  running?: boolean;
}

export interface ToolDetail {
  args?: Record<string, unknown>;
  result?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Tool calls from a worker's message list (pi and τ `get_messages`): the assistant's toolCall
 * blocks give the arguments, the toolResult messages the results (pi `toolCallId`, τ `tool_call_id`).
 */
export function toolDetailsFromMessages(messages: readonly unknown[]): Map<string, ToolDetail> {
  const out = new Map<string, ToolDetail>();
  const at = (id: string) => out.get(id) ?? out.set(id, {}).get(id)!;
  for (const m of messages) {
    if (!isRecord(m)) continue;
    if (m.role === 'assistant' && Array.isArray(m.content)) {
      for (const b of m.content) {
        if (isRecord(b) && b.type === 'toolCall' && typeof b.id === 'string' && isRecord(b.arguments)) at(b.id).args = b.arguments;
      }
    } else if (m.role === 'toolResult') {
      const id = m.toolCallId ?? m.tool_call_id;
      if (typeof id === 'string') at(id).result = { content: m.content };
    }
  }
  return out;
}

/** A fenced block of `text`, its fence longer than any run of backticks inside, so the block cannot end early. */
function fenced(text: string, lang = ''): string {
  const fence = fenceFor(text);
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/** A terminal's colour codes and links (CSI, OSC): how the text looked, not what it says. */
// eslint-disable-next-line no-control-regex -- escape sequences are what it removes
const TERMINAL_CODES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;

/**
 * Text for one line of the document (a note, a quote): its line breaks would end the line's
 * Markdown. Its colour codes go here, before plain() escapes their brackets: escaped, the
 * document's printable() no longer knew them, and a coloured error read ␛[31m.
 */
const oneLine = (text: string) => text.replace(TERMINAL_CODES, '').replace(/\s*[\r\n]+\s*/g, ' ');

/**
 * The worker's or a name's text on a line of the document's own (a note, the title, a result's
 * "blocked by"): plain text, so Markdown's and HTML's characters are escaped. Raw, an error's
 * `expected <string>` rendered as an unknown tag and vanished, a `<script>` or an `<img onerror>`
 * reached the renderer as HTML, and a `*` or `_` began emphasis that ran on. Backticks too: in a
 * code span the other escapes would show. An `_` inside a word (ANTHROPIC_API_KEY) begins nothing.
 */
const plain = (text: string) => oneLine(text).replace(/[\\`*[\]<>&~]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\$&');

/**
 * Inline code of any text (a folder, a tool's name, a session id, all the worker's or the
 * person's): delimited by a run of backticks longer than any inside it, on one line.
 */
function code(text: string): string {
  const line = oneLine(text);
  const ticks = '`'.repeat(longestTicks(line) + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${line}${pad}${ticks}`;
}

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

function origin(e: AgentEvent): string {
  const parts = [e.source && `from ${plain(e.source)}`, e.submitter && `by ${plain(e.submitter)}`, e.submission_id && `submission ${plain(e.submission_id)}`].filter(Boolean);
  const behaviour = e.data?.streamingBehavior;
  if (behaviour === 'steer' || behaviour === 'followUp') parts.unshift(behaviour === 'steer' ? 'steer' : 'follow-up');
  return parts.join(', ');
}

// eslint-disable-next-line no-control-regex -- control characters are what it replaces
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * The document as text: a tool's output (a binary file read, a coloured test run) brought NULs
 * and escape codes, which made the saved file binary to git and showed `[31m` in the rendered
 * one. Colour codes go; any other control character is shown as its symbol (␀, ␛), not dropped.
 */
function printable(text: string): string {
  return text.replace(TERMINAL_CODES, '').replace(CONTROLS, (c) => String.fromCharCode(c === '\x7f' ? 0x2421 : 0x2400 + c.charCodeAt(0)));
}

export function sessionMarkdown(events: readonly AgentEvent[], meta: MarkdownMeta = {}): string {
  const doc = new SessionDoc(meta);
  for (const e of events) doc.add(e);
  return doc.end();
}

/**
 * A tool call of the turn being written: the place of its heading (null: its start is not in the
 * events) and of its result line (null: none yet), its arguments and the output its updates said.
 */
interface DocCall extends CallFacts {
  id: string | null;
  name: string;
  head: number | null;
  line: number | null;
  reason: string | null;
  args: Record<string, unknown> | null;
  output: string;
  diffs: ToolDiff[];
}

/**
 * The document being written: its lines, the reply being assembled from deltas, the turn count,
 * and the turn's calls, whose result lines say their end once the turn's end is known (an abort
 * that came after a call's own end may have cut it: callEnd.ts judges, as for the tree and the log).
 */
class SessionDoc {
  private readonly out: string[];
  private reply = '';
  /** The reply being assembled is one the agent replays from an earlier session (ACP session/load). */
  private replyReplayed = false;
  /** The person's words the agent says back (ACP user_message_chunk: its replay), being assembled, and when they began. */
  private said: { text: string; at: number; replayed: boolean } | null = null;
  private turn = 0;
  private calls: DocCall[] = [];
  private readonly wentOn = new WentOn<DocCall>();
  private abortSent = false;
  /** A turn began and has not ended (no settle, no exit). */
  private inTurn = false;
  /** The agent's plan as it last sent it: each update replaces the whole list, so the turn's last one is what it came to. */
  private plan: PlanEntry[] | null = null;

  constructor(private readonly meta: MarkdownMeta) {
    this.out = [`# ${plain(meta.title ?? 'Session')}`];
    const facts = [meta.dialect && `Worker: ${plain(meta.dialect)}`, meta.model && `Model: ${plain(meta.model)}`, meta.cwd && `Folder: ${code(meta.cwd)}`].filter(Boolean);
    if (facts.length) this.out.push('', facts.join(' · '));
    for (const m of meta.missing ?? []) this.out.push('', `> **Not in this export:** ${plain(m)}`);
  }

  add(e: AgentEvent): void {
    switch (e.type) {
      case 'prompt_sent': return this.prompt(e);
      case 'message_update':
        if (e.delta) this.wentOn.goneOn();
        if (e.block_type === 'text' && e.delta) this.replyDelta(e);
        return;
      case 'user_message': return this.userMessage(e);
      case 'abort_sent':
        this.abortSent = true;
        return;
      case 'guard_violation':
        this.flagged(e);
        break;
      case 'message_end': return this.messageEnd(e);
      case 'plan':
        this.plan = Array.isArray(e.data?.entries) ? (e.data.entries as PlanEntry[]) : null;
        return;
      case 'tool_execution_start': return this.toolStart(e);
      case 'tool_execution_update': return this.toolUpdate(e);
      case 'tool_execution_end': return this.toolEnd(e);
      // A question stands where it was asked: after what the agent said so far.
      case 'permission_request':
      case 'ui_dialog':
        this.flushReply();
        break;
      // The conversation an agent replayed as the session reopened stands before the mark.
      case 'session_resumed':
      case 'session_changed':
        this.flushReply();
        this.flushPlan();
        break;
      case 'agent_settled':
      case 'worker_exit':
        this.flushReply();
        this.flushPlan();
        this.turnEnded(e.end_reason ?? (e.type === 'worker_exit' ? (e.data?.status === 'stopped' ? 'stopped' : 'worker_exited') : null));
        break;
    }
    const line = noteLine(e, this.meta.login ?? null);
    if (line !== null) this.out.push('', ...line);
  }

  end(): string {
    this.flushReply();
    this.flushPlan();
    if (this.inTurn && this.meta.running) this.out.push('', '_Turn still running when exported_');
    return printable(`${this.out.join('\n')}\n`);
  }

  /** The plan the turn came to, as a checklist (a step under way says so); an empty one as such. */
  private flushPlan(): void {
    const plan = this.plan;
    if (plan === null) return;
    this.plan = null;
    if (plan.length === 0) return void this.out.push('', '**Plan:** no steps');
    const done = plan.filter((i) => i.status === 'completed').length;
    this.out.push('', `**Plan:** ${done} of ${plan.length} done`, '');
    for (const i of plan) this.out.push(`- [${i.status === 'completed' ? 'x' : ' '}] ${plain(String(i.content ?? ''))}${i.status === 'in_progress' ? ' _(in progress)_' : ''}`);
  }

  /** What the person or the agent said so far (one of them: each flushes the other as it begins). */
  private flushReply(full?: string): void {
    if (this.said) {
      const { text, at, replayed } = this.said;
      this.said = null;
      this.promptBlock(replayed ? 'replayed' : '', at, text);
    }
    const text = (full ?? this.reply).trim();
    this.reply = '';
    if (text) this.out.push('', `**Reply**${this.replyReplayed ? ' (replayed)' : ''}`, '', replyMarkdown(text));
    this.replyReplayed = false;
  }

  /** A chunk of the agent's reply; a replayed one and the worker's own are two replies, never one. */
  private replyDelta(e: AgentEvent): void {
    const replayed = e.replayed === true;
    if (this.said || (this.reply && replayed !== this.replyReplayed)) this.flushReply();
    this.replyReplayed = replayed;
    this.reply = e.replace ? e.delta! : this.reply + e.delta!;
  }

  /** A chunk of the person's words as the agent says them back: the Event Log's prompt row, here a prompt. */
  private userMessage(e: AgentEvent): void {
    if (!e.delta) return;
    const replayed = e.replayed === true;
    if (!this.said || this.said.replayed !== replayed) {
      this.flushReply();
      this.said = { text: '', at: e.timestamp, replayed };
    }
    this.said.text += e.delta;
  }

  private prompt(e: AgentEvent): void {
    this.flushReply();
    const queued = e.data?.streamingBehavior === 'steer' || e.data?.streamingBehavior === 'followUp';
    if (!queued) this.out.push('', `## Turn ${++this.turn}`);
    this.inTurn = true;
    this.promptBlock(origin(e), e.timestamp, String(e.data?.text ?? ''));
  }

  private promptBlock(from: string, at: number, text: string): void {
    this.out.push('', `**Prompt**${from ? ` (${from})` : ''}, ${when(at)}`, '', fenced(text));
  }

  private messageEnd(e: AgentEvent): void {
    const m = e.message;
    if (m && m.role !== 'assistant') return;
    // The finished message says the whole reply; the deltas stand in where it does not.
    const full = m ? contentText(m.content ?? m) : '';
    this.flushReply(full.trim() ? full : undefined);
  }

  private toolStart(e: AgentEvent): void {
    this.flushReply();
    this.wentOn.goneOn();
    const call = this.newCall(e);
    this.calls.push(call);
    this.out.push('', '');
    call.head = this.out.length - 1;
    this.learn(call, e);
  }

  /**
   * What a call's update or end says of it: its arguments (ACP: Claude and OpenCode open a call
   * with none and name the command in an update; an update's replace the call's), the file
   * changes it makes or proposes (ACP's diffs), and its heading said again with them.
   */
  private learn(call: DocCall, e: AgentEvent): void {
    if (e.args && Object.keys(e.args).length) call.args = e.args;
    if (e.diffs?.length) call.diffs = e.diffs;
    if (call.head === null) return;
    const args = call.args ?? (call.id ? this.meta.tools?.get(call.id)?.args : undefined);
    const shown = args && Object.keys(args).length ? `\n\n${fenced(JSON.stringify(args, null, 2), 'json')}` : '';
    this.out[call.head] = `**Tool call** ${code(call.name)}${shown}${call.diffs.map((d) => `\n\n${changeText(d)}`).join('')}`;
  }

  /** A call's update: what it learnt, and its output so far (the whole of it, or a chunk to add; Codex says a command's output only so). */
  private toolUpdate(e: AgentEvent): void {
    const call = this.call(e.tool_call_id);
    if (!call) return;
    this.learn(call, e);
    if (e.result !== undefined && e.result !== null) call.output = e.replace ? contentText(e.result) : call.output + contentText(e.result);
  }

  private newCall(e: AgentEvent): DocCall {
    return { id: e.tool_call_id ?? null, name: e.tool_name ?? 'unknown tool', head: null, line: null, reason: null, args: null, output: '', diffs: [], ended: false, isError: false };
  }

  /** The turn's call `id`, the last of that id; calls without an id end in the order they started. */
  private call(id: string | null | undefined): DocCall | undefined {
    if (!id) return this.calls.find((c) => c.id === null && !c.ended);
    for (let i = this.calls.length - 1; i >= 0; i--) if (this.calls[i]!.id === id) return this.calls[i];
    return undefined;
  }

  private toolEnd(e: AgentEvent): void {
    let call = this.call(e.tool_call_id);
    // An end whose start is not in these events (a past log's page, an agent that sends only the end).
    if (!call) this.calls.push((call = this.newCall(e)));
    this.learn(call, e);
    if (!call.ended) {
      this.wentOn.end(call);
      if (this.abortSent) call.afterAbort = true;
    }
    call.ended = true;
    call.isError = e.is_error === true;
    // A call the host's guard refused before it ran stays blocked whatever the agent reports after.
    if (e.blocked && !call.blocked) Object.assign(call, { blocked: true, blockedBy: e.blocked_by ?? null, reason: e.error ?? null });
    this.out.push('', '');
    call.line = this.out.length - 1;
    this.sayEnd(call, null);
    // The end's own result, else the output its updates said (an ACP end often carries none).
    const ended = contentText(e.result ?? (e.tool_call_id ? this.meta.tools?.get(e.tool_call_id)?.result : undefined));
    const text = ended.trim() ? ended : call.output;
    if (text.trim()) this.out.push('', fenced(text));
  }

  /** The guard's finding on a call: refused before it ran (an ACP question, a write through the host), or flagged after. */
  private flagged(e: AgentEvent): void {
    const call = e.tool_call_id ? this.call(e.tool_call_id) : undefined;
    if (!call) return;
    call.violation = e.error ?? 'guard violation';
    if (e.blocked === true) Object.assign(call, { blocked: true, blockedBy: e.blocked_by ?? null, reason: e.error ?? null });
    if (call.line !== null) this.sayEnd(call, null);
  }

  /** The turn ended: each call's end as the tree and the log judge it; one that never reported its end is said here. */
  private turnEnded(endReason: string | null): void {
    const turn = { endedAt: 0, endReason, ...(this.abortSent ? { abortSent: true as const } : {}) };
    for (const call of this.calls) {
      if (call.line === null) {
        this.out.push('', '');
        call.line = this.out.length - 1;
      }
      this.sayEnd(call, turn);
    }
    this.calls = [];
    this.wentOn.reset();
    this.abortSent = false;
    this.inTurn = false;
  }

  /** The call's result line; `turn` null while its turn runs on. */
  private sayEnd(call: DocCall, turn: Parameters<typeof callEnd>[0] | null): void {
    const end = callEnd(turn ?? { endedAt: null }, call);
    const how = end === 'blocked' ? `blocked by ${plain(call.blockedBy ?? 'a guard')}${call.reason ? `: ${plain(call.reason)}` : ''}` : callEndWords(end, call);
    this.out[call.line!] = `**Result** of ${code(call.name)} (${how})`;
  }
}

/**
 * A file change as the Event Log's row says it: the file, from which line, and the lines that go
 * and come (those the old and new text share at either end left out), as a diff.
 */
function changeText(d: ToolDiff): string {
  const after = d.newText.split('\n');
  if (d.oldText === null) return `New file: ${code(d.path)}\n\n${fenced(after.map((l) => `+${l}`).join('\n'), 'diff')}`;
  const before = d.oldText.split('\n');
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  const lines = [...before.slice(start, before.length - end).map((l) => `-${l}`), ...after.slice(start, after.length - end).map((l) => `+${l}`)];
  const from = start ? ` (from line ${start + 1})` : '';
  return `Change: ${code(d.path)}${from}\n\n${lines.length ? fenced(lines.join('\n'), 'diff') : '_(no change in the text)_'}`;
}

/**
 * A question the worker put to the person (an ACP agent's permission, a pi extension's dialog) and
 * its answer, as the Event Log's question row says them: what the person decided is part of the
 * session (a rejected edit explains the turn that follows). A typed answer is not kept, so not said.
 */
function questionLine(e: AgentEvent): string[] {
  const d = e.data ?? {};
  const names = optionNames(d.options);
  const options = names.length ? ` (${names.map(plain).join(' / ')})` : '';
  if (e.type === 'permission_request') {
    const command = typeof d.command === 'string' && d.command ? `: ${code(d.command)}` : '';
    return [`> Asked: ${plain(e.title ?? 'a tool call')}${command}${options}`];
  }
  if (e.type === 'ui_dialog') return [`> Asked: ${plain(e.title ?? 'an extension asks')}${typeof d.message === 'string' && d.message ? `: ${plain(d.message)}` : ''}${options}`];
  const answer = e.type === 'permission_end' ? d.optionName : d.outcome === 'answered' ? (d.answer ?? 'answered') : null;
  const note = e.error ?? d.note;
  return [`> Answer: ${typeof answer === 'string' ? plain(answer) : 'none'}${typeof note === 'string' && note ? ` (${plain(note)})` : ''}`];
}

/** A step of an agent's plan, as the plan event carries it. */
interface PlanEntry { content: string; status: string }

/** The one-line notes some events leave in the document (after a blank line); null for the rest. */
function noteLine(e: AgentEvent, login: string | null): string[] | null {
  // An error is the worker's text (a stack, stderr): on one line, or its lines would leave the note.
  const error = e.error ? plain(e.error) : e.error;
  const sessionId = () => (e.data?.session as { id?: string } | undefined)?.id ?? '?';
  switch (e.type) {
    case 'guard_violation': return [`> ${guardHeading(e.blocked === true)}: ${code(e.tool_name ?? '')} ${error ?? 'violation'}`];
    case 'agent_settled': {
      const key = e.data?.needsLogin === true && login ? `. ${plain(login)}` : '';
      return [`_Turn ended: ${plain(e.end_reason ?? 'no reason given')}${error ? ` (${error})` : ''}${key}_`];
    }
    case 'compaction_end': return [e.data?.performed === false && !e.is_error && !e.data?.cancelled ? '> Compaction: nothing to compact' : `> Compaction ${e.is_error ? `failed: ${error ?? ''}` : e.data?.cancelled ? 'cancelled' : 'done'}`];
    case 'session_resumed': return ['---', '', `> Resumed session ${code(sessionId())}, ${when(e.timestamp)}`];
    case 'session_changed': return ['---', '', `> ${e.data?.verb === 'fork' ? 'Forked into' : 'New'} session ${code(sessionId())}`];
    case 'model_changed': return [`> Model: ${plain(String(e.data?.model ?? '?'))}`];
    // As the Event Log's row: the name the agent gives the mode (Copilot's ids are URLs), else its id; on one line, being the agent's text.
    case 'mode_changed': {
      if (e.data?.repeated === true) return null;
      const name = [e.data?.name, e.data?.mode].find((v): v is string => typeof v === 'string' && v !== '');
      return [`> Mode: ${plain(name ?? '?')}`];
    }
    case 'worker_exit': {
      const n = typeof e.data?.undelivered === 'number' ? e.data.undelivered : 0;
      const lost = n > 0 ? ` (${n} queued message${n === 1 ? '' : 's'} never delivered)` : '';
      return [`> The worker ${e.data?.status === 'stopped' ? 'was stopped' : e.is_error ? `failed: ${error ?? ''}` : 'exited'}${lost}`];
    }
    case 'permission_request':
    case 'ui_dialog':
    case 'permission_end':
    case 'ui_dialog_end':
      return questionLine(e);
    default: return null;
  }
}
