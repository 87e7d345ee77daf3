// The public shape of the supervisor (the core's worker host): what `dist/core.js` exports and
// what the VS Code layer adapts. "Host" alone is kept for VS Code's extension host. Everything a caller gets back is a plain object whose `status` says what really
// happened; nothing here throws for an outcome a worker can cause.
import type { AgentEvent, PermissionOption, ToolDiff, ToolLocation } from './events/agentEvent';
import type { GuardSpec } from './guard/policy';
import type { HistoryError, HistoryLimits } from './history/format';
import type { HistoryStore } from './history/store';

import type { DialectName } from './dialectName';
export type { DialectName };

/** Where a prompt came from; recorded on the turn it starts (seed 004's provenance). */
export interface Provenance {
  source?: string;
  submitter?: string;
  submissionId?: string;
  correlation?: Record<string, unknown>;
}

export interface WorkerSpec {
  dialect: DialectName;
  /** The program to run. For pi, the host adds the hermetic `--mode rpc ...` arguments itself. */
  command: string;
  args?: string[];
  /** Absolute working directory of the worker. */
  cwd: string;
  env?: Record<string, string>;
  /**
   * The name asked for (default: the agent card's, else "<dialect> worker"). The worker gets it
   * when no worker of this host and no past session has it, else the next number after it
   * ("Demo worker #2"); a resumed session (`resume`) keeps the name it is given.
   */
  name?: string;
  model?: string;
  /** A first prompt, sent right after the readiness probe. */
  task?: string;
  /** Provenance of the first task. */
  taskProvenance?: Provenance;
  /** An agent card by name (see cards/). */
  agent?: string;
  /** Where `agent` is looked up, in order; by default the host's `agentDirs`, else the workspace's `.pi/agents` and pi's own. */
  agentDirs?: string[];
  /** Write guard: `true` for the workspace defaults, or explicit absolute paths. */
  guard?: boolean | GuardSpec;
  /** The workspace folder holding `cwd`: the guard's default root and where agent cards are looked up first. */
  workspaceFolder?: string;
  /**
   * For workers the host audits (τ, others): abort the turn at a violation (the default) or only
   * flag it. pi is guarded inside the worker, before the call runs.
   */
  onViolation?: 'abort' | 'flag';
  /**
   * Where the worker keeps its session: a folder of the caller's (the extension's storage), never
   * the person's own session folder. τ: `--session-dir` (so that compact works). pi: `--session-dir`
   * instead of `--no-session`, so that the conversation can be resumed; without it pi stays ephemeral.
   */
  sessionDir?: string;
  /**
   * Start on an earlier session instead of a fresh one: what a previous `WorkerState.session` said.
   * pi reopens its file (which must lie in `sessionDir`); τ switches to its id after starting.
   */
  resume?: SessionRef;
  /**
   * Turns the conversation already had (a resumed session's): the host numbers this worker's
   * first turn after them, so a resumed log does not show a second "Turn 1".
   */
  turnsBefore?: number;
  /**
   * τ: let the worker discover drop-in extensions (~/.tau/extensions) and context files
   * (AGENTS.md from the cwd up); off by default, which launches it with `-ne -nc`.
   */
  discovery?: boolean;
  /**
   * ACP: the session mode to set once the session exists (Claude's adapter starts in `auto`,
   * which asks a classifier model first; `default` asks the person).
   */
  mode?: string;
  /**
   * Offer an ACP agent the host's files (fs/read_text_file, fs/write_text_file: the editor's
   * open documents, confined to the worker's folder, walled by the guard). Default true.
   */
  clientFiles?: boolean;
  /** Extra tools list for pi (`--tools`). */
  tools?: string[];
  appendSystemPrompt?: string;
}

/** A worker's session as the worker names it: enough to resume it later. */
export interface SessionRef {
  /** pi: the session header's id; τ: `session_id`. */
  id: string | null;
  /** The session's file (pi's `sessionFile`, τ's `list_sessions` ref); null while ephemeral or not known. */
  file: string | null;
}

