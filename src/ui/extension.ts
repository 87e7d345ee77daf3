// Activation and lifetime only: one worker host for the window, the views, commands and status
// bar around it, and deactivate() stopping every worker. Each piece lives in its own module.
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SupervisorOptions, Supervisor } from '../core/api';
import { LazySupervisor } from './host/lazySupervisor';
import { HOST_SHUT_DOWN } from '../core/shutDownWords';
import { createApi, type RpcWorkersApi } from './host/api';
import type { Commands } from './commands/commands';
import { LaunchConfigGate } from './settings/launchConfigGate';
import { Disposable, toDisposable } from './disposable';
import { EventLog } from './eventLog/eventLogView';
import { ProposedChanges } from './host/permissions';
import { QuestionQueue } from './host/questionQueue';
import { registerHostTerminal } from './host/hostTerminal';
import { editorFiles } from './host/editorFiles';
import { COMMANDS, COMMANDS_OF_COMMANDS } from './commands/ids';
import { OutputChannels } from './views/outputChannels';
import { SessionsTree } from './views/sessionsTree';
import { hostLimits, limitsNeedingReload, newSettingErrors, SECTION, settingsMessage, settingsQuery, type Settings } from './settings/settings';
import { readConfiguration } from './settings/readConfiguration';
import { editorSettingsDirsOf } from './settings/guardSpec';
import { declaredSettings } from './settings/unknownSettings';
import { WorkersStatusBar } from './views/statusBar';
import { offerSurvivorStop } from './host/survivors';
import { reloadSentence } from './commands/resultWords';
import { InterruptedResume } from './history/interruptedResume';
import { trustState, UNTRUSTED_REFUSAL } from './settings/trust';
import { WorkerSelection } from './views/workerSelection';
import { ContextKeys } from './views/contextKeys';
import { WalkthroughKeys } from './walkthrough/walkthroughKeys';
import { killChildTreesSync } from '../core/worker/processTree';
import { connectAttention, type AttentionParts } from './attention/connectAttention';
import { connectWorktrees, type WorktreeParts } from './worktrees/connectWorktrees';
import { historyLimits } from './settings/settings';
import { PastSessions } from './history/pastSessions';
import { HistoryTreePart } from './history/historyTree';
import type { HistoryCommands } from './history/historyCommands';
import { HISTORY_COMMANDS } from './history/historyIds';
import { LaterCommands } from './laterCommands';
import { later } from './later';

/** The live extension, for the host tests (through `api.__ui` they can reach its parts). */
export class RpcWorkersExtension extends Disposable {
  readonly supervisor: Supervisor;
  readonly selection: WorkerSelection;
  readonly outputs: OutputChannels;
  readonly tree: SessionsTree;
  readonly eventLog: EventLog;
  readonly statusBar: WorkersStatusBar;
  /** The commands, made on the first call of one (dist/extension-later.js, later.ts). */
  private readonly verbs: LaterCommands<Commands>;
  /** Asks the person about a change to profiles, guard settings or cards made while a worker ran. */
  readonly launchConfig: LaunchConfigGate;
  readonly past: PastSessions;
  /** The history commands, made on the first call of one (dist/extension-later.js, later.ts). */
  private readonly history: LaterCommands<HistoryCommands>;
  /** The automatic resume after a reload (rpcWorkers.history.resumeInterrupted), or after the trust grant. */
  private readonly interrupted: InterruptedResume;
  readonly log: vscode.LogOutputChannel;
  readonly attention: AttentionParts;
  readonly walkthrough: WalkthroughKeys;
  readonly worktrees: WorktreeParts;
  /** The proposed changes of permission questions, each openable in the diff editor. */
  private readonly changes: ProposedChanges;
  /** The agents' permission questions, one on screen at a time. */
  readonly questions: QuestionQueue;
  readonly contextKeys: ContextKeys;
  private current: Settings;
  /** The settings package.json declares: a key of the section set but not among them is said. */
  private readonly declaredSettings: readonly string[];
  /** The settings read at activation: the host's limits and the history's are these until a reload. */
  private readonly applied: Settings;
  settingErrors: string[] = [];
  /** Where trust is read (the host tests swap it; their bundle has its own copy of trust.ts). */
  readonly trust = trustState;

  readonly registryFile: string;
  /** The survivors offer made after activation (the host tests await it). */
  survivorsChecked: Promise<unknown> = Promise.resolve();

