// The one event model the host speaks, whatever the worker's dialect: τ's AgentEvent
// (seed 004) plus the extra fields and types either worker sends. Nothing a worker sends is
// dropped for being unknown: unrecognised types keep their payload in `data`.

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
  // worker's exit, a prompt the host sent (so the log shows who started each turn), and a
  // request an extension in the worker left for the person, then what became of it.
  'protocol_error', 'guard_violation', 'worker_exit', 'prompt_sent', 'stderr',
  'extension_request', 'extension_request_end',
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
] as const;

export type KnownEventType = (typeof LOOP_EVENT_TYPES)[number] | (typeof EXTRA_EVENT_TYPES)[number];

/**
 * The host's reading of an event, stamped once by the core (core/worker/turns.ts) before anyone
 * sees it, so that the Sessions tree, the verbs, the Event Log and API listeners agree on what a
 * turn is. Not τ's `turn_index`, which counts model calls inside one run.
 */
export interface TurnStamp {
  /** The worker's turn, counted by the host from 1 and never reused. */
  index: number;
  /** This event opened the turn: its `source`, `submitter`, `submission_id` and `correlation` are the turn's origin. */
  opens?: true;
  /** This event ended the turn (its settle, or the worker's exit): `end_reason` and `error` say how. */
  ends?: true;
}

/** Fields the host cut to a preview because the line they came in was very long (events/cutEvent.ts). */
export interface EventCut {
  /** The line's length, in characters. */
  lineChars: number;
  /** Each cut field by its path in the event, and its length before the cut. */
  fields: Array<{ path: string; chars: number }>;
  /** Cut fields beyond those named. */
  more?: number;
}

export interface AgentEvent {
  /** A known type, or whatever the worker called it. */
  type: KnownEventType | (string & {});
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
  /** `delta` replaces the block's text instead of extending it. */
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
