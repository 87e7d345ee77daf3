// The event log webview: receives batches of events from the extension, folds them into the
// model, and draws the newest entries in animation-frame chunks, keeping the DOM bounded.
// Every message from the extension is validated; nothing a worker sent is parsed as HTML.
import { parseHostMessage, type HostMessage, type WebviewMessage, type WireEvent, type WorkerView } from '../ui/webviewProtocol';
import { h, icon, setText } from './dom';
import { FILTER_GROUPS, GROUP_OF, LogModel, searchText, type Entry, type FilterGroup } from './model';
import { afterResult, composerView, emptySendLine, pendingLine, stateLine, type Line, type Pending } from './composer';
import { createRow, updateRow } from './render';
import { RowWindow } from './rowWindow';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };
const vscode = acquireVsCodeApi();
const post = (m: WebviewMessage) => vscode.postMessage(m);

/** Rows kept in the DOM (more on request, up to the max). */
const DOM_ROWS = 500;
const DOM_ROWS_MAX = 5000;
/**
 * Script time a frame may take: folding events first (up to FOLD_BUDGET_MS), then building rows
 * with what is left (at least MIN_DRAW_MS). What the browser then spends on paint comes on top,
 * and the sum stays well under the 50 ms of a long task.
 */
const FRAME_BUDGET_MS = 16;
const FOLD_BUDGET_MS = 8;
const MIN_DRAW_MS = 4;
const FOLD_CHUNK = 500;
/** Rows built in one frame at most: a full redraw or a burst is spread over frames. */
const ROWS_PER_FRAME = 25;
/** During a burst, draw at most this often. */
const DRAW_EVERY_MS = 250;

const GROUP_LABELS: Record<FilterGroup, { label: string; icon: string }> = {
  messages: { label: 'Messages', icon: 'comment-discussion' },
  thinking: { label: 'Thinking', icon: 'lightbulb' },
  tools: { label: 'Tools', icon: 'tools' },
  turns: { label: 'Turns', icon: 'play' },
  queue: { label: 'Queue', icon: 'list-ordered' },
  compaction: { label: 'Compaction', icon: 'fold' },
  problems: { label: 'Problems', icon: 'warning' },
  other: { label: 'Other', icon: 'symbol-event' },
};

interface Saved { hidden: FilterGroup[]; search: string }
const saved = (vscode.getState() as Saved | undefined) ?? { hidden: [], search: '' };

// ---- state
let model = new LogModel();
let worker: WorkerView | null = null;
let storeNote = '';
const hiddenGroups = new Set<FilterGroup>(saved.hidden.filter((g) => g in FILTER_GROUPS));
let query = saved.search.toLowerCase();
let pinned = true;
const pending: WireEvent[][] = [];
let needsFull = true;
let lastAppendedId = 0;
let matchingTotal = 0;
let frameScheduled = false;
let lastDraw = 0;
let lastDrawCost = 0;