  /** How long activate() took, in ms (the log says it too). */
  activationMs = 0;

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    const t0 = performance.now();
    this.log = this._register(vscode.window.createOutputChannel('RPC Workers', { log: true }));
    this.declaredSettings = declaredSettings(context.extension?.packageJSON);
    this.current = this.readSettings(true);
    this.applied = this.current;
    // Every worker is recorded here, so that the next activation can find the ones a crash left.
    this.registryFile = path.join(context.globalStorageUri.fsPath, 'workers.json');
    // Per workspace: past sessions and the workers' own conversations stay with the folder. The
    // core creates the folders when it first writes (nothing is touched at activation).
    const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
    const historyDir = this.current.history.enabled && context.storageUri ? path.join(storage, 'history') : undefined;
    this.interrupted = new InterruptedResume({
      isTrusted: () => trustState.isTrusted(),
      wanted: () => this.current.history.resumeInterrupted && historyDir !== undefined,
      resume: () => this.historyCommands.resumeInterrupted(),
      logError: (message) => this.log.error(message),
    });
    this.changes = this._register(new ProposedChanges(COMMANDS.openChange));
    this.questions = this._register(new QuestionQueue());
    // dist/core.js is loaded on the first start (see lazySupervisor.ts), not at activation; so are the
    // supervisor's options, which speak to the parts made below.
    const corePath = path.join(context.extensionPath, 'dist', 'core.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path at run time, which esbuild must not bundle
    const core = () => require(corePath) as typeof import('../core/index');
    const limits = hostLimits(this.current);
    const lazy = new LazySupervisor(() => core().createSupervisor(this.supervisorOptions(limits, historyDir)), limits, {
      onStarted: (id, spec) => this.past.startedWorker(id, spec),
      warn: (message) => this.log.warn(message),
    });
    this.supervisor = lazy;
    this.selection = this._register(new WorkerSelection());
    this.outputs = this._register(new OutputChannels(this.supervisor));
    this.statusBar = this._register(new WorkersStatusBar(this.supervisor));
    this.past = this._register(new PastSessions(
      lazy, context.workspaceState, historyDir !== undefined, historyDir && path.join(storage, 'interrupted.json'),
      // Nothing was written yet when the folder does not exist: the core makes it when it first writes.
      historyDir === undefined ? undefined : () => later().listSessions(historyDir, () => false, true),
    ));
    this.tree = this._register(new SessionsTree(this.supervisor, this.selection, { history: { part: new HistoryTreePart(this.past), onChange: this.past.onDidChange } }));
    this.eventLog = this._register(new EventLog({
      supervisor: this.supervisor, extensionUri: context.extensionUri, selection: this.selection, log: this.log,
      // The log's status chip says what the worker's row says.
      attentionOf: (state) => this.attention.attention.current(state),
      // A log tab VS Code brings back after a reload shows what its worker or session is now: once
      // the automatic resume has run, the worker that resumed it.
      restorer: (shows) => this.resumedInterrupted.then(() => this.historyCommands.restoreKey(shows)),
      tabRecord: context.workspaceState,
    }));
    // The core is loaded only when the registry names a worker at all (a start loads it anyway).
    const survivors = () => (registryNamesWorkers(this.registryFile) ? core().findSurvivors(this.registryFile).length : 0);
    this.launchConfig = this._register(new LaunchConfigGate(this.supervisor, () => this.current, context.workspaceState, survivors, (message) => this.log.warn(message)));
    this.verbs = this._register(new LaterCommands(COMMANDS_OF_COMMANDS, (registerCommand) => new (later().Commands)({
      supervisor: this.supervisor, extensionPath: context.extensionPath, settings: () => this.current, selection: this.selection,
      // τ creates the folder itself; per workspace when there is one, so sessions stay with it.
      tauSessionDir: path.join(storage, 'tau-sessions'),
      piSessionDir: path.join(storage, 'pi-sessions'),
      outputs: this.outputs, tree: this.tree, eventLog: this.eventLog, log: this.log, core,
      worktreePlacer: (spec) => this.worktrees.actions.place(spec),
      byThePerson: (id, run) => this.attention.attention.byThePerson(id, run),
      launchConfig: this.launchConfig,
      registerCommand,
    })));
    // Read once: the context keys and the survivors' offer below both ask it.
    const workersOnRecord = registryNamesWorkers(this.registryFile);
    // An earlier extension host of this window (a restart) that ended with workers on record may have left keys set.
    this.contextKeys = this._register(new ContextKeys(this.supervisor, !workersOnRecord));
    this._register(registerHostTerminal(this.supervisor, this.eventLog));
    this.walkthrough = this._register(new WalkthroughKeys(this.supervisor));
    const register = <T extends vscode.Disposable>(d: T) => this._register(d);
    this.attention = connectAttention({ supervisor: this.supervisor, tree: this.tree, eventLog: this.eventLog, selection: this.selection, statusBar: this.statusBar, settings: () => this.current, core, log: this.log, register, specOf: (id) => this.past.specOf(id) });
    this.worktrees = connectWorktrees({ supervisor: this.supervisor, tree: this.tree, settings: () => this.current, worktree: () => later().worktree, log: this.log, commands: () => this.commands, register });
    this.history = this._register(new LaterCommands(Object.values(HISTORY_COMMANDS), (registerCommand) => new (later().HistoryCommands)({
      supervisor: this.supervisor, past: this.past, eventLog: this.eventLog, tree: this.tree, selection: this.selection, log: this.log,
      profiles: () => this.current.profiles,
      confirmLaunch: (programmatic) => this.launchConfig.confirm(programmatic),
      markdown: (events, meta) => core().sessionMarkdown(events, meta),
      registerCommand,
    })));
    this.interrupted.activated();
    this.watch();
    // After activation (it loads the core): offer to stop workers an earlier crash left.
    this.survivorsChecked = new Promise((resolve) => setTimeout(resolve, 0)).then(() => this.offerSurvivors(workersOnRecord, core));
    this.activationMs = Math.round((performance.now() - t0) * 10) / 10;
    this.log.info(`activated in ${this.activationMs} ms`);
  }

