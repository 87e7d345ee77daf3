// One worker: its child process, its connection, its state, and the control verbs. Every verb
// resolves with an honest status; none waits forever: each wait is bounded by a timeout and
// by the worker's exit, and an exit names its code or signal and the tail of stderr.
import { spawn, type ChildProcess } from 'node:child_process';
import { createMessageConnection, type MessageConnection } from 'vscode-jsonrpc';
import type {
  AbortResult, CompactResult, HostLimits, OutputKind, PromptOptions, PromptResult, Provenance, RedirectResult,
  DialectName, StopResult, UiNotice, UiRequest, UiResponse, WorkerSpec, WorkerState, WorkerStatus,
} from '../api';
import type { AgentEvent } from '../events/agentEvent';
import { EventBus } from '../events/eventBus';
import { traitsOf, WorkerRefusal, type Dialect, type DialectTraits } from '../wire/dialect';
import { ExtensionRequests } from './extensionRequests';
import { PendingInputs } from './pendingInput';
import { JsonlMessageReader, type ProtocolError } from '../wire/jsonlReader';
import { JsonlMessageWriter } from '../wire/jsonlWriter';
import { UI_REQUEST_PREFIX } from '../wire/pi';
import { auditToolCall } from '../guard/audit';
import type { ResolvedPolicy } from '../guard/policy';
import { checkPrompt } from './limits';
import { isSameLiveProcess, mergeTrees, processTree, signalTree, taskkill, type ProcInfo } from './processTree';
import { Resync, type Doubt } from './resync';
import { Ring } from './ring';
import { TurnTracker, type AfterTurn, type Settlement } from './turns';

export interface WorkerContext {
  limits: HostLimits;
  dialect: Dialect;
  onEvent: (worker: Worker, event: AgentEvent) => void | Promise<void>;
  onState: (worker: Worker) => void;
  onOutput: (worker: Worker, kind: OutputKind, text: string) => void;
  trace?: (direction: 'send' | 'receive', message: unknown) => void;
  onUiRequest?: (req: UiRequest) => Promise<UiResponse>;
  onUiNotice?: (notice: UiNotice) => void;
  /** The worker's version, as the dialect's preflight learned it (null: not known). */
  version?: string | null;
}

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  guarded: boolean;
  tools: string[] | null;
  agent: string | null;
  /** The host's own check of each tool call, for workers it cannot load a guard into. */
  audit: { policy: ResolvedPolicy; onViolation: 'abort' | 'flag' } | null;
}

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const isWindows = process.platform === 'win32';
const AFTER_TURN_WORDS: Record<AfterTurn, string> = {
  retry: 'retrying the model call',
  compaction: 'compacting the conversation',
  continuation: 'going on with queued messages',
  settling: 'settling',
};
const elapsed = (since: number) => Math.round((performance.now() - since) * 1000) / 1000;

export class Worker {
  readonly bus = new EventBus<AgentEvent>();
  readonly events: Ring<AgentEvent>;
  private readonly stderr: Ring<string>;
  private readonly stdout: Ring<string>;
  private readonly child: ChildProcess;
  private readonly connection: MessageConnection;
  private readonly writer: JsonlMessageWriter;
  private readonly turns: TurnTracker;
  private readonly settleWaiters = new Set<(s: Settlement) => void>();
  private readonly exitWaiters = new Set<(e: Exit) => void>();
  private status: WorkerStatus = 'starting';
  private exit: Exit | null = null;
  private stopping = false;
  private model: string | null;
  private sessionId: string | null = null;
  private protocolErrors = 0;
  private readonly extensionRequests: ExtensionRequests | null;
  private readonly pendingInput = new PendingInputs(() => this.ctx.onState(this));
  /** Set while the readiness probe waits: a line of the other dialect ends it at once. */
  private onWrongDialect?: (other: DialectName) => void;
  private stderrPartial = '';
  private readonly startedAt = Date.now();
  private tree: ProcInfo[] = [];
  private spawnError: string | null = null;
  /** Turns settled so far (a doubt raised before one is cleared by it). */
  private settles = 0;
  private readonly resync: Resync;
  /** What this worker's dialect and version do (compaction abort, agent_settled). */
  private traits: DialectTraits;
  private version: string | null;
  private lastSettlement: Settlement | null = null;

