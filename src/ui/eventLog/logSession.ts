// The log of one worker on one page: which worker it follows, its live events in batches, and
// the replay of what the store holds when the page (re)loads or the worker changes. The page
// channel (pageChannel.ts) carries the messages; the page-load policy (pageLoadPolicy.ts) decides
// when a page that could not load is given its page again.
import * as vscode from 'vscode';
import type { WorkerState } from '../../core/api';
import type { AgentEvent } from '../../core/events/agentEvent';
import { slimEvent, type HostMessage, type PageEvent, type WebviewMessage, type WorkerView } from '../../protocol/messages';
import { COMMANDS } from '../commands/ids';
import { Disposable, toDisposable } from '../disposable';
import { throttle } from '../throttle';
import { eventLogHtml } from './html';
import type { LogContents } from './logArchive';
import { PageChannel, type LogStats, type PageMessage, type PageRequest } from './pageChannel';
import { PageLoadPolicy } from './pageLoadPolicy';
import { toWorkerView } from './workerView';

/** Live events are sent at most this often, or as soon as this many are waiting. */
export const FLUSH_MS = 50;
export const FLUSH_EVENTS = 1000;
/** Replay of the store goes out in messages of this many events. */
export const REPLAY_CHUNK = 1000;
/** Replies kept for a page that is not loaded (see LogSession.held). */
export const HELD_REPLIES = 20;

/** What a log's page needs of the event log around it (eventLogView.ts). */
export interface LogHost {
  readonly extensionUri: vscode.Uri;
  readonly storeLimit: number;
  label(workerId: string): string | undefined;
  lookup(workerId: string): LogContents | undefined;
  pageView(state: WorkerState): WorkerView;
  workerList(shown?: string): Array<{ workerId: string; name: string; status: string }>;
  /** Whether workers may start here (an untrusted workspace refuses them). */
  trusted(): boolean;
  /** The sidebar view's page picked a worker: the selection follows it. */
  select(workerId: string): void;
  /** A composer's request: it goes through the commands, and its result is this page's reply. */
  act(from: LogSession, msg: PageRequest): Promise<void>;
  /** A change the page draws, opened in the diff editor (no reply: the editor is the answer). */
  openChange(msg: PageMessage<'openChange'>): Promise<void>;
  /** `from` asked for another page of a log read from the history (the log's pages are then shown it afresh). */
  pastPage(from: LogSession, msg: PageMessage<'pastPage'>): Promise<void>;
  showTerminal(msg: PageMessage<'showTerminal'>): Promise<void>;
  lookingChanged(): void;
  warn(message: string): void;
}

export interface LogSessionOptions {
  webview: vscode.Webview;
  log: LogHost;
  /** Fixed to one worker (an editor tab); otherwise it follows the selection (the sidebar view). */
  fixed: boolean;
  /** Whether the webview is on screen (a page off screen is not loaded, and says nothing). */
  visible: () => boolean;
  /** The editor tab it lives in (none for the sidebar view). */
  panel?: vscode.WebviewPanel;
}

type Result = { action: string; status: string; message: string; tone: 'ok' | 'info' | 'error'; handled?: true };
type ResultMessage = Extract<HostMessage, { type: 'result' }>;

/** One webview showing one worker's log at a time. */
export class LogSession extends Disposable {
  workerId: string | undefined;
  readonly webview: vscode.Webview;
  readonly fixed: boolean;
  readonly panel: vscode.WebviewPanel | undefined;
  readonly channel: PageChannel;
  readonly pageLoad: PageLoadPolicy;
  private readonly log: LogHost;
  private ready = false;
  /**
   * Replies to this page's requests that came while it was not loaded (its tab or the view hidden:
   * VS Code builds its page anew when shown). Its composer keeps what it sent in the page's state,
   * and gives a failed message back from the reply once it is ready again; dropped, a follow-up
   * that waited for its turn and failed meanwhile was lost, with "Follow-up waits…" on the line.
   */
  private held: ResultMessage[] = [];
  private buffer: PageEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The attention the page was last told (so a change the state already carried is not sent twice). */
  private shownAttention: WorkerView['attention'];
  private readonly workersUpdate = throttle(() => this.postWorkers(), 200);
  private readonly _onDidReceive = this._register(new vscode.EventEmitter<WebviewMessage>());
  readonly onDidReceive = this._onDidReceive.event;

  constructor(o: LogSessionOptions) {
    super();
    this.webview = o.webview;
    this.log = o.log;
    this.fixed = o.fixed;
    this.panel = o.panel;
    this.pageLoad = new PageLoadPolicy({
      visible: o.visible,
      reload: () => this.load(),
      warn: (message) => this.log.warn(message),
      giveUp: (message) => void vscode.window.showWarningMessage(message),
      who: () => (this.workerId ? ` for ${this.log.label(this.workerId) ?? this.workerId}` : ''),
      howAgain: () => (this.panel ? 'Close its tab and open it again' : 'Hide the Event Log view and show it again'),
    });
    this.channel = new PageChannel(
      this.webview,
      {
        loading: () => this.pageLoad.heardFromPage(), // its document runs; its files may still fail, or it says ready
        ready: () => {
          this.pageLoad.heardFromPage();
          this.ready = true;
          this.replay();
          this.sayHeld();
        },
        loadFailed: (m) => {
          this.pageLoad.heardFromPage();
          this.pageLoad.failed(m.what);
        },
        selectWorker: (m) => {
          if (this.fixed) this.setWorker(m.workerId);
          else this.log.select(m.workerId);
        },
        send: (m) => void this.log.act(this, m),
        redirect: (m) => void this.log.act(this, m),
        abort: (m) => void this.log.act(this, m),
        compact: (m) => void this.log.act(this, m),
        stop: (m) => void this.log.act(this, m),
        openChange: (m) => void this.log.openChange(m),
        showTerminal: (m) => void this.log.showTerminal(m),
        answerQuestions: () => void vscode.commands.executeCommand(COMMANDS.answerQuestions),
        pastPage: (m) => void this.log.pastPage(this, m),
        rendered: () => {},
      },
      (message) => this.log.warn(message),
      (msg) => this._onDidReceive.fire(msg),
    );
    this._register(this.workersUpdate);
    this._register(this.webview.onDidReceiveMessage((raw) => this.channel.receive(raw)));
    this._register(
      toDisposable(() => {
        clearTimeout(this.timer);
        this.pageLoad.dispose();
        this.channel.close();
      }),
    );
  }

