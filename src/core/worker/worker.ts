// One worker: its state, the path of its events, and the control verbs. Every verb resolves with
// an honest status; none waits forever: each wait is bounded by a timeout and by the worker's
// exit (waits.ts), and an exit names its code or signal and the tail of stderr. Its child process
// is a WorkerProcess (workerProcess.ts); the readiness probe is in readiness.ts, the prompt in
// prompting.ts, abort, redirect and compact in interrupts.ts, the sweep after an abort in
// afterAbort.ts, the state check in resync.ts, the tool audit in toolAudit.ts, the worker's
// requests to the person in workerRequests.ts, what it does for an agent as its client in
// clientServices.ts, and what the supervisor hands it in workerSetup.ts.
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { AbortResult, CompactResult, OutputKind, PromptOptions, PromptResult, Provenance, RedirectResult, DialectName, StopResult, WorkerSpec, WorkerState } from '../api';
import type { AgentEvent, Untimed } from '../events/agentEvent';
import { EventBus } from '../events/eventBus';
import { lineStandsFor } from '../events/workerLine';
import { traitsOf, type DialectTraits, type ProbeInfo } from '../wire/dialect';
import type { ExtensionRequests } from './extensionRequests';
import type { ProtocolError } from '../wire/jsonlReader';
import { redecode } from '../wire/codec';
import type { Launch } from './launch';
import { checkState, Resync, type StateCheckPort } from './resync';
import { PendingInputs } from './pendingInput';
import { EventStore } from './eventStore';
import { Ring } from './ring';
import { Status } from './status';
import { auditToolCallOf, AuditWhenRun, type AuditPort } from './toolAudit';
import { WorkerSessions } from './sessions';
import { TurnTracker, type Settlement } from './turns';
import { abort, abortUnreachable, compact, elapsed, redirect, type InterruptPort } from './interrupts';
import { sendPrompt, type PromptPort } from './prompting';
import { probeReadiness, type ProbeOutcome } from './readiness';
import { clientServicesFor, type ClientServices } from './clientServices';
import { sweepAfterAbort } from './afterAbort';
import type { WorkerSetup as Setup } from './workerSetup';
import { Waits } from './waits';
import { extensionRequestsFor, uiMessageHandlers, type ExtensionRequestsPort } from './workerRequests';
import { WorkerProcess, type Baseline, type Exit } from './workerProcess';

/** What the supervisor hands each worker (workerSetup.ts). */
export type WorkerSetup = Setup<Worker>;

export class Worker {
  readonly bus = new EventBus<AgentEvent>();
  readonly events: EventStore;
  private readonly stdout: Ring<string>;
  private readonly process: WorkerProcess;
  private readonly connection: MessageConnection;
  private readonly waits: Waits;
  /** What the verbs and checks in other files (interrupts, prompting, resync, toolAudit, workerRequests) use of this worker. */
  private readonly inside: InterruptPort & PromptPort & StateCheckPort & AuditPort & ExtensionRequestsPort;
  private readonly turns: TurnTracker;
  private readonly status = new Status('starting', () => this.stateChanged());
  private stopping = false;
  /**
   * Aborted at the exit, or once the worker is found no longer reading its input: what asks the
   * person for it (a τ request's dialogs) ends then, since no answer can reach it.
   */
  private readonly ended = new AbortController();
  /** What the worker's exit still ends (its terminals); the exit's own host events come until it is done. */
  private exitWork: Promise<void> = Promise.resolve();
  /** Why its start failed, when it did (failStart). */
  private startFailure: string | null = null;
  /** It answered its readiness probe once: an exit before that is a start that failed, however it came. */
  private becameReady = false;
  /** Past its probe and its session's read, waiting for its version (ready). */
  private readingVersion = false;
  private model: string | null;
  private sessionId: string | null = null;
  private protocolErrors = 0;
  /** The agent's last word on whom it signs in as (its auth_status event). */
  private signIn: WorkerState['signIn'];
  private readonly extensionRequests: ExtensionRequests | null;
  /** Set while the readiness probe waits: a line of the other dialect ends it at once. */
  private onWrongDialect?: (other: DialectName) => void;
  private readonly startedAt = Date.now();
  /** Turns settled so far (a doubt raised before one is cleared by it). */
  private settles = 0;
  private readonly resync: Resync;
  /** What this worker's dialect and version do (compaction abort, agent_settled). */
  private traits: DialectTraits;
  private version: string | null;
  /** The worker's session: resume, the session verbs, its token accounting (see sessions.ts). */
  readonly sessions: WorkerSessions;
  /** What waits for the person: a pi dialog that is up, a τ extension request that stands. */
  private readonly pendingInput = new PendingInputs(() => this.stateChanged());
  /** What the agent asks before its tools run (ACP), open until answered or cancelled. */
  private readonly permissions: ClientServices['permissions'];
  /** The processes below the worker when the running turn began (dialects that sweep after an abort). */
  private turnBaseline: Baseline | null = null;
  /** The agent's file requests (ACP fs/*). */
  private readonly files: ClientServices['files'];
  /** The commands the host runs for the agent (ACP terminal/*). */
  private readonly terminals: ClientServices['terminals'];
  /** Tool calls reported pending (ACP): audited once they run, unless the guard already judged them as a question. */
  private readonly auditLater = new AuditWhenRun((event) => auditToolCallOf(this.inside, this.launch.audit!, event));
  /** The agent was seen asking before a write: its writes meet the wall. */
  private askedBeforeWriting = false;
  /** Told of the loss of its input before its state says it (the guard's abort: toolAudit.ts). */
  private readonly inputLostFirst = new Set<() => void>();

