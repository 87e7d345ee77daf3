// The supervisor's API, what describes one worker: what starts it (WorkerSpec, with the prompt's
// provenance) and what it is now (WorkerState, with its session, usage, turns and what waits for
// the person). Re-exported by api.ts.
import type { DialectName } from './dialectName';
import type { GuardSpec } from './guard/policy';

/** Where a prompt came from (τ's provenance fields, which every dialect is given); recorded on the turn it starts. */
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
   * ("Demo worker #2"); a resumed session (`resume`) keeps the name it is given. A blank name
   * is no name (the default); a name is trimmed.
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
  /** The tools pi enables (`--tools`); empty: none (`--no-tools`); left out, pi's defaults. */
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
  /**
   * The agent refused the turn for want of a login or a key (ACP's -32000 on session/prompt):
   * `error` says so in the agent's words, and the UI adds how this agent takes one.
   */
  needsLogin?: true;
  /** The command the agent names for that login (its initialize `authMethods`), as a refused start gives it: the UI offers to run it. */
  login?: LoginCommand;
  /**
   * Its tool calls; `ended`: the worker reported the call's end (tool_execution_end); `wentOn`:
   * a later call started, or the model wrote on, after this one ended, so its end was not the
   * turn's abort cutting it; `afterAbort`: its end came after the host sent the turn an abort.
   */
  tools: Array<{ toolCallId: string | null; toolName: string | null; isError: boolean; blocked: boolean; blockedBy: string | null; violation: string | null; ended: boolean; wentOn?: true; afterAbort?: true }>;
  /** The host sent the turn an abort (the person's, or the guard's): its `abort_sent` event says when. */
  abortSent?: true;
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
  /** The modes it offers (ACP), for Switch Mode…, with the agent's description of each where it gave one; absent where it has none. */
  modes?: Array<{ id: string; name: string; description?: string }>;
  /**
   * What the person allowed always for this worker (an ACP agent's questions), answered by the
   * host without asking again until forgotten; absent where the host keeps no such rules.
   */
  allowedAlways?: AllowedRule[];
  /** Why Compact cannot run on this worker at all (an ACP agent without one); null: it can. */
  compactUnavailable: string | null;
  /** Why Fork Session cannot run on this running worker at all (ACP v1 has no fork); absent: it can, or it does not run. */
  forkUnavailable?: string;
  /** Why Switch Model… cannot run on this running worker at all (an ACP agent that lists no model choice); absent: it can, or it does not run. */
  modelUnavailable?: string;
  /** Why Abort cannot reach what the worker is doing now (a compaction its abort does not end); null: it can, or nothing runs. */
  abortUnavailable: string | null;
  /** What the worker takes while a turn runs (ACP: no steer; follow-ups held by the host). */
  midTurn: { steer: boolean; followUp: 'worker' | 'host' };
  /**
   * The worker no longer reads its input (its stdin closed) while its process runs on: nothing
   * sent can reach it, so every verb but Stop answers `error` with the reason, and only a Stop
   * ends it; what it says is still heard (a turn it runs may end on its own). Set when the host
   * notices, at the first write its stdin refused; absent otherwise, and once it exited.
   */
  inputLost?: true;
  /**
   * A guarded worker that may run a shell (rpcWorkers.guard.allowBash, a guard spec's `bash`): what
   * the shell writes is not confined by the guard. Absent otherwise.
   */
  guardAllowsBash?: true;
  /**
   * Whom the agent last said it signs in as (its `auth_status` event: Claude's and Codex's
   * adapters say it); kind `none`: signed in as nobody. Absent where the agent has not said.
   */
  signIn?: { kind: string; label: string; detail: string | null };
}

/** An "allow always" the host remembers for a worker (see permissionRules.ts). */
export interface AllowedRule {
  /** What a later question must match: `execute: <command>` or `<kind>: <title>`. */
  key: string;
  /** The option the person picked, given again when the agent offers it. */
  optionId: string;
  /** When it was remembered (ms since the epoch). */
  since: number;
}

/** The command an agent that needs a login names for it (ACP's authMethods), to run in a terminal. */
export interface LoginCommand {
  /** What the agent calls it ("Copilot Login"). */
  label: string;
  /** The shell command line ("copilot login"). */
  line: string;
}
