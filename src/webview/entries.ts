// What the event log shows: its entries (a prompt, a turn, assistant text, thinking, a tool call,
// a permission question, a plan, an end, a compaction, a queue change, a retry, a warning, an exit, anything else), the
// toolbar's filter groups, and how an entry is searched and its words are said. The model
// (model.ts) makes entries; the renderer (render.ts) draws them.

export type EntryKind = 'prompt' | 'turn' | 'assistant' | 'thinking' | 'tool' | 'question' | 'plan' | 'end' | 'compaction' | 'queue' | 'retry' | 'warning' | 'exit' | 'other';

/** The filter groups of the toolbar, and which kinds each holds. */
export const FILTER_GROUPS = {
  messages: ['prompt', 'assistant', 'plan'],
  thinking: ['thinking'],
  tools: ['tool', 'question'],
  turns: ['turn', 'end'],
  queue: ['queue'],
  compaction: ['compaction'],
  problems: ['warning', 'retry', 'exit'],
  other: ['other'],
} as const satisfies Record<string, readonly EntryKind[]>;
export type FilterGroup = keyof typeof FILTER_GROUPS;
export const GROUP_OF: Record<EntryKind, FilterGroup> = Object.fromEntries(
  Object.entries(FILTER_GROUPS).flatMap(([g, kinds]) => kinds.map((k) => [k, g])),
) as Record<EntryKind, FilterGroup>;

export interface Origin {
  source: string | null;
  submitter: string | null;
  submissionId: string | null;
  /** From the correlation the extension sets: redirect, send-selection, with file and lines. */
  action: string | null;
  file: string | null;
  lines: [number, number] | null;
}

interface Base { id: number; kind: EntryKind; time: number; version: number }
export interface PromptEntry extends Base { kind: 'prompt'; text: string; behavior: 'steer' | 'followUp' | null; prov: Origin }
export interface TurnEntry extends Base { kind: 'turn'; index: number; prov: Origin }
export interface TextEntry extends Base { kind: 'assistant' | 'thinking'; text: string; streaming: boolean; stopReason: string | null }
/** A file change a tool call makes or proposes; `oldText` null for a new file. */
export interface Change { path: string; oldText: string | null; newText: string }
export interface ToolEntry extends Base {
  kind: 'tool'; toolCallId: string | null; name: string; title: string | null; changes: Change[]; args: unknown; output: string; result: string | null;
  startedAt: number; endedAt: number | null;
  /** Its start was not seen (Gemini sends a command only when it ended; or it fell out of the store): its duration is not known. */
  startUnseen?: true;
  isError: boolean; blocked: boolean; blockedBy: string | null; reason: string | null; violation: string | null;
  /** Cut short by the person's Abort or Stop (protocol/callEnd.ts): not an error of its own. */
  stopped?: true;
  /** A later call started, or the model wrote on, after its end. */
  wentOn?: true;
  /** Its end came after the host sent its turn an abort. */
  afterAbort?: true;
  /** The host terminals whose output the call shows (ACP), each openable in a VS Code terminal. */
  terminals?: string[];
  /** Started in a past session: nothing runs, and an end not among the events given is not in view. */
  past?: true;
}
/** The worker asks the person before a tool runs; `answer` once answered (or cancelled). */
export interface QuestionEntry extends Base {
  kind: 'question'; title: string; command: string | null; options: string[]; answer: string | null; note: string | null; dismissed: boolean;
  /** Asked in a past session: nothing waits, and an answer not among the events given (a newer page's, or never written) is not in view. */
  past?: true;
}
export interface PlanEntry extends Base { kind: 'plan'; items: Array<{ content: string; status: string }> }
/** `login`: how the agent takes a key, for a turn it refused for want of one (WorkerView `login`). */
export interface EndEntry extends Base { kind: 'end'; reason: string; error: string | null; willRetry: boolean; login?: string }
/** `nothing`: the worker found nothing to compact (it says so; the title is not "Compacted"). */
export interface CompactionEntry extends Base { kind: 'compaction'; phase: 'running' | 'done' | 'cancelled' | 'failed'; nothing?: true; reason: string | null; summary: string | null; tokensBefore: number | null; error: string | null; endedAt: number | null }
export interface QueueEntry extends Base { kind: 'queue'; steering: number; followUp: number; items: string[] }
export interface RetryEntry extends Base { kind: 'retry'; phase: 'start' | 'end'; text: string }
export interface WarningEntry extends Base { kind: 'warning'; title: string; text: string }
export interface ExitEntry extends Base { kind: 'exit'; text: string; failed: boolean }
export interface OtherEntry extends Base { kind: 'other'; type: string; text: string; /** A codicon of its own (the session marks). */ icon?: string }
export type Entry = PromptEntry | TurnEntry | TextEntry | ToolEntry | QuestionEntry | PlanEntry | EndEntry | CompactionEntry | QueueEntry | RetryEntry | WarningEntry | ExitEntry | OtherEntry;