/**
 * Tokens and context as the worker itself counts them, read at the end of each turn (pi:
 * `get_session_stats`; τ: `get_session_stats`, whose `usage` is its last model call's).
 */
export interface WorkerUsage {
  /** What the token counts cover: the whole session (pi) or the last model call (τ). */
  scope: 'session' | 'last_call';
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  /** The context the next call would send, as the worker estimates it; null when it cannot say (pi, right after a compaction). */
  contextTokens: number | null;
  contextWindow: number | null;
  /** Cost in the worker's currency where it reports one (pi: dollars from its model prices). */
  cost: number | null;
  /** When the worker answered (ms since epoch). */
  at: number;
}

export type WorkerStatus = 'starting' | 'running' | 'exited' | 'stopped' | 'failed';

export interface TurnSummary {
  index: number;
  submissionId: string | null;
  source: string | null;
  submitter: string | null;
  startedAt: number;
  endedAt: number | null;
  endReason: string | null;
  error: string | null;
  tools: Array<{ toolCallId: string | null; toolName: string | null; isError: boolean; blocked: boolean; blockedBy: string | null; violation: string | null }>;
}

/** Something a worker waits for the person to answer (see WorkerState.pendingInput). */
export interface PendingInput {
  /** `dialog`: a pi extension dialog open now; `extension_request`: a τ extension's request that stands. */
  kind: 'dialog' | 'extension_request';
  id: string;
  /** The dialog's method (select, confirm, input, editor); null for a τ request. */
  method: string | null;
  title: string | null;
  /** τ: its dialogs are up now (false: dismissed or nothing to ask; the request still stands). */
  asking?: boolean;
  since: number;
}

export interface WorkerState {
  workerId: string;
  /** The worker's one display name, given when it started (see WorkerSpec.name); kept in its history. */
  name: string;
  status: WorkerStatus;
  /** Busy with a turn, from the prompt until the turn settles (`agent_settled`): a plain prompt is refused. */
  streaming: boolean;
  /**
   * What the worker still does after its turn's run ended (pi 1.x, between `agent_end` and
   * `agent_settled`): a retry, an automatic compaction, a queued continuation, or only settling.
   * null while the run goes on or the worker is idle.
   */
  afterTurn: 'retry' | 'compaction' | 'continuation' | 'settling' | null;
  compacting: boolean;
  pid: number | null;
  cwd: string;
  dialect: DialectName;
  /** The worker program's version where the host could learn it (pi: `--version` or its package.json). */
  workerVersion: string | null;
  command: string;
  args: string[];
  model: string | null;
  sessionId: string | null;
  /** The session to resume this worker's conversation from later; null when the worker keeps none. */
  session: SessionRef | null;
  /** The worker's own token and context accounting, refreshed when a turn settles; null until known. */
  usage: WorkerUsage | null;
  agent: string | null;
  guarded: boolean;
  /**
   * How the guard holds a guarded worker to its policy: `vetoed`, a write outside it is refused
   * before it happens (pi's guard inside the worker; an ACP agent that asks before it writes or
   * writes through the host); `audited`, each tool call is judged as it is reported, after the
   * write may have landed (τ, an ACP agent that writes by itself). null: not guarded.
   */
  writeGuard: 'vetoed' | 'audited' | null;
  tools: string[] | null;
  turnCount: number;
  lastEndReason: string | null;
  lastError: string | null;
  exitCode: number | null;
  signal: string | null;
  startedAt: number;
  protocolErrors: number;
  /** Events that fell out of the bounded event store (the oldest go first). */
  eventsDropped: number;
  stderrTail: string[];
  stdoutTail: string[];
  filesTouched: string[];
  turns: TurnSummary[];
  /** What waits for the person now: pi dialogs open, a τ request that stands (empty when none, or not live). */
  pendingInput: PendingInput[];
  /** The session mode the worker is in, where it has modes (ACP); null otherwise. */
  mode: string | null;
  /** The modes it offers (ACP), for Switch Mode…; absent where it has none. */
  modes?: Array<{ id: string; name: string }>;
  /**
   * What the person allowed always for this worker (an ACP agent's questions), answered by the
   * host without asking again until forgotten; absent where the host keeps no such rules.
   */
  allowedAlways?: AllowedRule[];
  /** Why Compact cannot run on this worker at all (an ACP agent without one); null: it can. */
  compactUnavailable: string | null;
  /** What the worker takes while a turn runs (ACP: no steer; follow-ups held by the host). */
  midTurn: { steer: boolean; followUp: 'worker' | 'host' };
}

