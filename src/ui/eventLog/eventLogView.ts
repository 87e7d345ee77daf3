// The event log's host side: a WebviewView in the RPC Workers container that follows the
// selected worker, and editor tabs fixed to one worker, each page a LogSession (logSession.ts).
// Here: which pages there are, what they are told of every worker, the logs kept with no worker
// behind them (logArchive.ts), and the composers' requests, which go through the same commands as
// the palette and are answered to the page that asked.
import * as vscode from 'vscode';
import type { Supervisor, WorkerState } from '../../core/api';
import type { AttentionInfo } from '../../core/attention/attention';
import type { AgentEvent } from '../../core/events/agentEvent';
import { COMMANDS } from '../commands/ids';
import { resultSentence } from '../commands/resultWords';
import { logWorkerList } from '../views/describe';
import { isTrusted } from '../settings/trust';
import { Disposable, toDisposable } from '../disposable';
import type { WorkerView } from '../../protocol/messages';
import type { WorkerSelection } from '../views/workerSelection';
import { webviewOptions } from './html';
import { LogArchive, type LogContents } from './logArchive';
import { LogSession, type LogHost } from './logSession';
import { OpenTabs } from './openTabs';
import type { PastLog } from './pastLog';
import { readPastPage, type PastPageRead } from './pastPages';
import type { PageMessage, PageRequest } from './pageChannel';
import { toWorkerView } from './workerView';
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazySchema';

/** The editor-tab log's webview type (package.json activates on it to bring tabs back). */
export const EVENT_LOG_PANEL = 'rpcWorkers.eventLogPanel';
/** What the page keeps in its state that the host reads back (the rest is the page's own). */
const savedPageSchema = lazySchema(() => z.object({ shows: z.optional(z.nullable(z.string())) }));

export const EVENT_LOG_VIEW = 'rpcWorkers.eventLog';

/** What a command says of an action, for the composers showing its worker. */
export interface ActionResult {
  action: string;
  status: string;
  message: string;
  tone: 'ok' | 'info' | 'error';
  /** An extension of the worker consumed the message (pi 1.x): the composer awaits no delivery. */
  handled?: true;
}

export interface EventLogOptions {
  supervisor: Supervisor;
  extensionUri: vscode.Uri;
  selection: WorkerSelection;
  /** The extension's log (warnings about pages). */
  log: vscode.LogOutputChannel;
  /** Each worker's attention, as the Sessions view shows it (from the attention room). */
  attentionOf?: (state: WorkerState) => AttentionInfo | null;
  /** What a restored tab's saved worker or session is now: a key to show, or null (see restore). */
  restorer?: (shows: string) => Promise<string | null>;
  /** Where the open tabs are recorded, for a tab that comes back without its page's state (the workspace's state). */
  tabRecord?: vscode.Memento;
}

export class EventLog extends Disposable implements vscode.WebviewViewProvider, LogHost {
  readonly extensionUri: vscode.Uri;
  readonly selection: WorkerSelection;
  private readonly supervisor: Supervisor;
  private readonly log: vscode.LogOutputChannel;
  private view: vscode.WebviewView | undefined;
  private viewSession: LogSession | undefined;
  private readonly panels = new Set<LogSession>();
  private readonly archive: LogArchive;
  private readonly tabs: OpenTabs;
  /** The composers' requests on their way through a command: the reply address each result is said to. */
  private readonly asking = new Map<string, { from: LogSession; req: number; answered: boolean }>();
  private nextAsk = 0;
  private readonly _onDidResolve = this._register(new vscode.EventEmitter<LogSession>());
  /** Fires when the view's webview exists (tests wait for it). */
  readonly onDidResolve = this._onDidResolve.event;
  private readonly _onDidChangeLooking = this._register(new vscode.EventEmitter<void>());
  /** Which workers' logs are in view changed (a tab shown or hidden, the view's worker changed). */
  readonly onDidChangeLooking = this._onDidChangeLooking.event;
  private readonly _onDidOpenPanel = this._register(new vscode.EventEmitter<LogSession>());
  /** A worker's log opened in an editor tab (the attention room titles it). */
  readonly onDidOpenPanel = this._onDidOpenPanel.event;