  /** The automatic resume's run (the host tests await it); ends at once while none runs. */
  get resumedInterrupted(): Promise<unknown> {
    return this.interrupted.done;
  }

  /** The commands' part: made now if no command has run yet. */
  get commands(): Commands {
    return this.verbs.part;
  }

  /** The history commands' part: made now if no history command has run yet. */
  get historyCommands(): HistoryCommands {
    return this.history.part;
  }

  /** What the supervisor is made with, when the first worker starts (the parts it speaks to exist by then). */
  private supervisorOptions(limits: SupervisorOptions['limits'], historyDir: string | undefined): SupervisorOptions {
    return {
      disposedReason: HOST_SHUT_DOWN,
      clientVersion: String((this.context.extension?.packageJSON as { version?: unknown } | undefined)?.version ?? '0.0.0'),
      // async, and dist/extension-later.js loaded before the question is queued: should it fail
      // to load, the question fails (the core says so) rather than throwing inside the queue's
      // show(), which would leave it on screen for ever and every later question waiting behind it.
      onPermission: async (req) => {
        const workerName = this.workerName(req.workerId);
        const { showQuestion } = later();
        return this.questions.ask({ title: req.title, workerName, signal: req.signal, show: () => showQuestion(req, workerName, this.changes), unanswered: { cancelled: true } });
      },
      files: editorFiles,
      limits,
      // Guarded workers must not write the settings their guard comes from, wherever this editor keeps them.
      editorSettingsDirs: editorSettingsDirsOf(this.context.globalStorageUri.fsPath),
      registryFile: this.registryFile,
      // The bounds read at activation, as the host limits: a change says it applies after a reload.
      ...(historyDir ? { historyDir, historyLimits: historyLimits(this.applied.history) } : {}),
      onHistoryError: (e) => this.log.warn(`history: ${e.op}${e.sessionId ? ` ${e.sessionId}` : ''}: ${e.error}`),
      trace: (id, direction, message) => { if (this.current.trace) this.outputs.trace(id, direction, message); },
      // async: a later bundle that fails to load rejects, which the core answers as cancelled (a throw would escape it).
      onUiRequest: async (req) => later().answerUiRequest(req, this.workerName(req.workerId), this.questions),
      onUiNotice: (n) => later().handleUiNotice(n, {
        setStatus: (id, key, text) => this.statusBar.setNotice(id, key, text),
        setEditorText: (id, text) => this.eventLog.prefill(id, text),
        log: (id, text) => this.outputs.channel(id).info(text),
        workerName: (id) => this.workerName(id),
      }),
    };
  }

