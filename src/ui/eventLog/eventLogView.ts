// The event log's host side: a WebviewView in the RPC Workers container that follows the
// selected worker, and editor panels fixed to one worker. Each webview is fed from the host's
// bounded event store when it (re)loads and then live, in batches; every message it sends is
// validated before anything acts on it.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { Supervisor, WorkerState } from '../../core/api';
import type { AttentionInfo } from '../../core/attention/attention';
import type { AgentEvent } from '../../core/events/agentEvent';
import { COMMANDS } from '../commands/ids';
import { logWorkerList } from '../views/describe';
import { Disposable, toDisposable } from '../disposable';
import { throttle } from '../throttle';
import { hostMessageSchema, slimEvent, webviewMessageSchema, type HostMessage, type WebviewMessage, type PageEvent, type WorkerView } from '../../protocol/messages';
import type { WorkerSelection } from '../views/workerSelection';
import { eventLogHtml, webviewOptions } from './html';
import { toWorkerView } from './workerView';

export const EVENT_LOG_VIEW = 'rpcWorkers.eventLog';
/** Live events are sent at most this often, or as soon as this many are waiting. */
export const FLUSH_MS = 50;
export const FLUSH_EVENTS = 1000;
/**
 * Messages posted to a page and not yet delivered (its postMessage promise): the rest wait here,
 * in order. A flood posted at once queues megabytes on the channel every extension shares with
 * the workbench, which then calls the extension host unresponsive while it drains.
 */
export const MAX_IN_FLIGHT = 4;
/** Replay of the store goes out in messages of this many events. */
export const REPLAY_CHUNK = 1000;
/**
 * A page whose script or styles failed to load says so (html.ts) and is given its page again, up
 * to START_RELOADS times, after RELOAD_DELAY_MS and then twice the last wait. In a browser
 * workbench (code-server) every webview registers its own service worker on one shared origin; a
 * webview whose page loads while another one's worker takes over is left without a worker, so its
 * script and styles fail to load and it would stay blank. Loaded again, it gets them. The page
 * reports the failure itself, so a host too busy to hear `ready` in time reloads nothing.
 */
export const START_RELOADS = 4;
export const RELOAD_DELAY_MS = 250;
/** Failures this far apart are counted afresh (a page's files fail before or after its `ready`). */
const FAILURES_WINDOW_MS = 60_000;
/**
 * A page can also fail before any of it runs (its document itself is not served), and then says
 * nothing at all. A running page's load guard says `loading` first thing, before any file loads,
 * so a slow page is not mistaken for it. One on screen that has said nothing this long after it
 * was loaded is treated as failed, unless the extension host was busy for most of the wait: then
 * what the page said may simply not have been read yet, and the wait starts again.
 */
export const SILENT_WAIT_MS = 4000;
const BUSY_HOST = 0.5;
const RETIRED_KEPT = 8;

interface Retired { state: WorkerState; events: AgentEvent[] }

/** Statistics a test reads to see batching at work. */
export interface LogStats {
  posted: number; eventsPosted: number; invalidFromWebview: number;
  /** The most messages that were posted and not yet delivered at once (bounded by MAX_IN_FLIGHT). */
  maxInFlight: number; lastInvalid: string | null; received: WebviewMessage['type'][];
  /** How many times the page was given its HTML (more than once: it could not load, see START_RELOADS). */
  loads: number;
  rendered: Extract<WebviewMessage, { type: 'rendered' }> | null;
}

