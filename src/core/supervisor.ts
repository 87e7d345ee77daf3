// The supervisor (the core's worker host): owns every worker, enforces the limits over all of
// them, and fans events, state changes and output out to listeners. This is what `dist/core.js` gives an embedder and what
// the VS Code layer adapts.
import { randomUUID } from 'node:crypto';
import type {
  DialectName, EventListener, OutputListener, PromptOptions, Provenance, StartResult, StateListener, StateResult,
  StopResult, Supervisor, SupervisorOptions, WorkerSpec, WorkerState,
} from './api';
import type { AgentEvent } from './events/agentEvent';
import { HostHistory } from './history/hostHistory';
import type { LineReader } from './history/format';
import { HistoryStore } from './history/store';
import { checkPrompt, checkSpec, resolveLimits } from './worker/limits';
import { buildLaunch } from './worker/launch';
import { WorkerRegistry } from './worker/survivors';
import { Watchdog } from './worker/watchdog';
import { describeCut } from './events/cutEvent';
import { releaseCgroupRoot, WorkerCgroup } from './worker/cgroup';
import { Worker } from './worker/worker';
import { uniqueWorkerName } from './worker/names';
import { readBack } from './wire/codec';
import { DIALECTS } from './wire/dialects';

const now = () => performance.now();
const elapsed = (since: number) => Math.round((performance.now() - since) * 1000) / 1000;

/** The history's reader of a dialect's worker lines: a codec of its own, which is pure for events. */
function lineReader(dialect: DialectName): LineReader {
  const codec = DIALECTS[dialect].createCodec();
  return (raw) => readBack(codec, raw);
}

