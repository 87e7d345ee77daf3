// The supervisor (the core's worker host): owns every worker, enforces the limits over all of
// them, and fans events, state changes and output out to listeners (supervisorFanout.ts). This
// is what `dist/core.js` gives an embedder and what the VS Code layer adapts. A worker's start
// is supervisorStart.ts; what outlives a crash is containment.ts.
import type { DialectName, PromptOptions, Provenance, StateResult, StopResult, Supervisor, SupervisorOptions, WorkerSpec, WorkerState } from './api';
import { SupervisorHistory } from './history/supervisorHistory';
import type { LineReader } from './history/format';
import { HistoryStore } from './history/store';
import { resolveLimits } from './worker/limits';
import type { Worker } from './worker/worker';
import { readBack } from './wire/codec';
import { DIALECTS } from './wire/dialects';
import { Containment } from './containment';
import { createFanout } from './supervisorFanout';
import { startWorker } from './supervisorStart';
import { keepNewest } from './keepNewest';
import { theCount } from '../protocol/words';
import { compactArg, forkArg, messageArg, modeArg, modelArg, pathArg, promptArg, provenanceArg, refusal } from './verbArgs';

/** The history's reader of a dialect's worker lines: a reading codec of its own. */
function lineReader(dialect: DialectName): LineReader {
  const codec = DIALECTS[dialect].createCodec('reading');
  return (raw) => readBack(codec, raw);
}

export function createSupervisor(options: SupervisorOptions = {}): Supervisor {
  const limits = resolveLimits(options.limits);
  const workers = new Map<string, Worker>();
  let sequence = 0;
  const { history, historyError } = openHistory(options);

  const fanout = createFanout(history);
  const { eventListeners, stateListeners, outputListeners, subscribe } = fanout;
  const containment = new Containment(options);

  /** Ids of workers this supervisor stopped (the latest ones), so a late verb can say so. */
  const stoppedIds = new Set<string>();
  const { names, namesKnown } = takenNames(history);

  const missing = (workerId: string) => ({
    status: 'not_found' as const, workerId, error: stoppedIds.has(workerId) ? `worker ${workerId} was stopped` : `no worker with id ${workerId}`, ms: 0,
  });

  let disposed = false;
  const start = (input: WorkerSpec) => startWorker({ limits, options, workers, names, namesKnown, nextSequence: () => ++sequence, disposed: () => disposed, fanout, containment, history, stop }, input);

  function get(workerId: string): Worker | undefined {
    return workers.get(workerId);
  }

  /** Stops under way: a second Stop of the same worker (a click, Stop All) answers with the first. */
  const stopping = new Map<string, Promise<StopResult>>();

  function stop(workerId: string): Promise<StopResult> {
    const running = stopping.get(workerId);
    if (running) return running;
    const worker = get(workerId);
    if (!worker) return Promise.resolve(missing(workerId));
    const done = stopOnce(workerId, worker).finally(() => stopping.delete(workerId));
    stopping.set(workerId, done);
    return done;
  }

  async function stopOnce(workerId: string, worker: Worker): Promise<StopResult> {
    const result = await worker.stop();
    workers.delete(workerId);
    // A worker that had exited already says nothing on its Stop, and a live one's stopped state
    // comes while it is still listed: lists learn here that it is gone.
    fanout.emitRemoved(workerId);
    await containment.untrack(workerId);
    stoppedIds.add(workerId);
    keepNewest(stoppedIds, 1000);
    return result;
  }

  const supervisor: Supervisor = {
    limits,
    start,
    prompt: async (workerId: string, message: string, opts?: PromptOptions) => refused(workerId, refusal(messageArg, message) ?? refusal(promptArg, opts)) ?? get(workerId)?.prompt(message, opts) ?? missing(workerId),
    abort: async (workerId: string) => get(workerId)?.abort() ?? missing(workerId),
    redirect: async (workerId: string, message: string, provenance?: Provenance) => refused(workerId, refusal(messageArg, message) ?? refusal(provenanceArg, provenance)) ?? get(workerId)?.redirect(message, provenance) ?? missing(workerId),
    compact: async (workerId: string, opts?: { instructions?: string }) => refused(workerId, refusal(compactArg, opts)) ?? get(workerId)?.compact(opts?.instructions) ?? missing(workerId),
    newSession: async (workerId: string) => get(workerId)?.sessions.newSession() ?? missing(workerId),
    fork: async (workerId: string, opts?: { entryId?: string }) => refused(workerId, refusal(forkArg, opts)) ?? get(workerId)?.sessions.fork(opts?.entryId) ?? missing(workerId),
    setModel: async (workerId: string, model: string) => refused(workerId, refusal(modelArg, model)) ?? get(workerId)?.sessions.setModel(model) ?? missing(workerId),
    setMode: async (workerId: string, mode: string) => refused(workerId, refusal(modeArg, mode)) ?? get(workerId)?.sessions.setMode(mode) ?? missing(workerId),
    forgetAllowed: async (workerId: string, key?: string) => forgotten(get(workerId), workerId, key) ?? missing(workerId),
    exportHtml: async (workerId: string, outputPath?: string) => refused(workerId, refusal(pathArg, outputPath)) ?? get(workerId)?.sessions.exportHtml(outputPath) ?? missing(workerId),
    exportMarkdown: async (workerId: string, opts?: { login?: string | null }) => markdownOf(get(workerId), opts?.login ?? null) ?? missing(workerId),
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
    eventsPacked: async (workerId: string) => get(workerId)?.events.blocks.rested(),
    onEvent: (listener) => subscribe(eventListeners, listener),
    onState: (listener) => subscribe(stateListeners, listener),
    onOutput: (listener) => subscribe(outputListeners, listener),
    onRemoved: (listener) => subscribe(fanout.removedListeners, listener),
    history: history && { store: history.store, sessionOf: (workerId) => history.sessionOf(workerId) },
    historyError,
    async dispose() {
      disposed = true;
      await supervisor.stopAll();
      await history?.store.close();
      containment.close();
      for (const listeners of [eventListeners, stateListeners, outputListeners, fanout.removedListeners]) listeners.length = 0;
    },
  };
  return supervisor;
}

