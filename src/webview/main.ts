// The event log webview: receives batches of events from the extension, folds them into the
// model, and draws the newest entries in animation-frame chunks, keeping the DOM bounded.
// Every message from the extension is validated; nothing a worker sent is parsed as HTML.
// This file only wires the page's parts: the worker picker, the toolbar, the list, the
// composer and the scheduler that paces folding and drawing.
import { parseHostMessage, type HostMessage, type WorkerView } from '../protocol/hostMessages';
import { VSCODE_API_GLOBAL, type WebviewMessage } from '../protocol/messages';
import { ComposerPanel } from './composerPanel';
import { Drafts } from './drafts';
import type { SavedSend } from './pendingSends';
import { EventList } from './eventList';
import { RenderScheduler } from './scheduler';
import { Toolbar, type Saved } from './toolbar';
import { isBusyPhase } from './statusChip';
import { WorkerPicker } from './workerPicker';

type VsCodeApi = { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };
declare function acquireVsCodeApi(): VsCodeApi;
// The page's inline script took the one handle a page may take (a page without it: take it here).
const vscode = (window as unknown as Record<string, VsCodeApi | undefined>)[VSCODE_API_GLOBAL] ?? acquireVsCodeApi();
const post = (m: WebviewMessage) => vscode.postMessage(m);
/** The `rendered` report waits for the page to stay settled this long. */
const REPORT_DEBOUNCE_MS = 150;

const app = document.getElementById('app')!;
let worker: WorkerView | null = null;

const picker = new WorkerPicker(post);
/** The page's state, kept by VS Code across reloads: the toolbar's, and (for a tab) what it shows. */
const saveState = (part: Partial<Saved> | { shows: string | null } | { drafts: Record<string, string> } | { sends: SavedSend[] }) => vscode.setState({ ...(vscode.getState() as object | undefined), ...part });
// The state may hold only `shows` (a tab restored before its toolbar saved anything).
const saved = (vscode.getState() ?? {}) as Partial<Saved> & { drafts?: unknown; sends?: unknown };
const toolbar = new Toolbar({ hidden: Array.isArray(saved.hidden) ? saved.hidden : [], search: typeof saved.search === 'string' ? saved.search : '' }, () => list.full(), saveState);
const list: EventList = new EventList(toolbar, () => scheduler.schedule(), app.dataset, {
  openChange: (change) => {
    if (worker) post({ type: 'openChange', workerId: worker.workerId, ...change });
  },
  showTerminal: (terminalId) => {
    if (worker) post({ type: 'showTerminal', workerId: worker.workerId, terminalId });
  },
  answerQuestions: () => post({ type: 'answerQuestions' }),
}, (to, req) => {
  if (!worker) return false;
  post({ type: 'pastPage', workerId: worker.workerId, to, req });
  return true;
});
const composer = new ComposerPanel(() => worker, post, new Drafts(saved.drafts, (drafts) => saveState({ drafts })), { saved: saved.sends, save: (sends) => saveState({ sends }) });
composer.focusLog = () => list.focusFeed();
const scheduler: RenderScheduler = new RenderScheduler({
  fold: (events) => list.model.apply(events),
  draw: (deadline) => list.draw(deadline),
  settled: reportRendered,
}, { now: () => performance.now(), requestFrame: (run) => requestAnimationFrame(run), setTimeout: (run, ms) => setTimeout(run, ms) });

app.replaceChildren(picker.element, toolbar.element, list.element, composer.element);
app.removeAttribute('aria-busy');

/** `saidInLine`: the composer's line has just said the worker's change of state (the chip's live line does not say it again). */
function showWorker(saidInLine = false): void {
  const v = composer.show(worker);
  if (v.phase !== lastPhase && isBusyPhase(v.phase)) heardAt = Date.now();
  lastPhase = v.phase;
  app.dataset.phase = v.phase;
  app.dataset.attention = worker?.attention ?? '';
  picker.show(worker, v.phase, quietMs(), saidInLine);
  list.showWorker(worker !== null);
  // A turn the agent refused for want of a key says how this agent takes one (the row's words).
  list.model.login = worker?.login ?? null;
  // The composer's note is a past session's (no worker behind it): nothing in its log waits.
  list.model.pastSession = worker?.note !== undefined;
}

