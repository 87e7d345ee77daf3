// Every command of the extension. Each takes an optional `{ workerId, message }` argument (see
// commandArgs.ts) and asks for what it was not given; each resolves with the host's own result,
// which is also shown to the person (results.ts). No worker logic lives here: this adapts
// clicks and keystrokes to the core's verbs.
import * as vscode from 'vscode';
import type { LoginCommand, PromptResult, StartResult, StopResult, Supervisor, WorkerSpec } from '../../core/api';
import { startAgentWorker, type CoreCards } from './agentStart';
import { parseCommandArg, type ParsedArg } from './commandArgs';
import { Disposable, toDisposable } from '../disposable';
import { COMMANDS } from './ids';
import type { EventLog } from '../eventLog/eventLogView';
import type { OutputChannels } from '../views/outputChannels';
import { askMessage, askStreamingBehavior, canCompact, canSteer, isIdle, isLive, isRunning, isStreaming, any, pickWorker, type WorkerFilter } from './pickers';
import { DEMO_PROFILE, demoSpec, installAdvice, loginHint } from '../settings/profiles';
import { startProfileWorker } from './profileStart';
import { forgetAllowed, hasRules, type ForgetOutcome } from './forgetAllowed';
import { provenance } from '../host/provenance';
import { viewCommands } from './viewCommands';
import { ResultPresenter, type Action, type AnyResult } from './results';
import { runLogin } from './loginTerminal';
import { OPEN_LIMIT, resultSentence, resultTone, startFailure, stopAllSentence, unknownWorkerSentence } from './resultWords';
import { buildSelectionMessage, selectedLines } from './selection';
import type { SessionsTree } from '../views/sessionsTree';
import type { Settings } from '../settings/settings';
import { isTrusted, refuseUntrusted } from '../settings/trust';
import type { LaunchConfigGate } from '../settings/launchConfigGate';
import type { WorkerSelection } from '../views/workerSelection';
import type { RegisterCommand } from '../laterCommands';

export interface CommandServices {
  supervisor: Supervisor;
  extensionPath: string;
  /** Where τ workers keep their sessions: the extension's workspace storage. */
  tauSessionDir: string;
  /** Where pi workers keep their sessions (so that they can be resumed after a reload). */
  piSessionDir?: string;
  settings(): Settings;
  selection: WorkerSelection;
  outputs: OutputChannels;
  tree: SessionsTree;
  eventLog: EventLog;
  log: vscode.LogOutputChannel;
  /** dist/core.js, required on first use (it is not loaded at activation). */
  core(): CoreCards;
  /** Start in a New Worktree (from the worktree room); without it such a start is refused. */
  worktreePlacer?: WorktreePlacer;
  /** Runs the person's own Abort or Redirect (WorkerAttention.byThePerson): the turn it aborts is no news to them. */
  byThePerson?<T>(workerId: string, run: () => Promise<T>): Promise<T>;
  /**
   * The window's launch configuration gate: made at activation, as it follows the workers from
   * then on, while this class is made on the first command (extension.ts).
   */
  launchConfig: LaunchConfigGate;
  /** How the commands are registered: VS Code's own, or LaterCommands'. */
  registerCommand?: RegisterCommand;
}

type Refused = { status: 'cancelled' | 'error'; error?: string };
/** Who asked for an action: the path it came by, and the composer request it answers (if any). */
type Asked = { source?: string; reply?: string };
/** How the person is asked for a worker when the argument names none. */
type WorkerPick = { title: string; filter: WorkerFilter; none: string };
/** How a message goes: queued while the worker streams (`behavior`), who sent it, and the request it answers. */
type Delivery = { behavior?: 'steer' | 'followUp'; source: string; submitter: string; correlation?: Record<string, unknown>; reply?: string };
const isRefused = (x: object): x is Refused => 'status' in x;
const cancelled: Refused = { status: 'cancelled' };
const noWorktrees: WorktreePlacer = async () => ({ status: 'error', error: 'worktrees are not available' });