  constructor(readonly id: string, readonly spec: WorkerSpec, readonly launch: Launch, private readonly ctx: WorkerContext) {
    const { limits } = ctx;
    this.events = new Ring(limits.eventStoreSize);
    this.stderr = new Ring(limits.ringLines);
    this.stdout = new Ring(limits.ringLines);
    this.model = spec.model ?? null;
    this.turns = new TurnTracker((s) => this.settled(s), spec.cwd);
    this.version = ctx.version ?? null;
    this.traits = traitsOf(ctx.dialect, this.version);
    this.turns.setSendsSettled(this.traits.sendsSettled);
    this.resync = new Resync(limits.resyncMs, (d) => this.checkState(d));
    this.extensionRequests = this.extensionRequestsFor(ctx);
    this.child = spawn(launch.command, launch.args, {
      cwd: spec.cwd,
      env: { ...process.env, ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so that stop reaches what the worker started.
      detached: !isWindows,
      windowsHide: true,
    });
    this.child.on('error', (error) => this.onSpawnError(error));
    this.child.on('exit', (code, signal) => this.onExit({ code, signal }));
    this.child.stderr!.on('data', (chunk: Buffer) => this.onStderr(chunk));
    const codec = ctx.dialect.createCodec();
    const reader = new JsonlMessageReader(this.child.stdout!, {
      maxLineBytes: limits.maxLineBytes,
      codec,
      onEvent: (event) => this.onWireEvent(event),
      onProtocolError: (error) => this.onProtocolError(error),
      onReceive: ctx.trace ? (value) => ctx.trace!('receive', value) : undefined,
    });
    this.writer = new JsonlMessageWriter(this.child.stdin!, codec, ctx.trace ? (value) => ctx.trace!('send', value) : undefined);
    this.writer.onError(([error]) => this.output('protocol', `write to the worker failed: ${error.message}`));
    this.connection = createMessageConnection(reader, this.writer);
    this.connection.onRequest((method, params) => this.onWorkerRequest(method, params));
    this.connection.onNotification((method, params) => this.onWorkerNotification(method, params));
    this.connection.onError(([error]) => this.output('protocol', `connection error: ${error.message}`));
    this.connection.listen();
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  get streaming(): boolean {
    return this.turns.streaming;
  }

  get live(): boolean {
    return this.status === 'starting' || this.status === 'running';
  }

  state(): WorkerState {
    return {
      workerId: this.id,
      name: this.spec.name ?? this.launch.agent ?? `${this.spec.dialect} worker`,
      status: this.status,
      streaming: this.live && this.turns.streaming,
      afterTurn: this.live ? this.turns.afterTurn : null,
      compacting: this.live && this.turns.compacting,
      pid: this.pid,
      cwd: this.spec.cwd,
      dialect: this.spec.dialect,
      workerVersion: this.version,
      command: this.launch.command,
      args: this.launch.args,
      model: this.model,
      sessionId: this.sessionId,
      agent: this.launch.agent,
      guarded: this.launch.guarded,
      tools: this.launch.tools,
      turnCount: this.turns.turnCount,
      lastEndReason: this.turns.lastEndReason,
      lastError: this.turns.lastError,
      exitCode: this.exit?.code ?? null,
      signal: this.exit?.signal ?? null,
      startedAt: this.startedAt,
      protocolErrors: this.protocolErrors,
      eventsDropped: this.events.evicted,
      stderrTail: this.stderr.tail(20),
      stdoutTail: this.stdout.tail(20),
      filesTouched: [...this.turns.filesTouched],
      turns: this.turns.turns.map((t) => ({ ...t, tools: t.tools.map((x) => ({ ...x })) })),
      pendingInput: this.live ? this.pendingInput.list() : [],
    };
  }

  /**
   * The readiness probe; the worker is `running` once it answers. A worker that answers in the
   * other known dialect fails it at once, saying which dialect to use, instead of after the
   * command timeout with "no answer".
   */
  async probe(): Promise<{ ok: true } | { ok: false; error: string }> {
    const wrongDialect = new Promise<never>((_, reject) => {
      this.onWrongDialect = (other) => reject(new Error(
        `the worker answered in ${other === 'tau' ? 'τ\'s protocol (JSON-RPC 2.0)' : 'pi\'s protocol (JSONL {"type": ...} messages)'}, not ${this.spec.dialect === 'tau' ? 'τ\'s' : 'pi\'s'}: set the profile's dialect to "${other}"`,
      ));
    });
    try {
      const info = await Promise.race([this.bounded(this.ctx.dialect.probe(this.connection), this.ctx.limits.commandTimeoutMs, 'the readiness probe'), wrongDialect]);
      this.model = info.model ?? this.model;
      this.sessionId = info.sessionId;
      this.status = 'running';
      this.ctx.onState(this);
      // A resumed or long-lived session may already stand behind an extension's request.
      void this.extensionRequests?.check();
      return { ok: true };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    } finally {
      this.onWrongDialect = undefined;
    }
  }

  async prompt(message: string, options: PromptOptions = {}): Promise<PromptResult> {
    const t0 = performance.now();
    const fail = (error: string): PromptResult => ({ status: 'error', workerId: this.id, error, ms: elapsed(t0) });
    const refused = this.refuseUnlessRunning() ?? checkPrompt(message, this.ctx.limits);
    if (refused) return fail(refused);
    const queued = this.turns.streaming ? options.streamingBehavior ?? null : null;
    if (this.turns.streaming && !queued) {
      const after = this.turns.afterTurn;
      if (after) return fail(`the worker is still busy after its turn (${AFTER_TURN_WORDS[after]}); prompt again once it settles (agent_settled), or send the message as follow-up`);
      return fail('the worker is streaming a turn: send the message as steer (delivered after the current tool) or follow-up (delivered when the turn ends), or redirect');
    }
    const provenance: Provenance = { source: options.source, submitter: options.submitter, submissionId: options.submissionId, correlation: options.correlation };
    const startsBefore = this.turns.agentStarts;
    if (!queued) this.turns.recordProvenance(provenance);
    this.emitHostEvent({ type: 'prompt_sent', source: options.source ?? null, submitter: options.submitter ?? null, submission_id: options.submissionId ?? null, correlation: options.correlation ?? null, data: { text: message, streamingBehavior: queued } });
    try {
      // τ admits an enqueued prompt only when the running turn ends: that ack is bounded by
      // the settle timeout, not the command timeout.
      const bound = queued === 'followUp' ? this.ctx.limits.settleTimeoutMs : this.ctx.limits.commandTimeoutMs;
      const ack = await this.request(this.ctx.dialect.prompt(this.connection, { ...provenance, text: message, streamingBehavior: queued ?? undefined }), 'prompt', bound);
      if (!queued && ack.handled) this.turns.dropLastProvenance();
      else if (!queued) {
        this.turns.promptAccepted(startsBefore);
        if (this.turns.agentStarts === startsBefore) {
          this.resync.doubt({ reason: 'it accepted a prompt and no turn began', cleared: () => this.turns.agentStarts !== startsBefore });
        }
      }
      this.ctx.onState(this);
      return { status: 'accepted', workerId: this.id, submissionId: ack.submissionId, streamingBehavior: queued, ...(ack.handled ? { handled: true } : {}), ms: elapsed(t0) };
    } catch (error) {
      // Refused for an extension's lock: put the request to the person (again, if dismissed).
      if (error instanceof WorkerRefusal && (error.data as { lock?: unknown } | undefined)?.lock) void this.extensionRequests?.check({ retry: true });
      return fail((error as Error).message);
    }
  }

  async abort(): Promise<AbortResult> {
    const t0 = performance.now();
    const fail = (error: string): AbortResult => ({ status: 'error', workerId: this.id, error, ms: elapsed(t0) });
    const refused = this.refuseUnlessRunning();
    if (refused) return fail(refused);
    const compacting = this.turns.compacting;
    if (!this.turns.streaming && !compacting) return { status: 'not_streaming', workerId: this.id, ms: elapsed(t0) };
    const cancels = this.traits.abortCancelsCompaction;
    if (!this.turns.streaming && !cancels) {
      return fail(`${this.versionName()}'s abort does not reach a running compaction; it will finish on its own`);
    }
    const settled = this.turns.streaming ? this.nextSettlement() : null;
    const compactionEnd = compacting && cancels ? this.nextEvent('compaction_end') : null;
    const sent = performance.now();
    try {
      await this.request(this.ctx.dialect.abort(this.connection), 'abort');
      let compactionCancelled: boolean | null = null;
      if (settled) {
        const s = await this.bounded(settled.promise, this.ctx.limits.settleTimeoutMs, 'settling after abort');
        if (s.endReason !== 'aborted' && !compactionEnd) {
          return { status: 'not_streaming', workerId: this.id, note: `the turn ended by itself (${s.endReason ?? 'no reason given'}) before the abort landed`, ms: elapsed(t0) };
        }
      }
      if (compactionEnd) {
        const end = await this.bounded(compactionEnd.promise, this.ctx.limits.settleTimeoutMs, 'the compaction ending after abort');
        // τ says `cancelled`, pi 1.x `aborted`.
        compactionCancelled = end.data?.cancelled === true || end.data?.aborted === true;
      }
      return { status: 'aborted', workerId: this.id, settleMs: elapsed(sent), compactionCancelled, ms: elapsed(t0) };
    } catch (error) {
      return fail((error as Error).message);
    } finally {
      settled?.cancel();
      compactionEnd?.cancel();
    }
  }

  async redirect(message: string, provenance: Provenance = {}): Promise<RedirectResult> {
    const t0 = performance.now();
    const fail = (error: string, aborted?: boolean): RedirectResult => ({ status: 'error', workerId: this.id, error, aborted, ms: elapsed(t0) });
    const refused = this.refuseUnlessRunning() ?? checkPrompt(message, this.ctx.limits);
    if (refused) return fail(refused);
    let aborted = false;
    const sent = performance.now();
    if (this.turns.streaming) {
      const settled = this.nextSettlement();
      try {
        await this.request(this.ctx.dialect.abort(this.connection), 'abort');
        const s = await this.bounded(settled.promise, this.ctx.limits.settleTimeoutMs, 'settling after abort');
        aborted = s.endReason === 'aborted';
      } catch (error) {
        return fail(`${(error as Error).message}; the new instruction was not sent`);
      } finally {
        settled.cancel();
      }
    }
    const settleMs = elapsed(sent);
    const prompted = await this.prompt(message, provenance);
    if (prompted.status !== 'accepted') return fail(`the turn settled (aborted: ${aborted}) but the new instruction was refused: ${prompted.error}`, aborted);
    return { status: 'redirected', workerId: this.id, aborted, settleMs, submissionId: prompted.submissionId, ms: elapsed(t0) };
  }

  async compact(instructions?: string): Promise<CompactResult> {
    const t0 = performance.now();
    const fail = (error: string): CompactResult => ({ status: 'error', workerId: this.id, error, ms: elapsed(t0) });
    const refused = this.refuseUnlessRunning();
    if (refused) return fail(refused);
    if (this.turns.compacting) return fail('a compaction is already running');
    if (this.turns.streaming) return fail('the worker is streaming a turn; abort it or wait for it to end before compacting');
    let compactionId: string | null = null;
    // pi names no compaction; τ's compaction_end names the one its ack announced.
    const ended = this.nextEvent('compaction_end', (e) => compactionId === null || e.data?.compaction_id === compactionId);
    this.turns.compacting = true;
    this.ctx.onState(this);
    try {
      // The summary is a model call: it gets the settle bound, not the command timeout.
      const ack = await this.request(this.ctx.dialect.compact(this.connection, instructions), 'compact', this.ctx.limits.settleTimeoutMs);
      if (ack.result) {
        // pi answers when the compaction is over; its compaction_end event came first.
        if (ended.seen?.data?.aborted === true) return { status: 'aborted', workerId: this.id, ms: elapsed(t0) };
        return { status: 'compacted', workerId: this.id, performed: ack.result.performed ?? true, summary: ack.result.summary, tokensBefore: ack.result.tokensBefore, ms: elapsed(t0) };
      }
      compactionId = ack.compactionId;
      const end = ended.seen?.data?.compaction_id === compactionId ? ended.seen : await this.bounded(ended.promise, this.ctx.limits.settleTimeoutMs, 'the compaction');
      const d = end.data ?? {};
      if (d.cancelled === true) return { status: 'aborted', workerId: this.id, ms: elapsed(t0) };
      if (d.is_error === true) return fail(`the compaction failed: ${String(d.error ?? 'no detail')}`);
      return {
        status: 'compacted', workerId: this.id, performed: d.performed === true,
        summary: typeof d.summary === 'string' ? d.summary : null,
        tokensBefore: typeof d.tokens_before === 'number' ? d.tokens_before : null, ms: elapsed(t0),
      };
    } catch (error) {
      // pi 1.x: an abort cancelled it (compaction_end {aborted: true}, then "Compaction cancelled").
      if (ended.seen?.data?.aborted === true) return { status: 'aborted', workerId: this.id, ms: elapsed(t0) };
      return fail((error as Error).message);
    } finally {
      ended.cancel();
      this.turns.compacting = false;
      this.ctx.onState(this);
    }
  }

  /**
   * SIGTERM first (pi ends its running tools on SIGTERM, not when its stdin closes), then close
   * stdin, then SIGKILL for everything recorded in the tree that is still alive after the grace.
   */
  async stop(): Promise<StopResult> {
    const t0 = performance.now();
    if (!this.exit) {
      this.stopping = true;
      const pid = this.pid;
      if (pid !== null) {
        this.tree = mergeTrees(this.tree, processTree(pid));
        if (isWindows) taskkill(pid, false);
        else signalTree(this.tree.filter((p) => p.pid === pid), 'SIGTERM');
      }
      this.writer.end();
      let exit = await this.waitExit(this.ctx.limits.killGraceMs);
      let killed = false;
      if (!exit && pid !== null) {
        killed = true;
        this.tree = mergeTrees(this.tree, processTree(pid));
        if (isWindows) taskkill(pid, true);
        else signalTree(this.tree, 'SIGKILL');
        exit = await this.waitExit(this.ctx.limits.killGraceMs);
      }
      await this.reapOrphans();
      this.connection.dispose();
      return { status: 'stopped', workerId: this.id, exitCode: exit?.code ?? null, signal: exit?.signal ?? null, killed, ms: elapsed(t0) };
    }
    await this.reapOrphans();
    return { status: 'stopped', workerId: this.id, exitCode: this.exit.code, signal: this.exit.signal, killed: false, ms: elapsed(t0) };
  }

  /**
   * Descendants that outlived the worker (re-parented to init) are ended too. A SIGKILL lands
   * when its target next runs, so stop waits (within the kill grace) until they are gone.
   */
  private async reapOrphans(): Promise<void> {
    if (isWindows || this.tree.length === 0) return;
    const orphans = this.tree.filter((p) => p.pid !== this.pid);
    signalTree(orphans, 'SIGKILL');
    const deadline = performance.now() + this.ctx.limits.killGraceMs;
    let left = orphans.filter(isSameLiveProcess);
    while (left.length > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      left = left.filter(isSameLiveProcess);
    }
  }

  // ---- incoming

  private onWireEvent(event: AgentEvent): void | Promise<void> {
    const settles = this.settles;
    this.turns.observe(event);
    const settledNow = this.settles !== settles;
    // The turn's end event carries its outcome, whoever made it.
    if (settledNow && event.type === 'agent_settled') this.describeSettled(event);
    const delivered = this.deliver(event);
    if (settledNow && event.type !== 'agent_settled') this.announceSettled();
    if (this.launch.audit && event.type === 'tool_execution_start') void this.audit(event);
    return delivered;
  }

  private describeSettled(event: AgentEvent): void {
    const s = this.lastSettlement;
    if (!s) return;
    event.end_reason ??= s.endReason;
    if (s.error) {
      event.is_error = true;
      event.error ??= s.error;
    }
  }

  /**
   * The turn settled on an event other than the worker's own agent_settled (pi 0.73.1 and τ send
   * none; a lost end is found by a state check): the host says it, so that every worker ends
   * every turn with one agent_settled, at the moment it accepts a plain prompt again.
   */
  private announceSettled(): void {
    const event: Omit<AgentEvent, 'timestamp'> = { type: 'agent_settled', data: { aborted: this.lastSettlement?.endReason === 'aborted', synthesized: true } };
    this.describeSettled(event as AgentEvent);
    this.emitHostEvent(event);
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
    this.turns.setSendsSettled(this.traits.sendsSettled);
    this.ctx.onState(this);
  }

  /**
   * An audit after the fact, not a sandbox: the call may already be running when its arguments
   * are judged. τ's events carry no arguments, so they are read from the worker's messages.
   */
  private async audit(event: AgentEvent): Promise<void> {
    const { policy, onViolation } = this.launch.audit!;
    const toolName = event.tool_name ?? '';
    let args: unknown = event.args;
    if (args === undefined && event.tool_call_id && this.ctx.dialect.toolCallArgs) {
      try {
        args = await this.request(this.ctx.dialect.toolCallArgs(this.connection, event.tool_call_id), 'reading the tool call\'s arguments');
      } catch (error) {
        this.report({ type: 'guard_violation', tool_call_id: event.tool_call_id, tool_name: toolName, is_error: true, error: `the guard could not read the call's arguments: ${(error as Error).message}` });
        return;
      }
    }
    const verdict = auditToolCall(policy, toolName, args ?? {}, this.spec.cwd);
    if (!verdict.violation) return;
    this.report({ type: 'guard_violation', tool_call_id: event.tool_call_id ?? null, tool_name: toolName, is_error: true, error: verdict.violation, args: (args ?? null) as Record<string, unknown> | null, data: { action: onViolation } });
    if (onViolation === 'abort' && this.turns.streaming) await this.abort();
  }

  private deliver(event: AgentEvent): void | Promise<void> {
    this.events.push(event);
    const own = this.bus.emit(event);
    const host = this.ctx.onEvent(this, event);
    if (own instanceof Promise || host instanceof Promise) return Promise.all([own, host]).then(() => undefined);
  }

  private emitHostEvent(partial: Omit<AgentEvent, 'timestamp'>): void {
    void this.deliver({ ...partial, timestamp: Date.now() } as AgentEvent);
  }

  /** For the host's own findings about this worker's calls (guard audits). */
  report(event: Omit<AgentEvent, 'timestamp'>): void {
    if (event.type === 'guard_violation' && event.tool_call_id !== undefined) this.turns.markViolation(event.tool_call_id ?? null, event.error ?? 'guard violation');
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

  /** Asks the worker whether it is still busy; corrects the host's picture if it is not. */
  private async checkState(doubt: Doubt): Promise<'again' | 'answered'> {
    // Resync drops a doubt the events cleared before it asks; after the answer, any start or
    // settle since the question stands for that.
    if (!this.live || !this.turns.streaming) return 'answered';
    const starts = this.turns.agentStarts;
    const settles = this.settles;
    let streaming: boolean;
    try {
      ({ streaming } = await this.bounded(this.ctx.dialect.probe(this.connection), this.ctx.limits.commandTimeoutMs, 'the state check'));
    } catch (error) {
      if (!this.live) return 'answered';
      this.output('protocol', `could not ask the worker what it is doing: ${(error as Error).message}`);
      return 'again';
    }
    // Events that came with or after the answer win over it.
    if (!this.live || this.turns.agentStarts !== starts || this.settles !== settles) return 'answered';
    if (streaming) return 'again';
    const error = `the host took the worker for busy, but it is idle: ${doubt.reason}`;
    this.output('protocol', error);
    const before = this.settles;
    this.turns.lost(error, Date.now());
    this.emitHostEvent({ type: 'state_resync', is_error: true, error, data: { reason: doubt.reason } });
    if (this.settles !== before) this.announceSettled();
    return 'answered';
  }

  private onStderr(chunk: Buffer): void {
    const text = this.stderrPartial + chunk.toString('utf8');
    const lines = text.split('\n');
    this.stderrPartial = lines.pop() ?? '';
    if (this.stderrPartial.length > 64 * 1024) {
      lines.push(this.stderrPartial);
      this.stderrPartial = '';
    }
    for (const line of lines) {
      const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
      this.stderr.push(clean);
      this.output('stderr', clean);
    }
  }

  private async onWorkerRequest(method: string, params: unknown): Promise<unknown> {
    if (!method.startsWith(UI_REQUEST_PREFIX)) throw new Error(`unsupported request from worker: ${method}`);
    const p = (params ?? {}) as Record<string, unknown>;
    const req = { ...p, workerId: this.id, id: String(p.id), method: method.slice(UI_REQUEST_PREFIX.length) } as UiRequest;
    if (!this.ctx.onUiRequest) return { cancelled: true };
    this.pendingInput.dialogOpened(req.id, req.method, req.title ?? null);
    try {
      return await this.ctx.onUiRequest(req);
    } catch {
      return { cancelled: true };
    } finally {
      this.pendingInput.dialogClosed(req.id);
    }
  }

  private onWorkerNotification(method: string, params: unknown): void {
    if (method.startsWith(UI_REQUEST_PREFIX)) {
      this.ctx.onUiNotice?.({ workerId: this.id, method: method.slice(UI_REQUEST_PREFIX.length), params: (params ?? {}) as Record<string, unknown> });
      return;
    }
    // Kept, never dropped for being unknown.
    this.emitHostEvent({ type: method, data: { params } });
  }

  private onSpawnError(error: Error): void {
    const said = `could not start ${this.launch.command}: ${error.message}`;
    this.output('stderr', said);
    this.stderr.push(said);
    this.spawnError = said;
    if (!this.exit) this.onExit({ code: null, signal: null });
  }

  private onExit(exit: Exit): void {
    if (this.exit) return;
    this.exit = exit;
    if (this.stderrPartial) {
      this.stderr.push(this.stderrPartial);
      this.stderrPartial = '';
    }
    this.status = this.stopping ? 'stopped' : exit.code === 0 ? 'exited' : 'failed';
    this.resync.dispose();
    this.turns.reset();
    const detail = this.exitDescription();
    this.emitHostEvent({ type: 'worker_exit', is_error: this.status === 'failed', error: this.status === 'failed' ? detail : null, data: { code: exit.code, signal: exit.signal, status: this.status } });
    for (const waiter of this.exitWaiters) waiter(exit);
    this.exitWaiters.clear();
    this.ctx.onState(this);
  }

  exitDescription(): string {
    const e = this.exit;
    if (!e) return 'the worker is running';
    if (this.spawnError) return this.spawnError;
    const how = e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code}`;
    const tail = this.stderr.tail(10).join('\n').trim();
    const why = this.ctx.dialect.explainStartFailure?.(this.stderr.tail(40).join('\n'));
    return `the worker ${how}${why ? `: ${why}` : ''}${tail ? `; stderr:\n${tail}` : ' (stderr was empty)'}`;
  }

  private settled(s: Settlement): void {
    this.settles++;
    this.lastSettlement = s;
    for (const waiter of [...this.settleWaiters]) waiter(s);
    this.ctx.onState(this);
    void this.extensionRequests?.check();
  }

  private extensionRequestsFor(ctx: WorkerContext): ExtensionRequests | null {
    const { dialect, onUiRequest } = ctx;
    if (!dialect.pendingRequest || !dialect.answerRequest) return null;
    return new ExtensionRequests({
      pending: () => this.request(dialect.pendingRequest!(this.connection), 'reading the pending request'),
      answer: (id, action, values) => this.request(dialect.answerRequest!(this.connection, id, action, values), 'answering the request'),
      ask: onUiRequest && ((req) => onUiRequest({ ...req, workerId: this.id })),
      emit: (event) => this.emitHostEvent(event),
      standing: (req, asking) => this.pendingInput.requestStands(req, asking),
    });
  }

  // ---- waits

  private output(kind: OutputKind, text: string): void {
    this.ctx.onOutput(this, kind, text);
  }

  private refuseUnlessRunning(): string | null {
    if (this.status === 'running') return null;
    if (this.status === 'starting') return 'the worker is still starting';
    return `the worker is ${this.status}: ${this.exitDescription()}`;
  }

  private nextSettlement() {
    let cancel = () => {};
    const promise = new Promise<Settlement>((resolve) => {
      const waiter = (s: Settlement) => {
        this.settleWaiters.delete(waiter);
        resolve(s);
      };
      this.settleWaiters.add(waiter);
      cancel = () => this.settleWaiters.delete(waiter);
    });
    return { promise, cancel };
  }

  /** The next event of a type that `match` accepts; `seen` is it, once it came. */
  private nextEvent(type: string, match: (e: AgentEvent) => boolean = () => true) {
    const handle = { seen: undefined as AgentEvent | undefined, promise: undefined as unknown as Promise<AgentEvent>, cancel: () => {} };
    handle.promise = new Promise<AgentEvent>((resolve) => {
      const off = this.bus.on(type, (e) => {
        if (handle.seen || !match(e)) return;
        handle.seen = e;
        off();
        resolve(e);
      });
      handle.cancel = off;
    });
    return handle;
  }

  private waitExit(ms: number): Promise<Exit | null> {
    if (this.exit) return Promise.resolve(this.exit);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.exitWaiters.delete(done);
        resolve(null);
      }, ms);
      const done = (e: Exit) => {
        clearTimeout(timer);
        resolve(e);
      };
      this.exitWaiters.add(done);
    });
  }

  /** A request to the worker, bounded by the command timeout and by its exit. */
  private request<T>(pending: Promise<T>, what: string, timeoutMs = this.ctx.limits.commandTimeoutMs): Promise<T> {
    return this.bounded(pending, timeoutMs, what);
  }

  private bounded<T>(pending: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    if (this.exit) {
      pending.catch(() => {});
      return Promise.reject(new Error(`${what} failed: ${this.exitDescription()}`));
    }
    return new Promise<T>((resolve, reject) => {
      // Node's timers run on the loop's cached millisecond clock and can fire up to a
      // millisecond early; "no answer within N s" is only said once N s have really passed.
      const deadline = performance.now() + timeoutMs;
      const expire = () => {
        const left = deadline - performance.now();
        if (left > 0) {
          timer = setTimeout(expire, Math.ceil(left));
          return;
        }
        cleanup();
        reject(new Error(`${what}: no answer from the worker within ${timeoutMs / 1000} s`));
      };
      let timer = setTimeout(expire, timeoutMs);
      const onExit = () => {
        cleanup();
        reject(new Error(`${what} failed: ${this.exitDescription()}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        this.exitWaiters.delete(onExit);
      };
      this.exitWaiters.add(onExit);
      pending.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (error) => {
          cleanup();
          reject(error);
        },
      );
    });
  }
}
