// How each entry of the log is drawn, and redrawn when it changes. Every string from a worker
// goes in as text.
import { duration, sourceInfo } from '../protocol/words';
import { h, icon, iconClass, setText } from './dom';
import { toolBadge, toolState } from './toolBadge';
import { compactionTitle, endWords, safeJson, stopReasonWords, type Change, type CompactionEntry, type EndEntry, type Entry, type Origin, type PlanEntry, type PromptEntry, type QuestionEntry, type TextEntry, type ToolEntry } from './entries';

export function time(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function provLine(p: Origin, extra?: string): HTMLElement {
  const s = sourceInfo(p.source);
  const parts = [`${s.label}`];
  if (p.submitter) parts.push(`by ${p.submitter}`);
  if (p.action === 'redirect') parts.push('redirect');
  if (p.action === 'send-selection') parts.push('selection');
  if (p.file) parts.push(p.lines ? `${p.file}:${p.lines[0]}${p.lines[1] !== p.lines[0] ? `-${p.lines[1]}` : ''}` : p.file);
  if (extra) parts.push(extra);
  const line = h('span', { class: 'prov', title: p.submissionId ? `submission ${p.submissionId}` : '' }, icon(s.icon), h('span', { text: ` ${parts.join(' · ')}` }));
  return line;
}

function header(kindIcon: string, title: string, t: number, ...rest: (Node | null)[]): HTMLElement {
  return h('div', { class: 'head' }, icon(kindIcon), h('span', { class: 'title', text: title }), ...rest, h('span', { class: 'time', text: time(t), title: new Date(t).toLocaleString() }));
}

/** A fresh element for the entry. */
export function createRow(e: Entry): HTMLElement {
  // An article of the log's feed (eventList.ts): out of the Tab order until it is the feed's one stop.
  const row = h('div', { class: `entry kind-${e.kind}`, attrs: { 'data-id': String(e.id), role: 'article', tabindex: '-1' } });
  updateRow(row, e);
  return row;
}

/** Redraw `row` for the entry's current state. Tool and thinking rows keep their open state. */
export function updateRow(row: HTMLElement, e: Entry): void {
  drawRow(row, e);
  labelRow(row, e.id);
}

/** A row's description (what is read each time it takes the focus) is cut at about this many characters. */
export const DESCRIPTION_MAX = 200;

/**
 * A screen reader names an article by its header line (the feed pattern's aria-labelledby) and
 * describes it by its text, when that is in sight: a tool's output behind its closed expander is
 * not read out each time the row takes the focus. A long text (a reply of pages) is described by
 * its opening only, in a hidden element (a description may point at one; the article does not
 * read it twice): the whole text stays in the article, read when the person reads the row.
 */
function labelRow(row: HTMLElement, id: number): void {
  const head = row.querySelector<HTMLElement>('.head') ?? row.querySelector<HTMLElement>('summary');
  const body = row.querySelector<HTMLElement>('.body');
  if (head) head.id = `entry-${id}-head`;
  if (head) row.setAttribute('aria-labelledby', head.id);
  else row.removeAttribute('aria-labelledby');
  let short = row.querySelector<HTMLElement>('.description');
  if (!body || row.querySelector('details')) {
    row.removeAttribute('aria-describedby');
    short?.remove();
    return;
  }
  const text = (body.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (text.length <= DESCRIPTION_MAX) {
    short?.remove();
    body.id = `entry-${id}-body`;
    row.setAttribute('aria-describedby', body.id);
    return;
  }
  body.removeAttribute('id');
  if (!short) row.append((short = h('span', { class: 'description' })));
  short.id = `entry-${id}-description`;
  short.hidden = true;
  setText(short, `${text.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`);
  row.setAttribute('aria-describedby', short.id);
}

function drawRow(row: HTMLElement, e: Entry): void {
  switch (e.kind) {
    case 'prompt': return drawPrompt(row, e);
    case 'turn': {
      const s = sourceInfo(e.prov.source);
      row.className = `entry kind-turn ${s.cls}`;
      row.replaceChildren(header('play', `Turn ${e.index}`, e.time, provLine(e.prov)));
      return;
    }
    case 'assistant': return drawAssistant(row, e);
    case 'thinking': return drawThinking(row, e);
    case 'tool': return drawTool(row, e);
    case 'question': return drawQuestion(row, e);
    case 'plan': return drawPlan(row, e);
    case 'end': return drawEnd(row, e);
    case 'compaction': return drawCompaction(row, e);
    case 'queue': {
      const text = `Queue: ${e.steering} steer, ${e.followUp} follow-up`;
      row.replaceChildren(...nodes(header('list-ordered', text, e.time), e.items.length ? h('div', { class: 'body text', text: e.items.join('\n') }) : null));
      return;
    }
    case 'retry':
      row.replaceChildren(header('refresh', e.text, e.time));
      return;
    case 'warning':
      row.replaceChildren(header('warning', e.title, e.time), h('div', { class: 'body text', text: e.text }));
      return;
    case 'exit':
      row.className = `entry kind-exit${e.failed ? ' exit-failed' : ''}`;
      row.replaceChildren(header(e.failed ? 'error' : 'debug-stop', e.text, e.time));
      return;
    case 'other':
      row.replaceChildren(header(e.icon ?? 'symbol-event', e.type, e.time, h('span', { class: 'args-brief', text: e.text })));
      return;
  }
}

function drawPrompt(row: HTMLElement, e: PromptEntry): void {
  const behavior = e.behavior === 'steer' ? 'Steer' : e.behavior === 'followUp' ? 'Follow-up' : e.prov.action === 'redirect' ? 'Redirect' : 'Prompt';
  const s = sourceInfo(e.prov.source);
  row.className = `entry kind-prompt ${s.cls}${e.behavior ? ` queued-${e.behavior}` : ''}`;
  row.replaceChildren(header(e.behavior === 'steer' ? 'debug-step-into' : e.behavior === 'followUp' ? 'list-ordered' : 'account', behavior, e.time, provLine(e.prov)), h('div', { class: 'body text', text: e.text }));
}

function drawAssistant(row: HTMLElement, e: TextEntry): void {
  row.classList.toggle('streaming', e.streaming);
  let body = row.querySelector<HTMLElement>('.body');
  if (!body) {
    row.replaceChildren(header('hubot', 'Assistant', e.time, h('span', { class: 'badge' })), (body = h('div', { class: 'body text' })));
  }
  setText(body, e.text);
  setText(row.querySelector('.badge')!, e.streaming ? 'streaming…' : stopReasonWords(e.stopReason));
}

function drawThinking(row: HTMLElement, e: TextEntry): void {
  let details = row.querySelector('details');
  if (!details) {
    details = h('details', {}, h('summary', {}, icon('lightbulb'), h('span', { class: 'title', text: 'Thinking' }), h('span', { class: 'badge' }), h('span', { class: 'time', text: time(e.time) })), h('div', { class: 'body text' }));
    row.replaceChildren(details);
  }
  setText(details.querySelector('.badge')!, e.streaming ? 'streaming…' : `${e.text.length} ${e.text.length === 1 ? 'character' : 'characters'}`);
  setText(details.querySelector('.body')!, e.text);
}

/**
 * What a tool row's structure depends on. While it stays the same (a running command's output
 * growing), the row is updated in place: a person scrolling the output, selecting in it, or on
 * one of its buttons is not thrown back to the top or out of the row on each update.
 */
const toolShapes = new WeakMap<HTMLElement, string>();

function toolShape(e: ToolEntry, state: string): string {
  const shown = e.result !== null ? (e.stopped ? 'result-stopped' : e.isError ? 'result-error' : 'result') : e.output ? 'output' : '';
  return JSON.stringify([state === 'blocked', e.blockedBy, e.reason, e.violation ?? null, (e.changes ?? []).map((c) => [c.path, c.oldText, c.newText]), e.terminals ?? [], e.args ?? null, shown]);
}

function drawTool(row: HTMLElement, e: ToolEntry): void {
  const state = toolState(e);
  row.className = `entry kind-tool tool-${state}${e.violation ? ' tool-violation' : ''}`;
  // In a past session nothing runs: a call whose end is on a page not drawn does not spin.
  const moving = state === 'running' && !e.past;
  const kindIcon = state === 'blocked' ? 'circle-slash' : moving ? 'loading' : state === 'error' ? 'error' : state === 'stopped' ? 'debug-stop' : 'tools';
  const spin = moving ? 'codicon-modifier-spin' : '';
  const badge = toolBadge(e, state);
  const out = e.result !== null ? e.result || e.output || '(no output reported)' : e.output;
  const shape = toolShape(e, state);
  const drawn = row.querySelector('details');
  if (drawn && toolShapes.get(row) === shape) {
    drawn.querySelector('.codicon')!.className = iconClass(kindIcon, spin);
    setText(drawn.querySelector('.title')!, e.title ?? e.name);
    setText(drawn.querySelector('.args-brief')!, brief(e.args));
    setText(drawn.querySelector('.badge')!, badge);
    const pre = drawn.querySelector('.out');
    if (pre) grow(pre, out);
    return;
  }
  toolShapes.set(row, shape);
  const summary = h('summary', {}, icon(kindIcon, spin), h('span', { class: 'title', text: e.title ?? e.name }), h('span', { class: 'args-brief', text: brief(e.args) }), h('span', { class: 'badge', text: badge }), h('span', { class: 'time', text: time(e.time) }));
  const body = h('div', { class: 'body' });
  const blocked = `⛔ blocked by ${e.blockedBy ?? 'a guard'}: ${e.reason ?? 'no reason given'}`;
  if (e.blocked) body.appendChild(h('div', { class: 'blocked-line', text: blocked }));
  if (e.violation) body.appendChild(h('div', { class: 'violation-line', text: `⚠ ${e.violation}` }));
  (e.changes ?? []).forEach((c, i) => body.appendChild(changeSection(c, i)));
  for (const id of e.terminals ?? []) {
    body.appendChild(h('div', { class: 'section terminal' }, h('div', { class: 'label' }, h('span', { text: 'Host terminal ' }), h('span', { class: 'path', text: id }),
      h('button', { class: 'link open-terminal', text: 'Show in Terminal', attrs: { 'data-terminal': id, title: 'Show this command\'s output, so far and live, in a read-only VS Code terminal' } }))));
  }
  if (hasArgs(e.args)) body.appendChild(section('Arguments', safeJson(e.args)));
  if (out) body.appendChild(section(e.result === null ? 'Output' : e.stopped ? 'Result (stopped)' : e.isError ? 'Result (error)' : 'Result', out, 'out'));
  const details = h('details', {}, summary, body);
  // A change is what a person wants to see of an edit: it shows without a click.
  details.open = (drawn?.open ?? false) || e.blocked || (e.changes ?? []).length > 0;
  row.replaceChildren(details);
  if (e.blocked) row.prepend(h('div', { class: 'blocked-banner', text: blocked }));
}

/**
 * A search (`query`, lower case) that matches what a folded row hides (a call's output, its
 * thinking) opens it: the match is in sight, not behind its expander. A row whose summary has
 * the match stays as it was.
 */
export function openToShow(row: HTMLElement, query: string): HTMLElement {
  const details = row.querySelector('details');
  const summary = details?.querySelector('summary');
  if (!query || !details || !summary || details.open) return row;
  const has = (el: Element) => (el.textContent ?? '').toLowerCase().includes(query);
  if (!has(summary) && has(details)) details.open = true;
  return row;
}

/** Output that grew by its end gets only the new end: a selection in what was there stays. */
function grow(el: Element, text: string): void {
  const was = el.textContent ?? '';
  if (was === text) return;
  if (was && text.startsWith(was)) el.append(text.slice(was.length));
  else el.textContent = text;
}

function drawQuestion(row: HTMLElement, e: QuestionEntry): void {
  const state = e.answer !== null ? 'answered' : e.dismissed ? 'dismissed' : e.past ? 'unseen' : 'open';
  row.className = `entry kind-question question-${state}`;
  const title = `${state === 'open' ? 'Asks' : 'Asked'}: ${e.title}`;
  const answer = e.answer !== null ? `→ ${e.answer}` : e.dismissed ? '→ no answer (cancelled)' : e.past ? 'answer not in view' : e.options.length ? `waiting for you: ${e.options.join(' · ')}` : 'waiting for you';
  row.replaceChildren(...nodes(header(state === 'open' || state === 'unseen' ? 'question' : state === 'answered' ? 'pass' : 'circle-slash', title, e.time, h('span', { class: 'badge', text: answer })),
    e.command ? h('pre', { class: 'pre', text: `$ ${e.command}` }) : null,
    e.note ? h('div', { class: 'body text', text: e.note }) : null,
    // A question put aside (its pick hidden unanswered) comes back from here.
    state === 'open' ? h('div', { class: 'body' }, h('button', { class: 'link answer-question', text: 'Answer…', attrs: { 'data-answer': '', title: 'Show the question again (a question hidden unanswered waits, put aside)' } })) : null));
}

function drawPlan(row: HTMLElement, e: PlanEntry): void {
  // Each plan event is the whole plan, so one with no entries has no steps: "0 of 0 done" said nothing.
  if (!e.items.length) {
    row.replaceChildren(header('checklist', 'Plan: no steps', e.time));
    return;
  }
  const done = e.items.filter((i) => i.status === 'completed').length;
  const list = h('ul', { class: 'plan' }, ...e.items.map((i) => h('li', { class: `plan-${i.status}` },
    icon(i.status === 'completed' ? 'pass-filled' : i.status === 'in_progress' ? 'circle-large-filled' : 'circle-large-outline'),
    h('span', { text: ` ${i.content}` }))));
  row.replaceChildren(header('checklist', `Plan: ${done} of ${e.items.length} done`, e.time), list);
}

/** A change as lines taken out and put in, between what both sides share; and a button for the diff editor. */
function changeSection(c: Change, index: number): HTMLElement {
  const before = (c.oldText ?? '').split('\n');
  const after = c.newText.split('\n');
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  const lines = [
    ...before.slice(start, before.length - end).map((l) => h('div', { class: 'del', text: `- ${l}` })),
    ...after.slice(start, after.length - end).map((l) => h('div', { class: 'ins', text: `+ ${l}` })),
  ];
  const word = `${c.oldText === null ? 'New file' : 'Change'}: `;
  const from = start ? ` (from line ${start + 1})` : '';
  // The path as it is spelt: the label's capitals would name another file (SRC/HELLO.JS).
  return h('div', { class: 'section change' },
    h('div', { class: 'label' }, h('span', { text: word }), h('span', { class: 'path', text: c.path }), h('span', { text: from }), h('button', { class: 'link open-change', text: 'Open diff', attrs: { 'data-change': String(index), title: 'Open this change in the diff editor' } })),
    h('div', { class: 'pre diff' }, ...(lines.length ? lines : [h('div', { text: '(no change in the text)' })])));
}

function drawEnd(row: HTMLElement, e: EndEntry): void {
  const cls = e.reason === 'done' && !e.error ? 'end-done' : e.reason === 'aborted' || e.reason === 'stopped' ? 'end-aborted' : e.reason === 'max_turns' ? 'end-max' : 'end-error';
  row.className = `entry kind-end ${cls}`;
  const text = `Turn ended: ${endWords(e.reason)}${e.error ? ` — ${e.error}` : ''}${e.login ? `. ${e.login}` : ''}${e.willRetry ? ' (a retry follows)' : ''}`;
  row.replaceChildren(header(cls === 'end-done' ? 'check' : cls === 'end-aborted' ? 'circle-slash' : cls === 'end-max' ? 'warning' : 'error', text, e.time));
}

function drawCompaction(row: HTMLElement, e: CompactionEntry): void {
  row.className = `entry kind-compaction compaction-${e.phase}`;
  const title = compactionTitle(e);
  const extra = [e.reason, e.tokensBefore !== null ? `${e.tokensBefore} tokens before` : null, e.endedAt ? duration(e.endedAt - e.time) : null].filter(Boolean).join(' · ');
  // replaceChildren writes a null as the text "null": only nodes go in.
  row.replaceChildren(...nodes(header('fold', title, e.time, extra ? h('span', { class: 'badge', text: extra }) : null),
    e.summary ? h('div', { class: 'body text', text: e.summary }) : null,
    e.error ? h('div', { class: 'body error-text', text: e.error }) : null));
}

/** The nodes among `list` (a null given to replaceChildren or append would show as "null"). */
export function nodes<T>(...list: (T | null | undefined | false)[]): T[] {
  return list.filter((n): n is T => !!n);
}

/** An empty `{}` is a call whose input was not said yet (an ACP agent's opening), not an input to show. */
function hasArgs(args: unknown): boolean {
  if (args === null || args === undefined) return false;
  return typeof args !== 'object' || Array.isArray(args) || Object.keys(args).length > 0;
}

function section(label: string, text: string, preClass = ''): HTMLElement {
  return h('div', { class: 'section' }, h('div', { class: 'label', text: label }), h('pre', { class: `pre${preClass ? ` ${preClass}` : ''}`, text }));
}

/**
 * A call's main argument on its row's title line, which is one line (and the row's name a screen
 * reader says): an object or a list as JSON on one line, not indented over many; a command of
 * many lines with its line breaks as spaces.
 */
function brief(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const o = args as Record<string, unknown>;
  const first = o.command ?? o.path ?? o.file_path ?? o.pattern ?? o.query ?? Object.values(o)[0];
  const s = (typeof first === 'string' ? first : safeJson(first, 0)).replace(/\s*[\r\n]+\s*/g, ' ');
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}
