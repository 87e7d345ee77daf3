// Every command of the extension. Each takes an optional `{ workerId, message }` argument (see
// commandArgs.ts) and asks for what it was not given; each resolves with the host's own result,
// which is also shown to the person (results.ts). No worker logic lives here: this adapts
// clicks and keystrokes to the core's verbs.
import * as vscode from 'vscode';
import type { PromptResult, StartResult, StopResult, Supervisor, WorkerSpec, WorkerState } from '../../core/api';
import { startAgentWorker, type CoreCards } from './agentStart';
import { parseCommandArg, type ParsedArg } from './commandArgs';
import { guardFromSettings } from '../settings/guardSpec';
import { Disposable } from '../disposable';
import { COMMANDS } from './ids';
import type { EventLog } from '../eventLog/eventLogView';
import type { OutputChannels } from '../views/outputChannels';
import { askMessage, askStreamingBehavior, isIdle, isLive, isRunning, isStreaming, any, pickProfile, pickWorker, type WorkerFilter } from './pickers';
import { DEMO_PROFILE, demoSpec, findAcpAgents, findExecutable, findFirstExecutable, profileChoices, searchDirs, TAU_COMMANDS, type ProfileChoice } from '../settings/profiles';
import { provenance } from '../host/provenance';
import type { Source } from '../../protocol/words';
import { ResultPresenter, type Action, type AnyResult } from './results';
import { resultSentence, resultTone } from './resultWords';
import { buildSelectionMessage, selectedLines } from './selection';
import type { SessionsTree } from '../views/sessionsTree';
import type { Settings } from '../settings/settings';
import { isTrusted, refuseUntrusted } from '../settings/trust';
import { LaunchConfigGate } from '../settings/launchConfigGate';
import type { WorkerSelection } from '../views/workerSelection';

export interface CommandServices {
  host: Supervisor;
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
}

type Refused = { status: 'cancelled' | 'error'; error?: string };
const cancelled: Refused = { status: 'cancelled' };
const noWorktrees: WorktreePlacer = async () => ({ status: 'error', error: 'worktrees are not available' });

/** Moves a spec into a new worktree of its workspace (the worktree room sets it). */
export type WorktreePlacer = (spec: WorkerSpec) => Promise<{ spec: WorkerSpec; started(r: StartResult): Promise<void> } | Refused>;

export class Commands extends Disposable {
  readonly results: ResultPresenter;
  worktreePlacer: WorktreePlacer | undefined;
  /** Workers a command picked while they were still starting, and waits for. */
  readonly waitingForStart = new Set<string>();
  /** Asks the person about a change to profiles, guard settings or cards made while a worker ran. */
  readonly launchConfig: LaunchConfigGate;

  constructor(private readonly s: CommandServices) {
    super();
    this.launchConfig = this._register(new LaunchConfigGate(s.host, s.settings));
    this.results = new ResultPresenter({
      showOutput: (id) => s.outputs.show(id),
      showEventLog: (id) => void this.showEventLog({ workerId: id }),
    });
    const reg = (id: string, fn: (arg: unknown) => unknown) => this._register(vscode.commands.registerCommand(id, fn));
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
    reg(COMMANDS.showEventLog, (a) => this.showEventLog(a));
    reg(COMMANDS.openEventLogPanel, (a) => this.openEventLogPanel(a));
    reg(COMMANDS.showOutput, (a) => this.showOutput(a));
    reg(COMMANDS.copyPid, (a) => this.copyPid(a));
  }

  /** The worker's name as lists show it; a stopped worker's too, never its internal id. */
  private name(workerId: string): string {
    return this.s.eventLog.label(workerId) ?? this.s.eventLog.stateOf(workerId)?.name ?? 'the worker';
  }

  /** Says the result (notification or status bar) and puts it under the event log's composer. */
  private show(action: Action, workerId: string, r: AnyResult, source?: string): void {
    const name = this.name(workerId);
    this.results.show(action, name, r);
    this.s.eventLog.result(workerId, action, r.status, resultSentence(action, name, r), resultTone(action, r), source === 'event-log');
  }

  private argError(p: ParsedArg): Refused | undefined {
    if (!p.error) return undefined;
    void vscode.window.showErrorMessage(`RPC Workers: ${p.error}`);
    return { status: 'error', error: p.error };
  }

  /** The worker named by the argument, or the one the person picks. */
  private async worker(p: ParsedArg, title: string, filter: WorkerFilter, none: string): Promise<string | undefined> {
    if (p.arg.workerId) return p.arg.workerId;
    return pickWorker(this.s.host, { title, filter, selected: this.s.selection.current, none, waiting: this.waitingForStart });
  }

  // ---- start