  constructor(readonly id: string, readonly spec: WorkerSpec, readonly launch: Launch, private readonly ctx: WorkerSetup) {
    const { limits } = ctx;
    const replay = ctx.dialect.createCodec('reading');
    this.events = new EventStore(limits.eventStoreSize, (line) => redecode(replay, line));
    this.stdout = new Ring(limits.ringLines);
    this.model = spec.model ?? null;
    this.turns = new TurnTracker((s) => this.settled(s), spec.cwd, spec.turnsBefore ?? 0);
    this.version = ctx.version ?? null;
    this.traits = traitsOf(ctx.dialect, this.version);
    this.turns.setTraits(this.traits);
    this.resync = new Resync(limits.resyncMs, (d) => checkState(this.inside, d));
    ({ permissions: this.permissions, files: this.files, terminals: this.terminals } = clientServicesFor({
      id, spec, launch, killGraceMs: limits.killGraceMs, onPermission: ctx.onPermission, files: ctx.files,
      pendingInput: this.pendingInput, auditLater: this.auditLater, inTurn: () => this.turns.streaming, turnsSettled: () => this.settles,
      emit: (event) => this.emitHostEvent(event), report: (event) => this.report(event), changed: () => this.stateChanged(),
      askedBeforeWriting: () => { this.askedBeforeWriting = true; },
      spawned: (pid) => ctx.onTerminalSpawn?.(this, pid),
    }));
    const codec = ctx.dialect.createCodec();
    this.process = new WorkerProcess(launch, {
      cwd: spec.cwd, codec, maxLineBytes: limits.maxLineBytes, ringLines: limits.ringLines,
      killGraceMs: limits.killGraceMs, inputProbeMs: limits.inputProbeMs, trace: ctx.trace, explainStartFailure: (stderr) => ctx.dialect.explainStartFailure?.(stderr),
    }, {
      onEvent: (event, line) => this.receive(event, line),
      onProtocolError: (error) => this.onProtocolError(error),
      ...uiMessageHandlers(id, ctx, (event) => this.emitHostEvent(event), this.pendingInput, { dialect: ctx.dialect, permissions: this.permissions, files: this.files, terminals: this.terminals }),
      onStderr: (line) => this.output('stderr', line),
      onConnectionError: (text) => this.output('protocol', text),
      onExit: (exit) => this.onExit(exit),
      onOutputLost: () => this.onOutputLost(),
      onInputLost: () => this.onInputLost(),
    });
    this.connection = this.process.connection;
    ctx.dialect.bind?.(codec, this.connection);
    this.waits = new Waits(this.bus, this.process);
    this.inside = {
      id, limits, cwd: spec.cwd, dialect: ctx.dialect, connection: this.connection, turns: this.turns, waits: this.waits,
      traits: () => this.traits,
      versionName: () => this.versionName(),
      refuseUnlessRunning: () => this.refuseUnlessRunning(),
      request: <T>(pending: Promise<T>, what: string, timeoutMs?: number) => this.request(pending, what, timeoutMs),
      prompt: (message, provenance) => this.prompt(message, provenance),
      abort: () => this.abort(),
      inputLost: () => this.process.inputLost,
      stop: () => this.ctx.stop?.(this) ?? this.stop(),
      stopping: () => this.stopping,
      onceInputLost: (listener) => {
        this.inputLostFirst.add(listener);
        return () => this.inputLostFirst.delete(listener);
      },
      messagesSent: () => this.process.messagesSent,
      firstUnsent: () => this.process.firstUnsent,
      stateChanged: () => this.stateChanged(),
      live: () => this.live,
      settles: () => this.settles,
      say: (text) => this.output('protocol', text),
      emit: (event) => this.emitHostEvent(event),
      report: (event) => this.report(event),
      pendingInput: this.pendingInput,
      cancelQuestions: (reason) => this.cancelQuestions(reason),
      sweepAfterAbort: () => this.sweepAfterAbort(),
      endTerminals: () => this.terminals.endAll('abort'),
      doubt: (doubt) => this.resync.doubt(doubt),
      retryExtensionRequests: () => void this.extensionRequests?.check({ retry: true }),
      ended: this.ended.signal,
    };
    this.extensionRequests = extensionRequestsFor(this.inside, ctx);
    this.sessions = new WorkerSessions({
      id, spec, dialect: ctx.dialect,
      request: (send, what) => this.request(send(this.connection), what),
      busy: () => this.refuseUnlessRunning() ?? (this.turns.streaming || this.turns.compacting ? 'the worker is busy with a turn or a compaction; abort it or wait for it to settle first' : null),
      emit: (event) => this.emitHostEvent(event),
      changed: () => this.stateChanged(),
      output: (text) => this.output('protocol', text),
      mode: () => this.sessionMode(),
    });
  }