// ---- skeleton
const app = document.getElementById('app')!;
const workerSelect = h('select', { class: 'worker-select', attrs: { 'aria-label': 'Worker' } });
const statusBadge = h('span', { class: 'status-badge', attrs: { role: 'status' } });
const chips = h('div', { class: 'chips', attrs: { role: 'toolbar', 'aria-label': 'Filter by kind' } });
const search = h('input', { class: 'search', attrs: { type: 'search', placeholder: 'Search the log', 'aria-label': 'Search the log' } });
search.value = saved.search;
const counter = h('span', { class: 'counter' });
const hiddenRow = h('div', { class: 'hidden-row' });
const showMore = h('button', { class: 'link', text: 'Show more' });
const list = h('div', { class: 'list', attrs: { role: 'list', 'aria-label': 'Event log', tabindex: '0' } });
const rows = h('div', { class: 'rows' });
const win = new RowWindow<HTMLElement>({
  create: createRow,
  update: updateRow,
  append: (r) => rows.append(...r),
  prepend: (r) => rows.prepend(...r),
  remove: (r) => r.remove(),
  clear: () => rows.replaceChildren(),
}, DOM_ROWS);
const empty = h('div', { class: 'empty', text: 'No worker selected. Start one from the Sessions view or the Command Palette ("RPC Workers: Start Demo Worker").' });
const filteredEmpty = h('div', { class: 'filtered-empty', attrs: { role: 'status' } }, h('span', { class: 'filtered-text' }), h('button', { class: 'link show-all', text: 'Show everything' }));
filteredEmpty.hidden = true;
const jump = h('button', { class: 'jump', title: 'Jump to the latest entry', attrs: { 'aria-label': 'Jump to latest' } }, icon('arrow-down'), h('span', { text: ' Jump to latest' }));
const textarea = h('textarea', { class: 'message', attrs: { rows: '3', placeholder: 'Message the worker (Ctrl+Enter sends)', 'aria-label': 'Message' } });
const btn = (label: string, iconName: string, title: string, cls = 'secondary') => h('button', { class: cls, title, attrs: { 'data-action': label.toLowerCase(), 'aria-label': label } }, icon(iconName), h('span', { class: 'label', text: ` ${label}` }));
const sendBtn = btn('Send', 'send', 'Send as a prompt (Ctrl+Enter)', 'primary');
const followBtn = btn('Follow-up', 'list-ordered', 'Deliver when the current turn ends');
const redirectBtn = btn('Redirect', 'debug-restart', 'Abort the current turn and send this instead');
const abortBtn = btn('Abort', 'debug-stop', 'Abort the current turn');
const compactBtn = btn('Compact', 'fold', 'Compact the conversation');
const stopBtn = btn('Stop', 'close', 'Stop the worker');
const buttons = { send: sendBtn, followUp: followBtn, redirect: redirectBtn, abort: abortBtn, compact: compactBtn, stop: stopBtn };
const resultLine = h('div', { class: 'result', attrs: { role: 'status', 'aria-live': 'polite' } });

hiddenRow.appendChild(h('span', { class: 'hidden-text' }));
hiddenRow.appendChild(showMore);
hiddenRow.hidden = true;
showMore.hidden = true;
list.append(hiddenRow, rows, empty, filteredEmpty);
app.replaceChildren(
  h('div', { class: 'top' }, icon('server-process'), workerSelect, statusBadge),
  h('div', { class: 'toolbar' }, chips, h('div', { class: 'search-row' }, search, counter)),
  h('div', { class: 'list-wrap' }, list, jump),
  h('div', { class: 'composer' }, textarea, h('div', { class: 'buttons', attrs: { role: 'toolbar', 'aria-label': 'Composer actions' } }, sendBtn, followBtn, redirectBtn, abortBtn, compactBtn, stopBtn), resultLine),
);
app.removeAttribute('aria-busy');

for (const g of Object.keys(FILTER_GROUPS) as FilterGroup[]) {
  const chip = h('button', { class: 'chip', attrs: { 'data-group': g } }, icon(GROUP_LABELS[g].icon), h('span', { class: 'lbl', text: ` ${GROUP_LABELS[g].label}` }));
  chip.setAttribute('aria-label', GROUP_LABELS[g].label);
  chip.addEventListener('click', () => {
    if (hiddenGroups.has(g)) hiddenGroups.delete(g);
    else hiddenGroups.add(g);
    paintChip(chip, g);
    persist();
    full();
  });
  paintChip(chip, g);
  chips.appendChild(chip);
}

function paintChip(chip: HTMLElement, g: FilterGroup): void {
  const on = !hiddenGroups.has(g);
  chip.setAttribute('aria-pressed', String(on));
  chip.title = `${GROUP_LABELS[g].label}: ${on ? 'shown (click to hide)' : 'hidden (click to show)'}`;
}

filteredEmpty.querySelector('.show-all')!.addEventListener('click', () => {
  hiddenGroups.clear();
  chips.querySelectorAll<HTMLElement>('.chip').forEach((chip) => paintChip(chip, chip.dataset.group as FilterGroup));
  search.value = '';
  query = '';
  persist();
  full();
});

