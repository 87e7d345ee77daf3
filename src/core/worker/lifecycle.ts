// A worker's start and its end. It is `running` once its readiness probe answers (readiness.ts)
// and the version asked of its program is read: an exit before then is a start that failed,
// however it came. Its end is met here: a start that failed (it ends `failed`, with the reason),
// the Stop, the exit (the status it ends in and its worker_exit), and its output or its input
// lost while it lives on. The per-event path is not here: it is the worker's own (worker.ts).
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { DialectName, StopResult, WorkerSpec } from '../api';
import type { AgentEvent, Untimed } from '../events/agentEvent';
import type { ProbeInfo } from '../wire/dialect';
import type { ClientServices } from './clientServices';
import { elapsed } from './interrupts';
import { probeReadiness, type ProbeOutcome } from './readiness';
import type { Resync } from './resync';
import type { WorkerSessions } from './sessions';
import type { Status } from './status';
import type { TurnTracker } from './turns';
import type { Waits } from './waits';
import type { WorkerSetup } from './workerSetup';
import type { Exit, WorkerProcess } from './workerProcess';

/** What of its worker its start and its end use. */
export interface LifecycleSite extends Pick<ClientServices, 'files' | 'terminals'> {
  readonly id: string;
  readonly spec: WorkerSpec;
  readonly setup: Pick<WorkerSetup<unknown>, 'dialect' | 'limits' | 'clientVersion'>;
  readonly connection: MessageConnection;
  readonly process: WorkerProcess;
  readonly waits: Waits;
  readonly status: Status;
  readonly turns: TurnTracker;
  readonly resync: Resync;
  readonly sessions: WorkerSessions;
  /** What the probe's answer says of the worker (its version, model and session) is taken as its own. */
  learned(info: ProbeInfo): void;
  /** It is `running`: what waits for that (an extension's standing request, τ) is looked at. */
  running(): void;
  /** What the agent asks the person, answered `cancelled`. */
  cancelQuestions(reason: string): void;
  /** A host event, through the turn fold. */
  emit(event: Untimed<AgentEvent>): void;
  /** A line of the worker's protocol output. */
  say(text: string): void;
  stateChanged(): void;
}

export class Lifecycle {
  /** A Stop has begun (or ended) it: what it does from now on is on its way out. */
  stopping = false;
  /**
   * Aborted at the exit, or once the worker is found no longer reading its input: what asks the
   * person for it (a τ request's dialogs) ends then, since no answer can reach it.
   */
  readonly ended = new AbortController();
  /** Why its start failed, when it did (failStart). */
  private startFailure: string | null = null;
  /** It answered its readiness probe once: an exit before that is a start that failed, however it came. */
  private becameReady = false;
  /** Past its probe and its session's read, waiting for its version (ready). */
  private readingVersion = false;
  /** Set while the readiness probe waits: a line of the other dialect ends it at once. */
  private onWrongDialect?: (other: DialectName) => void;
  /** What the worker's exit still ends (its terminals); the exit's own host events come until it is done. */
  private exitWork: Promise<void> = Promise.resolve();
  /** Told of the loss of its input before its state says it (the guard's abort: toolAudit.ts). */
  private readonly inputLostFirst = new Set<() => void>();

  constructor(private readonly w: LifecycleSite) {}

  /** Why its program never started, and whether there is no such program; null: it started. */
  get spawnFailure(): { error: string; missing: boolean } | null {
    const error = this.w.process.spawnError;
    if (error === null) return null;
    return { error, missing: this.w.process.programMissing };
  }

  /** Its probe answered and its session was read: only the version's read stood before `running`. */
  get answeredProbe(): boolean {
    return this.readingVersion;
  }

  /**
   * The readiness probe (readiness.ts); the worker is `running` once it answers and `versionRead`
   * (the version asked of the program while it starts) settles: an exit before then is a start
   * that failed, as one before the probe's answer is.
   */
  probe(versionRead?: Promise<unknown>): Promise<ProbeOutcome> {
    const { spec, connection, waits } = this.w;
    const { dialect, limits, clientVersion } = this.w.setup;
    return probeReadiness({
      spec, limits, dialect, connection, waits, clientVersion,
      onWrongDialect: (listener) => {
        this.onWrongDialect = listener;
      },
      ready: (info) => this.ready(info, versionRead),
    });
  }

  /** A line of the other dialect came: the probe, while it waits, ends at once. */
  wrongDialect(other: DialectName): void {
    this.onWrongDialect?.(other);
  }