  get pid(): number | null {
    return this.process.pid;
  }

  /** Why its program never started, and whether there is no such program; null: it started. */
  get spawnFailure(): { error: string; missing: boolean } | null {
    return this.process.spawnError === null ? null : { error: this.process.spawnError, missing: this.process.programMissing };
  }

  /** Forgets one "allow always" rule (by key), or all; says how many went. */
  forgetAllowed(key?: string): number {
    return this.permissions.rules.forget(key);
  }

  get streaming(): boolean {
    return this.turns.streaming;
  }

  /** A Stop has begun (or ended) it: what it does from now on is on its way out. */
  /** Its probe answered and its session was read: only the version's read stood before `running` (a Stop since came then). */
  get answeredProbe(): boolean {
    return this.readingVersion;
  }

  get stopRequested(): boolean {
    return this.stopping;
  }

  get live(): boolean {
    return this.status.value === 'starting' || this.status.value === 'running';
  }

  state(): WorkerState {
    return {
      workerId: this.id,
      name: this.spec.name ?? this.launch.agent ?? `${this.spec.dialect} worker`,
      status: this.status.value,
      streaming: this.live && this.turns.streaming,
      afterTurn: this.live ? this.turns.afterTurn : null,
      compacting: this.live && this.turns.compacting,
      pid: this.pid,
      cwd: this.spec.cwd,
      dialect: this.spec.dialect,
      workerVersion: this.version,
      command: this.launch.command,
      args: this.launch.args,
      model: this.sessions.model ?? this.model,
      sessionId: this.sessions.ref?.id ?? this.sessionId,
      session: this.sessions.ref,
      usage: this.sessions.usage,
      agent: this.launch.agent,
      guarded: this.launch.guarded,
      writeGuard: this.writeGuard(),
      tools: this.launch.tools,
      turnCount: this.turns.turnCount,
      lastEndReason: this.turns.lastEndReason,
      lastError: this.turns.lastError,
      exitCode: this.process.exit?.code ?? null,
      signal: this.process.exit?.signal ?? null,
      startedAt: this.startedAt,
      protocolErrors: this.protocolErrors,
      eventsDropped: this.events.evicted,
      stderrTail: this.process.stderr.tail(20),
      stdoutTail: this.stdout.tail(20),
      filesTouched: [...this.turns.filesTouched],
      turns: this.turns.turns.map((t) => ({ ...t, tools: t.tools.map((x) => ({ ...x })) })),
      pendingInput: this.live ? this.pendingInput.list() : [],
      allowedAlways: this.permissions.rules.list(),
      ...this.modeState(),
      compactUnavailable: this.status.value === 'running' ? this.ctx.dialect.compactUnavailable?.(this.connection) ?? null : null,
      ...this.verbsUnavailable(),
      abortUnavailable: this.status.value === 'running' ? abortUnreachable(this.turns, this.traits, this.versionName()) : null,
      midTurn: this.ctx.dialect.midTurn?.(this.connection) ?? { steer: true, followUp: 'worker' },
      ...(this.signIn ? { signIn: { ...this.signIn } } : {}),
      ...(this.process.inputLost ? { inputLost: true as const } : {}),
    };
  }