let searchTimer: ReturnType<typeof setTimeout> | undefined;
search.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => {
    query = search.value.trim().toLowerCase();
    persist();
    full();
  }, 120);
});

showMore.addEventListener('click', () => {
  win.max = Math.min(DOM_ROWS_MAX, win.max + DOM_ROWS);
  pinned = false;
  full();
});

// Auto-scroll pauses when the person scrolls up, and resumes at the bottom. Only a move up
// unpins: the log growing below (rows settling their height) never does.
let lastScrollTop = 0;
list.addEventListener('scroll', () => {
  const top = list.scrollTop;
  const atBottom = list.scrollHeight - top - list.clientHeight < 40;
  if (atBottom) pinned = true;
  else if (top < lastScrollTop - 2) pinned = false;
  lastScrollTop = top;
  jump.classList.toggle('visible', !pinned);
}, { passive: true });
// Rows measure themselves after they are drawn (content-visibility): stay at the bottom.
new ResizeObserver(() => { if (pinned) toBottom(); }).observe(rows);

function toBottom(): void {
  list.scrollTop = list.scrollHeight;
  lastScrollTop = list.scrollTop;
}
jump.addEventListener('click', () => {
  pinned = true;
  toBottom();
  jump.classList.remove('visible');
});

workerSelect.addEventListener('change', () => {
  if (workerSelect.value) post({ type: 'selectWorker', workerId: workerSelect.value });
});

function mode(): 'prompt' | 'steer' {
  return worker?.streaming ? 'steer' : 'prompt';
}

function send(kind: 'prompt' | 'steer' | 'followUp' | 'redirect'): void {
  const text = textarea.value;
  if (!worker || !text.trim()) {
    showLine(emptySendLine(worker));
    textarea.focus();
    return;
  }
  if (kind === 'redirect') post({ type: 'redirect', workerId: worker.workerId, text });
  else post({ type: 'send', workerId: worker.workerId, text, mode: kind });
  pendingSend = { action: kind, text };
  textarea.value = '';
  showLine(pendingLine(kind));
}
/** The message just sent, until its result comes: it goes back into the box if it failed. */
let pendingSend: Pending | null = null;

sendBtn.addEventListener('click', () => send(mode()));
followBtn.addEventListener('click', () => send('followUp'));
redirectBtn.addEventListener('click', () => send('redirect'));
abortBtn.addEventListener('click', () => worker && post({ type: 'abort', workerId: worker.workerId }));
compactBtn.addEventListener('click', () => worker && post({ type: 'compact', workerId: worker.workerId }));
stopBtn.addEventListener('click', () => worker && post({ type: 'stop', workerId: worker.workerId }));
textarea.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
    ev.preventDefault();
    send(mode());
  }
});

function showLine(line: Line): void {
  resultLine.className = `result result-${line.cls}`;
  setText(resultLine, line.text);
}

function persist(): void {
  vscode.setState({ hidden: [...hiddenGroups], search: search.value } satisfies Saved);
}

// ---- composer state

function renderWorker(): void {
  const w = worker;
  const v = composerView(w);
  app.dataset.phase = v.phase;
  const badge = !w ? 'no worker' : `${v.phase}${w.model ? ` · ${w.model}` : ''}${w.pid ? ` · pid ${w.pid}` : ''}`;
  setText(statusBadge, badge);
  statusBadge.title = badge;
  statusBadge.className = `status-badge phase-${v.phase}`;
  setText(sendBtn.querySelector('.label')!, ` ${v.sendLabel}`);
  sendBtn.title = v.sendTitle;
  sendBtn.setAttribute('aria-label', v.sendLabel);
  for (const [name, b] of Object.entries(buttons)) b.disabled = v.disabled[name as keyof typeof buttons];
  textarea.disabled = v.textareaDisabled;
  textarea.placeholder = v.placeholder;
  empty.hidden = !!w;
}