/**
 * When the page last heard of the worker shown: an event received (on receipt, by the page's own
 * clock: a host across SSH or WSL may keep another time, and a hidden page folds its backlog only
 * once shown), or its turn beginning (a prompt's state can come before its first event).
 */
let heardAt = 0;
let lastPhase = '';
/** Since then: what the chip says of a quiet turn. */
function quietMs(): number {
  return heardAt > 0 ? Math.max(0, Date.now() - heardAt) : 0;
}
// The chip counts a quiet turn's seconds; nothing else on the page moves with the clock.
setInterval(() => {
  const phase = app.dataset.phase ?? '';
  if (worker && isBusyPhase(phase)) picker.show(worker, phase, quietMs());
}, 1000);

// Once everything sent is drawn, say what the page holds (debounced): the host tests read it.
let reportTimer: ReturnType<typeof setTimeout> | undefined;
function reportRendered(): void {
  app.dataset.settled = String(list.model.eventCount);
  clearTimeout(reportTimer);
  reportTimer = setTimeout(() => {
    // Read when it is said, not when it was asked for: a reset in between (another worker) makes
    // a new model, and the report names the new worker.
    const model = list.model;
    const { frames, rafFrames, timing } = scheduler;
    post({ type: 'rendered', workerId: worker?.workerId ?? null, events: model.eventCount, entries: model.length, rows: list.built, domNodes: document.getElementsByTagName('*').length, frames, rafFrames, ...Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, Math.round(v)])), chip: picker.chipText });
  }, REPORT_DEBOUNCE_MS);
}

function onMessage(msg: HostMessage): void {
  switch (msg.type) {
    case 'reset':
      list.reset(msg.evicted > 0 ? `the host keeps the last ${msg.storeLimit} events of a worker; older ones are gone` : '', msg.past, msg.top, msg.replay);
      // A log opened on a turn already running counts its quiet from now: the page heard nothing before.
      heardAt = Date.now();
      scheduler.clear();
      worker = msg.worker;
      composer.reset(worker);
      showWorker();
      list.full();
      return;
    case 'events':
      if (!worker || msg.workerId !== worker.workerId) return;
      if (msg.events.length) heardAt = Date.now();
      scheduler.push(msg.events);
      composer.events(msg.events);
      return;
    case 'state': {
      if (!worker || msg.worker.workerId !== worker.workerId) return;
      const saidInLine = composer.stateChanged(worker, msg.worker);
      worker = msg.worker;
      showWorker(saidInLine);
      // A frame, so that once it is drawn the `rendered` report says the chip as it is now.
      scheduler.schedule();
      return;
    }
    case 'workers':
      picker.list(msg);
      list.trust(msg.untrusted === true);
      // A log tab comes back after a reload showing this (the host's panel serializer reads it).
      saveState({ shows: msg.selected });
      return;
    case 'prefill':
      if (worker?.workerId === msg.workerId) composer.prefill(msg.text);
      return;
    case 'pastPageFailed':
      if (worker?.workerId === msg.workerId) list.pastFailed(msg.to, msg.message, msg.held, msg.seq);
      return;
    case 'result':
      // Also the reply to a request about a worker no longer shown: the composer gives a failed message back (pendingSends.ts).
      composer.result(msg);
      return;
    case 'ping':
      post({ type: 'ready' });
      return;
  }
}

let invalid = 0;
let firstEventsAt = 0;
window.addEventListener('message', (ev: MessageEvent) => {
  const tv = performance.now();
  const parsed = parseHostMessage(ev.data);
  scheduler.timing.validateMs += performance.now() - tv;
  if (parsed.success && parsed.data.type === 'events') {
    if (!firstEventsAt) firstEventsAt = tv;
    scheduler.timing.receiveSpanMs = tv - firstEventsAt;
  }
  if (!parsed.success) {
    invalid++;
    app.dataset.invalidMessages = String(invalid);
    console.warn('[rpc-workers] ignored an invalid message from the extension', parsed.error.issues[0]);
    return;
  }
  onMessage(parsed.data);
});

showWorker();
post({ type: 'ready' });