  /** What the extension follows for as long as it lives: worker ends, trust, settings, the process's exit. */
  private watch(): void {
    this._register(toDisposable(this.supervisor.onState((s) => {
      if (s.status !== 'running' && s.status !== 'starting') this.statusBar.clearNotices(s.workerId);
    })));
    // An untrusted workspace is explained by the Sessions view's welcome content (package.json,
    // `!isWorkspaceTrusted`), which has the Manage Workspace Trust button; starts are refused.
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => {
      this.log.info('workspace trusted: workers may start');
      // The workspace's own values of the restricted settings count from now on.
      this.current = this.readSettings(true);
      // Untrusted at activation, the interrupted sessions were left for now.
      this.interrupted.trustGranted();
    }));
    this._register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SECTION)) return;
      const before = this.current;
      this.current = this.readSettings(true);
      const changed = limitsNeedingReload(this.applied, before, this.current);
      if (changed.length) {
        void vscode.window.showInformationMessage(reloadSentence(changed.map((k) => `${SECTION}.${k}`)), 'Reload Window')
          .then((c) => c && vscode.commands.executeCommand('workbench.action.reloadWindow'));
      }
    }));
    // Last resort: if the extension host goes down without deactivate() finishing, no worker
    // process group outlives it.
    const onExit = () => this.killAllSync();
    process.on('exit', onExit);
    this._register(toDisposable(() => process.off('exit', onExit)));
  }

  /** `workersOnRecord`: the registry named workers at activation. `core` loads dist/core.js (the constructor's). */
  private async offerSurvivors(workersOnRecord: boolean, core: () => typeof import('../core/index')): Promise<unknown> {
    // Most activations have nothing to offer: the core is loaded only when the registry names
    // a worker at all.
    if (!workersOnRecord) return 'none';
    try {
      const { findSurvivors, stopSurvivors } = core();
      return await offerSurvivorStop(this.registryFile, {
        find: findSurvivors,
        stop: stopSurvivors,
        ask: (message, ...buttons) => Promise.resolve(vscode.window.showWarningMessage(message, ...buttons)),
        tell: (message, isError) => void (isError ? vscode.window.showErrorMessage(message) : vscode.window.showInformationMessage(message)),
        log: (message) => this.log.info(message),
      });
    } catch (error) {
      this.log.error(`could not check for workers left by an earlier window: ${(error as Error).message}`);
      return 'none';
    }
  }

  get settings(): Settings {
    return this.current;
  }

  private workerName(workerId: string): string {
    const s = this.supervisor.state(workerId);
    return s.status === 'not_found' ? workerId : s.state.name;
  }

  private readSettings(report: boolean): Settings {
    const { settings, errors, warnings } = readConfiguration(this.declaredSettings);
    const shown = newSettingErrors(this.settingErrors, errors);
    this.settingErrors = errors;
    if (report) for (const e of errors) this.log.error(e);
    if (report) for (const w of warnings) this.log.warn(w);
    // Notified once: a change of another setting does not show the standing ones again.
    if (report && shown.length) {
      void vscode.window.showErrorMessage(settingsMessage(shown), 'Open Settings')
        .then((c) => c && vscode.commands.executeCommand('workbench.action.openSettings', settingsQuery(shown)));
    }
    return settings;
  }

  /**
   * SIGKILL every live worker and everything below it, synchronously (for process exit, when
   * there is no time for the host's graceful stop). Returns how many processes were signalled.
   */
  killAllSync(): number {
    const live = this.supervisor.list().filter((s) => s.pid !== null && (s.status === 'running' || s.status === 'starting'));
    if (live.length === 0) return 0;
    if (process.platform === 'win32') {
      for (const s of live) { try { process.kill(s.pid!, 'SIGKILL'); } catch { /* gone */ } }
      return live.length;
    }
    return killChildTreesSync(live.map((s) => s.pid!));
  }

  async shutdown(): Promise<void> {
    try {
      this.past.markRunningInterrupted();
      await this.supervisor.dispose();
      // What the launch gate kept as the last worker stopped ("no worker runs") is written only
      // if deactivate() waits for it.
      await this.launchConfig.saved();
    } finally {
      this.dispose();
    }
  }
}

function registryNamesWorkers(file: string): boolean {
  // Each host writes a file of its own in `<file>.d` (see survivors.ts), only while it has workers.
  try {
    if (readdirSync(`${file}.d`).some((n) => n.endsWith('.json'))) return true;
  } catch {
    // None has.
  }
  // An older version's shared file.
  try {
    const workers = (JSON.parse(readFileSync(file, 'utf8')) as { workers?: unknown }).workers;
    return Array.isArray(workers) && workers.length > 0;
  } catch {
    return false;
  }
}

let current: RpcWorkersExtension | undefined;

export type ExtensionApi = RpcWorkersApi & { readonly __ui: RpcWorkersExtension; readonly __deactivate: () => Promise<void> };

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const ext = new RpcWorkersExtension(context);
  current = ext;
  const api = createApi(ext.supervisor, { trusted: () => trustState.isTrusted(), untrustedError: UNTRUSTED_REFUSAL, confirmLaunch: () => ext.launchConfig.confirm(true) });
  // Not enumerable: other extensions see the host API; the host tests can still reach the parts.
  Object.defineProperty(api, '__ui', { value: ext, enumerable: false });
  Object.defineProperty(api, '__deactivate', { value: deactivate, enumerable: false });
  return api as ExtensionApi;
}

export async function deactivate(): Promise<void> {
  const ext = current;
  current = undefined;
  await ext?.shutdown();
}