export type StartResult =
  | { status: 'started'; workerId: string; pid: number; state: WorkerState; taskAccepted?: boolean; ms: number }
  | { status: 'error'; error: string; workerId?: string; stderrTail?: string[]; ms: number };

export type PromptResult =
  | {
    status: 'accepted'; workerId: string; submissionId: string | null; streamingBehavior: StreamingBehavior | null;
    /** The worker consumed the prompt without starting a turn (pi 1.x: an extension command or input handler). */
    handled?: boolean; ms: number;
  }
  | { status: 'error' | 'not_found'; workerId: string; error: string; ms: number };

export type AbortResult =
  | { status: 'aborted'; workerId: string; settleMs: number; compactionCancelled: boolean | null; ms: number }
  | { status: 'not_streaming'; workerId: string; note?: string; ms: number }
  | { status: 'error' | 'not_found'; workerId: string; error: string; ms: number };

export type RedirectResult =
  | { status: 'redirected'; workerId: string; aborted: boolean; settleMs: number; submissionId: string | null; ms: number }
  | { status: 'error' | 'not_found'; workerId: string; error: string; aborted?: boolean; ms: number };

export type CompactResult =
  | { status: 'compacted'; workerId: string; performed: boolean; summary: string | null; tokensBefore: number | null; ms: number }
  | { status: 'aborted'; workerId: string; ms: number }
  | { status: 'error' | 'not_found'; workerId: string; error: string; ms: number };

/**
 * A session verb (new session, fork, set model, export). `unsupported`: this worker (by dialect,
 * version or capabilities) has no such verb, and nothing was sent; `cancelled`: the worker's
 * extension vetoed it and nothing changed.
 */
export type SessionVerbResult =
  | { status: 'created' | 'forked' | 'model_set'; workerId: string; session: SessionRef | null; model: string | null; ms: number }
  | { status: 'mode_set'; workerId: string; session: SessionRef | null; model: string | null; mode: string | null; ms: number }
  | { status: 'exported'; workerId: string; path: string; ms: number }
  | { status: 'cancelled'; workerId: string; ms: number }
  | { status: 'unsupported' | 'error' | 'not_found'; workerId: string; error: string; ms: number };

/** An "allow always" the host remembers for a worker (see permissionRules.ts). */
export interface AllowedRule {
  /** What a later question must match: `execute: <command>` or `<kind>: <title>`. */
  key: string;
  /** The option the person picked, given again when the agent offers it. */
  optionId: string;
  /** When it was remembered (ms since the epoch). */
  since: number;
}

export type ForgetResult =
  | { status: 'forgotten'; workerId: string; forgotten: number; ms: number }
  | { status: 'not_found'; workerId: string; error: string; ms: number };

export type MarkdownResult =
  | { status: 'exported'; workerId: string; markdown: string; ms: number }
  | { status: 'not_found'; workerId: string; error: string; ms: number };

export type StopResult =
  | { status: 'stopped'; workerId: string; exitCode: number | null; signal: string | null; killed: boolean; ms: number }
  | { status: 'not_found'; workerId: string; ms: number };

export type StateResult =
  | { status: WorkerStatus; workerId: string; state: WorkerState }
  | { status: 'not_found'; workerId: string };