  constructor(o: EventLogOptions) {
    super();
    this.supervisor = o.supervisor;
    this.extensionUri = o.extensionUri;
    this.selection = o.selection;
    this.log = o.log;
    this.attentionOf = o.attentionOf ?? (() => null);
    this.restorer = o.restorer ?? (() => Promise.resolve(null));
    this.archive = new LogArchive(o.supervisor, (key) => this.viewSession?.workerId === key || [...this.panels].some((p) => p.workerId === key));
    this.tabs = new OpenTabs(o.tabRecord);
    this._register(vscode.window.registerWebviewViewProvider(EVENT_LOG_VIEW, this));
    this._register(vscode.window.registerWebviewPanelSerializer(EVENT_LOG_PANEL, { deserializeWebviewPanel: (panel, state) => this.restore(panel, state).then(() => undefined) }));
    this._register(toDisposable(o.supervisor.onEvent((id, e) => this.each((s) => s.onEvent(id, e)))));
    this._register(
      toDisposable(
        o.supervisor.onState((state) => {
          if (state.status === 'stopped' || state.status === 'exited' || state.status === 'failed') this.archive.retire(state);
          this.each((s) => s.onState(state));
        }),
      ),
    );
    this._register(o.selection.onDidChange((id) => this.viewSession?.setWorker(id)));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.each((s) => s.trustGranted())));
    this._register({
      dispose: () => {
        for (const p of this.panels) p.dispose();
        this.viewSession?.dispose();
      },
    });
  }

  /** Each worker's attention, as the Sessions view shows it (none until the attention room gives it). */
  private readonly attentionOf: (state: WorkerState) => AttentionInfo | null;

  /** A worker as the page gets it, with its attention. */
  pageView(state: WorkerState): WorkerView {
    return toWorkerView(state, this.attentionOf(state));
  }

  /** A worker's attention changed: the pages showing it say so. */
  attentionChanged(workerId: string): void {
    const state = this.archive.isPast(workerId) ? undefined : this.stateOf(workerId);
    if (state) this.each((s) => s.attentionChanged(workerId, state));
  }

  get storeLimit(): number {
    return this.supervisor.limits.eventStoreSize;
  }

  /** The session of the sidebar view, once it is resolved. */
  get session(): LogSession | undefined {
    return this.viewSession;
  }

  get panelSessions(): LogSession[] {
    return [...this.panels];
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = webviewOptions(this.extensionUri);
    this.viewSession?.dispose();
    const session = new LogSession({ webview: view.webview, log: this, fixed: false, visible: () => view.visible });
    this.viewSession = session;
    session.setWorker(this.selection.current ?? this.supervisor.list()[0]?.workerId);
    session.load();
    view.onDidChangeVisibility(() => {
      if (view.visible) session.shown();
      else session.unload();
      this.lookingChanged();
    });
    view.onDidDispose(() => {
      if (this.viewSession === session) this.viewSession = undefined;
      this.view = undefined;
      session.dispose();
    });
    this._onDidResolve.fire(session);
  }

  /** Show the view (for a worker, when given). */
  async show(workerId: string | undefined, how: { preserveFocus: boolean }): Promise<void> {
    if (workerId) this.selection.set(workerId);
    if (this.view) {
      this.view.show(how.preserveFocus);
      return;
    }
    await vscode.commands.executeCommand(`${EVENT_LOG_VIEW}.focus`, { preserveFocus: how.preserveFocus });
  }

  openPanel(workerId: string): LogSession {
    // One tab per worker: a second open shows the tab it has.
    const open = [...this.panels].find((p) => p.fixed && p.workerId === workerId && p.panel);
    if (open) {
      open.panel!.reveal(undefined, false);
      return open;
    }
    const panel = vscode.window.createWebviewPanel(EVENT_LOG_PANEL, `Event Log: ${this.stateOf(workerId)?.name ?? workerId}`, vscode.ViewColumn.Beside, {
      ...webviewOptions(this.extensionUri),
      retainContextWhenHidden: false,
    });
    return this.adopt(panel, workerId);
  }

  /**
   * A log tab VS Code brought back after a reload: its page's state names the worker (or past
   * session) it showed, or, when its page had saved none, the host's record does (openTabs.ts);
   * `restorer` says what that is now (the resumed worker, or the past session read-only). A tab
   * whose log is gone closes.
   */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<LogSession | undefined> {
    const parsed = savedPageSchema.safeParse(state);
    const saved = parsed.success ? (parsed.data.shows ?? undefined) : undefined;
    if (saved) this.tabs.claim(saved);
    const shows = saved ?? this.tabs.takeUnclaimed();
    if (shows && !saved) this.log.info(`a log tab came back without its page's state: it showed ${shows}, by the record of open tabs`);
    const key = shows
      ? await this.restorer(shows).catch((e: Error) => {
          this.log.warn(`could not bring back the log tab of ${shows}: ${e.message}`);
          return null;
        })
      : null;
    if (!key || [...this.panels].some((p) => p.workerId === key && p.panel)) {
      // Said, not only done: a tab that vanishes at a reload is otherwise a mystery.
      this.log.info(
        shows
          ? `the log tab of ${shows} was closed after the reload: ${key ? 'another tab shows it' : 'its log is gone'}`
          : 'a log tab came back after the reload with no record of what it showed: closed',
      );
      panel.dispose();
      return undefined;
    }
    panel.webview.options = webviewOptions(this.extensionUri);
    panel.title = `Event Log: ${this.stateOf(key)?.name ?? key}`;
    return this.adopt(panel, key);
  }

  private readonly restorer: (shows: string) => Promise<string | null>;

  private adopt(panel: vscode.WebviewPanel, workerId: string): LogSession {
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'rpc-workers.svg');
    const session = new LogSession({ webview: panel.webview, log: this, fixed: true, visible: () => panel.visible, panel });
    session.setWorker(workerId);
    this.panels.add(session);
    this.lookingChanged();
    session.load();
    panel.onDidChangeViewState(() => {
      if (panel.visible) session.shown();
      else session.unload();
      this.lookingChanged();
    });
    panel.onDidDispose(() => {
      this.panels.delete(session);
      session.dispose();
      this.lookingChanged();
    });
    this._onDidOpenPanel.fire(session);
    return session;
  }

  /** The workers whose log is on screen now: the view's, if it is visible, and each visible tab's. */
  visibleWorkers(): Set<string> {
    const out = new Set<string>();
    if (this.view?.visible && this.viewSession?.workerId) out.add(this.viewSession.workerId);
    for (const p of this.panels) if (p.panel?.visible && p.workerId) out.add(p.workerId);
    return out;
  }

  lookingChanged(): void {
    // A tab's worker can change (its picker), so the record follows every change of what is looked at.
    this.tabs.record([...this.panels].flatMap((p) => (p.workerId ? [p.workerId] : [])));
    this._onDidChangeLooking.fire();
  }

  select(workerId: string): void {
    this.selection.set(workerId);
  }

  warn(message: string): void {
    this.log.warn(message);
  }

  /** pi's set_editor_text lands in the composer. */
  prefill(workerId: string, text: string): void {
    this.each((s) => s.prefill(workerId, text));
  }

  /** A worker's state (a past session's, live, or stopped and kept), without reading its events, which decodes the store. */
  stateOf(workerId: string): WorkerState | undefined {
    return this.archive.stateOf(workerId);
  }

  lookup(workerId: string): LogContents | undefined {
    return this.archive.lookup(workerId);
  }

  /** A past session's log, read-only under `key`, for a tab to show: its events through the same page model as live ones. */
  keepPast(key: string, state: WorkerState, events: AgentEvent[] | PastLog, note: string): void {
    this.archive.addPast(key, state, events, note);
  }

  /** The log shown under this key is a past session's (read-only), not a worker's. */
  isPast(key: string): boolean {
    return this.archive.isPast(key);
  }

  /**
   * The page before (`older`), or the newest again, of a log read from the history: a past
   * session's window moves; a resumed worker's earlier sessions are read a page further back.
   */
  async pastPage(from: LogSession, msg: PageMessage<'pastPage'>): Promise<void> {
    let outcome: PastPageRead;
    try {
      outcome = await readPastPage(this.archive, msg.workerId, msg.to);
      if (outcome.read) {
        // The page that asked shows the older entries from the top; another page on the same log
        // (the side bar following the live end) stays at its end.
        this.each((s) => {
          if (s.workerId === msg.workerId) s.reload(s === from && msg.to === 'older');
        });
        return;
      }
    } catch (error) {
      // Whatever threw, the page that asked is not left waiting.
      outcome = { read: false, message: `could not show the page: ${(error as Error).message}`, held: true };
    }
    // Said on the page beside the button that asked, not as a notification: each press would add one.
    this.log.warn(`the Event Log's page of ${this.label(msg.workerId) ?? msg.workerId}: ${outcome.message}`);
    from.pastPageFailed(msg.workerId, msg.to, outcome.message, outcome.held, msg.req);
  }

  /** A worker resumed a past session: its log starts with that session's events. */
  setEarlier(workerId: string, events: AgentEvent[] | PastLog): void {
    this.archive.setEarlier(workerId, events);
    this.each((s) => {
      if (s.workerId === workerId) s.reload();
    });
  }

  /** Live workers and the stopped ones whose logs are kept, each under its one name. */
  trusted(): boolean {
    return isTrusted();
  }

  workerList(shown?: string): Array<{ workerId: string; name: string; status: string }> {
    const live: Array<{ workerId: string; name: string; status: string }> = this.supervisor.list().map((s) => ({ workerId: s.workerId, name: s.name, status: s.status }));
    const past = this.archive.pastEntry(shown);
    if (past) live.push(past);
    // A past session whose worker this window still keeps is that worker: listed once (names are unique).
    return logWorkerList(
      live,
      this.archive.retiredList().filter((r) => r.name !== past?.name),
    );
  }

  /** A worker's name as lists show it. */
  label(workerId: string): string | undefined {
    return this.workerList().find((w) => w.workerId === workerId)?.name;
  }

  /**
   * What came of an action on a worker, for the composers showing it. `reply`: the address of the
   * composer's request it answers (see act); that page is told it is the reply, the others hear news.
   */
  result(workerId: string, r: ActionResult, reply?: string): void {
    const to = reply !== undefined ? this.asking.get(reply) : undefined;
    if (to) to.answered = true;
    this.each((s) => s.result(workerId, r, s === to?.from ? to.req : undefined));
  }

  private each(fn: (s: LogSession) => void): void {
    if (this.viewSession) fn(this.viewSession);
    for (const p of this.panels) fn(p);
  }

  /**
   * The composer's buttons go through the same commands as the palette, with source event-log
   * and the address to answer (`reply`): the command reports its result with it (see Commands.show).
   */
  async act(from: LogSession, msg: PageRequest): Promise<void> {
    const reply = msg.req !== undefined ? `event-log:${++this.nextAsk}` : undefined;
    const asked = { from, req: msg.req!, answered: false };
    if (reply) this.asking.set(reply, asked);
    const action = msg.type === 'send' ? msg.mode : msg.type;
    const base = { workerId: msg.workerId, source: 'event-log', submitter: 'user', ...(reply ? { reply } : {}) };
    try {
      await vscode.commands.executeCommand(COMMAND_OF[action], 'text' in msg ? { ...base, message: msg.text } : base);
    } catch (error) {
      // The command never got to say its result (the core failed to load, the window is closing):
      // unanswered, the page said "sent…" for ever and its message was lost. It is answered as a
      // failure, so the page gives the message back, and the error is kept in the log.
      const detail = error instanceof Error ? error.message : String(error);
      const name = this.label(msg.workerId) ?? 'the worker';
      this.log.error(`the Event Log's ${action} of ${name} went wrong: ${detail}`);
      if (reply && !asked.answered) from.result(msg.workerId, { action, status: 'error', message: resultSentence(action, name, { status: 'error', error: detail }), tone: 'error' }, asked.req);
    } finally {
      if (reply) this.asking.delete(reply);
    }
  }

  /** A host terminal's output (a tool call's Show in Terminal) in a VS Code terminal. */
  async showTerminal(msg: PageMessage<'showTerminal'>): Promise<void> {
    const r = await vscode.commands.executeCommand<{ status: string; error?: string } | undefined>(COMMANDS.showHostTerminal, { workerId: msg.workerId, terminalId: msg.terminalId });
    // The link was on screen, so saying nothing would look like a dead button.
    if (r && r.status !== 'opened') void vscode.window.showWarningMessage(`RPC Workers: ${r.error ?? `could not show the terminal (${r.status})`}`);
  }

  /** A change drawn in a log (a permission question's, a tool's) opened in the diff editor. */
  async openChange(msg: PageMessage<'openChange'>): Promise<void> {
    await vscode.commands.executeCommand(COMMANDS.openChange, { path: msg.path, oldText: msg.oldText, newText: msg.newText });
  }
}

const COMMAND_OF = {
  prompt: COMMANDS.prompt,
  steer: COMMANDS.steer,
  followUp: COMMANDS.followUp,
  redirect: COMMANDS.redirect,
  abort: COMMANDS.abort,
  compact: COMMANDS.compact,
  stop: COMMANDS.stop,
} as const;
