// The one event model the host speaks, whatever the worker's dialect: τ's AgentEvent
// (seed 004) plus the extra fields and types either worker sends. Nothing a worker sends is
// dropped for being unknown: unrecognised types keep their payload in `data`.

import type * as z from 'zod/mini';
import type { pageEventSchema } from '../../protocol/hostMessages';

/** The ten loop events of seed 004. */
export const LOOP_EVENT_TYPES = [
  'agent_start', 'agent_end', 'turn_start', 'turn_end', 'message_start', 'message_update',
  'message_end', 'tool_execution_start', 'tool_execution_update', 'tool_execution_end',
] as const;

/** Types either worker sends beyond the loop events, and the host's own. */
export const EXTRA_EVENT_TYPES = [
  'agent_settled', 'queue_update', 'compaction_start', 'compaction_end', 'auto_compaction_start',
  'auto_compaction_end', 'auto_retry_start',
  'auto_retry_end', 'extension_error', 'side_completion_start', 'side_completion_update',
  'side_completion_end',
  // Host-made: a line from the worker that is not a protocol message, a guard finding, the
  // worker's exit, a prompt the host sent (so the log shows who started each turn), the host
  // finding the worker idle when it took it for busy, and a
  // request an extension in the worker left for the person, then what became of it.
  'protocol_error', 'guard_violation', 'worker_exit', 'prompt_sent', 'stderr', 'state_resync',
  'extension_request', 'extension_request_end',
  // Host-made: a dialog a pi extension put to the person, then its answer, or why it had none.
  'ui_dialog', 'ui_dialog_end',
  // Host-made: the worker resumed an earlier session, moved to another (new_session, fork), or
  // switched its model; each names what it is on now.
  'session_resumed', 'session_changed', 'model_changed',
  // Said by agents of any dialect that has them (ACP today), in the one model: the agent's plan
  // as a checklist, the user's own words replayed, the agent asking the person before a tool
  // runs and the answer, its mode or options changing, its slash commands, its usage readout,
  // the session's title, and processes the host ended after an abort.
  'plan', 'user_message', 'permission_request', 'permission_end', 'mode_changed', 'config_changed',
  'commands_changed', 'usage_update', 'session_info', 'processes_ended',
  // Host-made: an agent's file read or write through the host (ACP fs/*), or its refusal.
  'client_file',
  // Host-made: a terminal the host runs for an agent (ACP terminal/*), and the ones it ended.
  'terminal',
  // Said by an agent that reports it (Claude's and Codex's adapters): whom it signs in as.
  'auth_status',
  // Host-made: the host sent the running turn an abort (the person's Abort or Redirect, the
  // guard's): a call that ends after it ran under it (protocol/callEnd.ts).
  'abort_sent',
] as const;

export type KnownEventType = (typeof LOOP_EVENT_TYPES)[number] | (typeof EXTRA_EVENT_TYPES)[number];

/**
 * The host's reading of an event, stamped once by the core (core/worker/turns.ts) before anyone
 * sees it, so that the Sessions tree, the verbs, the Event Log and API listeners agree on what a
 * turn is. Not τ's `turn_index`, which counts model calls inside one run.
 */
// A type, not an interface: the page's schema reads it as a loose object, which an interface is not.
export type TurnStamp = {
  /** The worker's turn, counted by the host from 1 and never reused. */
  index: number;
  /** This event opened the turn: its `source`, `submitter`, `submission_id` and `correlation` are the turn's origin. */
  opens?: true;
  /**
   * On the opening event: who began the turn, in the host's words (the host's own origin τ keeps
   * in `correlation.origin`, else `source`); absent when nobody is known.
   */
  origin?: string;
  /** This event ended the turn (its settle, or the worker's exit): `end_reason` and `error` say how. */
  ends?: true;
};

/** Fields the host cut to a preview because the line they came in was very long (events/cutEvent.ts). */
export interface EventCut {
  /** The line's length, in characters. */
  lineChars: number;
  /** Each cut field by its path in the event, and its length before the cut. */
  fields: Array<{ path: string; chars: number }>;
  /** Cut fields beyond those named. */
  more?: number;
}