/** One webview showing one worker's log at a time. */
export class LogSession extends Disposable {
  workerId: string | undefined;
  /** The editor tab it lives in (none for the sidebar view). */
  panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private buffer: PageEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Messages waiting for one in flight to be delivered (see MAX_IN_FLIGHT); this page's only. */
  private outbox: HostMessage[] = [];
  private inFlight = 0;
  /** Counts page loads, so a delivery to an earlier page does not free a slot of this one. */
  private generation = 0;
  /** The reload after a page said it could not load, and how many reloads it took so far. */
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private reloads = 0;
  /** Waits for a word from a page on screen (see SILENT_WAIT_MS); anything the page says ends it. */
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;
  /** The page loaded last has run (its load guard said `loading`, or it said `ready` or `loadFailed`). */
  private heard = false;
  /** The page was given up on (START_RELOADS), and the person told once. */
  private gaveUp = false;
  private lastFailureAt = 0;
  /** The attention the page was last told (so a change the state already carried is not sent twice). */
  private shownAttention: WorkerView['attention'];
  readonly stats: LogStats = { posted: 0, eventsPosted: 0, invalidFromWebview: 0, maxInFlight: 0, lastInvalid: null, received: [], rendered: null, loads: 0 };
  private readonly workersUpdate = throttle(() => this.postWorkers(), 200);
  private readonly _onDidReceive = this._register(new vscode.EventEmitter<WebviewMessage>());
  readonly onDidReceive = this._onDidReceive.event;

  /** `visible`: whether the webview is on screen (a page off screen is not loaded, and says nothing). */
  constructor(readonly webview: vscode.Webview, private readonly log: EventLog, readonly fixed: boolean, private readonly visible: () => boolean) {
    super();
    this._register(this.workersUpdate);
    this._register(webview.onDidReceiveMessage((raw) => this.receive(raw)));
    this._register(toDisposable(() => { clearTimeout(this.timer); clearTimeout(this.reloadTimer); clearTimeout(this.silenceTimer); }));
  }

  /** Give the webview its page (`html`: another page, for a test of a page that cannot load). */
  load(html = eventLogHtml(this.webview, this.log.extensionUri)): void {
    this.unload();
    this.stats.loads++;
    this.webview.html = html;
    this.watch();
  }

  /**
   * The page is (back) on screen. VS Code loads a hidden webview's page again when it is shown,
   * and that page says `loading` and `ready`; but a tab is also reported hidden for a moment while
   * the editor layout splits, and then its page lives on, having missed what came meanwhile. It
   * is asked: a living page says `ready` again, and is sent the log afresh.
   */
  shown(): void {
    if (this.watch()) void this.webview.postMessage({ type: 'ping' } satisfies HostMessage);
  }

  /** Waits for a word from the page on screen (see SILENT_WAIT_MS); false if none is awaited (heard, waited for already, off screen). */
  private watch(): boolean {
    if (this.heard || this.silenceTimer || !this.visible()) return false;
    this.awaitWord(performance.eventLoopUtilization());
    return true;
  }

  private stopWatching(): void {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = undefined;
  }

  private awaitWord(since: EventLoopUtilization): void {
    this.silenceTimer = setTimeout(() => {
      this.silenceTimer = undefined;
      if (this.isDisposed || !this.visible()) return;
      if (performance.eventLoopUtilization(since).utilization > BUSY_HOST) this.awaitWord(performance.eventLoopUtilization());
      else this.loadFailed('its page: nothing of it ran');
    }, SILENT_WAIT_MS);
  }