// ---- drawing

const matches = (e: Entry) => !hiddenGroups.has(GROUP_OF[e.kind]) && (!query || searchText(e).toLowerCase().includes(query));

function full(): void {
  needsFull = true;
  schedule();
}

function schedule(): void {
  if (frameScheduled) return;
  frameScheduled = true;
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    frameScheduled = false;
    frame();
  };
  requestAnimationFrame(() => { rafFrames++; run(); });
  // A webview in the background gets no animation frames; the log still keeps up.
  setTimeout(run, 120);
}

let frames = 0;
let rafFrames = 0;
function frame(): void {
  frames++;
  const t0 = performance.now();
  while (pending.length && performance.now() - t0 < FOLD_BUDGET_MS) {
    const batch = pending[0];
    model.apply(batch.length > FOLD_CHUNK ? batch.splice(0, FOLD_CHUNK) : pending.shift()!);
    if (batch.length === 0 && pending[0] === batch) pending.shift();
  }
  const td = performance.now();
  timing.foldMs += td - t0;
  // While events keep coming, a draw that was slow earns a pause before the next one (up to
  // DRAW_EVERY_MS): in a flood the page folds on and draws a few times a second, and rows that
  // would scroll away at once are never built. A cheap draw (a streamed word) follows at once,
  // and once everything is folded the rows still to build go in frame after frame.
  const wait = Math.min(DRAW_EVERY_MS, lastDrawCost * 4) - (td - lastDraw);
  if (wait > 0 && pending.length) {
    schedule();
    return;
  }
  lastDraw = td;
  if (needsFull) drawAll();
  else drawDirty();
  const deadline = Math.max(t0 + FRAME_BUDGET_MS, td + MIN_DRAW_MS);
  // Reading a size lays out the rows built so far, so their layout is paid inside the budget
  // (a long reply costs more to lay out than to build) instead of after it, unmeasured.
  if (win.waiting) win.step(ROWS_PER_FRAME, () => rows.offsetHeight >= 0 && performance.now() < deadline);
  finishDraw();
  lastDrawCost = performance.now() - td;
  timing.drawMs += lastDrawCost;
  if (pending.length || win.waiting) schedule();
  else reportRendered();
}

// Once everything sent is drawn, say what the page holds (debounced): the host tests read it.
let reportTimer: ReturnType<typeof setTimeout> | undefined;
function reportRendered(): void {
  app.dataset.settled = String(model.eventCount);
  clearTimeout(reportTimer);
  reportTimer = setTimeout(() => {
    post({ type: 'rendered', workerId: worker?.workerId ?? null, events: model.eventCount, entries: model.length, rows: win.built, domNodes: document.getElementsByTagName('*').length, frames, rafFrames, ...Object.fromEntries(Object.entries(timing).map(([k, v]) => [k, Math.round(v)])) });
  }, 150);
}

function drawAll(): void {
  needsFull = false;
  model.takeDirty();
  const all = model.all();
  const chosen: Entry[] = [];
  let total = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i];
    if (!matches(e)) continue;
    total++;
    if (chosen.length < win.max) chosen.push(e);
  }
  win.reset(chosen.reverse());
  matchingTotal = total;
  lastAppendedId = all.length ? all[all.length - 1].id : 0;
}

function drawDirty(): void {
  const fresh: Entry[] = [];
  for (const e of model.takeDirty()) {
    if (e.id <= lastAppendedId) {
      win.refresh(e);
      continue;
    }
    lastAppendedId = e.id;
    if (!matches(e)) continue;
    matchingTotal++;
    fresh.push(e);
  }
  win.add(fresh);
}