/** Every field an event may carry, by the model's names; which ones a type carries is its member's. */
export interface EventFields {
  /** Milliseconds since epoch. */
  timestamp: number;
  /** Stamped by the host: the turn this event belongs to; absent outside a turn. */
  turn?: TurnStamp;
  turn_index?: number | null;
  tool_call_id?: string | null;
  tool_name?: string | null;
  args?: Record<string, unknown> | null;
  result?: unknown;
  details?: Record<string, unknown> | null;
  is_error?: boolean;
  blocked?: boolean;
  blocked_by?: string | null;
  end_reason?: string | null;
  error?: string | null;
  message?: Record<string, unknown> | null;
  messages?: Array<Record<string, unknown>> | null;
  tool_results?: Array<Record<string, unknown>> | null;
  submission_id?: string | null;
  submitter?: string | null;
  source?: string | null;
  correlation?: Record<string, unknown> | null;
  /** Streamed text of a text or thinking block (`message_update`). */
  delta?: string | null;
  block_type?: 'text' | 'thinking' | null;
  /**
   * `delta` replaces the block's text instead of extending it; on `tool_execution_update`,
   * `result` is the whole output so far (or its tail) instead of a chunk to add.
   */
  replace?: boolean;
  stop_reason?: string | null;
  /** pi: another attempt follows this agent_end. */
  will_retry?: boolean;
  /** A person's reading of the tool call ("Run `npm test`"), where the worker gives one. */
  title?: string | null;
  /** What the call does, where the worker says (read, edit, delete, move, search, execute, think, fetch, other). */
  tool_kind?: string | null;
  /** Files the call touches. */
  locations?: ToolLocation[] | null;
  /** File changes the call makes or proposes, drawn as diffs. */
  diffs?: ToolDiff[] | null;
  /**
   * The worker replayed this from an earlier session while it reopened it (ACP `session/load`):
   * part of no turn of this worker, and never its state.
   */
  replayed?: true;
  /** Everything else the worker sent with the event, by its own names. */
  data?: Record<string, unknown>;
  /** Set by the host when it kept only a preview of long fields. */
  cut?: EventCut;
}

/** Where a session is kept (core/api.ts SessionRef, said again here: the event model is a leaf). */
type SessionPlace = { id: string | null; file: string | null };

/** An event of a type the host knows, with what that type carries. */
type Known<T extends KnownEventType, F extends object = object> = EventFields & { type: T } & F;
/**
 * What a host-made or normalised event holds in `data`. Partial, and open to more: τ passes any
 * type through as it came, so a worker may send a `plan` or a `worker_exit` of its own, and a
 * reader checks what it reads (the page reads through guards).
 */
type DataOf<D extends object> = { data?: Partial<D> & Record<string, unknown> };

export type LoopEvent = Known<Exclude<(typeof LOOP_EVENT_TYPES)[number], 'agent_end'>>;
/**
 * A run's end (`end_reason`, `error`). `needsLogin`: the agent refused the turn for want of a
 * login or a key (ACP's -32000 on session/prompt, as Claude refuses when it has none), so that
 * the UI says how this agent takes one, as for a start it refused; `login`: the command the agent
 * names for it (LoginCommand), where it names one, which the UI offers to run as a refused start's.
 */
