// A worker's start, as the supervisor does it: the spec and the first task checked, the launch
// built and preflighted, the limit counted after the last wait, a unique name given, the
// process contained, and the handshake awaited before the first task is sent.
import { randomUUID } from 'node:crypto';
import type { StartResult, SupervisorLimits, SupervisorOptions, WorkerSpec } from './api';
import type { SupervisorHistory } from './history/supervisorHistory';
import { atLimitError, checkPrompt, checkSpec } from './worker/limits';
import { buildLaunch } from './worker/launch';
import { Worker } from './worker/worker';
import { uniqueWorkerName } from './worker/names';
import { DIALECTS } from './wire/dialects';
import { DISPOSED, shutDownError } from './shutDownWords';
import type { Containment } from './containment';
import type { Fanout } from './supervisorFanout';

const now = () => performance.now();
const elapsed = (since: number) => Math.round((performance.now() - since) * 1000) / 1000;

/** What a start reads and changes of the supervisor that owns the worker. */
export interface StartContext {
  limits: SupervisorLimits;
  options: SupervisorOptions;
  workers: Map<string, Worker>;
  /** Every name the supervisor gave, and the history's once namesKnown settles. */
  names: Set<string>;
  namesKnown(): Promise<void>;
  nextSequence(): number;
  /** True once the supervisor is disposed: a start still in its waits then spawns nothing. */
  disposed(): boolean;
  fanout: Fanout;
  containment: Containment;
  history: SupervisorHistory | null;
  /** The supervisor's Stop (see WorkerSetup.stop). */
  stop(workerId: string): Promise<unknown>;
}