  private async ready(info: ProbeInfo, versionRead: Promise<unknown> | undefined): Promise<void> {
    this.w.learned(info);
    await this.w.sessions.afterProbe(info);
    if (versionRead) {
      this.readingVersion = true;
      await versionRead;
    }
    // A failed read of its session does not fail a fresh start, so an exit or a Stop while it was
    // read (or resumed, or its usage read) is checked here, after the last await: the start
    // fails as one whose worker exited before the probe's answer, and never becomes `running`.
    const { exit } = this.w.process;
    if (exit || this.stopping) throw new Error(`the readiness probe failed: ${exit ? this.w.process.exitDescription() : 'the worker is being stopped'}`);
    this.becameReady = true;
    this.w.status.set('running');
    this.w.running();
  }

  /**
   * Ends a worker whose start failed (its readiness probe): it ends `failed`, with the reason,
   * not `stopped`, in its state, its exit event and its history.
   */
  failStart(reason: string): Promise<StopResult> {
    // A Stop that came first is why the start failed: the worker ends `stopped`, as it does
    // when the Stop lands before the probe's answer.
    if (!this.stopping) this.startFailure = reason;
    return this.stop();
  }

  /** Ends the worker's whole process tree (see WorkerProcess.stop). */
  async stop(): Promise<StopResult> {
    const t0 = performance.now();
    const alreadyExited = this.w.process.exit !== null;
    if (!alreadyExited) this.stopping = true;
    // The host's own children first: the agent's exit would not end them.
    await this.w.terminals.endAll('stop');
    const { exit, killed } = await this.w.process.stop();
    return { status: 'stopped', workerId: this.w.id, exitCode: exit?.code ?? null, signal: exit?.signal ?? null, killed, alreadyExited, ms: elapsed(t0) };
  }

  exited(exit: Exit): void {
    const { w } = this;
    // A question the person's Stop ended says so: "exited" read as the worker leaving on its own.
    const why = this.stopping ? 'the worker was stopped' : 'the worker exited';
    w.cancelQuestions(why);
    this.ended.abort(why);
    this.exitWork = w.terminals.endAll('exit').catch(() => {});
    w.files.ended();
    w.sessions.ended();
    const status = this.startFailure !== null ? 'failed' : this.stopping ? 'stopped' : exit.code === 0 ? 'exited' : 'failed';
    w.status.set(status, () => {
      w.resync.dispose();
      const detail = this.startFailure !== null ? `it did not become ready: ${this.startFailure}` : w.process.exitDescription();
      // A steer or follow-up the worker took (pi answers it accepted when queued) dies with it: said, not lost unsaid.
      const undelivered = w.turns.queued;
      w.emit({ type: 'worker_exit', is_error: status === 'failed', error: status === 'failed' ? detail : null, data: { code: exit.code, signal: exit.signal, status, ...(this.becameReady ? {} : { started: false }), ...(undelivered > 0 ? { undelivered } : {}) } });
    });
  }

  /** Resolves once what the exit ends is ended, and said (after worker_exit: the history waits for it to end the session). */
  afterExit(): Promise<void> {
    return this.exitWork;
  }

  /**
   * Its output ended and it lives on: the waits it held are released (waits.ts), and a compaction
   * it runs, asked for or its own, cannot be heard ending: the log ends it, saying why, so that
   * the state stops saying compacting; a turn it runs (or a prompt it took) cannot either: the turn
   * fold ends it as for a lost end (state_resync), so that the state stops saying streaming.
   */
  outputLost(): void {
    const { w } = this;
    const why = w.process.outputLostDescription();
    w.say(why);
    if (w.turns.compacting) w.emit({ type: 'compaction_end', is_error: true, error: `the compaction cannot be followed to its end: ${why}`, data: { synthesized: true } });
    if (w.turns.streaming) w.emit({ type: 'state_resync', is_error: true, error: `the turn cannot be followed to its end: ${why}`, data: { reason: 'output lost', outputLost: true } });
    w.stateChanged();
  }

  /** Calls `listener` once its input is lost, before its state says it; the returned function takes it back. */
  onceInputLost(listener: () => void): () => void {
    this.inputLostFirst.add(listener);
    return () => this.inputLostFirst.delete(listener);
  }

  /**
   * Its stdin broke and it lives on: said once; the waits that need it to read are released
   * (waits.ts), and what it runs is left to end on its own, as its output is still heard.
   */
  inputLost(): void {
    const { w } = this;
    w.say(w.process.inputLostDescription());
    // No answer can reach it: a question left on screen would be answered to no one, and the
    // person would take the row for a worker still waiting on them. An extension's request (τ)
    // stands in the worker all the same; only its dialogs close.
    const why = `it cannot be answered: ${w.process.inputLostDescription()}`;
    w.cancelQuestions(why);
    this.ended.abort(why);
    const first = [...this.inputLostFirst];
    this.inputLostFirst.clear();
    for (const listener of first) listener();
    w.stateChanged();
  }
}