  async startWorker(raw?: unknown, inWorktree = false): Promise<StartResult | Refused> {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    if (!isTrusted()) return refuseUntrusted();
    const confirmed = await this.launchConfig.confirm(p.programmatic);
    if (!confirmed.ok) {
      if (!confirmed.cancelled) void vscode.window.showErrorMessage(`RPC Workers: ${confirmed.error}`);
      return { status: confirmed.cancelled ? 'cancelled' : 'error', error: confirmed.error };
    }
    const settings = this.s.settings();
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const dirs = searchDirs(folders);
    const choices = profileChoices({
      configured: settings.profiles, extensionPath: this.s.extensionPath, piPath: findExecutable('pi', dirs),
      tauPath: findFirstExecutable(TAU_COMMANDS, dirs), acpPaths: findAcpAgents(dirs), tauSessionDir: this.s.tauSessionDir, piSessionDir: this.s.piSessionDir,
    });
    let choice: ProfileChoice | undefined;
    if (p.arg.profile) {
      choice = choices.find((c) => c.name === p.arg.profile);
      if (!choice) {
        const error = `there is no worker profile named "${p.arg.profile}" (known: ${choices.map((c) => c.name).join(', ')})`;
        void vscode.window.showErrorMessage(`RPC Workers: ${error}`, 'Open Settings').then((c) => c && vscode.commands.executeCommand('workbench.action.openSettings', 'rpcWorkers.profiles'));
        return { status: 'error', error };
      }
    } else {
      // No default named: the demo worker, which needs no model, is offered first.
      choice = await pickProfile(choices, settings.defaultProfile || DEMO_PROFILE);
      if (!choice) return cancelled;
    }
    const cwd = this.cwd();
    if (!cwd) return this.noFolder();
    // A profile with `guard: true` runs under the settings' guard; a setting the guard cannot
    // honour starts nothing (a broken guard must not mean no guard).
    let guard: Pick<WorkerSpec, 'guard' | 'onViolation' | 'workspaceFolder'> = {};
    if (choice.guard) {
      const g = guardFromSettings(settings.guard, cwd, (gs, folder) => this.s.core().policyFromSettings(gs, folder));
      if (!g.ok) {
        const error = `profile "${choice.name}" asks for the guard, but ${g.error}; nothing was started`;
        void vscode.window.showErrorMessage(`RPC Workers: ${error}`, 'Open Settings').then((c) => c && vscode.commands.executeCommand('workbench.action.openSettings', 'rpcWorkers.guard'));
        return { status: 'error', error };
      }
      guard = { guard: g.guard, onViolation: g.onViolation, workspaceFolder: cwd };
    }
    const task = await this.firstTask(p);
    if (task === null) return cancelled;
    return this.launch({ ...choice.spec(cwd), ...guard, ...(p.arg.name ? { name: p.arg.name } : {}) }, task, p, undefined, inWorktree || choice.worktree === true);
  }

  async startAgentWorker(raw?: unknown): Promise<StartResult | Refused> {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    if (!isTrusted()) return refuseUntrusted();
    const confirmed = await this.launchConfig.confirm(p.programmatic);
    if (!confirmed.ok) {
      if (!confirmed.cancelled) void vscode.window.showErrorMessage(`RPC Workers: ${confirmed.error}`);
      return { status: confirmed.cancelled ? 'cancelled' : 'error', error: confirmed.error };
    }
    return startAgentWorker(p, {
      settings: () => this.s.settings(),
      extensionPath: this.s.extensionPath,
      core: () => this.s.core(),
      log: this.s.log,
      defaultFolder: () => this.cwd(),
      firstTask: (q, title) => this.firstTask(q, title),
      launch: (spec, task, q, dirs) => this.launch(spec, task, q, dirs) as Promise<StartResult>,
    });
  }

  async startDemoWorker(raw?: unknown, inWorktree = false): Promise<StartResult | Refused> {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    if (!isTrusted()) return refuseUntrusted();
    const cwd = this.cwd();
    if (!cwd) return this.noFolder();
    // The demo starts at once from the palette; a task comes only from the argument.
    const task = p.arg.task?.trim() ? p.arg.task : undefined;
    const spec = demoSpec(this.s.extensionPath, cwd, undefined, this.s.tauSessionDir);
    return this.launch({ ...spec, name: p.arg.name ?? DEMO_PROFILE }, task, p, undefined, inWorktree);
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
    const task = await askMessage({ title, prompt: 'What the worker should do first. Leave empty to start it idle; Escape cancels.', optional: true });
    if (task === undefined) return null;
    return task.trim() ? task : undefined;
  }