export type AgentEndEvent = Known<'agent_end', DataOf<{ needsLogin: true; login: { label: string; line: string }; error: unknown; usage: unknown }>>;
/** A turn settled: the worker's own (pi 1.x) or the host's; it carries the turn's end, `needsLogin` included. */
export type AgentSettledEvent = Known<'agent_settled', DataOf<{ aborted: boolean; synthesized: boolean; needsLogin: true }>>;
/** Text or thinking streamed (`delta`, `block_type`, `replace`), or pi's other message updates. */
export type MessageUpdateEvent = Known<'message_update'>;
/** The host's prompt, sent: who asked (`source`, `submitter`, `correlation`) and what. */
export type PromptSentEvent = Known<'prompt_sent', DataOf<{ text: string; streamingBehavior: 'steer' | 'followUp' | null }>>;
export type WorkerExitEvent = Known<'worker_exit', DataOf<{ code: number | null; signal: string | null; status: 'exited' | 'stopped' | 'failed' }>>;
export type ProtocolErrorEvent = Known<'protocol_error', DataOf<{ preview: string; bytes: number; count: number }>>;
/** The host ended a turn it cannot follow: the worker said it is idle, or (`outputLost`) its output ended while it lives on. */
export type StateResyncEvent = Known<'state_resync', DataOf<{ reason: string; outputLost: true }>>;
export type GuardViolationEvent = Known<'guard_violation', DataOf<{ action: string; path: string }>>;
export type ExtensionRequestEvent = Known<'extension_request' | 'extension_request_end', DataOf<{ label: string; sentence: string; status: string; action: string; output: string }>>;
/** `options`: what a select or confirm offers; `answer`: the option picked (an input's or editor's text is not kept, only that it was answered). */
export type UiDialogEvent = Known<'ui_dialog' | 'ui_dialog_end', DataOf<{ id: string; method: string; message: string | null; options: string[]; outcome: 'answered' | 'dismissed' | 'closed'; answer: string | null; note: string | null }>>;
export type SessionMarkEvent = Known<'session_resumed' | 'session_changed' | 'model_changed', DataOf<{ session: SessionPlace | null; previous: SessionPlace | null; verb: string; model: string | null; asked: string }>>;
export type CompactionEvent = Known<'compaction_start' | 'compaction_end' | 'auto_compaction_start' | 'auto_compaction_end', DataOf<{ reason: string; synthesized: boolean; performed: boolean; cancelled: boolean; summary: string | null; tokens_before: number | null }>>;
export type PlanEvent = Known<'plan', DataOf<{ entries: Array<{ content: string; status: string; priority: string | null }> }>>;
/** The person's words an agent replays (`delta`). */
export type UserMessageEvent = Known<'user_message'>;
export type PermissionRequestEvent = Known<'permission_request', DataOf<{ id: string; command: string | null; options: PermissionOption[] }>>;
export type PermissionEndEvent = Known<'permission_end', DataOf<{ id: string; outcome: 'selected' | 'cancelled'; optionId: string | null; optionName: string | null; optionKind: string | null; note: string | null; rule: string }>>;
/** `name`: the mode's as the agent names it, for a person (the id is the program's: Copilot's are URLs); null where it names none. */
export type ModeChangedEvent = Known<'mode_changed', DataOf<{ mode: string; asked: string; name: string | null; repeated: true }>>;
export type ProcessesEndedEvent = Known<'processes_ended', DataOf<{ reason: string; processes: Array<{ pid: number; command: string | null }> }>>;
export type ClientFileEvent = Known<'client_file', DataOf<{ op: 'read' | 'write'; path: string; through: 'editor' | 'disk'; bytes: number; refused: true; replacedUnsaved: true; changedSinceRead: true }>>;
export type TerminalEvent = Known<'terminal', DataOf<{ op: 'create' | 'exit' | 'ended'; terminalId: string; command: string; reason: string; terminals: Array<{ terminalId: string; command: string }> }>>;
/**
 * Whom the agent signs in as, in its own words: `label` ("Anthropic API key"), `detail` (where the
 * key comes from, the gateway, the account's email), `kind` `none` when it is signed in as nobody;
 * `params`: what the agent sent, whole.
 */