export function createSupervisor(options: SupervisorOptions = {}): Supervisor {
  const limits = resolveLimits(options.limits);
  const workers = new Map<string, Worker>();
  const eventListeners: EventListener[] = [];
  const stateListeners: StateListener[] = [];
  const outputListeners: OutputListener[] = [];
  let sequence = 0;
  const made = options.historyDir ? HistoryStore.create({ dir: options.historyDir, limits: options.historyLimits, onError: options.onHistoryError, lineReader }) : null;
  if (made && !made.ok) process.emitWarning(`history is off: ${made.error}`);
  const history = made?.ok ? new HostHistory(made.store) : null;

  const subscribe = <T>(list: T[], listener: T) => {
    list.push(listener);
    return () => {
      const i = list.indexOf(listener);
      if (i !== -1) list.splice(i, 1);
    };
  };

  // Listeners run synchronously on the event path; one that throws is reported and the others
  // still run.
  const emitEvent = (worker: Worker, event: AgentEvent, line?: string) => {
    history?.event(worker, event, line);
    // A very long line kept as a preview (events/cutEvent.ts) is said in the worker's output too.
    if (event.cut) emitOutput(worker.id, 'protocol', `kept a preview only: ${describeCut(event.type, event.cut)}`);
    for (const listener of eventListeners) {
      try {
        listener(worker.id, event);
      } catch (error) {
        process.emitWarning(`onEvent listener threw: ${(error as Error).stack ?? error}`);
      }
    }
  };
  const emitState = (worker: Worker) => {
    history?.state(worker);
    if (stateListeners.length === 0) return;
    const state = worker.state();
    for (const listener of stateListeners) {
      try {
        listener(state);
      } catch (error) {
        process.emitWarning(`onState listener threw: ${(error as Error).stack ?? error}`);
      }
    }
  };
  const emitOutput: OutputListener = (workerId, kind, text) => {
    for (const listener of outputListeners) {
      try {
        listener(workerId, kind, text);
      } catch (error) {
        process.emitWarning(`onOutput listener threw: ${(error as Error).stack ?? error}`);
      }
    }
  };

  // What outlives a crash of this host: a watchdog that ends the workers' trees when the host
  // dies without stopping them, and a registry from which the next activation learns of
  // workers that outlived both.
  const watchdog = options.watchdog === false ? null : new Watchdog();
  const registry = options.registryFile ? new WorkerRegistry(options.registryFile) : null;
  // On Linux, where cgroup v2 lets it, each worker in a cgroup of its own: what double-forks
  // out of its tree and its groups is still in there.
  const cgroups = new Map<string, WorkerCgroup>();
  /** After the worker's own stop: what the watchdog saw of it, and its cgroup, are ended too. */
  const untrack = async (workerId: string, worker: Worker) => {
    if (worker.pid !== null) await watchdog?.end(worker.pid);
    await cgroups.get(workerId)?.kill();
    cgroups.delete(workerId);
    registry?.remove(workerId);
  };

  /** Ids of workers this host stopped (the latest ones), so a late verb can say so. */
  const stoppedIds = new Set<string>();
  // Every name this host gave, and the history's (read once): a new worker's name is none of them.
  const names = new Set<string>();
  let historyNames: Promise<void> | null = null;
  const namesKnown = () => historyNames ??= history
    ? history.store.list().then((l) => { for (const s of l.sessions) names.add(s.name); }, () => undefined)
    : Promise.resolve();

  const missing = (workerId: string) => ({
    status: 'not_found' as const, workerId, error: stoppedIds.has(workerId) ? `worker ${workerId} was stopped` : `no worker with id ${workerId}`, ms: 0,
  });

  async function start(input: WorkerSpec): Promise<StartResult> {
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
      namesKnown(),
    ]);
    if (!preflight.ok) return { status: 'error', error: preflight.error, ms: elapsed(t0) };
    // Counted after the last wait, so that starts racing each other cannot pass the limit together.
    const live = [...workers.values()].filter((w) => w.live).length;
    if (live >= limits.maxWorkers) {
      return { status: 'error', error: `${live} workers are running; the limit is ${limits.maxWorkers} (stop one first)`, ms: elapsed(t0) };
    }
    const workerId = `w${++sequence}-${randomUUID().slice(0, 8)}`;
    // Named here, after the last wait, so that two starts racing each other get two names. A
    // resumed session goes on under the name it had, unless a live worker has it (sessions from
    // before names were unique share theirs).
    const wanted = spec.name ?? launch.launch.agent ?? `${spec.dialect} worker`;
    const clash = [...workers.values()].some((w) => w.live && w.state().name === wanted);
    const name = spec.resume && !clash ? wanted : uniqueWorkerName(wanted, names);
    names.add(name);
    const worker = new Worker(workerId, { ...spec, name }, launch.launch, {
      limits,
      dialect,
      version: preflight.version,
      onEvent: emitEvent,
      onState: emitState,
      onOutput: (w, kind, text) => emitOutput(w.id, kind, text),
      trace: options.trace ? (direction, message) => options.trace!(workerId, direction, message) : undefined,
      onUiRequest: options.onUiRequest,
      onUiNotice: options.onUiNotice,
      onPermission: options.onPermission,
      files: options.files,
      clientVersion: options.clientVersion,
      // A host terminal is the host's child, not the worker's: put with the worker, so that Stop
      // (its cgroup, what the watchdog saw) and a host that dies end it too.
      onTerminalSpawn: (w, pid) => {
        cgroups.get(w.id)?.adopt(pid);
        if (w.pid !== null) watchdog?.adopt(w.pid, pid);
      },
    });
    workers.set(workerId, worker);
    history?.begin(worker);
    if (worker.pid !== null) {
      const cgroup = options.cgroups === false ? null : WorkerCgroup.contain(workerId, worker.pid);
      if (cgroup) cgroups.set(workerId, cgroup);
      watchdog?.watch(worker.pid, cgroup?.dir ?? null);
      registry?.record(workerId, worker.pid, { command: launch.launch.command, args: launch.launch.args, cwd: spec.cwd });
    }
    emitState(worker);
    // A version asked of the program itself is asked while the worker starts, not before.
    const [probed, version] = await Promise.all([worker.probe(), preflight.later ?? Promise.resolve(preflight.version)]);
    // A version the handshake named (ACP's agentInfo) stands where the preflight learned none.
    if (probed.ok && version !== null) worker.setVersion(version);
    if (!probed.ok) {
      const stderrTail = worker.state().stderrTail;
      await worker.failStart(probed.error);
      workers.delete(workerId);
      await untrack(workerId, worker);
      const tail = stderrTail.join('\n').trim();
      const error = !tail || probed.error.includes(tail) ? probed.error : `${probed.error}; stderr:\n${tail}`;
      return { status: 'error', workerId, error: `the worker did not become ready: ${error}`, stderrTail, ms: elapsed(t0) };
    }
    let taskAccepted: boolean | undefined;
    if (spec.task) {
      const first = await worker.prompt(spec.task, spec.taskProvenance ?? { source: 'task', submitter: 'start' });
      taskAccepted = first.status === 'accepted';
    }
    return { status: 'started', workerId, pid: worker.pid!, state: worker.state(), taskAccepted, ms: elapsed(t0) };
  }

  function get(workerId: string): Worker | undefined {
    return workers.get(workerId);
  }

  async function stop(workerId: string): Promise<StopResult> {
    const worker = get(workerId);
    if (!worker) return { status: 'not_found', workerId, ms: 0 };
    const result = await worker.stop();
    workers.delete(workerId);
    await untrack(workerId, worker);
    stoppedIds.add(workerId);
    if (stoppedIds.size > 1000) stoppedIds.delete(stoppedIds.values().next().value!);
    return result;
  }

  const supervisor: Supervisor = {
    limits,
    start,
    prompt: async (workerId: string, message: string, opts?: PromptOptions) => get(workerId)?.prompt(message, opts) ?? missing(workerId),
    abort: async (workerId: string) => get(workerId)?.abort() ?? missing(workerId),
    redirect: async (workerId: string, message: string, provenance?: Provenance) => get(workerId)?.redirect(message, provenance) ?? missing(workerId),
    compact: async (workerId: string, opts?: { instructions?: string }) => get(workerId)?.compact(opts?.instructions) ?? missing(workerId),
    newSession: async (workerId: string) => get(workerId)?.sessions.newSession() ?? missing(workerId),
    fork: async (workerId: string, opts?: { entryId?: string }) => get(workerId)?.sessions.fork(opts?.entryId) ?? missing(workerId),
    setModel: async (workerId: string, model: string) => get(workerId)?.sessions.setModel(model) ?? missing(workerId),
    setMode: async (workerId: string, mode: string) => get(workerId)?.sessions.setMode(mode) ?? missing(workerId),
    forgetAllowed: async (workerId: string, key?: string) => {
      const worker = get(workerId);
      return worker ? { status: 'forgotten' as const, workerId, forgotten: worker.forgetAllowed(key), ms: 0 } : missing(workerId);
    },
    exportHtml: async (workerId: string, outputPath?: string) => get(workerId)?.sessions.exportHtml(outputPath) ?? missing(workerId),
    async exportMarkdown(workerId: string) {
      const worker = get(workerId);
      if (!worker) return missing(workerId);
      const s = worker.state();
      return worker.sessions.exportMarkdown(worker.events.toArray(), { title: s.name, dialect: s.workerVersion ? `${s.dialect} ${s.workerVersion}` : s.dialect, model: s.model, cwd: s.cwd });
    },
    state(workerId: string): StateResult {
      const worker = get(workerId);
      if (!worker) return { status: 'not_found', workerId };
      const state = worker.state();
      return { status: state.status, workerId, state };
    },
    list: (): WorkerState[] => [...workers.values()].map((w) => w.state()),
    stop,
    stopAll: () => Promise.all([...workers.keys()].map(stop)),
    events: (workerId: string) => get(workerId)?.events.toArray() ?? [],
    onEvent: (listener) => subscribe(eventListeners, listener),
    onState: (listener) => subscribe(stateListeners, listener),
    onOutput: (listener) => subscribe(outputListeners, listener),
    history: history && { store: history.store, sessionOf: (workerId) => history.sessionOf(workerId) },
    historyError: made && !made.ok ? made.error : null,
    async dispose() {
      await supervisor.stopAll();
      await history?.store.close();
      watchdog?.close();
      if (cgroups.size === 0) releaseCgroupRoot();
      eventListeners.length = 0;
      stateListeners.length = 0;
      outputListeners.length = 0;
    },
  };
  return supervisor;
}