  /** The page said a script or stylesheet of its own did not load, or nothing of it ran (see START_RELOADS). */
  private loadFailed(what: string): void {
    if (this.reloadTimer) return;
    const now = Date.now();
    if (now - this.lastFailureAt > FAILURES_WINDOW_MS) {
      this.reloads = 0;
      this.gaveUp = false;
    }
    this.lastFailureAt = now;
    const who = this.workerId ? ` for ${this.log.label(this.workerId) ?? this.workerId}` : '';
    if (this.reloads >= START_RELOADS) {
      if (this.gaveUp) return;
      this.gaveUp = true;
      const again = this.panel ? 'Close its tab and open it again' : 'Hide the Event Log view and show it again';
      const message = `The event log${who} could not load its page (${what}) after ${this.reloads + 1} tries. ${again}.`;
      console.warn(`[rpc-workers] ${message}`);
      void vscode.window.showWarningMessage(message);
      return;
    }
    const wait = RELOAD_DELAY_MS * 2 ** this.reloads;
    this.reloads++;
    console.warn(`[rpc-workers] the event log page${who} could not load ${what}; loading it again in ${wait} ms (${this.reloads} of ${START_RELOADS})`);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = undefined;
      if (!this.isDisposed) this.load();
    }, wait);
  }

  setWorker(workerId: string | undefined): void {
    if (workerId === this.workerId) return;
    this.workerId = workerId;
    this.log.lookingChanged();
    if (this.ready) this.replay();
  }

  /** Show the log again from the start (what it holds changed, not only what came after). */
  reload(): void {
    if (this.ready) this.replay();
  }

  /** The webview went away (hidden): it reloads and says `ready` when shown again. */
  unload(): void {
    this.ready = false;
    this.buffer = [];
    this.outbox = [];
    this.inFlight = 0;
    this.generation++;
    this.stopWatching();
    this.heard = false;
  }

  onEvent(workerId: string, event: AgentEvent): void {
    if (!this.ready || workerId !== this.workerId) return;
    this.buffer.push(slimEvent(event as unknown as { type: string; timestamp: number }));
    if (this.buffer.length >= FLUSH_EVENTS) this.flush();
    else if (!this.timer) this.timer = setTimeout(() => this.flush(), FLUSH_MS);
  }

  onState(state: WorkerState): void {
    if (!this.ready) return;
    this.workersUpdate.schedule();
    if (state.workerId !== this.workerId) return;
    this.postState(this.log.pageView(state));
  }

  /** The worker's attention changed with no new state (the person looked): the chip says it. */
  attentionChanged(workerId: string, state: WorkerState): void {
    if (!this.ready || workerId !== this.workerId) return;
    const view = this.log.pageView(state);
    if (view.attention !== this.shownAttention) this.postState(view);
  }

  private postState(view: WorkerView): void {
    // Events that came before this state change go first.
    this.flush();
    this.shownAttention = view.attention;
    this.post({ type: 'state', worker: view });
  }

  prefill(workerId: string, text: string): void {
    if (this.ready && workerId === this.workerId) this.post({ type: 'prefill', workerId, text });
  }

  result(workerId: string, r: { action: string; status: string; message: string; tone: 'ok' | 'info' | 'error'; own: boolean }): void {
    if (this.ready && workerId === this.workerId) this.post({ type: 'result', workerId, ...r });
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.buffer.length || !this.workerId) return;
    const events = this.buffer;
    this.buffer = [];
    this.post({ type: 'events', workerId: this.workerId, events });
  }

  private replay(): void {
    this.buffer = [];
    // What waits to be sent is superseded by the reset (the page's composer starts afresh too).
    this.outbox = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const id = this.workerId;
    const found = id ? this.log.lookup(id) : undefined;
    const worker = found ? (found.note ? { ...toWorkerView(found.state), note: found.note } : this.log.pageView(found.state)) : null;
    this.shownAttention = worker?.attention;
    this.post({ type: 'reset', worker, evicted: found?.evicted ?? 0, storeLimit: this.log.storeLimit });
    this.postWorkers();
    if (!id || !found) return;
    const events = found.events;
    for (let i = 0; i < events.length; i += REPLAY_CHUNK) {
      this.post({ type: 'events', workerId: id, events: events.slice(i, i + REPLAY_CHUNK).map((e) => slimEvent(e as unknown as { type: string; timestamp: number })) });
    }
  }

  private postWorkers(): void {
    if (!this.ready) return;
    const list = this.log.workerList(this.workerId);
    this.post({ type: 'workers', workers: list, selected: this.workerId ?? null });
  }

  private post(message: HostMessage): void {
    this.outbox.push(message);
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.outbox.length) {
      const message = this.outbox.shift()!;
      this.stats.posted++;
      if (message.type === 'events') this.stats.eventsPosted += message.events.length;
      this.inFlight++;
      this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.inFlight);
      const generation = this.generation;
      const delivered = () => {
        if (generation !== this.generation || this.isDisposed) return;
        this.inFlight--;
        this.pump();
      };
      this.webview.postMessage(message).then(delivered, delivered);
    }
  }

  private receive(raw: unknown): void {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.stats.invalidFromWebview++;
      this.stats.lastInvalid = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      console.warn(`[rpc-workers] ignored an invalid message from the event log webview: ${this.stats.lastInvalid}`);
      return;
    }
    const msg = parsed.data;
    // Only the page's own start words: a late `rendered` of the page before would hide this one's silence.
    if (msg.type === 'loading' || msg.type === 'ready' || msg.type === 'loadFailed') {
      this.heard = true;
      this.stopWatching();
    }
    if (msg.type === 'rendered') {
      this.stats.rendered = msg;
      this._onDidReceive.fire(msg);
      return;
    }
    this.stats.received.push(msg.type);
    if (msg.type === 'loading') {
      // Its document runs; its files may still fail (loadFailed) or it says ready.
    } else if (msg.type === 'ready') {
      this.ready = true;
      this.replay();
    } else if (msg.type === 'loadFailed') {
      this.loadFailed(msg.what);
    } else if (msg.type === 'selectWorker') {
      if (this.fixed) this.setWorker(msg.workerId);
      else this.log.selection.set(msg.workerId);
    } else {
      void this.log.act(msg);
    }
    this._onDidReceive.fire(msg);
  }
}