/** What a search matches against. */
export function searchText(e: Entry): string {
  switch (e.kind) {
    case 'prompt': return `${e.text} ${e.prov.source ?? ''} ${e.prov.submitter ?? ''}`;
    case 'turn': return `turn ${e.index} ${e.prov.source ?? ''} ${e.prov.submitter ?? ''}`;
    case 'assistant': case 'thinking': return e.text;
    case 'question': return `${e.title} ${e.command ?? ''} ${e.options.join(' ')} ${e.answer ?? ''} ${e.note ?? ''}`;
    case 'plan': return e.items.map((i) => i.content).join(' ');
    case 'tool': return `${e.name} ${e.title ?? ''} ${e.changes.map((c) => c.path).join(' ')} ${safeJson(e.args)} ${e.output} ${e.result ?? ''} ${e.reason ?? ''} ${e.blocked ? 'blocked' : ''}`;
    // The words the row shows (its title), as well as the worker's own (max_turns).
    case 'end': return `Turn ended: ${endWords(e.reason)} ${e.reason} ${e.error ?? ''} ${e.login ?? ''}`;
    case 'compaction': return `compaction ${compactionTitle(e)} ${e.summary ?? ''} ${e.error ?? ''}`;
    case 'queue': return `queue ${e.items.join(' ')}`;
    case 'retry': case 'warning': case 'exit': return `${'title' in e ? e.title : ''} ${e.text}`;
    case 'other': return `${e.type} ${e.text}`;
  }
}

/** A compaction row's title: how it went. */
export function compactionTitle(e: CompactionEntry): string {
  return e.phase === 'running' ? 'Compacting…' : e.phase === 'done' ? (e.nothing ? 'Nothing to compact' : 'Compacted') : e.phase === 'cancelled' ? 'Compaction cancelled' : 'Compaction failed';
}

/** `v` as JSON, indented by `indent` spaces; 0: on one line. */
export function safeJson(v: unknown, indent = 2): string {
  if (v === null || v === undefined) return '';
  try {
    return JSON.stringify(v, null, indent);
  } catch {
    return String(v);
  }
}

/** How a turn's end reason is said (the worker's own word when it is not a known one). */
export function endWords(reason: string): string {
  switch (reason) {
    case 'done': return 'done';
    case 'aborted': return 'aborted';
    case 'max_turns': return 'the turn limit was reached';
    case 'error': return 'error';
    case 'stopped': return 'the worker stopped';
    case 'ended': return 'ended';
    default: return reason.replace(/_/g, ' ');
  }
}

/** How an assistant message's stop reason is said on its badge; '' for a plain stop. */
export function stopReasonWords(reason: string | null): string {
  switch (reason) {
    case null: case '': case 'stop': case 'end_turn': case 'endTurn': return '';
    case 'toolUse': case 'tool_use': case 'tool_calls': return 'calls a tool';
    case 'length': case 'max_tokens': return 'cut off at the length limit';
    case 'aborted': return 'aborted';
    case 'error': return 'ended in an error';
    default: return reason.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, (_, a: string, b: string) => `${a} ${b.toLowerCase()}`);
  }
}