export type AuthStatusEvent = Known<'auth_status', DataOf<{ kind: 'none' | (string & {}); label: string; detail: string | null; params: unknown }>>;
/** What the worker holds queued: the texts of its steers and follow-ups still waiting (pi's shape; the demo worker says it so too). */
export type QueueUpdateEvent = Known<'queue_update', DataOf<{ steering: string[]; followUp: string[] }>>;
/** The worker tries the model call again (`error`: what failed, on the start; what stayed failed, on the end). */
export type RetryEvent = Known<'auto_retry_start' | 'auto_retry_end', DataOf<{ attempt: number; max_attempts: number; delay_ms: number; success: boolean }>>;
/** The host sent the running turn an abort, for an Abort (the person's or the guard's) or a Redirect. */
export type AbortSentEvent = Known<'abort_sent', DataOf<{ verb: 'abort' | 'redirect' }>>;
/** An extension in the worker failed (`error`: how). */
export type ExtensionErrorEvent = Known<'extension_error', DataOf<{ extension_path: string }>>;
/** Said by the worker beyond the loop, read as they came (their `data` is the worker's own). */
export type WorkerSaidEvent = Known<'side_completion_start' | 'side_completion_update' | 'side_completion_end' | 'stderr' | 'usage_update' | 'config_changed' | 'commands_changed' | 'session_info'>;

export type KnownEvent =
  | LoopEvent | AgentEndEvent | AgentSettledEvent | MessageUpdateEvent | PromptSentEvent | WorkerExitEvent | ProtocolErrorEvent | StateResyncEvent | GuardViolationEvent
  | ExtensionRequestEvent | UiDialogEvent | SessionMarkEvent | CompactionEvent | PlanEvent | UserMessageEvent | PermissionRequestEvent
  | PermissionEndEvent | ModeChangedEvent | ProcessesEndedEvent | ClientFileEvent | TerminalEvent | QueueUpdateEvent | RetryEvent | ExtensionErrorEvent
  | WorkerSaidEvent | AuthStatusEvent | AbortSentEvent;

/** An event of a type the host does not know: kept whole, its payload in `data`. */
export type ForeignEvent = EventFields & { type: string };

/**
 * The one event model: a known type's member, or a foreign event. The union narrows on `type`
 * only behind `isKnownEvent` (TypeScript cannot take a literal out of `string`, so a switch over
 * an AgentEvent alone keeps the foreign member in every case); without the guard every field
 * reads as `EventFields` say, as a foreign event may carry any of them.
 */
export type AgentEvent = KnownEvent | ForeignEvent;

/** An event without its time, for the host's makers (the host stamps the time as it emits). */
export type Untimed<E extends AgentEvent = KnownEvent> = E extends unknown ? Omit<E, 'timestamp'> : never;

const KNOWN_TYPES: ReadonlySet<string> = new Set<string>([...LOOP_EVENT_TYPES, ...EXTRA_EVENT_TYPES]);

/** Whether the host knows the event's type: then `switch (e.type)` narrows to its member. */
export function isKnownEvent(e: AgentEvent): e is KnownEvent {
  return KNOWN_TYPES.has(e.type);
}

export interface ToolLocation {
  path: string;
  line?: number | null;
}

/** One file's change: `oldText` null for a new file. */
export interface ToolDiff {
  path: string;
  oldText: string | null;
  newText: string;
}

/** A choice the agent offers when it asks before a tool runs. */
export interface PermissionOption {
  optionId: string;
  name: string;
  kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always' | (string & {});
}

// ---- the page's schema agrees with the model (checked by the compiler, nothing at run time)
// The Event Log validates events by protocol/hostMessages.ts's pageEventSchema, which may not
// import the core; so the agreement is checked here: every field the schema types is a field of
// the model, of a type the schema takes (slimEvent drops a null, so a nullable field's null
// never travels: the schema's `undefined` covers it).
type PageShape = (typeof pageEventSchema)['_zod']['def']['shape'];
type PageTyped = { [K in keyof PageShape]: z.infer<PageShape[K]> };
type Sent<T> = Exclude<T, null> | undefined;
type Disagrees = {
  [K in keyof PageTyped]: K extends keyof AgentEvent ? ([Sent<AgentEvent[K]>] extends [PageTyped[K] | undefined] ? never : K) : K;
}[keyof PageTyped];
/** Names a field the page's schema and the model disagree on; compiles only while there is none. */
export const PAGE_SCHEMA_AGREES: [Disagrees] extends [never] ? true : { disagrees: Disagrees } = true;
