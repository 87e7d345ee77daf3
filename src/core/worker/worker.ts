// One worker: its state, the path of its events, and the control verbs. Every verb resolves with
// an honest status; none waits forever: each wait is bounded by a timeout and by the worker's
// exit (waits.ts), and an exit names its code or signal and the tail of stderr. Its child process
// is a WorkerProcess (workerProcess.ts); its start and its end (a start that failed, the Stop,
// the exit, its output or input lost) are in lifecycle.ts, the readiness probe in readiness.ts,
// what its state says in workerState.ts, the prompt in prompting.ts, abort, redirect and compact
// in interrupts.ts, the sweep after an abort in afterAbort.ts, the state check in resync.ts, the
// tool audit in toolAudit.ts, the worker's requests to the person in workerRequests.ts, what it
// does for an agent as its client in clientServices.ts, and what the supervisor hands it in
// workerSetup.ts.
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { AbortResult, CompactResult, OutputKind, PromptOptions, PromptResult, Provenance, RedirectResult, StopResult, WorkerSpec, WorkerState } from '../api';
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
import { abort, compact, redirect, type InterruptPort } from './interrupts';
import { sendPrompt, type PromptPort } from './prompting';
import type { ProbeOutcome } from './readiness';
import { Lifecycle } from './lifecycle';
import { clientServicesFor, type ClientServices } from './clientServices';
import { sweepAfterAbort } from './afterAbort';
import type { WorkerSetup as Setup } from './workerSetup';
import { Waits } from './waits';
import { extensionRequestsFor, uiMessageHandlers, type ExtensionRequestsPort } from './workerRequests';
import { WorkerProcess, type Baseline } from './workerProcess';
import { sessionMode, workerState } from './workerState';

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
  /** Its start (the readiness probe) and its end (the Stop, the exit, its output or input lost): lifecycle.ts. */
  private readonly life: Lifecycle;
  private model: string | null;
  private sessionId: string | null = null;
  private protocolErrors = 0;
  /** The agent's last word on whom it signs in as (its auth_status event). */
  private signIn: WorkerState['signIn'];
  private readonly extensionRequests: ExtensionRequests | null;
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
      onExit: (exit) => this.life.exited(exit),
      onOutputLost: () => this.life.outputLost(),
      onInputLost: () => this.life.inputLost(),
    });
    this.connection = this.process.connection;
    ctx.dialect.bind?.(codec, this.connection);
    this.waits = new Waits(this.bus, this.process);
    this.sessions = this.sessionsOf(ctx);
    this.life = new Lifecycle({
      id, spec, setup: ctx, connection: this.connection, process: this.process, waits: this.waits, status: this.status, turns: this.turns, resync: this.resync,
      files: this.files, terminals: this.terminals, sessions: this.sessions, learned: (info) => this.learned(info), cancelQuestions: (reason) => this.cancelQuestions(reason),
      // A resumed or long-lived session may already stand behind an extension's request.
      running: () => void this.extensionRequests?.check(),
      emit: (event) => this.emitHostEvent(event), say: (text) => this.output('protocol', text), stateChanged: () => this.stateChanged(),
    });
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
      stopping: () => this.life.stopping,
      onceInputLost: (listener) => this.life.onceInputLost(listener),
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
      sessionMove: () => this.sessions.moving,
      ended: this.life.ended.signal,
    };
    this.extensionRequests = extensionRequestsFor(this.inside, ctx);
  }

  /** The session module, on this worker's connection (after the process is made). */
  private sessionsOf(ctx: WorkerSetup): WorkerSessions {
    return new WorkerSessions({
      id: this.id, spec: this.spec, dialect: ctx.dialect,
      request: (send, what) => this.request(send(this.connection), what),
      busy: () => this.refuseUnlessRunning() ?? (this.turns.streaming || this.turns.compacting ? 'the worker is busy with a turn or a compaction; abort it or wait for it to settle first' : null),
      emit: (event) => this.emitHostEvent(event),
      changed: () => this.stateChanged(),
      output: (text) => this.output('protocol', text),
      mode: () => sessionMode(ctx.dialect, this.connection),
      model: () => this.sessions.model ?? this.model,
    });
  }

  get pid(): number | null {
    return this.process.pid;
  }

  /** Why its program never started, and whether there is no such program; null: it started. */
  get spawnFailure(): { error: string; missing: boolean } | null {
    return this.life.spawnFailure;
  }

  /** Forgets one "allow always" rule (by key), or all; says how many went. */
  forgetAllowed(key?: string): number {
    return this.permissions.rules.forget(key);
  }

  get streaming(): boolean {
    return this.turns.streaming;
  }

  /** Its probe answered and its session was read: only the version's read stood before `running` (a Stop since came then). */
  get answeredProbe(): boolean {
    return this.life.answeredProbe;
  }

  /** A Stop has begun (or ended) it: what it does from now on is on its way out. */
  get stopRequested(): boolean {
    return this.life.stopping;
  }

  get live(): boolean {
    return this.status.value === 'starting' || this.status.value === 'running';
  }

  /** What its state says (workerState.ts), read from the worker as it is now. */
  state(): WorkerState {
    const { id, spec, launch, connection, live, turns, sessions, events, stdout, protocolErrors, pendingInput, permissions, files, startedAt } = this;
    const { traits, version, model, sessionId, signIn, askedBeforeWriting } = this;
    return workerState({
      id, spec, launch, dialect: this.ctx.dialect, connection, status: this.status.value, live, turns, process: this.process, sessions, events, stdout, protocolErrors,
      pendingInput, permissions, files, startedAt, traits, version, versionName: this.versionName(), model, sessionId, signIn, askedBeforeWriting,
    });
  }

  /** The readiness probe; `versionRead`: the version asked of the program while it starts (lifecycle.ts). */
  probe(versionRead?: Promise<unknown>): Promise<ProbeOutcome> {
    return this.life.probe(versionRead);
  }

  /** What the probe's answer says of the worker: its version (unless known already), model and session. */
  private learned(info: ProbeInfo): void {
    if (info.workerVersion !== undefined && this.version === null) this.setVersion(info.workerVersion);
    this.model = info.model ?? this.model;
    this.sessionId = info.sessionId;
  }

  prompt(message: string, options: PromptOptions = {}): Promise<PromptResult> {
    return sendPrompt(this.inside, message, options);
  }

  abort(): Promise<AbortResult> {
    return abort(this.inside);
  }

  redirect(message: string, provenance: Provenance = {}): Promise<RedirectResult> {
    return redirect(this.inside, message, provenance);
  }

  compact(instructions?: string): Promise<CompactResult> {
    return compact(this.inside, instructions);
  }

  /** Ends a worker whose start failed (its readiness probe): it ends `failed`, with the reason (lifecycle.ts). */
  failStart(reason: string): Promise<StopResult> {
    return this.life.failStart(reason);
  }

  /** Ends the worker's whole process tree (see WorkerProcess.stop). */
  stop(): Promise<StopResult> {
    return this.life.stop();
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
    const { dialect, limits } = this.ctx;
    return sweepAfterAbort({
      terminals: this.terminals,
      process: this.process,
      dialect,
      killGraceMs: limits.killGraceMs,
      // Read when the sweep runs, after the abort: what was below the worker as the aborted turn began (receive).
      baseline: () => this.turnBaseline,
      say: (text) => this.output('protocol', text),
      emit: (event) => this.emitHostEvent(event),
    });
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
    if (error.otherDialect) this.life.wrongDialect(error.otherDialect);
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

  /** Resolves once what the exit ends is ended, and said (after worker_exit: the history waits for it to end the session). */
  afterExit(): Promise<void> {
    return this.life.afterExit();
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
    if (this.life.stopping && !this.process.exit) return 'the worker is being stopped';
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