  /**
   * The readiness probe (readiness.ts); the worker is `running` once it answers and `versionRead`
   * (the version asked of the program while it starts) settles: an exit before then is a start
   * that failed, as one before the probe's answer is.
   */
  probe(versionRead?: Promise<unknown>): Promise<ProbeOutcome> {
    const { dialect, limits, clientVersion } = this.ctx;
    return probeReadiness({
      spec: this.spec, limits, dialect, connection: this.connection, waits: this.waits, clientVersion,
      onWrongDialect: (listener) => { this.onWrongDialect = listener; },
      ready: (info) => this.ready(info, versionRead),
    });
  }

  private async ready(info: ProbeInfo, versionRead: Promise<unknown> | undefined): Promise<void> {
    if (info.workerVersion !== undefined && this.version === null) this.setVersion(info.workerVersion);
    this.model = info.model ?? this.model;
    this.sessionId = info.sessionId;
    await this.sessions.afterProbe(info);
    if (versionRead) {
      this.readingVersion = true;
      await versionRead;
    }
    // A failed read of its session does not fail a fresh start, so an exit or a Stop while it was
    // read (or resumed, or its usage read) is checked here, after the last await: the start
    // fails as one whose worker exited before the probe's answer, and never becomes `running`.
    if (this.process.exit || this.stopping) throw new Error(`the readiness probe failed: ${this.process.exit ? this.exitDescription() : 'the worker is being stopped'}`);
    this.becameReady = true;
    this.status.set('running');
    // A resumed or long-lived session may already stand behind an extension's request.
    void this.extensionRequests?.check();
  }

  prompt(message: string, options: PromptOptions = {}): Promise<PromptResult> {
    return sendPrompt(this.inside, message, options);
  }

  async abort(): Promise<AbortResult> {
    // The host's terminals end with the cancel, not when the agent gets round to it.
    const ended = this.turns.streaming ? this.terminals.endAll('abort') : null;
    const r = await abort(this.inside);
    await ended;
    return r;
  }

  redirect(message: string, provenance: Provenance = {}): Promise<RedirectResult> {
    return redirect(this.inside, message, provenance);
  }

  compact(instructions?: string): Promise<CompactResult> {
    return compact(this.inside, instructions);
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
    const alreadyExited = this.process.exit !== null;
    if (!alreadyExited) this.stopping = true;
    // The host's own children first: the agent's exit would not end them.
    await this.terminals.endAll('stop');
    const { exit, killed } = await this.process.stop();
    return { status: 'stopped', workerId: this.id, exitCode: exit?.code ?? null, signal: exit?.signal ?? null, killed, alreadyExited, ms: elapsed(t0) };
  }

  // ---- incoming

  /** `line`: the worker's line the event was decoded from; the host's own events have none. */
  private receive(event: AgentEvent, line?: Buffer): void | Promise<void> {
    // The fold stamps the event with its turn; a turn that settled without the worker's own
    // agent_settled (pi 0.73.1, τ) gets the host's, so every turn ends with exactly one; a
    // compaction said only by its agent_start/agent_end (τ's own) gets its compaction_start/_end.
    const after = this.turns.observe(event);
    // The store and the history keep the line instead of the event where it stands for it.
    const delivered = this.deliver(event, line !== undefined && lineStandsFor(event, line) ? line : undefined);
    if (after) void this.deliver(after);
    // A compaction the worker began or ended on its own (τ's): the state says so at once.
    if (after?.type === 'compaction_start' || after?.type === 'compaction_end') this.stateChanged();
    this.observeCalls(event);
    // The host's agent_settled too: at it the files forget the turn's calls (ACP sends none of its own).
    if (after) this.observeCalls(after);
    // The agent's usage readout (ACP) is its session's accounting, read within 100 ms (sessions.ts).
    if (event.type === 'usage_update') this.sessions.usageUpdated();
    // The agent says whom it signs in as at its start and when that changes: the tooltip shows the last.
    if (event.type === 'auth_status' && typeof event.data?.kind === 'string' && typeof event.data.label === 'string') {
      this.signIn = { kind: event.data.kind, label: event.data.label, detail: typeof event.data.detail === 'string' ? event.data.detail : null };
      this.stateChanged();
    }
    if (event.type === 'agent_start' && this.ctx.dialect.sweepsAfterAbort && event.turn?.opens) this.turnBaseline = this.process.baseline();
    return delivered;
  }

