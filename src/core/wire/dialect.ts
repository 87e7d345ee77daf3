// The one interface both wire protocols hide behind. A dialect knows how to frame its messages
// (its codec), how the worker must be launched, and how each control verb is said on its wire;
// the worker state machine above it never sees a pi command or a τ method name.
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { DialectName, LoginCommand, PermissionAsk, Provenance, SessionRef, StreamingBehavior } from '../api';
import type { WireCodec } from './codec';
import type { SessionVerbs } from './sessionVerbs';

/** pi's extension UI requests, as its codec names them on the connection (`ui/select`, ...). */
export const UI_REQUEST_PREFIX = 'ui/';

export interface ProbeInfo {
  model: string | null;
  sessionId: string | null;
  /** The session file, where the probe's answer names it (pi's get_state `sessionFile`). */
  sessionFile?: string | null;
  streaming: boolean;
  protocolVersion: string | null;
  /** The worker's own version, where its handshake names it (ACP `agentInfo.version`). */
  workerVersion?: string | null;
}

/** What the probe may need of the spec (ACP opens its session in the probe). */
export interface ProbeContext {
  cwd: string;
  resume?: SessionRef;
  model?: string;
  /** The session mode to set once the session exists (ACP). */
  mode?: string;
  /** false: the host's files are not offered (ACP). */
  clientFiles?: boolean;
  /** This host's version, for the handshake's client info. */
  clientVersion?: string;
}

/** A request the agent sends the host, read by its dialect; `answer` says it on the wire. */
export type AgentRequest =
  /** `withdrawn`: the error answer to a question the agent withdrew while it was open (ACP's `$/cancel_request`). */
  | { kind: 'permission'; sessionId: string; ask: PermissionAsk; answer: (optionId: string | null) => unknown; withdrawn: () => Error }
  /** `fs/read_text_file`: the text of `path` (absolute), from its 1-based `line`, at most `limit` lines. */
  | { kind: 'readFile'; sessionId: string; path: string; line: number | null; limit: number | null }
  /** `fs/write_text_file`: `content` as the whole new text of `path` (absolute). */
  | { kind: 'writeFile'; sessionId: string; path: string; content: string }
  /** terminal/*: a command the host runs and owns (see core/worker/terminals.ts). */
  | { kind: 'terminal'; op: 'create'; sessionId: string; command: string; args: string[]; env: Array<{ name: string; value: string }>; cwd: string | null; outputByteLimit: number | null }
  | { kind: 'terminal'; op: 'output' | 'wait' | 'kill' | 'release'; sessionId: string; terminalId: string }
  /** `refuse`: answered with a JSON-RPC error (invalid params) rather than with `answer` as the result. */
  | { kind: 'invalid'; reason: string; answer: unknown; refuse?: boolean };

export interface LaunchOptions {
  /** The program the caller runs. */
  command: string;
  model?: string;
  name?: string;
  /** The caller's own arguments. */
  args: string[];
  /** Where the worker keeps its session (τ: `--session-dir`). */
  sessionDir?: string;
  /** Let the worker discover extensions and context files by itself (τ: no `-ne -nc`). */
  discovery?: boolean;
  /** The session file to reopen, where the launch itself resumes (pi `--session FILE`). */
  resumeFile?: string;
}

export interface PromptRequest extends Provenance {
  text: string;
  streamingBehavior?: StreamingBehavior;
}

export interface CompactAck {
  /** τ names its compaction; its outcome arrives as a `compaction_end` event with this id. */
  compactionId: string | null;
  /** pi answers `compact` only when the compaction is over, with its result. */
  result?: { summary: string | null; tokensBefore: number | null; performed?: boolean; note?: string };
}

/**
 * A request an extension inside the worker left for the person (τ: an `extension_request` entry,
 * read with `get_pending_request`): a sentence, whether it locks the session, and what to ask.
 */
export interface ExtensionRequest {
  id: string;
  extension: string;
  sentence: string;
  /** The worker's own framing ("Extension x requires a response"). */
  label: string;
  lock: boolean;
  ask: {
    title: string;
    body: string | null;
    fields: Array<{ name: string; kind: string; label: string | null; options: string[] | null; required: boolean }>;
    actions: string[];
  } | null;
  /** A command that clears the lock, as the worker advises. */
  release: string | null;
}

/** A refusal the worker itself answered (JSON-RPC error, pi `success: false`). */
export class WorkerRefusal extends Error {
  constructor(message: string, readonly code: number | null, readonly data?: unknown) {
    super(message);
  }
}

/** A start the agent refused until the person logs in; `login`: the command it names, if any. */
export class LoginRequired extends Error {
  constructor(message: string, readonly login: LoginCommand | null) {
    super(message);
  }
}

