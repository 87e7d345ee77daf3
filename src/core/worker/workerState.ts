// A worker's state as its listeners read it (WorkerState: the supervisor's lists, the tree, the
// API): what it is and what it runs, how its turns went, what waits for the person, how the
// guard holds it, and what it cannot take now, each with why. Read when its state changes, not
// per event.
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { WorkerSpec, WorkerState, WorkerStatus } from '../api';
import type { Dialect, DialectTraits } from '../wire/dialect';
import type { ClientServices } from './clientServices';
import type { EventStore } from './eventStore';
import { abortUnreachable } from './interrupts';
import type { Launch } from './launch';
import type { PendingInputs } from './pendingInput';
import type { Ring } from './ring';
import type { WorkerSessions } from './sessions';
import type { TurnTracker } from './turns';
import type { WorkerProcess } from './workerProcess';

/** What of its worker its state reads, as it is when the state is asked for. */
export interface StateReads {
  readonly id: string;
  readonly spec: WorkerSpec;
  readonly launch: Launch;
  readonly dialect: Dialect;
  readonly connection: MessageConnection;
  readonly status: WorkerStatus;
  /** Starting or running. */
  readonly live: boolean;
  readonly turns: TurnTracker;
  readonly process: WorkerProcess;
  readonly sessions: WorkerSessions;
  readonly events: EventStore;
  /** The lines it sent that could not be read (its protocol errors). */
  readonly stdout: Ring<string>;
  readonly protocolErrors: number;
  readonly pendingInput: PendingInputs;
  readonly permissions: ClientServices['permissions'];
  readonly files: ClientServices['files'];
  readonly startedAt: number;
  readonly traits: DialectTraits;
  /** What it said of itself: its version ("pi 1.6.0" in versionName), and its model and session as its probe read them. */
  readonly version: string | null;
  readonly versionName: string;
  readonly model: string | null;
  readonly sessionId: string | null;
  /** The agent's last word on whom it signs in as (its auth_status event). */
  readonly signIn: WorkerState['signIn'];
  /** The agent was seen asking before a write. */
  readonly askedBeforeWriting: boolean;
}

export function workerState(w: StateReads): WorkerState {
  const { spec, launch, live, turns, process, sessions, signIn } = w;
  const running = w.status === 'running';
  return {
    workerId: w.id,
    name: spec.name ?? launch.agent ?? `${spec.dialect} worker`,
    status: w.status,
    streaming: live && turns.streaming,
    afterTurn: live ? turns.afterTurn : null,
    compacting: live && turns.compacting,
    pid: process.pid,
    cwd: spec.cwd,
    dialect: spec.dialect,
    workerVersion: w.version,
    command: launch.command,
    args: launch.args,
    model: sessions.model ?? w.model,
    sessionId: sessions.ref?.id ?? w.sessionId,
    session: sessions.ref,
    usage: sessions.usage,
    agent: launch.agent,
    guarded: launch.guarded,
    writeGuard: writeGuard(w),
    // pi's guard is inside the worker (no audit): bash among its tools is the policy's bash.
    ...((launch.audit?.policy.bash ?? (launch.guarded && launch.tools?.includes('bash'))) ? { guardAllowsBash: true as const } : {}),
    tools: launch.tools,
    turnCount: turns.turnCount,
    lastEndReason: turns.lastEndReason,
    lastError: turns.lastError,
    exitCode: process.exit?.code ?? null,
    signal: process.exit?.signal ?? null,
    startedAt: w.startedAt,
    protocolErrors: w.protocolErrors,
    eventsDropped: w.events.evicted,
    stderrTail: process.stderr.tail(20),
    stdoutTail: w.stdout.tail(20),
    filesTouched: [...turns.filesTouched],
    turns: turns.turns.map((t) => ({ ...t, tools: t.tools.map((x) => ({ ...x })) })),
    pendingInput: live ? w.pendingInput.list() : [],
    allowedAlways: w.permissions.rules.list(),
    ...modeState(w.dialect, w.connection),
    compactUnavailable: running ? w.dialect.compactUnavailable?.(w.connection) ?? null : null,
    ...(running ? verbsUnavailable(w.dialect, w.connection) : {}),
    abortUnavailable: running ? abortUnreachable(turns, w.traits, w.versionName) : null,
    midTurn: w.dialect.midTurn?.(w.connection) ?? { steer: true, followUp: 'worker' },
    ...(signIn ? { signIn: { ...signIn } } : {}),
    ...(process.inputLost ? { inputLost: true as const } : {}),
  };
}

/** How the guard holds a guarded worker to its policy (WorkerState.writeGuard); null: it is not guarded. */
function writeGuard(w: StateReads): WorkerState['writeGuard'] {
  if (!w.launch.guarded) return null;
  // No audit by the host: the guard is inside the worker (pi's), and refuses a write before it happens.
  if (!w.launch.audit) return 'vetoed';
  // An agent that asked before a write meets the wall with its question, and one that writes
  // through the host (its file requests) meets it with the write: either way before the write lands.
  if (w.askedBeforeWriting || w.files.writes > 0) return 'vetoed';
  // Its mode says it asks before it writes, though no write was seen yet (the dialect's word, ACP).
  if (w.dialect.writesVetoed?.(w.connection)) return 'vetoed';
  // It writes by itself: each call is judged as it is reported, after the write may have landed.
  return 'audited';
}

/** The session verbs a running worker cannot take at all, each with why (absent: it can). */
function verbsUnavailable(dialect: Dialect, connection: MessageConnection): Pick<WorkerState, 'forkUnavailable' | 'modelUnavailable'> {
  const why = dialect.verbUnavailable;
  if (!why) return {};
  const fork = why(connection, 'fork');
  const model = why(connection, 'model');
  return { ...(fork ? { forkUnavailable: fork } : {}), ...(model ? { modelUnavailable: model } : {}) };
}

function modeState(dialect: Dialect, connection: MessageConnection): Pick<WorkerState, 'mode' | 'modes'> {
  const modes = dialect.modes?.(connection);
  return modes ? { mode: modes.current, modes: modes.available } : { mode: null };
}

/** The mode the session is in and its name, for the session verbs (null: the worker has none). */
export function sessionMode(dialect: Dialect, connection: MessageConnection): { id: string; name: string | null } | null {
  const { mode, modes } = modeState(dialect, connection);
  return mode === null ? null : { id: mode, name: modes?.find((m) => m.id === mode)?.name ?? null };
}