  /** What follows the tool calls: the files they name, the host's terminals, the guard's audit. */
  private observeCalls(event: AgentEvent): void {
    this.files.observe(event);
    this.terminals.observe(event);
    if (this.launch.audit && !event.replayed) this.auditLater.see(event);
  }

  /** The session verbs this running worker cannot take at all, each with why (absent: it can, or it does not run). */
  private verbsUnavailable(): Pick<WorkerState, 'forkUnavailable' | 'modelUnavailable'> {
    const why = this.status.value === 'running' ? this.ctx.dialect.verbUnavailable : undefined;
    if (!why) return {};
    const fork = why(this.connection, 'fork');
    const model = why(this.connection, 'model');
    return { ...(fork ? { forkUnavailable: fork } : {}), ...(model ? { modelUnavailable: model } : {}) };
  }

  /** The mode the session is in and its name, for the session verbs (null: the worker has none). */
  private sessionMode(): { id: string; name: string | null } | null {
    const { mode, modes } = this.modeState();
    return mode === null ? null : { id: mode, name: modes?.find((m) => m.id === mode)?.name ?? null };
  }

  private modeState(): Pick<WorkerState, 'mode' | 'modes'> {
    const modes = this.ctx.dialect.modes?.(this.connection);
    return modes ? { mode: modes.current, modes: modes.available } : { mode: null };
  }

  /** "pi 1.6.0", or the dialect's name when the version is not known. */
  private versionName(): string {
    return this.version ? `${this.spec.dialect} ${this.version}` : this.spec.dialect;
  }

  /** The version learned beside the start-up (`--version`), before the first turn. */
  setVersion(version: string | null): void {
    if (version === this.version) return;
    this.version = version;
    this.traits = traitsOf(this.ctx.dialect, version);
    this.turns.setTraits(this.traits);
    this.stateChanged();
  }

  /** What the agent asks the person, answered `cancelled` (the log says so): ACP's questions and pi's dialogs. */
  private cancelQuestions(reason: string): void {
    this.permissions.cancelAll(reason);
    this.pendingInput.cancelDialogs(reason);
  }

  /** Ends what the agent left running of an aborted turn (afterAbort.ts). */
  private sweepAfterAbort(): Promise<void> {
    return sweepAfterAbort({ terminals: this.terminals, baseline: () => this.turnBaseline, dialect: this.ctx.dialect, process: this.process, killGraceMs: this.ctx.limits.killGraceMs, say: (text) => this.output('protocol', text), emit: (event) => this.emitHostEvent(event) });
  }

  private writeGuard(): WorkerState['writeGuard'] {
    if (!this.launch.guarded) return null;
    if (!this.launch.audit) return 'vetoed';
    return this.askedBeforeWriting || this.files.writes > 0 || this.ctx.dialect.writesVetoed?.(this.connection) ? 'vetoed' : 'audited';
  }

  private deliver(event: AgentEvent, line?: Buffer): void | Promise<void> {
    this.events.push(event, line);
    const own = this.bus.emit(event);
    const host = this.ctx.onEvent(this, event, line);
    if (own instanceof Promise || host instanceof Promise) return Promise.all([own, host]).then(() => undefined);
  }

  /** The host's own events take the same fold as the worker's. */
  private emitHostEvent(partial: Untimed<AgentEvent>): void {
    void this.receive({ ...partial, timestamp: Date.now() } as AgentEvent);
  }

  /** For the host's own findings about this worker's calls (guard audits). */
  report(event: Untimed): void {
    // The turn fold marks the finding on its call as the event passes (turns.ts).
    this.emitHostEvent(event);
  }

  private onProtocolError(error: ProtocolError): void {
    if (error.otherDialect) this.onWrongDialect?.(error.otherDialect);
    this.protocolErrors++;
    const text = `${error.reason} (${error.bytes} bytes): ${error.preview}`;
    this.stdout.push(text);
    this.output('protocol', text);
    this.emitHostEvent({ type: 'protocol_error', is_error: true, error: error.reason, data: { preview: error.preview, bytes: error.bytes, count: this.protocolErrors } });
    // The lost line may have been the turn's end (pi repeats a long text in agent_end).
    if (this.turns.streaming) {
      const settles = this.settles;
      this.resync.doubt({ reason: `a line it sent during the turn was lost (${error.reason})`, cleared: () => this.settles !== settles });
    }
  }

