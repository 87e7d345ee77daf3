// The supervisor, loaded when it is first needed. The core (dist/core.js: zod, vscode-jsonrpc,
// the wire and worker code) takes ~100 ms to load; activation must take well under 50 ms, so the
// extension starts with this stand-in, which holds the listeners and answers for a supervisor
// with no workers, and loads the core on the first start(). No worker logic lives here.
import type {
  EventListener, SupervisorLimits, OutputListener, RemovedListener, PromptOptions, Provenance, StateListener, StateResult, Supervisor, WorkerSpec, WorkerState,
} from '../../core/api';
import type { AgentEvent } from '../../core/events/agentEvent';
// The leaf with the numbers only: the core itself is not loaded here.
import { DEFAULT_LIMITS } from '../../core/worker/defaultLimits';
import { HOST_SHUT_DOWN, SHUT_DOWN_ERROR } from '../../core/shutDownWords';

/** What the stand-in is told besides how to load the real supervisor. */
export interface LazySupervisorOptions {
  /** Told each started worker's spec (the history keeps it, so the session can be resumed later). */
  onStarted?: (workerId: string, spec: WorkerSpec) => void;
  /** Where a listener that threw is reported (the extension's log); default: the console. */
  warn?: (message: string) => void;
}

/**
 * One subscription: an object of its own, so the same function subscribed twice is two entries,
 * made once at the subscription (a wrapping closure would cost a call and an array per event).
 */
type Entry<L> = { readonly listener: L };

function fanOut<A extends unknown[]>(entries: Set<Entry<(...a: A) => void>>, what: string, warn: (message: string) => void) {
  const threw = (error: unknown) => warn(`${what} listener threw: ${(error as Error)?.stack ?? String(error)}`);
  return (...args: A) => {
    for (const { listener } of [...entries]) {
      try {
        // Another extension's async listener: its rejection is said here, not left unhandled.
        const r = (listener as (...a: A) => unknown)(...args);
        if (r instanceof Promise) r.catch(threw);
      } catch (error) {
        threw(error);
      }
    }
  };
}

const consoleWarn = (message: string) => console.error(`[rpc-workers] ${message}`);

export class LazySupervisor implements Supervisor {
  private real: Supervisor | undefined;
  private readonly events_ = new Set<Entry<EventListener>>();
  private readonly states = new Set<Entry<StateListener>>();
  private readonly outputs = new Set<Entry<OutputListener>>();
  private readonly removed = new Set<Entry<RemovedListener>>();
  private readonly preliminary: SupervisorLimits;
  /** Set by dispose(): a start after it would load a host that nothing disposes, so it is refused. */
  private shutDown_ = false;

  constructor(
    private readonly load: () => Supervisor,
    limits: Partial<SupervisorLimits>,
    private readonly options: LazySupervisorOptions = {},
  ) {
    this.preliminary = { ...DEFAULT_LIMITS, ...limits };
  }

  get loaded(): boolean {
    return this.real !== undefined;
  }

  /** Whether dispose() was called: the host (and its history store) is closed, or never opened. */
  get shutDown(): boolean {
    return this.shutDown_;
  }

  get limits(): SupervisorLimits {
    return this.real?.limits ?? this.preliminary;
  }

  /** The persisted history: null until the core is loaded, or when it is off or unusable. */
  get history() {
    return this.real?.history ?? null;
  }

  get historyError() {
    return this.real?.historyError ?? null;
  }

  /** The real host, loaded now if it was not; after dispose() none is loaded (nothing would dispose it). */
  host(): Supervisor {
    if (!this.real) {
      if (this.shutDown_) throw new Error(HOST_SHUT_DOWN);
      const real = this.load();
      const warn = this.options.warn ?? consoleWarn;
      real.onEvent(fanOut(this.events_, 'onEvent', warn) as EventListener);
      real.onState(fanOut(this.states, 'onState', warn) as StateListener);
      real.onOutput(fanOut(this.outputs, 'onOutput', warn) as OutputListener);
      real.onRemoved(fanOut(this.removed, 'onRemoved', warn) as RemovedListener);
      this.real = real;
    }
    return this.real;
  }

  async start(spec: WorkerSpec) {
    // As the supervisor refuses a start after its dispose(), so does the stand-in, whose core
    // may never have been loaded: loading it now would leave its workers running past the window.
    if (this.shutDown_) return { status: 'error' as const, error: SHUT_DOWN_ERROR, ms: 0 };
    const r = await this.host().start(spec);
    if (r.status === 'started') this.options.onStarted?.(r.workerId, spec);
    return r;
  }