  /** `agentDirs`: where the host looks for `spec.agent` (the directories the card was offered from). */
  private async launch(spec: WorkerSpec, task: string | undefined, p: ParsedArg, agentDirs?: string[], inWorktree = false): Promise<StartResult | Refused> {
    const placed = inWorktree ? await (this.worktreePlacer ?? noWorktrees)(spec) : undefined;
    if (placed && 'status' in placed) return placed;
    if (placed) spec = placed.spec;
    const full: WorkerSpec = { ...spec, ...(task ? { task, taskProvenance: provenance(p.source === 'api' ? 'api' : 'task', p.submitter) } : {}) };
    const name = full.name ?? full.agent ?? `${full.dialect} worker`;
    const r = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Starting ${name}…`, cancellable: false },
      () => this.s.host.start(agentDirs ? { ...full, agentDirs } : full),
    );
    await placed?.started(r);
    if (r.status === 'started') {
      this.s.selection.set(r.workerId);
      this.show('start', r.workerId, r);
      void this.s.tree.reveal(r.workerId);
      if (!p.programmatic) void this.s.eventLog.show(r.workerId, true);
    } else {
      const tail = r.stderrTail?.filter((l) => l.trim()).slice(-5).join('\n');
      const message = `Could not start ${name}: ${r.error}${tail && !r.error.includes(tail) ? `\nstderr:\n${tail}` : ''}`;
      const buttons = r.workerId && this.s.outputs.has(r.workerId) ? ['Show Output'] : [];
      void vscode.window.showErrorMessage(message, ...buttons).then((c) => { if (c && r.workerId) this.s.outputs.show(r.workerId); });
    }
    return r;
  }

  // ---- messages

  async send(raw: unknown, mode: 'prompt' | 'steer' | 'followUp', source?: Source): Promise<PromptResult | Refused> {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    const titles = { prompt: 'Prompt', steer: 'Steer', followUp: 'Follow Up' } as const;
    const filter = mode === 'prompt' ? isRunning : isStreaming;
    const none = mode === 'prompt' ? 'No worker is running: start one first.' : 'No worker is streaming a turn, so there is nothing to steer or follow up: use Prompt.';
    const workerId = await this.worker(p, titles[mode], filter, none);
    if (!workerId) return cancelled;
    const name = this.name(workerId);
    const message = p.arg.message ?? await askMessage({
      title: `${titles[mode]} ${name}`,
      prompt: mode === 'prompt' ? 'The message to send' : mode === 'steer' ? 'Delivered after the current tool call' : 'Delivered when the current turn ends',
    });
    if (message === undefined) return cancelled;
    const behavior = mode === 'prompt' ? p.arg.streamingBehavior : mode;
    const from = source ?? p.source;
    if (mode === 'prompt' && !behavior && !p.programmatic && this.streaming(workerId)) return this.offerWhileStreaming(workerId, message, from, p.submitter);
    return this.deliver(workerId, message, behavior, from, p.submitter);
  }

  private streaming(workerId: string): boolean {
    const st = this.s.host.state(workerId);
    return st.status === 'running' && st.state.streaming;
  }

  /**
   * A prompt typed for a worker that is busy with a turn: nothing is sent and nothing typed is
   * lost. The person picks how it goes (steer, follow-up or redirect) from buttons, and the same
   * text is delivered that way.
   */
  private async offerWhileStreaming(workerId: string, message: string, source: string, submitter: string): Promise<PromptResult | Refused> {
    const name = this.name(workerId);
    const short = message.length > 60 ? `${message.slice(0, 60)}…` : message;
    const choice = await vscode.window.showWarningMessage(
      `${name} is in the middle of a turn, so "${short}" was not sent yet. Steer delivers it after the current tool call, Follow Up when the turn ends, Redirect aborts the turn and sends it now.`,
      'Steer', 'Follow Up', 'Redirect',
    );
    if (choice === 'Steer' || choice === 'Follow Up') return this.deliver(workerId, message, choice === 'Steer' ? 'steer' : 'followUp', source, submitter);
    if (choice === 'Redirect') return this.doRedirect(workerId, message, source, submitter) as Promise<PromptResult | Refused>;
    return cancelled;
  }

  /** A prompt, or a steer / follow-up when `behavior` is given and the worker streams. */
  async deliver(workerId: string, message: string, behavior: 'steer' | 'followUp' | undefined, source: string, submitter: string, correlation?: Record<string, unknown>): Promise<PromptResult> {
    const r = await this.s.host.prompt(workerId, message, { ...provenance(source, submitter, correlation), streamingBehavior: behavior });
    this.show(r.status === 'accepted' && r.streamingBehavior ? r.streamingBehavior : behavior ?? 'prompt', workerId, r, source);
    return r;
  }

  async abort(raw?: unknown) {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    const workerId = await this.worker(p, 'Abort Turn', isStreaming, 'No worker is streaming: there is no turn to abort.');
    if (!workerId) return cancelled;
    const r = await this.s.host.abort(workerId);
    this.show('abort', workerId, r, p.source);
    return r;
  }

  async redirect(raw?: unknown, source?: Source) {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    const workerId = await this.worker(p, 'Redirect', isRunning, 'No worker is running: start one first.');
    if (!workerId) return cancelled;
    const message = p.arg.message ?? await askMessage({ title: `Redirect ${this.name(workerId)}`, prompt: 'The current turn is aborted and this is sent instead' });
    if (message === undefined) return cancelled;
    return this.doRedirect(workerId, message, source ?? p.source, p.submitter);
  }

  async doRedirect(workerId: string, message: string, source: string, submitter: string, correlation?: Record<string, unknown>) {
    const r = await this.s.host.redirect(workerId, message, provenance(source, submitter, { action: 'redirect', ...correlation }));
    this.show('redirect', workerId, r, source);
    return r;
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
    const workerId = await this.worker(p, title, isRunning, 'No worker is running: start one first.');
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
    if (kind === 'redirect') return this.doRedirect(workerId, message, p.source, p.submitter, correlation);
    const st = this.s.host.state(workerId);
    let behavior = p.arg.streamingBehavior;
    if (st.status === 'running' && st.state.streaming && !behavior) {
      behavior = p.programmatic ? 'steer' : await askStreamingBehavior(st.state.name);
      if (!behavior) return cancelled;
    }
    return this.deliver(workerId, message, behavior, p.source, p.submitter, { action: 'send-selection', ...correlation });
  }

  async compact(raw?: unknown) {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    const workerId = await this.worker(p, 'Compact', isIdle, 'No idle worker to compact (a streaming worker compacts after its turn).');
    if (!workerId) return cancelled;
    const name = this.name(workerId);
    const r = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Compacting ${name}` }, () => this.s.host.compact(workerId, p.arg.message ? { instructions: p.arg.message } : undefined));
    this.show('compact', workerId, r, p.source);
    return r;
  }

  async stop(raw?: unknown) {
    const p = parseCommandArg(raw, 'palette');
    const bad = this.argError(p);
    if (bad) return bad;
    const workerId = await this.worker(p, 'Stop Worker', any, 'There is no worker to stop.');
    if (!workerId) return cancelled;
    const r = await this.s.host.stop(workerId);
    this.show('stop', workerId, r, p.source);
    return r;
  }

  async stopAll(): Promise<StopResult[]> {
    const n = this.s.host.list().length;
    const r = await this.s.host.stopAll();
    if (n) vscode.window.setStatusBarMessage(`$(check) Stopped ${n} worker${n === 1 ? '' : 's'}`, 4000);
    return r;
  }

  // ---- views

  async showEventLog(raw?: unknown) {
    const p = parseCommandArg(raw, 'palette');
    const workerId = p.arg.workerId ?? this.s.selection.current ?? this.s.host.list().find(isLive)?.workerId;
    await this.s.eventLog.show(workerId, false);
    if (workerId) void this.s.tree.reveal(workerId);
    return { status: 'shown', workerId: workerId ?? null };
  }

  async openEventLogPanel(raw?: unknown) {
    const p = parseCommandArg(raw, 'palette');
    const workerId = await this.worker(p, 'Open Log in Editor Tab', any, 'There is no worker whose log to open.');
    if (!workerId) return cancelled;
    this.s.eventLog.openPanel(workerId);
    return { status: 'shown', workerId };
  }

  async showOutput(raw?: unknown) {
    const p = parseCommandArg(raw, 'palette');
    const workerId = await this.worker(p, 'Show Worker Output', any, 'There is no worker whose output to show.');
    if (!workerId) return cancelled;
    const shown = this.s.outputs.show(workerId);
    return { status: shown ? 'shown' : 'not_found', workerId };
  }

  async copyPid(raw?: unknown) {
    const p = parseCommandArg(raw, 'palette');
    const workerId = await this.worker(p, 'Copy PID', (s: WorkerState) => s.pid !== null, 'No worker has a process id.');
    if (!workerId) return cancelled;
    const st = this.s.host.state(workerId);
    const pid = st.status === 'not_found' ? null : st.state.pid;
    if (pid === null) return { status: 'not_found' as const, workerId };
    await vscode.env.clipboard.writeText(String(pid));
    vscode.window.setStatusBarMessage(`$(clippy) Copied PID ${pid} of ${st.status === 'not_found' ? workerId : st.state.name}`, 3000);
    return { status: 'copied' as const, workerId, pid };
  }
}