function finishDraw(): void {
  const hidden = Math.max(0, matchingTotal - win.size);
  const parts: string[] = [];
  if (hidden) parts.push(`${hidden} earlier entr${hidden === 1 ? 'y' : 'ies'} hidden`);
  if (model.dropped) parts.push(`${model.dropped} older entries dropped from this view`);
  if (storeNote) parts.push(storeNote);
  setText(hiddenRow.querySelector('.hidden-text')!, parts.join(' · '));
  hiddenRow.hidden = parts.length === 0;
  showMore.hidden = hidden === 0 || win.max >= DOM_ROWS_MAX;
  // A log that has entries but shows none says why, and how to see them again.
  filteredEmpty.hidden = !worker || matchingTotal > 0 || model.length === 0;
  if (!filteredEmpty.hidden) {
    const why = [hiddenGroups.size ? `${hiddenGroups.size} filter${hiddenGroups.size === 1 ? ' is' : 's are'} off` : '', query ? `the search "${search.value.trim()}" matches nothing` : ''].filter(Boolean).join(' and ');
    setText(filteredEmpty.querySelector('.filtered-text')!, `None of the ${model.length} entries is shown: ${why || 'the filters hide them'}. `);
  }
  setText(counter, `${matchingTotal} entr${matchingTotal === 1 ? 'y' : 'ies'} · ${model.eventCount} event${model.eventCount === 1 ? '' : 's'}`);
  app.dataset.rows = String(win.built);
  if (pinned) toBottom();
}

// ---- messages from the extension

function onMessage(msg: HostMessage): void {
  switch (msg.type) {
    case 'reset':
      model = new LogModel();
      pending.length = 0;
      worker = msg.worker;
      storeNote = msg.evicted > 0 ? `the host keeps the last ${msg.storeLimit} events of a worker; older ones are gone` : '';
      win.max = DOM_ROWS;
      pinned = true;
      jump.classList.remove('visible');
      pendingSend = null;
      showLine({ text: '', cls: 'info' });
      renderWorker();
      full();
      return;
    case 'events':
      if (!worker || msg.workerId !== worker.workerId) return;
      pending.push(msg.events);
      schedule();
      return;
    case 'state':
      if (!worker || msg.worker.workerId !== worker.workerId) return;
      {
        const line = stateLine(worker, msg.worker);
        if (line) showLine(line);
      }
      worker = msg.worker;
      renderWorker();
      return;
    case 'workers': {
      const options = msg.workers.map((w) => h('option', { text: w.status === 'running' || w.status === 'starting' ? w.name : `${w.name} (${w.status})`, attrs: { value: w.workerId } }));
      if (!msg.workers.length) options.push(h('option', { text: 'No workers', attrs: { value: '' } }));
      workerSelect.replaceChildren(...options);
      workerSelect.value = msg.selected ?? '';
      workerSelect.disabled = msg.workers.length === 0;
      return;
    }
    case 'prefill':
      if (worker?.workerId === msg.workerId) {
        textarea.value = msg.text;
        textarea.focus();
      }
      return;
    case 'result': {
      if (worker?.workerId !== msg.workerId) return;
      const after = afterResult(pendingSend, { action: msg.action, status: msg.status, message: msg.message, tone: msg.tone, own: msg.own === true }, textarea.value);
      pendingSend = after.pending;
      if (after.restore !== null) textarea.value = after.restore;
      showLine(after.line);
      return;
    }
  }
}

let invalid = 0;
const timing = { validateMs: 0, foldMs: 0, drawMs: 0, receiveSpanMs: 0 };
let firstEventsAt = 0;
window.addEventListener('message', (ev: MessageEvent) => {
  const tv = performance.now();
  const parsed = parseHostMessage(ev.data);
  timing.validateMs += performance.now() - tv;
  if (parsed.success && parsed.data.type === 'events') {
    if (!firstEventsAt) firstEventsAt = tv;
    timing.receiveSpanMs = tv - firstEventsAt;
  }
  if (!parsed.success) {
    invalid++;
    app.dataset.invalidMessages = String(invalid);
    console.warn('[rpc-workers] ignored an invalid message from the extension', parsed.error.issues[0]);
    return;
  }
  onMessage(parsed.data);
});

renderWorker();
post({ type: 'ready' });