export type StreamingBehavior = 'steer' | 'followUp';

export interface PromptOptions extends Provenance {
  streamingBehavior?: StreamingBehavior;
}

/** A request from the worker that a person (or a headless default) answers: pi's extension UI. */
export interface UiRequest {
  workerId: string;
  id: string;
  method: 'select' | 'confirm' | 'input' | 'editor';
  title?: string;
  message?: string;
  options?: string[];
  placeholder?: string;
  prefill?: string;
  timeout?: number;
}
export type UiResponse = { value: string } | { confirmed: boolean } | { cancelled: true };

/** A tool call the agent asks the person about before it runs. */
export interface PermissionAsk {
  toolCallId: string;
  title: string;
  toolKind: string | null;
  /** The shell command, when the call runs one. */
  command: string | null;
  args: Record<string, unknown> | null;
  diffs: ToolDiff[];
  locations: ToolLocation[];
  options: PermissionOption[];
}

/**
 * An agent asks before a tool runs (ACP `session/request_permission`): the person picks one of
 * its options, or dismisses the question. `signal` aborts when the question is moot (the turn
 * was aborted, the worker stopped).
 */
export interface PermissionRequest extends PermissionAsk {
  workerId: string;
  id: string;
  signal: AbortSignal;
}
export type PermissionAnswer = { optionId: string } | { cancelled: true };

/** Fire-and-forget UI from the worker (notify, setStatus, ...). */
export interface UiNotice {
  workerId: string;
  method: string;
  params: Record<string, unknown>;
}

export interface SupervisorLimits {
  maxWorkers: number;
  maxPromptBytes: number;
  commandTimeoutMs: number;
  settleTimeoutMs: number;
  /** Forcible kill follows SIGTERM after this long. */
  killGraceMs: number;
  /** Received lines longer than this are refused as protocol errors. */
  maxLineBytes: number;
  /** Lines kept per stderr / stdout ring. */
  ringLines: number;
  /** Events kept per worker in the event store. */
  eventStoreSize: number;
  /**
   * When a line was lost mid-turn, or a prompt was accepted and no turn began, the worker is
   * asked what it is doing this long after, and again until the doubt is gone.
   */
  resyncMs: number;
}

/** The editor's side of an agent's file requests (ACP fs/*); paths are absolute. */
export interface ClientFileAccess {
  /** The text of the open document (unsaved edits included); null: not open, the host reads the disk. */
  read(path: string): Promise<string | null>;
  /** true: written through the open document; false: not open, the host writes the disk. */
  write(path: string, content: string): Promise<boolean>;
}

export interface SupervisorOptions {
  limits?: Partial<SupervisorLimits>;
  /** Where pi's guard extension bundle is (defaults next to dist/core.js). */
  piGuardPath?: string;
  /** Called for every message sent or received, when set (protocol trace). */
  trace?: (workerId: string, direction: 'send' | 'receive', message: unknown) => void;
  /**
   * Answers an agent's permission requests (ACP); without it every request is rejected (its
   * reject option, else cancelled) and the log says so.
   */
  onPermission?: (req: PermissionRequest) => Promise<PermissionAnswer>;
  /** Where an agent's file reads and writes go first (the editor's open documents); else the disk. */
  files?: ClientFileAccess;
  /** Answers pi's dialog requests; a headless host answers `cancelled`. */
  onUiRequest?: (req: UiRequest) => Promise<UiResponse>;
  onUiNotice?: (notice: UiNotice) => void;
  /** Directories searched for agent cards, in order (workspace first). */
  agentDirs?: string[];
  /** This host's version, for handshakes that name the client (ACP's clientInfo). */
  clientVersion?: string;
  /**
   * Where to record live worker pids (JSON, written atomically; several hosts may share it) so
   * that a later activation can find workers that outlived a crash: see `findSurvivors`.
   */
  registryFile?: string;
  /**
   * A small watchdog process that outlives the host and, if the host dies without stopping its
   * workers, ends their whole process trees (default true; not on Windows).
   */
  watchdog?: boolean;
  /**
   * On Linux with a writable cgroup v2: each worker in a cgroup of its own, killed whole at
   * Stop (and by the watchdog if the host dies), so a process that double-forks into a new
   * session is ended too (default true; where unavailable, see `cgroupSupport()`).
   */
  cgroups?: boolean;
  /**
   * Where each worker's session is persisted (its events as delivered, its end): see
   * core/history. Off when absent. Several hosts (windows) may share the directory.
   */
  historyDir?: string;
  historyLimits?: Partial<HistoryLimits>;
  /** A history write that failed (the event path goes on; default: a process warning). */
  onHistoryError?: (error: HistoryError) => void;
}