  get stats(): LogStats {
    return this.channel.stats;
  }

  /** Give the webview its page (`html`: another page, for a test of a page that cannot load). */
  load(html = eventLogHtml(this.webview, this.log.extensionUri)): void {
    this.unload();
    this.stats.loads++;
    this.webview.html = html;
    this.pageLoad.watch();
  }

  /**
   * The page is (back) on screen. VS Code loads a hidden webview's page again when it is shown,
   * and that page says `loading` and `ready`; but a tab is also reported hidden for a moment while
   * the editor layout splits, and then its page lives on, having missed what came meanwhile. It
   * is asked: a living page says `ready` again, and is sent the log afresh.
   */
  shown(): void {
    if (this.pageLoad.watch()) void this.webview.postMessage({ type: 'ping' });
  }

  setWorker(workerId: string | undefined): void {
    if (workerId === this.workerId) return;
    this.workerId = workerId;
    this.log.lookingChanged();
    if (this.ready) this.replay();
  }

  /** Show the log again from the start (what it holds changed, not only what came after); `top`: its oldest entries first. */
  reload(top = false): void {
    if (this.ready) this.replay(top);
  }

  /** The webview went away (hidden): it reloads and says `ready` when shown again. */
  unload(): void {
    this.ready = false;
    this.buffer = [];
    // A reply posted and not yet delivered waits for the page too.
    for (const m of this.channel.pageGone()) if (m.seq !== undefined) this.hold(m);
    this.pageLoad.unloaded();
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

  prefill(workerId: string, text: string): void {
    if (this.ready && workerId === this.workerId) this.channel.post({ type: 'prefill', workerId, text });
  }

  /** The page's ask for another page of a past log came to nothing (pastPages.ts): it stops waiting, and says why. */
  pastPageFailed(workerId: string, to: 'older' | 'newest', message: string, held: boolean, seq?: number): void {
    if (this.ready && workerId === this.workerId) this.channel.post({ type: 'pastPageFailed', workerId, to, message, held, ...(seq === undefined ? {} : { seq }) });
  }

  /**
   * What came of an action on the worker; `req`: it answers this page's request of that id, and
   * reaches the page whichever worker it shows now (it may have switched before the reply came:
   * a send that failed is given back from it). News of a worker not shown is not sent.
   */
  result(workerId: string, r: Result, req?: number): void {
    if (!this.ready) {
      if (req !== undefined) this.hold({ type: 'result', workerId, ...r, seq: req });
      return;
    }
    if (workerId === this.workerId || req !== undefined) this.channel.reply(req, { type: 'result', workerId, ...r });
  }

  private hold(reply: ResultMessage): void {
    this.held.push(reply);
    // A page never shown again must not keep them all: the newest are what it still waits for.
    if (this.held.length > HELD_REPLIES) this.held.shift();
  }

  private sayHeld(): void {
    const held = this.held;
    this.held = [];
    for (const reply of held) this.channel.post(reply);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.buffer.length || !this.workerId) return;
    const events = this.buffer;
    this.buffer = [];
    this.channel.post({ type: 'events', workerId: this.workerId, events });
  }

  private postState(view: WorkerView): void {
    // Events that came before this state change go first.
    this.flush();
    this.shownAttention = view.attention;
    this.channel.post({ type: 'state', worker: view });
  }

  private replay(top = false): void {
    this.buffer = [];
    // What waits to be sent is superseded by the reset (the page's composer starts afresh too).
    this.channel.dropWaiting();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const id = this.workerId;
    const found = id ? this.log.lookup(id) : undefined;
    const worker = found ? (found.note ? { ...toWorkerView(found.state), note: found.note } : this.log.pageView(found.state)) : null;
    this.shownAttention = worker?.attention;
    // The events sent next are the log so far: the page says none of them as new.
    const replay = found?.events.length ?? 0;
    this.channel.post({
      type: 'reset',
      worker,
      evicted: found?.evicted ?? 0,
      storeLimit: this.log.storeLimit,
      ...(found?.past ? { past: found.past } : {}),
      ...(top ? { top } : {}),
      ...(replay ? { replay } : {}),
    });
    this.postWorkers();
    if (!id || !found) return;
    const events = found.events;
    for (let i = 0; i < events.length; i += REPLAY_CHUNK) {
      this.channel.post({ type: 'events', workerId: id, events: events.slice(i, i + REPLAY_CHUNK).map((e) => slimEvent(e as unknown as { type: string; timestamp: number })) });
    }
  }

  private postWorkers(): void {
    if (!this.ready) return;
    this.channel.post({ type: 'workers', workers: this.log.workerList(this.workerId), selected: this.workerId ?? null, ...(this.log.trusted() ? {} : { untrusted: true as const }) });
  }

  /** The workspace was trusted: the page's empty log no longer says workers cannot start. */
  trustGranted(): void {
    this.postWorkers();
  }
}