export class EventLog extends Disposable implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private viewSession: LogSession | undefined;
  private readonly panels = new Set<LogSession>();
  private readonly retired = new Map<string, Retired>();
  /** Past sessions' logs, read back from the history (read-only: no worker behind them). */
  private readonly past = new Map<string, Retired & { note: string }>();
  /** Events of the sessions a worker resumed: its log shows them before its own. */
  private readonly earlier = new Map<string, AgentEvent[]>();
  private readonly _onDidResolve = this._register(new vscode.EventEmitter<LogSession>());
  /** Fires when the view's webview exists (tests wait for it). */
  readonly onDidResolve = this._onDidResolve.event;
  private readonly _onDidChangeLooking = this._register(new vscode.EventEmitter<void>());
  /** Which workers' logs are in view changed (a tab shown or hidden, the view's worker changed). */
  readonly onDidChangeLooking = this._onDidChangeLooking.event;

  constructor(private readonly host: Supervisor, readonly extensionUri: vscode.Uri, readonly selection: WorkerSelection) {
    super();
    this._register(vscode.window.registerWebviewViewProvider(EVENT_LOG_VIEW, this));
    this._register(toDisposable(host.onEvent((id, e) => this.each((s) => s.onEvent(id, e)))));
    this._register(toDisposable(host.onState((state) => {
      if (state.status === 'stopped' || state.status === 'exited' || state.status === 'failed') this.retire(state);
      this.each((s) => s.onState(state));
    })));
    this._register(selection.onDidChange((id) => this.viewSession?.setWorker(id)));
    this._register({ dispose: () => { for (const p of this.panels) p.dispose(); this.viewSession?.dispose(); } });
  }

  /** Each worker's attention, as the Sessions view shows it (set by the attention room, which is built after the log). */
  attentionOf: (state: WorkerState) => AttentionInfo | null = () => null;

  /** A worker as the page gets it, with its attention. */
  pageView(state: WorkerState): WorkerView {
    return toWorkerView(state, this.attentionOf(state));
  }

  /** A worker's attention changed: the pages showing it say so. */
  attentionChanged(workerId: string): void {
    const state = this.past.has(workerId) ? undefined : this.stateOf(workerId);
    if (state) this.each((s) => s.attentionChanged(workerId, state));
  }

  get storeLimit(): number {
    return this.host.limits.eventStoreSize;
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
    const session = new LogSession(view.webview, this, false, () => view.visible);
    this.viewSession = session;
    session.setWorker(this.selection.current ?? this.host.list()[0]?.workerId);
    session.load();
    view.onDidChangeVisibility(() => { if (view.visible) session.shown(); else session.unload(); this.lookingChanged(); });
    view.onDidDispose(() => {
      if (this.viewSession === session) this.viewSession = undefined;
      this.view = undefined;
      session.dispose();
    });
    this._onDidResolve.fire(session);
  }

  /** Show the view (for a worker, when given). */
  async show(workerId: string | undefined, preserveFocus: boolean): Promise<void> {
    if (workerId) this.selection.set(workerId);
    if (this.view) {
      this.view.show(preserveFocus);
      return;
    }
    await vscode.commands.executeCommand(`${EVENT_LOG_VIEW}.focus`, { preserveFocus });
  }

  openPanel(workerId: string): LogSession {
    // One tab per worker: a second open shows the tab it has.
    const open = [...this.panels].find((p) => p.fixed && p.workerId === workerId && p.panel);
    if (open) { open.panel!.reveal(undefined, false); return open; }
    const name = this.stateOf(workerId)?.name ?? workerId;
    const panel = vscode.window.createWebviewPanel('rpcWorkers.eventLogPanel', `Event Log: ${name}`, vscode.ViewColumn.Beside, { ...webviewOptions(this.extensionUri), retainContextWhenHidden: false });
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'rpc-workers.svg');
    const session = new LogSession(panel.webview, this, true, () => panel.visible);
    session.panel = panel;
    session.setWorker(workerId);
    this.panels.add(session);
    session.load();
    panel.onDidChangeViewState(() => { if (panel.visible) session.shown(); else session.unload(); this.lookingChanged(); });
    panel.onDidDispose(() => {
      this.panels.delete(session);
      session.dispose();
      this.lookingChanged();
    });
    this._onDidOpenPanel.fire(session);
    return session;
  }

  private readonly _onDidOpenPanel = this._register(new vscode.EventEmitter<LogSession>());
  /** A worker's log opened in an editor tab (the attention room titles it). */
  readonly onDidOpenPanel = this._onDidOpenPanel.event;

  /** The workers whose log is on screen now: the view's, if it is visible, and each visible tab's. */
  visibleWorkers(): Set<string> {
    const out = new Set<string>();
    if (this.view?.visible && this.viewSession?.workerId) out.add(this.viewSession.workerId);
    for (const p of this.panels) if (p.panel?.visible && p.workerId) out.add(p.workerId);
    return out;
  }

  lookingChanged(): void {
    this._onDidChangeLooking.fire();
  }

  /** pi's set_editor_text lands in the composer. */
  prefill(workerId: string, text: string): void {
    this.each((s) => s.prefill(workerId, text));
  }

  /** A worker's state (a past session's, live, or stopped and kept), without reading its events, which decodes the store. */
  stateOf(workerId: string): WorkerState | undefined {
    const p = this.past.get(workerId);
    if (p) return p.state;
    const st = this.host.state(workerId);
    return st.status !== 'not_found' ? st.state : this.retired.get(workerId)?.state;
  }

  lookup(workerId: string): { state: WorkerState; events: AgentEvent[]; evicted: number; note?: string } | undefined {
    const p = this.past.get(workerId);
    if (p) return { state: p.state, events: p.events, evicted: 0, note: p.note };
    const st = this.host.state(workerId);
    const earlier = this.earlier.get(workerId) ?? [];
    if (st.status !== 'not_found') {
      const events = this.host.events(workerId);
      return { state: st.state, events: earlier.length ? [...earlier, ...events] : events, evicted: events.length >= this.storeLimit ? 1 : 0 };
    }
    const r = this.retired.get(workerId);
    return r ? { state: r.state, events: earlier.length ? [...earlier, ...r.events] : r.events, evicted: r.events.length >= this.storeLimit ? 1 : 0 } : undefined;
  }

  /** Open a past session's log in a panel: the persisted events through the same page model as live ones. */
  openPast(key: string, state: WorkerState, events: AgentEvent[], note: string): LogSession {
    this.past.delete(key);
    this.past.set(key, { state, events, note });
    while (this.past.size > RETIRED_KEPT) this.past.delete(this.past.keys().next().value!);
    return this.openPanel(key);
  }

  /** The log shown under this key is a past session's (read-only), not a worker's. */
  isPast(key: string): boolean {
    return this.past.has(key);
  }

  /** A worker resumed a past session: its log starts with that session's events. */
  setEarlier(workerId: string, events: AgentEvent[]): void {
    this.earlier.set(workerId, events);
    while (this.earlier.size > RETIRED_KEPT) this.earlier.delete(this.earlier.keys().next().value!);
    this.each((s) => { if (s.workerId === workerId) s.reload(); });
  }

  /** Live workers and the stopped ones whose logs are kept, each under its one name. */
  workerList(shown?: string): Array<{ workerId: string; name: string; status: string }> {
    const live: Array<{ workerId: string; name: string; status: string }> = this.host.list().map((s) => ({ workerId: s.workerId, name: s.name, status: s.status }));
    const past = shown !== undefined ? this.past.get(shown) : undefined;
    if (past) live.push({ workerId: shown!, name: past.state.name, status: 'history' });
    // A past session whose worker this window still keeps is that worker: listed once (names are unique).
    const retired = [...this.retired.values()].reverse().filter((r) => r.state.name !== past?.state.name).map((r) => ({ workerId: r.state.workerId, name: r.state.name, status: r.state.status }));
    return logWorkerList(live, retired);
  }

  /** A worker's name as lists show it. */
  label(workerId: string): string | undefined {
    return this.workerList().find((w) => w.workerId === workerId)?.name;
  }

  /** What came of an action on a worker, for the composers showing it. */
  result(workerId: string, action: string, status: string, message: string, tone: 'ok' | 'info' | 'error', own: boolean): void {
    this.each((s) => s.result(workerId, { action, status, message, tone, own }));
  }

  private retire(state: WorkerState): void {
    // Kept so that a stopped worker's log can still be shown after the host forgets it.
    this.retired.set(state.workerId, { state, events: this.host.events(state.workerId) });
    while (this.retired.size > RETIRED_KEPT) this.retired.delete(this.retired.keys().next().value!);
  }

  private each(fn: (s: LogSession) => void): void {
    if (this.viewSession) fn(this.viewSession);
    for (const p of this.panels) fn(p);
  }

  /**
   * The composer's buttons go through the same commands as the palette, with source event-log;
   * the commands report the result to the composer (see Commands.show).
   */
  async act(msg: Exclude<WebviewMessage, { type: 'ready' | 'loading' | 'loadFailed' | 'selectWorker' | 'rendered' }>): Promise<void> {
    const base = { workerId: msg.workerId, source: 'event-log', submitter: 'user' };
    switch (msg.type) {
      case 'send': {
        const cmd = msg.mode === 'prompt' ? COMMANDS.prompt : msg.mode === 'steer' ? COMMANDS.steer : COMMANDS.followUp;
        await vscode.commands.executeCommand(cmd, { ...base, message: msg.text });
        break;
      }
      case 'redirect': await vscode.commands.executeCommand(COMMANDS.redirect, { ...base, message: msg.text }); break;
      case 'abort': await vscode.commands.executeCommand(COMMANDS.abort, base); break;
      case 'compact': await vscode.commands.executeCommand(COMMANDS.compact, base); break;
      case 'stop': await vscode.commands.executeCommand(COMMANDS.stop, base); break;
      case 'openChange': await vscode.commands.executeCommand(COMMANDS.openChange, { path: msg.path, oldText: msg.oldText, newText: msg.newText }); break;
    }
  }
}

// Exported for tests that check a message before it is posted.
export const validateHostMessage = (m: unknown) => hostMessageSchema.safeParse(m);