/** The host's persisted history, when `historyDir` was given and could be used. */
export interface HostHistoryView {
  readonly store: HistoryStore;
  /** The session a worker of this host writes to. */
  sessionOf(workerId: string): string | null;
}

export type EventListener = (workerId: string, event: AgentEvent) => void;
/** A worker's stderr line, a non-protocol stdout line, a protocol error, or a trace line. */
export type OutputKind = 'stderr' | 'stdout' | 'protocol' | 'trace';
export type OutputListener = (workerId: string, kind: OutputKind, text: string) => void;
export type StateListener = (state: WorkerState) => void;

/** Owns every worker: starts them within the limits, runs the verbs, and fans out what they say. */
export interface Supervisor {
  start(spec: WorkerSpec): Promise<StartResult>;
  prompt(workerId: string, message: string, options?: PromptOptions): Promise<PromptResult>;
  abort(workerId: string): Promise<AbortResult>;
  redirect(workerId: string, message: string, options?: Provenance): Promise<RedirectResult>;
  compact(workerId: string, options?: { instructions?: string }): Promise<CompactResult>;
  /** A fresh conversation on the running worker (pi and τ `new_session`). */
  newSession(workerId: string): Promise<SessionVerbResult>;
  /**
   * Copies the conversation into a new session and goes on there (pi `clone`, τ `fork`); with
   * `entryId`, pi's `fork`: a new session from before that user message.
   */
  fork(workerId: string, options?: { entryId?: string }): Promise<SessionVerbResult>;
  /** The model for the next turn: pi "provider/id", τ a config model name. */
  setModel(workerId: string, model: string): Promise<SessionVerbResult>;
  /** Moves an ACP agent's session into another of its modes (`session/set_mode` or its mode option). */
  setMode(workerId: string, mode: string): Promise<SessionVerbResult>;
  /** pi's own HTML export of the session (`export_html`); τ declines it. */
  exportHtml(workerId: string, outputPath?: string): Promise<SessionVerbResult>;
  /**
   * The session as Markdown, from the events the host still holds (see `sessionMarkdown`); a
   * running worker is asked for its messages too, for tool arguments and results its events lack (τ).
   */
  exportMarkdown(workerId: string): Promise<MarkdownResult>;
  state(workerId: string): StateResult;
  /** Forgets one of the worker's "allow always" rules (by key), or all of them. */
  forgetAllowed(workerId: string, key?: string): Promise<ForgetResult>;
  list(): WorkerState[];
  stop(workerId: string): Promise<StopResult>;
  stopAll(): Promise<StopResult[]>;
  /** Events of one worker still held in its bounded store, oldest first. */
  events(workerId: string): AgentEvent[];
  onEvent(listener: EventListener): () => void;
  onState(listener: StateListener): () => void;
  onOutput(listener: OutputListener): () => void;
  readonly limits: SupervisorLimits;
  /**
   * The persisted history: null when no `historyDir` was given, or it could not be used (then
   * `historyError` says why). Optional so that wrappers of a host need not forward it.
   */
  readonly history?: HostHistoryView | null;
  readonly historyError?: string | null;
  dispose(): Promise<void>;
}