export async function startWorker(ctx: StartContext, input: WorkerSpec): Promise<StartResult> {
  const { limits, options, workers, names, fanout, containment, history } = ctx;
  const t0 = now();
  const checked = checkSpec(input);
  if (!checked.ok) return { status: 'error', error: checked.error, ms: elapsed(t0) };
  const spec = checked.spec;
  // The first task obeys the prompt limit; refused before anything is spawned.
  const taskRefused = spec.task ? checkPrompt(spec.task, limits) : null;
  if (taskRefused) return { status: 'error', error: `invalid worker spec: task: ${taskRefused}`, ms: elapsed(t0) };
  const launch = buildLaunch(spec, options);
  if (!launch.ok) return { status: 'error', error: launch.error, ms: elapsed(t0) };
  const dialect = DIALECTS[spec.dialect];
  // The worker's version (what differs by version is decided from it), and a launch that cannot
  // work refused in plain words before anything is spawned.
  const [preflight] = await Promise.all([
    dialect.preflight
      ? dialect.preflight({ command: launch.launch.command, callerArgs: spec.args ?? [], env: { ...process.env, ...launch.launch.env }, cwd: spec.cwd })
      : { ok: true as const, version: null, later: undefined },
    ctx.namesKnown(),
  ]);
  if (!preflight.ok) return { status: 'error', error: preflight.error, ms: elapsed(t0) };
  // Disposed during the waits (the window closing or reloading as a start was asked for): its
  // stopAll did not see this worker, which would outlive the host, so it is not spawned.
  if (ctx.disposed()) return { status: 'error', error: shutDownError(options.disposedReason ?? DISPOSED), ms: elapsed(t0) };
  // Counted after the last wait, so that starts racing each other cannot pass the limit together.
  const live = [...workers.values()].filter((w) => w.live).length;
  if (live >= limits.maxWorkers) {
    return { status: 'error', error: atLimitError(live, limits.maxWorkers), atLimit: true, ms: elapsed(t0) };
  }
  const workerId = `w${ctx.nextSequence()}-${randomUUID().slice(0, 8)}`;
  // Named here, after the last wait, so that two starts racing each other get two names. A
  // resumed session goes on under the name it had, unless a worker still listed has it (one that
  // runs, or the one that ended on its own and is resumed now: two rows, tabs and notifications
  // of one name could not be told apart; sessions from before names were unique share theirs).
  const wanted = spec.name ?? launch.launch.agent ?? `${spec.dialect} worker`;
  const clash = [...workers.values()].some((w) => w.state().name === wanted);
  const name = spec.resume && !clash ? wanted : uniqueWorkerName(wanted, names);
  names.add(name);
  const worker = new Worker(workerId, { ...spec, name }, launch.launch, {
    limits,
    dialect,
    version: preflight.version,
    onEvent: fanout.emitEvent,
    onState: fanout.emitState,
    onOutput: (w, kind, text) => fanout.emitOutput(w.id, kind, text),
    trace: options.trace ? (direction, message) => options.trace!(workerId, direction, message) : undefined,
    onUiRequest: options.onUiRequest,
    onUiNotice: options.onUiNotice,
    onPermission: options.onPermission,
    files: options.files,
    clientVersion: options.clientVersion,
    onTerminalSpawn: (w, pid) => containment.adopt(w.id, w, pid),
    stop: (w) => ctx.stop(w.id),
  });
  workers.set(workerId, worker);
  history?.begin(worker);
  containment.track(workerId, worker, { command: launch.launch.command, args: launch.launch.args, cwd: spec.cwd });
  fanout.emitState(worker);
  // A version asked of the program itself is asked while the worker starts, not before.
  // It is not `running` before its version is known: an exit while the version is read fails the
  // start as a failed probe does (no row left, no exit of a running worker to notify).
  const [probed, version] = await Promise.all([worker.probe(preflight.later), preflight.later ?? Promise.resolve(preflight.version)]);
  // A version the handshake named (ACP's agentInfo) stands where the preflight learned none.
  if (probed.ok && version !== null) worker.setVersion(version);
  // The probe answered, but a Stop came while the version was still read: the start did not
  // complete, and says it was stopped (the Stop removes the worker).
  if (!probed.ok && worker.stopRequested && worker.answeredProbe) {
    return { status: 'error', workerId, error: 'the worker was stopped before its start was complete (while its version was read)', ms: elapsed(t0) };
  }
  if (!probed.ok) {
    const stderrTail = worker.state().stderrTail;
    // A Stop during the probe is why it failed (read before failStart, which stops it too): the
    // exit it caused (a SIGTERM, the end of its stdin) is not the worker's own.
    const stopped = worker.stopRequested;
    await worker.failStart(probed.error);
    workers.delete(workerId);
    await containment.untrack(workerId);
    if (stopped) return { status: 'error', workerId, error: 'the worker was stopped before its start was complete', ms: elapsed(t0) };
    // A program that never started has nothing to become ready, and one that needs a login says
    // so in its own words: the reason alone says it.
    const spawned = worker.spawnFailure;
    if (spawned) return { status: 'error', workerId, error: spawned.error, stderrTail, ms: elapsed(t0), ...(spawned.missing ? { missing: true } : {}) };
    if (probed.needsLogin) return { status: 'error', workerId, error: probed.error, stderrTail, ms: elapsed(t0), needsLogin: true, ...(probed.login ? { login: probed.login } : {}) };
    const tail = stderrTail.join('\n').trim();
    const error = !tail || probed.error.includes(tail) ? probed.error : `${probed.error}; stderr:\n${tail}`;
    return { status: 'error', workerId, error: `the worker did not become ready: ${error}`, stderrTail, ms: elapsed(t0) };
  }
  let taskAccepted: boolean | undefined;
  let taskError: string | undefined;
  if (spec.task) {
    const first = await worker.prompt(spec.task, spec.taskProvenance ?? { source: 'task', submitter: 'start' });
    taskAccepted = first.status === 'accepted';
    // Why the worker did not take it, for the caller to say (the task is the person's typing).
    if (first.status !== 'accepted') taskError = first.error;
  }
  return { status: 'started', workerId, pid: worker.pid!, state: worker.state(), taskAccepted, ...(taskError !== undefined ? { taskError } : {}), ms: elapsed(t0) };
}

