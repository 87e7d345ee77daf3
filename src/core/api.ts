// The public shape of the supervisor (the core's worker host): what `dist/core.js` exports and
// what the VS Code layer adapts. "Host" alone is kept for VS Code's extension host. Everything a
// caller gets back is a plain object whose `status` says what really happened; nothing here
// throws for an outcome a worker can cause. This file holds the supervisor, its options and its
// listeners; what describes a worker is apiWorker.ts, what the verbs answer apiResults.ts, what a
// worker asks of the person and the editor apiAsks.ts (all re-exported here).
import type { AgentEvent } from './events/agentEvent';
import type { HistoryError, HistoryLimits } from './history/format';
import type { HistoryStore } from './history/store';

import type { DialectName } from './dialectName';
import type { ClientFileAccess, PermissionAnswer, PermissionRequest, UiNotice, UiRequest, UiResponse } from './apiAsks';
import type { AbortResult, CompactResult, ForgetResult, MarkdownResult, PromptOptions, PromptResult, RedirectResult, SessionVerbResult, StartResult, StateResult, StopResult } from './apiResults';
import type { Provenance, WorkerSpec, WorkerState } from './apiWorker';
export type { DialectName };
export type * from './apiWorker';
export type * from './apiResults';
export type * from './apiAsks';

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
  /**
   * A running worker's stdin is probed this often (a write of no bytes, which it never sees): one
   * that closed it is found deaf while idle, not at the person's next message.
   */
  inputProbeMs: number;
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
  /**
   * The running editor's own settings folders (its `User` folder, wherever `--user-data-dir` put
   * it), forbidden to guarded workers besides the usual locations (guard/editorDirs.ts).
   */
  editorSettingsDirs?: string[];
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
  /**
   * How a start asked for after `dispose()` says the host ended (default "the supervisor was
   * disposed"; the extension says its window closed or reloaded).
   */
  disposedReason?: string;
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
/** A worker the supervisor let go (its Stop is over): lists drop it. */
export type RemovedListener = (workerId: string) => void;

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
   * `login`: how this agent takes a key, said after a turn it refused for want of one (MarkdownMeta):
   * the caller's words (the UI's known-agent hints, "For Claude: set ANTHROPIC_API_KEY …"). Without
   * it nothing is missing that the core knows: the turn's error, in the document, already names the
   * login command the agent gave (AcpState.loginAdvice), and needsLogin alone says nothing more.
   */
  exportMarkdown(workerId: string, opts?: { login?: string | null }): Promise<MarkdownResult>;
  state(workerId: string): StateResult;
  /** Forgets one of the worker's "allow always" rules (by key), or all of them. */
  forgetAllowed(workerId: string, key?: string): Promise<ForgetResult>;
  list(): WorkerState[];
  stop(workerId: string): Promise<StopResult>;
  stopAll(): Promise<StopResult[]>;
  /** Events of one worker still held in its bounded store, oldest first. */
  events(workerId: string): AgentEvent[];
  /**
   * Resolves when the worker's event store has packed every block it sealed (they are packed off
   * the main thread) and let go of the block it keeps for a stream's next (a couple of seconds at
   * rest): the store as it stays, for the memory bench. Optional so that wrappers need not forward it.
   */
  eventsPacked?(workerId: string): Promise<void>;
  onEvent(listener: EventListener): () => void;
  onState(listener: StateListener): () => void;
  onOutput(listener: OutputListener): () => void;
  /** After a Stop, once the worker is no longer listed: its last state came before (once a status), and a worker that had exited already gets none from its Stop. */
  onRemoved(listener: RemovedListener): () => void;
  readonly limits: SupervisorLimits;
  /**
   * The persisted history: null when no `historyDir` was given, or it could not be used (then
   * `historyError` says why). Optional so that wrappers of a host need not forward it.
   */
  readonly history?: HostHistoryView | null;
  readonly historyError?: string | null;
  dispose(): Promise<void>;
}

