// The host's side of the history: one session per worker, opened when the worker is created,
// fed every event the host delivers (the same object its listeners get), ended by the worker's
// `worker_exit` once what the exit ends is ended. The summary (turns, touched files) is the
// worker's own state, read when the summary is written: derived once, by the worker, never again
// here.
import type { WorkerState } from '../api';
import type { AgentEvent } from '../events/agentEvent';
import type { HistoryStore } from './store';

interface HostedWorker {
  readonly id: string;
  state(): WorkerState;
  /** What the worker's exit still ends: its host events (terminals ended) come until then. */
  afterExit?(): Promise<void>;
}

export class SupervisorHistory {
  /**
   * Worker id → its session, kept after the worker ends so the UI can still find it (null: the
   * session could not be opened; reported once, not retried per event).
   */
  private readonly sessions = new Map<string, string | null>();

  constructor(readonly store: HistoryStore) {}

  begin(worker: HostedWorker): string | null {
    const known = this.sessions.get(worker.id);
    if (known !== undefined) return known;
    const s = worker.state();
    const opened = this.store.open({
      workerId: worker.id, name: s.name, dialect: s.dialect, cwd: s.cwd, command: s.command, model: s.model, workerVersion: s.workerVersion,
      snapshot: () => {
        const now = worker.state();
        return { turns: now.turnCount, lastTurnEndReason: now.lastEndReason, filesTouched: now.filesTouched, model: now.model, workerVersion: now.workerVersion };
      },
    });
    const id = opened.ok ? opened.sessionId : null;
    this.sessions.set(worker.id, id);
    return id;
  }

  /** On the event path: a map lookup and a queue push. `line`: the worker's line that stands for the event. */
  event(worker: HostedWorker, event: AgentEvent, line?: Buffer): void {
    const id = this.sessions.get(worker.id) ?? this.begin(worker);
    if (id === null) return;
    this.store.append(id, event, line);
    if (event.type === 'worker_exit') {
      const data = event.data ?? {};
      // The session ends once the exit's own events (the terminals it ended) are in it.
      void (worker.afterExit?.() ?? Promise.resolve()).then(() => this.store.end(id, {
        reason: typeof data.status === 'string' ? data.status : 'exited',
        code: typeof data.code === 'number' ? data.code : null,
        signal: typeof data.signal === 'string' ? data.signal : null,
        error: event.error ?? null,
        ...(data.started === false ? { started: false } : {}),
      }));
    }
  }

  state(worker: HostedWorker): void {
    const id = this.sessions.get(worker.id);
    if (id) this.store.touch(id);
  }

  sessionOf(workerId: string): string | null {
    return this.sessions.get(workerId) ?? null;
  }
}