/** Moves a spec into a new worktree of its workspace (the worktree room sets it). */
export type WorktreePlacer = (spec: WorkerSpec) => Promise<{ spec: WorkerSpec; started(r: StartResult): Promise<void> } | Refused>;

export class Commands extends Disposable {
  readonly results: ResultPresenter;
  /** Workers a command picked while they were still starting, and waits for. */
  readonly waitingForStart = new Set<string>();
  /** Asks the person about a change to profiles, guard settings or cards made while a worker ran. */
  readonly launchConfig: LaunchConfigGate;

  constructor(private readonly s: CommandServices) {
    super();
    const views = viewCommands(s, (raw, pick) => this.target(raw, pick));
    this.launchConfig = s.launchConfig;
    this.results = new ResultPresenter({
      showOutput: (id) => s.outputs.show(id),
      showEventLog: (id) => void views.showEventLog({ workerId: id }),
    });
    this._register(toDisposable(s.supervisor.onEvent((workerId, e) => {
      if (e.turn?.ends && e.is_error) this.results.turnFailed(workerId);
    })));
    const reg = (id: string, fn: (arg: unknown) => unknown) => this._register((s.registerCommand ?? vscode.commands.registerCommand)(id, fn));
    reg(COMMANDS.startWorker, (a) => this.startWorker(a));
    reg(COMMANDS.startDemoWorker, (a) => this.startDemoWorker(a));
    reg(COMMANDS.startAgentWorker, (a) => this.startAgentWorker(a));
    reg(COMMANDS.prompt, (a) => this.send(a, 'prompt'));
    reg(COMMANDS.steer, (a) => this.send(a, 'steer'));
    reg(COMMANDS.followUp, (a) => this.send(a, 'followUp'));
    reg(COMMANDS.abort, (a) => this.abort(a));
    reg(COMMANDS.redirect, (a) => this.redirect(a));
    reg(COMMANDS.redirectWithSelection, (a) => this.withSelection(a, 'redirect'));
    reg(COMMANDS.sendSelection, (a) => this.withSelection(a, 'send'));
    reg(COMMANDS.compact, (a) => this.compact(a));
    reg(COMMANDS.stop, (a) => this.stop(a));
    reg(COMMANDS.stopAll, () => this.stopAll());
    reg(COMMANDS.forgetAllowed, (a) => this.forgetAllowed(a));
    reg(COMMANDS.showEventLog, views.showEventLog);
    reg(COMMANDS.openEventLogPanel, views.openEventLogPanel);
    reg(COMMANDS.showOutput, views.showOutput);
    reg(COMMANDS.copyPid, views.copyPid);
    reg(COMMANDS.selectWorker, (id) => {
      if (typeof id === 'string' && s.supervisor.list().some((w) => w.workerId === id)) s.selection.set(id);
    });
  }

  /** The worker's name as lists show it; a stopped worker's too, never its internal id. */
  private name(workerId: string): string {
    return this.knownName(workerId) ?? 'the worker';
  }

  /** undefined: the window has no worker, live or kept, under this id. */
  private knownName(workerId: string): string | undefined {
    return this.s.eventLog.label(workerId) ?? this.s.eventLog.stateOf(workerId)?.name;
  }

  /**
   * Says the result (notification or status bar) and puts it under the event log's composers;
   * `asked.reply`: the composer request it answers (see EventLog.act).
   */
  private show(action: Action, workerId: string, r: AnyResult, asked: Asked = {}): void {
    const known = this.knownName(workerId);
    // An id the window never had (an argument's from an earlier window): said so, with no buttons to a log that is not there.
    const unknown = known === undefined && r.status === 'not_found';
    const message = unknown ? unknownWorkerSentence(workerId) : resultSentence(action, known ?? 'the worker', r);
    const tone = unknown ? 'error' : resultTone(action, r);
    this.results.say(message, tone, unknown ? undefined : r.workerId, workerId);
    this.s.eventLog.result(workerId, { action, status: r.status, message, tone, ...(r.handled ? { handled: true as const } : {}) }, asked.reply);
  }