export interface Dialect {
  readonly name: DialectName;
  /**
   * A fresh codec per connection: the pi codec remembers which requests are open. `reading`: for
   * lines kept for their events, read back (codec.ts readBack), holding no state between them.
   */
  createCodec(use?: 'live' | 'reading'): WireCodec;
  /** Arguments the host adds after the caller's own (`args`), which it may read to say nothing twice. */
  launchArgs(options: LaunchOptions): string[];
  probe(connection: MessageConnection, context: ProbeContext): Promise<ProbeInfo>;
  /** Whether a turn runs, for a dialect that has no verb to ask (ACP: its prompt is unanswered). */
  streaming?(connection: MessageConnection): boolean;
  /** Links a connection to its codec, for a dialect whose verbs read what the codec saw (ACP). */
  bind?(codec: WireCodec, connection: MessageConnection): void;
  /**
   * What the worker can take while a turn runs: a steer into the turn, and a follow-up queued by
   * the worker itself or held by the host until the turn is answered. Absent: both, by the worker.
   */
  midTurn?(connection: MessageConnection): { steer: boolean; followUp: 'worker' | 'host' };
  /**
   * After an abort, the host ends what the worker started during the turn and left running
   * (Codex's agent leaves its shell command running after a cancel).
   */
  readonly sweepsAfterAbort?: boolean;
  /** Why this worker cannot compact now (no compaction at all), or null. */
  compactUnavailable?(connection: MessageConnection): string | null;
  /** Why this worker cannot take a session verb at all (ACP: no fork; an agent with no model choice), or null: it may. */
  verbUnavailable?(connection: MessageConnection, verb: 'fork' | 'model'): string | null;
  /** A request from the worker that the host answers (ACP permission requests); null: not one. */
  agentRequest?(method: string, params: unknown): AgentRequest | null;
  /** The agent asks before it writes (in its current mode), so a guard can refuse first (ACP). */
  writesVetoed?(connection: MessageConnection): boolean;
  /** The session modes the worker offers, where it has modes (ACP). */
  modes?(connection: MessageConnection): { current: string | null; available: Array<{ id: string; name: string; description?: string }> } | null;
  /** `handled`: the worker consumed the prompt without starting a turn (pi 1.x `disposition: "handled"`). */
  prompt(connection: MessageConnection, request: PromptRequest): Promise<{ submissionId: string | null; handled?: boolean }>;
  /** Returns the compaction the abort also reached, where the worker says so. */
  abort(connection: MessageConnection): Promise<{ compactionId: string | null }>;
  compact(connection: MessageConnection, instructions: string | undefined): Promise<CompactAck>;
  /** The arguments of a tool call, for workers whose events do not carry them (τ 1.5). */
  toolCallArgs?(connection: MessageConnection, toolCallId: string): Promise<unknown>;
  /** The request an extension left for the person, if the worker has such requests (τ). */
  pendingRequest?(connection: MessageConnection): Promise<ExtensionRequest | null>;
  answerRequest?(connection: MessageConnection, id: string, action: string, values: Record<string, unknown>): Promise<{ handled: boolean; output: string | null }>;
  /** The worker sends compaction_start when a compaction it was asked for begins (pi); τ sends only the end. */
  readonly announcesCompaction: boolean;
  /** New session, fork, model, export, resume and token accounting (see sessionVerbs.ts). */
  readonly sessions?: SessionVerbs;
  /** Whether this worker's `abort` reaches a running compaction, when `traits` does not say by version. */
  readonly abortCancelsCompaction: boolean;
  /**
   * Learns the worker's version before it is spawned, and refuses a launch that cannot work
   * (pi 1.x on a Node older than it needs) in plain words.
   */
  preflight?(launch: { command: string; callerArgs: readonly string[]; env: Record<string, string | undefined>; cwd: string }): Promise<{ ok: true; version: string | null; later?: Promise<string | null> } | { ok: false; error: string }>;
  /** What differs by version of the worker; the one place such differences are decided. */
  traits?(version: string | null): Partial<DialectTraits>;
  /** Plain words for a start that failed in a way the worker's stderr says badly; null if not. */
  explainStartFailure?(stderr: string): string | null;
}

export interface DialectTraits {
  /** `abort` reaches a running compaction (pi 1.x, τ) and its end says so. */
  abortCancelsCompaction: boolean;
  /**
   * The worker ends each turn with `agent_settled` (pi 1.x): true; never: false; not known
   * (learned from the first one seen): null.
   */
  sendsSettled: boolean | null;
  /**
   * The worker stamps every turn's events with their submission (τ): an agent_start that names
   * none is its compaction's, not a turn's, even when the worker began it on its own.
   */
  stampsTurns: boolean;
  /**
   * A tool event seen outside a turn begins one (pi, τ). Not in ACP, where only the prompt's
   * answer ends a turn: an update after that answer (Claude sends them after a cancel's) would
   * open a turn nothing ends.
   */
  toolsOpenTurns: boolean;
}

/** The traits of a worker of this dialect and version. */
export function traitsOf(dialect: Dialect, version: string | null): DialectTraits {
  return { abortCancelsCompaction: dialect.abortCancelsCompaction, sendsSettled: null, stampsTurns: false, toolsOpenTurns: true, ...dialect.traits?.(version) };
}