/** A verb refused for its argument (a script's slip: plain JavaScript has no types to catch it), before any worker is asked. */
function refused(workerId: string, error: string | null) {
  return error === null ? undefined : { status: 'error' as const, workerId, error, ms: 0 };
}

/** The persisted history, when `historyDir` was given and could be used (else a warning says why). */
function openHistory(options: SupervisorOptions): { history: SupervisorHistory | null; historyError: string | null } {
  const made = options.historyDir ? HistoryStore.create({ dir: options.historyDir, limits: options.historyLimits, onError: options.onHistoryError, lineReader }) : null;
  if (made && !made.ok) process.emitWarning(`history is off: ${made.error}`);
  return { history: made?.ok ? new SupervisorHistory(made.store) : null, historyError: made && !made.ok ? made.error : null };
}

/** Every name this supervisor gave, and the history's (read once): a new worker's name is none of them. */
function takenNames(history: SupervisorHistory | null): { names: Set<string>; namesKnown: () => Promise<void> } {
  const names = new Set<string>();
  let historyNames: Promise<void> | null = null;
  const namesKnown = () => historyNames ??= history
    ? history.store.list().then((l) => { for (const s of l.sessions) names.add(s.name); }, () => undefined)
    : Promise.resolve();
  return { names, namesKnown };
}

/** The worker's session as Markdown (undefined: no such worker). */
function markdownOf(worker: Worker | undefined, login: string | null) {
  if (!worker) return undefined;
  const s = worker.state();
  // The host keeps the newest events in memory only: what it let go is said, not left out unsaid.
  const evicted = worker.events.evicted;
  const kept = worker.events.length;
  const missing = evicted > 0 ? [`the first ${theCount(evicted, 'event')} of this worker: the host keeps its newest ${theCount(kept, 'event')} in memory (the session's history, when on, has them all: export it from the Sessions view once the worker has ended)`] : [];
  return worker.sessions.exportMarkdown(worker.events.toArray(), { title: s.name, dialect: s.workerVersion ? `${s.dialect} ${s.workerVersion}` : s.dialect, model: s.model, cwd: s.cwd, missing, login });
}

/** What Forget Always-Allowed Actions did to a worker's rules (one, or all without a key). */
function forgotten(worker: Worker | undefined, workerId: string, key: string | undefined) {
  return worker && { status: 'forgotten' as const, workerId, forgotten: worker.forgetAllowed(key), ms: 0 };
}