  private argError(p: ParsedArg): Refused | undefined {
    if (!p.error) return undefined;
    void vscode.window.showErrorMessage(`RPC Workers: ${p.error}`);
    return { status: 'error', error: p.error };
  }

  /** The worker named by the argument, or the one the person picks. */
  private async worker(p: ParsedArg, pick: WorkerPick): Promise<string | undefined> {
    if (p.arg.workerId) return p.arg.workerId;
    return pickWorker(this.s.supervisor, { ...pick, selected: this.s.selection.current, waiting: this.waitingForStart });
  }

  /** Every worker command's start: its argument checked, then the worker it names or the person picks. */
  private async target(raw: unknown, pick: WorkerPick): Promise<{ p: ParsedArg; workerId: string } | Refused> {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    const workerId = await this.worker(p, pick);
    return workerId ? { p, workerId } : cancelled;
  }

  /** Every start command's start: its argument checked, and nothing started in an untrusted workspace. */
  private startArg(raw: unknown): ParsedArg | Refused {
    const p = parseCommandArg(raw, 'palette');
    return this.argError(p) ?? (isTrusted() ? p : refuseUntrusted());
  }

  /**
   * startArg, then the person's confirmation of a launch configuration (profiles, guard settings,
   * cards) changed while a worker ran, before a start that reads it uses it.
   */
  private async confirmedStartArg(raw: unknown): Promise<ParsedArg | Refused> {
    const p = this.startArg(raw);
    if (isRefused(p)) return p;
    const confirmed = await this.launchConfig.confirm(p.programmatic);
    if (confirmed.ok) return p;
    if (!confirmed.cancelled) void vscode.window.showErrorMessage(`RPC Workers: ${confirmed.error}`);
    return { status: confirmed.cancelled ? 'cancelled' : 'error', error: confirmed.error };
  }

  // ---- start

  async startWorker(raw?: unknown, how: { inWorktree?: boolean } = {}): Promise<StartResult | Refused> {
    const p = await this.confirmedStartArg(raw);
    if (isRefused(p)) return p;
    return startProfileWorker(p, {
      ...this.startDeps(),
      tauSessionDir: this.s.tauSessionDir,
      piSessionDir: this.s.piSessionDir,
      noFolder: () => this.noFolder(),
      launch: (spec, task, q, worktree) => this.launch(spec, task, q, { inWorktree: how.inWorktree || worktree }),
    });
  }

  async startAgentWorker(raw?: unknown): Promise<StartResult | Refused> {
    const p = await this.confirmedStartArg(raw);
    if (isRefused(p)) return p;
    return startAgentWorker(p, {
      ...this.startDeps(),
      piSessionDir: this.s.piSessionDir,
      log: this.s.log,
      launch: (spec, task, q, dirs, worktree) => this.launch(spec, task, q, { agentDirs: dirs, inWorktree: worktree }),
    });
  }

  /** What the profile and card starts share of this class. */
  private startDeps() {
    return {
      settings: () => this.s.settings(),
      extensionPath: this.s.extensionPath,
      core: () => this.s.core(),
      defaultFolder: () => this.cwd(),
      firstTask: (q: ParsedArg, title?: string) => this.firstTask(q, title),
    };
  }

  async startDemoWorker(raw?: unknown, how: { inWorktree?: boolean } = {}): Promise<StartResult | Refused> {
    const p = this.startArg(raw);
    if (isRefused(p)) return p;
    const cwd = this.cwd();
    if (!cwd) return this.noFolder();
    // The demo starts at once from the palette; a task comes only from the argument.
    const task = p.arg.task?.trim() ? p.arg.task : undefined;
    const spec = demoSpec(this.s.extensionPath, cwd, undefined, this.s.tauSessionDir);
    return this.launch({ ...spec, name: p.arg.name ?? DEMO_PROFILE }, task, p, { inWorktree: how.inWorktree });
  }