  // Before the core is loaded there is no worker: every verb answers as the host would.
  prompt(workerId: string, message: string, options?: PromptOptions) {
    return this.real ? this.real.prompt(workerId, message, options) : Promise.resolve({ status: 'not_found' as const, workerId, error: `no worker with id ${workerId}`, ms: 0 });
  }

  abort(workerId: string) {
    return this.real ? this.real.abort(workerId) : Promise.resolve({ status: 'not_found' as const, workerId, error: `no worker with id ${workerId}`, ms: 0 });
  }

  redirect(workerId: string, message: string, options?: Provenance) {
    return this.real ? this.real.redirect(workerId, message, options) : Promise.resolve({ status: 'not_found' as const, workerId, error: `no worker with id ${workerId}`, ms: 0 });
  }

  compact(workerId: string, options?: { instructions?: string }) {
    return this.real ? this.real.compact(workerId, options) : Promise.resolve({ status: 'not_found' as const, workerId, error: `no worker with id ${workerId}`, ms: 0 });
  }

  newSession(workerId: string) {
    return this.real ? this.real.newSession(workerId) : Promise.resolve(this.none(workerId));
  }

  fork(workerId: string, options?: { entryId?: string }) {
    return this.real ? this.real.fork(workerId, options) : Promise.resolve(this.none(workerId));
  }

  setMode(workerId: string, mode: string) {
    return this.real ? this.real.setMode(workerId, mode) : Promise.resolve(this.none(workerId));
  }

  forgetAllowed(workerId: string, key?: string) {
    return this.real ? this.real.forgetAllowed(workerId, key) : Promise.resolve(this.none(workerId));
  }

  setModel(workerId: string, model: string) {
    return this.real ? this.real.setModel(workerId, model) : Promise.resolve(this.none(workerId));
  }

  exportHtml(workerId: string, outputPath?: string) {
    return this.real ? this.real.exportHtml(workerId, outputPath) : Promise.resolve(this.none(workerId));
  }

  exportMarkdown(workerId: string, opts?: { login?: string | null }) {
    return this.real ? this.real.exportMarkdown(workerId, opts) : Promise.resolve(this.none(workerId));
  }

  private none(workerId: string) {
    return { status: 'not_found' as const, workerId, error: `no worker with id ${workerId}`, ms: 0 };
  }

  state(workerId: string): StateResult {
    return this.real ? this.real.state(workerId) : { status: 'not_found', workerId };
  }

  list(): WorkerState[] {
    return this.real ? this.real.list() : [];
  }

  stop(workerId: string) {
    return this.real ? this.real.stop(workerId) : Promise.resolve({ status: 'not_found' as const, workerId, error: `no worker with id ${workerId}`, ms: 0 });
  }

  stopAll() {
    return this.real ? this.real.stopAll() : Promise.resolve([]);
  }

  events(workerId: string): AgentEvent[] {
    return this.real ? this.real.events(workerId) : [];
  }

  onEvent(listener: EventListener): () => void {
    return this.subscribe(this.events_, listener, 'onEvent');
  }

  onState(listener: StateListener): () => void {
    return this.subscribe(this.states, listener, 'onState');
  }

  onOutput(listener: OutputListener): () => void {
    return this.subscribe(this.outputs, listener, 'onOutput');
  }

  onRemoved(listener: RemovedListener): () => void {
    return this.subscribe(this.removed, listener, 'onRemoved');
  }

  /**
   * Each subscription is an entry of its own: the same function subscribed twice (two callers
   * sharing a handler) is heard twice, and one disposer ends only its own subscription. What is
   * no function (another extension's mistake) is said and not kept: it would throw at every event.
   */
  private subscribe<L extends (...a: never[]) => void>(set: Set<Entry<L>>, listener: L, what: string): () => void {
    if (typeof listener !== 'function') {
      (this.options.warn ?? consoleWarn)(`${what} was given ${listener === null ? 'null' : typeof listener}, not a function: nothing was subscribed`);
      return () => undefined;
    }
    const entry: Entry<L> = { listener };
    set.add(entry);
    return () => void set.delete(entry);
  }

  async dispose(): Promise<void> {
    this.shutDown_ = true;
    await this.real?.dispose();
    this.events_.clear();
    this.states.clear();
    this.outputs.clear();
    this.removed.clear();
  }
}