  private onExit(exit: Exit): void {
    this.cancelQuestions('the worker exited');
    this.ended.abort('the worker exited');
    this.exitWork = this.terminals.endAll('exit').catch(() => {});
    this.files.ended();
    this.sessions.ended();
    const status = this.startFailure !== null ? 'failed' : this.stopping ? 'stopped' : exit.code === 0 ? 'exited' : 'failed';
    this.status.set(status, () => {
      this.resync.dispose();
      const detail = this.startFailure !== null ? `it did not become ready: ${this.startFailure}` : this.exitDescription();
      this.emitHostEvent({ type: 'worker_exit', is_error: status === 'failed', error: status === 'failed' ? detail : null, data: { code: exit.code, signal: exit.signal, status, ...(this.becameReady ? {} : { started: false }) } });
    });
  }

  /**
   * Its output ended and it lives on: the waits it held are released (waits.ts), and a compaction
   * it runs, asked for or its own, cannot be heard ending: the log ends it, saying why, so that
   * the state stops saying compacting; a turn it runs (or a prompt it took) cannot either: the turn
   * fold ends it as for a lost end (state_resync), so that the state stops saying streaming.
   */
  private onOutputLost(): void {
    const why = this.process.outputLostDescription();
    this.output('protocol', why);
    if (this.turns.compacting) this.emitHostEvent({ type: 'compaction_end', is_error: true, error: `the compaction cannot be followed to its end: ${why}`, data: { synthesized: true } });
    if (this.turns.streaming) this.emitHostEvent({ type: 'state_resync', is_error: true, error: `the turn cannot be followed to its end: ${why}`, data: { reason: 'output lost', outputLost: true } });
    this.stateChanged();
  }

  /**
   * Its stdin broke and it lives on: said once; the waits that need it to read are released
   * (waits.ts), and what it runs is left to end on its own, as its output is still heard.
   */
  private onInputLost(): void {
    this.output('protocol', this.process.inputLostDescription());
    // No answer can reach it: a question left on screen would be answered to no one, and the
    // person would take the row for a worker still waiting on them. An extension's request (τ)
    // stands in the worker all the same; only its dialogs close.
    const why = `it cannot be answered: ${this.process.inputLostDescription()}`;
    this.cancelQuestions(why);
    this.ended.abort(why);
    const first = [...this.inputLostFirst];
    this.inputLostFirst.clear();
    for (const listener of first) listener();
    this.stateChanged();
  }

  /** Resolves once what the exit ends is ended, and said (after worker_exit: the history waits for it to end the session). */
  afterExit(): Promise<void> {
    return this.exitWork;
  }

  exitDescription(): string {
    return this.process.exitDescription();
  }

  private settled(s: Settlement): void {
    // A question the agent left open is moot with its turn: left up, its answer would go to a
    // finished turn and the worker would show as needing input. Before the count moves on, so
    // that the next turn's questions are not taken for this one's.
    this.permissions.cancelAll('the turn ended');
    this.settles++;
    this.waits.settled(s);
    this.stateChanged();
    // A turn the host ended because the worker can no longer be heard: nothing asked now is answered.
    if (this.process.outputLost || this.process.inputLost) return;
    void this.extensionRequests?.check();
    void this.sessions.refreshUsage();
  }

  /** Something listeners see in state() changed (a status change goes through `status.set`). */
  private stateChanged(): void {
    this.ctx.onState(this);
  }

  private output(kind: OutputKind, text: string): void {
    this.ctx.onOutput(this, kind, text);
  }

  private refuseUnlessRunning(): string | null {
    // A Stop closed its stdin: what is sent now is lost, and would wait out the kill grace.
    if (this.stopping && !this.process.exit) return 'the worker is being stopped';
    // The connection is closed: a send would fail as "Connection is closed." (or not at all).
    if (this.process.inputLost) return this.process.inputLostDescription();
    if (this.status.value === 'running') return null;
    if (this.status.value === 'starting') return 'the worker is still starting';
    // The exit's description says how it ended ("the worker exited with code 3"), so it is said
    // once; a Stop is named first, as the code or signal alone does not tell it.
    const how = this.exitDescription();
    return this.status.value === 'stopped' ? `the worker was stopped: ${how}` : how;
  }

  /** A request to the worker, bounded by the command timeout and by its exit. */
  private request<T>(pending: Promise<T>, what: string, timeoutMs = this.ctx.limits.commandTimeoutMs): Promise<T> {
    return this.waits.bounded(pending, timeoutMs, what);
  }
}