  private cwd(): string | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder = (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
    return folder?.uri.fsPath;
  }

  private noFolder(): Refused {
    const error = 'open a folder first: a worker runs in a workspace folder';
    void vscode.window.showErrorMessage(`RPC Workers: ${error}`);
    return { status: 'error', error };
  }

  /** undefined: no task; null: the person cancelled. */
  private async firstTask(p: ParsedArg, title = 'Start Worker: first task (optional)'): Promise<string | undefined | null> {
    if (p.programmatic) return p.arg.task?.trim() ? p.arg.task : undefined;
    const task = await askMessage({ title, prompt: 'What the worker should do first. Leave empty to start it idle; Escape cancels.', optional: true, maxBytes: this.s.supervisor.limits.maxPromptBytes });
    if (task === undefined) return null;
    return task.trim() ? task : undefined;
  }

  /** `agentDirs`: where the host looks for `spec.agent` (the directories the card was offered from). */
  private async launch(spec: WorkerSpec, task: string | undefined, p: ParsedArg, how: { agentDirs?: string[]; inWorktree?: boolean } = {}): Promise<StartResult | Refused> {
    const { agentDirs } = how;
    // A start that fails removes its fresh worktree (place's started): a login and Start Again
    // go by the person's own folder, and Start Again makes a new worktree from there.
    const asked = spec;
    const placed = how.inWorktree ? await (this.s.worktreePlacer ?? noWorktrees)(spec) : undefined;
    if (placed && 'status' in placed) return placed;
    if (placed) spec = placed.spec;
    const full: WorkerSpec = { ...spec, ...(task ? { task, taskProvenance: provenance(p.source === 'api' ? 'api' : 'task', p.submitter) } : {}) };
    // The name the host will give (a blank one is none there too), for the progress and a failure.
    const name = full.name?.trim() || full.agent || `${full.dialect} worker`;
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Starting ${name}…`, cancellable: false },
      () => this.s.supervisor.start(agentDirs ? { ...full, agentDirs } : full),
    );
    await placed?.started(r);
    if (r.status === 'started') {
      this.s.selection.set(r.workerId);
      this.show('start', r.workerId, r);
      if (task && r.taskAccepted === false) this.taskRefused(r.workerId, task, r.taskError, full.taskProvenance);
      void this.s.tree.reveal(r.workerId);
      if (!p.programmatic) void this.s.eventLog.show(r.workerId, { preserveFocus: true });
    } else {
      // A program that is not there: how to install it, where Start Worker knows.
      const install = r.missing ? installAdvice(full.command) : null;
      const { message, login, buttons } = startFailure(name, r, install, !!r.workerId && this.s.outputs.has(r.workerId), r.needsLogin ? loginHint(full.command, full.args) : null);
      void vscode.window.showErrorMessage(message, ...buttons).then((c) => {
        if (c === login && r.login) this.logIn(name, r.login, { ...full, cwd: asked.cwd }, () => this.launch(asked, task, p, how));
        else if (c === OPEN_LIMIT) void vscode.commands.executeCommand('workbench.action.openSettings', 'rpcWorkers.maxWorkers');
        else if (c && r.workerId) this.s.outputs.show(r.workerId);
      });
    }
    return r;
  }

  /**
   * The worker started but did not take its first task: said (not the quiet "Started"), with the
   * worker's reason, and Send Again delivers the same text, so what the person typed is not lost.
   */
  private taskRefused(workerId: string, task: string, error: string | undefined, how: WorkerSpec['taskProvenance']): void {
    const name = this.name(workerId);
    const again = 'Send Again';
    void vscode.window.showWarningMessage(`${name} started, but its first task was not sent: ${error ?? 'no detail'}`, again).then((c) => {
      if (c === again) void this.deliver(workerId, task, { source: how?.source ?? 'task', submitter: how?.submitter ?? 'user' });
    });
  }

  /** Runs the login the agent named in a terminal of its folder and env, then offers the start again. */
  private logIn(name: string, login: LoginCommand, spec: WorkerSpec, again: () => Promise<unknown>): void {
    runLogin(login, spec, `start ${name} again`, { button: 'Start Again', run: again });
  }

  // ---- messages

  async send(raw: unknown, mode: 'prompt' | 'steer' | 'followUp'): Promise<PromptResult | Refused> {
    const titles = { prompt: 'Prompt', steer: 'Steer', followUp: 'Follow Up' } as const;
    const filter = mode === 'prompt' ? isRunning : mode === 'steer' ? canSteer : isStreaming;
    const none = mode === 'prompt' ? 'No worker is running: start one first.'
      : mode === 'steer' ? this.noSteerable()
        : 'No worker is streaming a turn, so there is nothing to steer or follow up: use Prompt.';
    const t = await this.target(raw, { title: titles[mode], filter, none });
    if (isRefused(t)) return t;
    const { p, workerId } = t;
    const name = this.name(workerId);
    if (mode === 'steer' && !p.programmatic && !this.steerable(workerId)) return this.noSteer(workerId);
    const message = p.arg.message ?? await askMessage({
      title: `${titles[mode]} ${name}`,
      prompt: mode === 'prompt' ? 'The message to send' : mode === 'steer' ? 'Delivered after the current tool call' : 'Delivered when the current turn ends',
      maxBytes: this.s.supervisor.limits.maxPromptBytes,
    });
    if (message === undefined) return cancelled;
    const behavior = mode === 'prompt' ? p.arg.streamingBehavior : mode;
    const how: Delivery = { source: p.source, submitter: p.submitter, reply: p.arg.reply };
    if (mode === 'prompt' && !behavior && !p.programmatic && this.streaming(workerId)) return this.offerWhileStreaming(workerId, message, how);
    return this.deliver(workerId, message, { ...how, behavior });
  }

  private streaming(workerId: string): boolean {
    const st = this.s.supervisor.state(workerId);
    return st.status === 'running' && st.state.streaming;
  }

  /**
   * Why Steer found no worker: the streaming ones that take none, by name (Copilot's ACP has no
   * steer; Claude's and Codex's adapters take one, so "an ACP agent" would be wrong), or none streams.
   */
  private noSteerable(): string {
    const names = this.s.supervisor.list().filter((s) => isStreaming(s) && !canSteer(s)).map((s) => s.name);
    if (!names.length) return 'No worker is streaming a turn, so there is nothing to steer: use Prompt.';
    return `No worker that takes a steer is streaming a turn: ${names.join(', ')} ${names.length === 1 ? 'takes' : 'take'} none inside a turn (use Follow Up or Redirect).`;
  }

  /** false: the worker's protocol takes no steer inside a turn (ACP). */
  private steerable(workerId: string): boolean {
    const st = this.s.supervisor.state(workerId);
    return st.status === 'not_found' || st.state.midTurn?.steer !== false;
  }

  /**
   * Steer asked of a worker that takes none (from its row or a keybinding): said before a message
   * is typed, since the host would refuse it; Follow Up and Redirect are offered instead.
   */
  private noSteer(workerId: string): Refused {
    const error = `${this.name(workerId)} cannot be steered inside its turn (its protocol has no steer): send a follow-up, or redirect`;
    void vscode.window.showWarningMessage(error, 'Follow Up', 'Redirect').then((c) => {
      if (c) void vscode.commands.executeCommand(c === 'Follow Up' ? COMMANDS.followUp : COMMANDS.redirect, { kind: 'worker', workerId });
    });
    return { status: 'error', error };
  }

  /**
   * A prompt typed for a worker that is busy with a turn: nothing is sent and nothing typed is
   * lost. The person picks how it goes (steer, follow-up or redirect) from buttons, and the same
   * text is delivered that way.
   */
  private async offerWhileStreaming(workerId: string, message: string, how: Delivery): Promise<PromptResult | Refused> {
    const name = this.name(workerId);
    const short = message.length > 60 ? `${message.slice(0, 60)}…` : message;
    // A worker that takes no steer (ACP) is not offered one: the host would refuse it.
    const steer = this.steerable(workerId);
    const choice = await vscode.window.showWarningMessage(
      `${name} is in the middle of a turn, so "${short}" was not sent yet. ${steer ? 'Steer delivers it after the current tool call, ' : ''}Follow Up ${steer ? '' : 'delivers it '}when the turn ends, Redirect aborts the turn and sends it now.`,
      ...(steer ? ['Steer'] : []), 'Follow Up', 'Redirect',
    );
    if (choice === 'Steer' || choice === 'Follow Up') return this.deliver(workerId, message, { ...how, behavior: choice === 'Steer' ? 'steer' : 'followUp' });
    if (choice === 'Redirect') return this.doRedirect(workerId, message, how) as Promise<PromptResult | Refused>;
    return cancelled;
  }

  /** A prompt, or a steer / follow-up when `behavior` is given and the worker streams. */
  async deliver(workerId: string, message: string, how: Delivery): Promise<PromptResult> {
    const { behavior } = how;
    const r = await this.s.supervisor.prompt(workerId, message, { ...provenance(how.source, how.submitter, how.correlation), streamingBehavior: behavior });
    // Said as the worker took it: a steer or follow-up for a turn that ended meanwhile (the person
    // answered the question while it finished) went as a prompt, and was not queued.
    this.show(r.status === 'accepted' ? r.streamingBehavior ?? 'prompt' : behavior ?? 'prompt', workerId, r, how);
    return r;
  }

  async abort(raw?: unknown) {
    const t = await this.target(raw, { title: 'Abort Turn', filter: isStreaming, none: 'No worker is streaming: there is no turn to abort.' });
    if (isRefused(t)) return t;
    const r = await this.interrupt(t.workerId, t.p.submitter, () => this.s.supervisor.abort(t.workerId));
    this.show('abort', t.workerId, r, asked(t.p));
    return r;
  }

  async redirect(raw?: unknown) {
    const t = await this.target(raw, { title: 'Redirect', filter: isRunning, none: 'No worker is running: start one first.' });
    if (isRefused(t)) return t;
    const { p, workerId } = t;
    const message = p.arg.message ?? await askMessage({ title: `Redirect ${this.name(workerId)}`, prompt: 'The current turn is aborted and this is sent instead', maxBytes: this.s.supervisor.limits.maxPromptBytes });
    if (message === undefined) return cancelled;
    return this.doRedirect(workerId, message, { source: p.source, submitter: p.submitter, reply: p.arg.reply });
  }

  async doRedirect(workerId: string, message: string, how: Delivery) {
    const r = await this.interrupt(workerId, how.submitter, () => this.s.supervisor.redirect(workerId, message, provenance(how.source, how.submitter, { action: 'redirect', ...how.correlation })));
    this.show('redirect', workerId, r, how);
    return r;
  }

  /**
   * An abort the person asked for (the palette, a row, the log, the editor: submitter `user`) is
   * theirs; another extension's call of the command (no submitter, or its own) is not.
   */
  private interrupt<T>(workerId: string, submitter: string, run: () => Promise<T>): Promise<T> {
    return submitter === 'user' && this.s.byThePerson ? this.s.byThePerson(workerId, run) : run();
  }

  async withSelection(raw: unknown, kind: 'redirect' | 'send') {
    const p = parseCommandArg(raw, 'editor');
    const bad = this.argError(p);
    if (bad) return bad;
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      const error = 'no editor is active: open a file and select the code to send';
      void vscode.window.showErrorMessage(`RPC Workers: ${error}`);
      return { status: 'error' as const, error };
    }
    const title = kind === 'redirect' ? 'Redirect with Selection' : 'Send Selection';
    const workerId = await this.worker(p, { title, filter: isRunning, none: 'No worker is running: start one first.' });
    if (!workerId) return cancelled;
    const doc = editor.document;
    const sel = editor.selection;
    const lines = selectedLines(sel);
    const code = sel.isEmpty ? doc.lineAt(sel.active.line).text : doc.getText(new vscode.Range(sel.start, sel.end));
    const instruction = p.arg.message ?? await askMessage({
      title: `${title}: ${this.name(workerId)}`,
      prompt: `Optional instruction to go with ${lines.startLine === lines.endLine ? `line ${lines.startLine}` : `lines ${lines.startLine}-${lines.endLine}`}`,
      placeHolder: 'e.g. "Fix this function" (empty: just look at it)',
      optional: true,
    });
    if (instruction === undefined) return cancelled;
    const relPath = doc.uri.scheme === 'file' ? vscode.workspace.asRelativePath(doc.uri, false) : doc.fileName;
    const message = buildSelectionMessage({ path: relPath, startLine: lines.startLine, endLine: lines.endLine, languageId: doc.languageId, code, instruction });
    const correlation = { file: relPath, lines: [lines.startLine, lines.endLine] };
    if (kind === 'redirect') return this.doRedirect(workerId, message, { source: p.source, submitter: p.submitter, correlation });
    const st = this.s.supervisor.state(workerId);
    let behavior = p.arg.streamingBehavior;
    if (st.status === 'running' && st.state.streaming && !behavior) {
      const steer = st.state.midTurn?.steer !== false;
      behavior = p.programmatic ? (steer ? 'steer' : 'followUp') : await askStreamingBehavior(st.state.name, steer);
      if (!behavior) return cancelled;
    }
    return this.deliver(workerId, message, { behavior, source: p.source, submitter: p.submitter, correlation: { action: 'send-selection', ...correlation } });
  }

  async compact(raw?: unknown) {
    // An agent without compaction is not offered, as its row does not offer Compact; it is named when it is all there is.
    const unable = this.s.supervisor.list().filter((s) => isIdle(s) && s.compactUnavailable);
    const none = unable.length ? `No worker can take Compact: ${unable.map((s) => `${s.name}: ${s.compactUnavailable}`).join('; ')}.` : 'No idle worker to compact (a streaming worker compacts after its turn).';
    const t = await this.target(raw, { title: 'Compact', filter: canCompact, none });
    if (isRefused(t)) return t;
    const { p, workerId } = t;
    const name = this.name(workerId);
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Compacting ${name}` }, () => this.s.supervisor.compact(workerId, p.arg.message ? { instructions: p.arg.message } : undefined));
    this.show('compact', workerId, r, asked(p));
    return r;
  }

  async stop(raw?: unknown) {
    const t = await this.target(raw, { title: 'Stop Worker', filter: any, none: 'There is no worker to stop.' });
    if (isRefused(t)) return t;
    const r = await this.s.supervisor.stop(t.workerId);
    this.show('stop', t.workerId, r, asked(t.p));
    return r;
  }

  async forgetAllowed(raw?: unknown): Promise<ForgetOutcome | Refused> {
    const t = await this.target(raw, { title: 'Forget Always-Allowed Actions', filter: hasRules, none: 'No worker has actions allowed always.' });
    if (isRefused(t)) return t;
    return forgetAllowed(this.s.supervisor, t.workerId, t.p.arg, this.knownName(t.workerId));
  }

  async stopAll(): Promise<StopResult[]> {
    const list = this.s.supervisor.list();
    const r = await this.s.supervisor.stopAll();
    const said = stopAllSentence(list.filter(isLive).length, list.length);
    if (said) vscode.window.setStatusBarMessage(said, 4000);
    return r;
  }

}

/** Who asked, as the argument says it. */
function asked(p: ParsedArg): Asked {
  return { source: p.source, reply: p.arg.reply };
}
