// The event log's rows, drawn into a small stand-in DOM that converts what it is given the way
// the real one does: Node.replaceChildren(null) inserts the text "null". Then the list that holds
// them (eventList.ts), over the same stand-in: what it counts and shows as a live log changes.
import * as assert from 'node:assert/strict';
import type { PageEvent } from '../../src/protocol/messages';
import type { Entry } from '../../src/webview/entries';
import { searchText } from '../../src/webview/entries';
import { stamped } from '../fixtures/hostStream';

class FakeNode {
  parent: FakeElement | null = null;
  constructor(public data = '') {}
  get textContent(): string { return this.data; }
}
class FakeElement extends FakeNode {
  children: FakeNode[] = [];
  className = '';
  title = '';
  open = false;
  hidden = false;
  scrollTop = 0;
  scrollHeight = 0;
  clientHeight = 0;
  offsetHeight = 0;
  readonly dataset: Record<string, string> = {};
  readonly attrs = new Map<string, string>();
  id = '';
  constructor(readonly tagName: string) { super(); }
  get parentElement(): FakeElement | null { return this.parent; }
  /** As the DOM's: the attribute, else -1, or 0 for what takes the focus by itself. */
  get tabIndex(): number { const t = this.attrs.get('tabindex'); return t !== undefined ? Number(t) : ['summary', 'button'].includes(this.tagName) ? 0 : -1; }
  set tabIndex(n: number) { this.attrs.set('tabindex', String(n)); }
  removeAttribute(k: string) { this.attrs.delete(k); }
  contains(n: FakeNode | null): boolean { for (let p = n; p; p = p.parent) if (p === this) return true; return false; }
  override get textContent(): string { return this.children.map((c) => c.textContent).join(''); }
  override set textContent(t: string) { this.children = t ? [new FakeNode(t)] : []; }
  setAttribute(k: string, v: string) { this.attrs.set(k, v); if (k.startsWith('data-')) this.dataset[k.slice(5)] = v; }
  getAttribute(k: string) { return this.attrs.get(k) ?? null; }
  private readonly listeners = new Map<string, ((ev: unknown) => void)[]>();
  addEventListener(type: string, fn: (ev: unknown) => void) { this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]); }
  /** An event at this element, bubbling up from it as the DOM's does. */
  dispatch(type: string, ev: Record<string, unknown> = {}) { const e = { target: this, preventDefault() { e.defaultPrevented = true; }, defaultPrevented: false, ...ev }; this.bubble(type, e); return e; }
  private bubble(type: string, e: unknown): void { for (const fn of this.listeners.get(type) ?? []) fn(e); this.parent?.bubble(type, e); }
  /** A press: its click listeners, as the DOM calls them. */
  click() { for (const fn of this.listeners.get('click') ?? []) fn({ target: this }); }
  /** The focus, in the stand-in document (see `focusDoc`), and the focusin the DOM sends. */
  focus() { focusDoc.activeElement = this; this.dispatch('focusin'); }
  /** `[hidden]` (this element or one around it is hidden) or a class. */
  closest(sel: string): FakeElement | null {
    if (sel !== '[hidden]' && !sel.startsWith('.')) throw new Error(`closest(${sel}) is not in the stand-in`);
    if (sel === '[hidden]' ? this.hidden : this.className.split(' ').includes(sel.slice(1))) return this;
    return this.parent ? this.parent.closest(sel) : null;
  }
  private adopt(items: unknown[]): FakeNode[] {
    // As the DOM does: a node goes in as itself, anything else as the text of String(it).
    return items.map((x) => (x instanceof FakeNode ? x : new FakeNode(String(x)))).map((n) => { n.parent = this; return n; });
  }
  appendChild(c: FakeNode) { this.append(c); return c; }
  append(...items: unknown[]) { this.children.push(...this.adopt(items)); }
  prepend(...items: unknown[]) { this.children.unshift(...this.adopt(items)); }
  insertBefore(c: FakeNode, before: FakeNode) { this.children.splice(this.children.indexOf(before), 0, ...this.adopt([c])); return c; }
  replaceChildren(...items: unknown[]) { for (const c of this.children) c.parent = null; this.children = this.adopt(items); }
  remove() { if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this); this.parent = null; }
  get classList() { return { toggle: () => undefined, add: () => undefined, remove: () => undefined }; }
  /** Of a list of tag names (`summary, button, a[href]`): the elements inside of those tags. */
  querySelectorAll(sel: string): FakeElement[] {
    const tags = sel.split(',').map((t) => t.trim());
    const out: FakeElement[] = [];
    const walk = (el: FakeElement) => { for (const c of el.children) if (c instanceof FakeElement) { if (tags.includes(c.tagName)) out.push(c); walk(c); } };
    walk(this);
    return out;
  }
  querySelector(sel: string): FakeElement | null {
    for (const c of this.children) {
      if (!(c instanceof FakeElement)) continue;
      if (sel.startsWith('.') ? c.className.split(' ').includes(sel.slice(1)) : c.tagName === sel) return c;
      const deeper = c.querySelector(sel);
      if (deeper) return deeper;
    }
    return null;
  }
}

/** What has the focus in the stand-in document, and whether its page has it (document.hasFocus()). */
const focusDoc: { activeElement: FakeElement | null; body: FakeElement; pageFocused: boolean } = { activeElement: null, body: new FakeElement('body'), pageFocused: true };

const T = 1_700_000_000_000;
const ev = (type: string, fields: Partial<PageEvent> = {}): PageEvent => ({ type, timestamp: T, ...fields } as PageEvent);

describe('ui event log rows', () => {
  let render: typeof import('../../src/webview/render');
  let model: typeof import('../../src/webview/model');
  const g = globalThis as unknown as { document?: unknown };
  before(async () => {
    // Only for this file's tests: the other unit tests run without a document.
    g.document = { createElement: (tag: string) => new FakeElement(tag) };
    render = await import('../../src/webview/render');
    model = await import('../../src/webview/model');
  });
  after(() => { delete g.document; });
  const rowsOf = (events: PageEvent[]) => {
    const m = new model.LogModel();
    m.apply(stamped(events));
    return m.all().map((e) => ({ e, text: (render.createRow(e) as unknown as FakeElement).textContent }));
  };

  it('a file the agent wrote, a host terminal and a one-character thought are said in words, not event names, and one is one', () => {
    const [file, one, terminal, thought] = rowsOf([
      ev('client_file', { data: { op: 'write', path: 'a.ts', through: 'disk', bytes: 4200 } }),
      ev('client_file', { data: { op: 'write', path: 'b.ts', through: 'editor', bytes: 1 } }),
      ev('terminal', { data: { op: 'create', command: 'ls -la' } }),
      ev('message_update', { block_type: 'thinking', delta: '.' } as Partial<PageEvent>),
      ev('message_end', {}),
    ]);
    assert.match(file!.text, /^Wrote a\.ts.*through the host, to disk \(4,200 bytes\)/);
    assert.match(one!.text, /through the editor \(its open document\) \(1 byte\)/);
    assert.match(terminal!.text, /^Runs in a host terminal.*ls -la/);
    for (const row of [file, one, terminal]) assert.doesNotMatch(row!.text, /client_file|^terminal/);
    assert.match(thought!.text, /1 character(?!s)/);
  });

  it('a running tool\'s growing output is updated in place: the row, its output box and a selection in it stay (issue: it jumped to the top)', () => {
    const m = new model.LogModel();
    m.apply(stamped([ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'bash', args: { command: 'make' } }), ev('tool_execution_update', { tool_call_id: 'c', result: { output: 'one\n' } })]));
    const entry = () => m.all().find((e) => e.kind === 'tool')!;
    const row = render.createRow(entry()) as unknown as FakeElement;
    const details = row.querySelector('details')!;
    const pre = row.querySelector('.out')!;
    assert.ok(pre, 'the output box');
    const firstText = pre.children[0];
    m.apply(stamped([ev('tool_execution_update', { tool_call_id: 'c', result: { output: 'two\n' } })]));
    render.updateRow(row as unknown as HTMLElement, entry());
    assert.equal(row.querySelector('details'), details, 'the same row');
    assert.equal(row.querySelector('.out'), pre, 'the same output box');
    assert.equal(pre.children[0], firstText, 'what was there is not replaced (a selection in it stays)');
    assert.equal(pre.textContent, 'one\ntwo\n');
    // Ended: a result in place of the output is another shape, drawn afresh.
    m.apply(stamped([ev('tool_execution_end', { tool_call_id: 'c', result: { output: 'one\ntwo\n', exit_code: 0 } })]));
    render.updateRow(row as unknown as HTMLElement, entry());
    assert.notEqual(row.querySelector('details'), details);
    assert.match(row.textContent, /Resultone\ntwo/);
    assert.doesNotMatch(row.textContent, /running…/);
  });

  it('a call whose input is not said yet ({}, as Claude and OpenCode open one) shows no empty Arguments; its update\'s input does', () => {
    const tool = (events: PageEvent[]) => rowsOf(events).find((r) => r.e.kind === 'tool')!.text;
    const opened = ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'execute', title: 'ls', args: {} });
    assert.match(tool([opened]), /^ls.*running…/);
    assert.doesNotMatch(tool([opened]), /Arguments/);
    assert.match(tool([opened, ev('tool_execution_update', { tool_call_id: 'c', args: { command: 'ls -la' } })]), /Arguments.*ls -la/s);
  });

  it('a call whose first argument is an object or a list shows it on one line in its brief, cut short, never as indented JSON', () => {
    const briefOf = (args: Record<string, unknown>) => {
      const m = new model.LogModel();
      m.apply(stamped([ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'configure', args })]));
      const row = render.createRow(m.all().find((x) => x.kind === 'tool')!) as unknown as FakeElement;
      return row.querySelector('.args-brief')!.textContent;
    };
    assert.equal(briefOf({ options: { a: 1, b: [1, 2] } }), '{"a":1,"b":[1,2]}');
    assert.equal(briefOf({ paths: ['a.ts', 'b.ts'] }), '["a.ts","b.ts"]');
    const long = briefOf({ options: { text: 'x'.repeat(300) } });
    assert.doesNotMatch(long, /\n/);
    assert.ok(long.length <= 121 && long.endsWith('…'), `cut short: ${long.length} characters`);
    assert.equal(briefOf({ command: 'make \\\n  all' }), 'make \\ all', 'a command of more lines than one is one line');
  });

  it('an empty plan says it has no steps and shows no empty list, not "0 of 0 done"; a plan with steps counts them', () => {
    const planRow = (entries: unknown[]) => {
      const m = new model.LogModel();
      m.apply(stamped([ev('plan', { data: { entries } } as Partial<PageEvent>)]));
      return render.createRow(m.all().find((x) => x.kind === 'plan')!) as unknown as FakeElement;
    };
    const empty = planRow([]);
    assert.match(empty.textContent, /^Plan: no steps/);
    assert.doesNotMatch(empty.textContent, /0 of 0/);
    assert.equal(empty.querySelector('ul'), null, 'no empty list');
    const two = planRow([{ content: 'Read', status: 'completed' }, { content: 'Write', status: 'pending' }]);
    assert.match(two.textContent, /^Plan: 1 of 2 done/);
    assert.equal(two.querySelector('ul')!.children.length, 2);
  });

  // Gemini 0.61.0 ends a command with no content: the command may have printed plenty.
  it('a finished call the worker reported no output for says so, not that the output was empty', () => {
    const row = rowsOf([ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'execute', title: 'printf' }), ev('tool_execution_end', { tool_call_id: 'c', result: { output: '' } })]).find((r) => r.e.kind === 'tool')!;
    assert.match(row.text, /Result\(no output reported\)/);
    assert.match(row.text, /ok · 0 ms/, 'a call whose start was seen has its duration');
  });

  // Gemini 0.61.0 sends a command only as its end (after the question): its start was not seen.
  it('a call seen only at its end says ok without a duration (it did not run in 0 ms)', () => {
    const row = rowsOf([ev('tool_execution_end', { tool_call_id: 'c', tool_name: 'execute', title: 'printf', result: { output: 'x' } })]).find((r) => r.e.kind === 'tool')!;
    assert.match(row.text, /^printfok\d/);
    assert.doesNotMatch(row.text, / ms/);
  });

  it('a queue entry without items and a running compaction show no "null"', () => {
    const rows = rowsOf([
      ev('queue_update', { data: { steering: [], followUp: [] } }),
      ev('compaction_start', { data: { reason: 'manual' } }),
    ]);
    assert.equal(rows.length, 2);
    for (const r of rows) assert.doesNotMatch(r.text, /null/, `${r.e.kind} row reads: ${r.text}`);
    assert.match(rows[1].text, /Compacting…/);
  });

  it('a finished compaction shows its summary, and no "null" for the missing error', () => {
    const [row] = rowsOf([ev('compaction_start'), ev('compaction_end', { data: { summary: 'Short summary', tokens_before: 1200 } })]);
    assert.match(row.text, /Compacted/);
    assert.match(row.text, /Short summary/);
    assert.doesNotMatch(row.text, /null/);
  });

  it('a compaction that found nothing to compact says so in its title, not "Compacted"', () => {
    const [row] = rowsOf([ev('compaction_start', { data: { reason: 'manual' } }), ev('compaction_end', { data: { performed: false, cancelled: false } })]);
    assert.match(row.text, /^Nothing to compact/);
    assert.doesNotMatch(row.text, /Compacted/);
  });

  it('a turn ended by stopping the worker says so in words', () => {
    const rows = rowsOf([ev('agent_start'), ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'bash' }), ev('worker_exit', { data: { status: 'stopped' } })]);
    const end = rows.find((r) => r.e.kind === 'end')!;
    assert.match(end.text, /Turn ended: the worker stopped/);
    const tool = rows.find((r) => r.e.kind === 'tool')!;
    assert.doesNotMatch(tool.text, /running…/);
  });

  it('an open question offers Answer… (a question put aside comes back from the log); an answered one does not', () => {
    const asked = ev('permission_request', { title: 'Run `ls`', data: { id: 'q1', command: 'ls', options: [{ name: 'Allow once' }] } });
    const [open] = rowsOf([asked]);
    assert.match(open.text, /waiting for you: Allow once/);
    assert.match(open.text, /Answer…/);
    const [answered] = rowsOf([asked, ev('permission_end', { data: { id: 'q1', optionName: 'Allow once', outcome: 'selected' } })]);
    assert.doesNotMatch(answered.text, /Answer…/);
  });

  it('a question whose end the log never got is not left waiting once its worker has ended, or another has taken the log on (a resumed session)', () => {
    const asked = ev('permission_request', { title: 'Run `ls`', data: { id: 'permission-1', command: 'ls', options: [{ name: 'Allow once' }] } });
    // A log cut off after the exit (its host went down): the question ends with the worker.
    const [cut] = rowsOf([asked, ev('worker_exit', { data: { status: 'failed' } })]).filter((r) => r.e.kind === 'question');
    assert.doesNotMatch(cut.text, /waiting for you|Answer…/);
    assert.match(cut.text, /no answer \(cancelled\)/);
    assert.match(cut.text, /closed: the worker failed/);
    // The exit's own cancel comes after worker_exit, and is the question's end still.
    const ended = ev('permission_end', { data: { id: 'permission-1', outcome: 'cancelled', optionName: null, note: 'the worker exited' } });
    const [late] = rowsOf([asked, ev('worker_exit', { data: { status: 'stopped' } }), ended]).filter((r) => r.e.kind === 'question');
    assert.match(late.text, /the worker exited/);
    // A resumed session's log: the earlier worker's open question is moot, and the new worker's
    // question of the same id is its own, answered on its own row.
    const again = ev('permission_request', { title: 'Run `pwd`', data: { id: 'permission-1', command: 'pwd', options: [{ name: 'Allow once' }] } });
    const rows = rowsOf([asked, ev('session_resumed', { data: { session: { id: 's1', file: null } } }), again, ev('permission_end', { data: { id: 'permission-1', optionName: 'Allow once', outcome: 'selected' } })]).filter((r) => r.e.kind === 'question');
    assert.equal(rows.length, 2);
    assert.match(rows[0].text, /Run `ls`[\s\S]*no answer \(cancelled\)/);
    assert.doesNotMatch(rows[0].text, /Answer…/);
    assert.match(rows[1].text, /Run `pwd`[\s\S]*→ Allow once/);
  });

  it('a past session\'s question whose answer is not on the page drawn does not say it waits, and offers no Answer…', () => {
    const asked = ev('permission_request', { title: 'Run `ls`', data: { id: 'permission-1', command: 'ls', options: [{ name: 'Allow once' }] } });
    const past = (events: PageEvent[]) => {
      const m = new model.LogModel();
      m.pastSession = true;
      m.apply(stamped(events));
      return m.all().filter((e) => e.kind === 'question').map((e) => (render.createRow(e) as unknown as FakeElement).textContent);
    };
    // Its answer lies on a newer page, not drawn yet (or was never written).
    const [unseen] = past([asked]);
    assert.doesNotMatch(unseen, /waiting for you|Answer…|Asks:/);
    assert.match(unseen, /Asked: Run `ls`[\s\S]*answer not in view/);
    // Its answer on the same page: said as in a live log.
    const [answered] = past([asked, ev('permission_end', { data: { id: 'permission-1', optionName: 'Allow once', outcome: 'selected' } })]);
    assert.match(answered, /→ Allow once/);
  });

  it('a past session\'s tool call whose end is not on the page drawn does not spin "running…": nothing runs in a past session', () => {
    const started = ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'execute', title: 'Run `make`', args: { command: 'make' } });
    const past = (events: PageEvent[]) => {
      const m = new model.LogModel();
      m.pastSession = true;
      m.apply(stamped(events));
      return m.all().filter((e) => e.kind === 'tool').map((e) => render.createRow(e) as unknown as FakeElement);
    };
    const [unseen] = past([started]);
    assert.doesNotMatch(unseen.textContent, /running…/);
    assert.match(unseen.textContent, /Run `make`[\s\S]*end not in view/);
    const classes = (el: FakeElement): string[] => [el.className, ...el.children.flatMap((c) => (c instanceof FakeElement ? classes(c) : []))];
    assert.ok(!classes(unseen).some((c) => c.includes('modifier-spin')), 'no spinner');
    const [ended] = past([started, ev('tool_execution_end', { tool_call_id: 'c', result: { output: 'done' } })]);
    assert.doesNotMatch(ended.textContent, /not in view/);
  });

  it("a pi extension's dialog is a question row: its options, then the pick, or why no answer came; typed text is not shown", () => {
    const asked = ev('ui_dialog', { title: 'Write a.txt?', data: { id: 'd1', method: 'select', message: null, options: ['Write it', 'Skip'] } });
    const [open] = rowsOf([asked]);
    assert.match(open.text, /Asks: Write a\.txt\?/);
    assert.match(open.text, /waiting for you: Write it · Skip/);
    assert.match(open.text, /Answer…/);
    const [picked] = rowsOf([asked, ev('ui_dialog_end', { title: 'Write a.txt?', data: { id: 'd1', outcome: 'answered', answer: 'Write it', note: null } })]);
    assert.match(picked.text, /Asked: Write a\.txt\?/);
    assert.match(picked.text, /→ Write it/);
    assert.doesNotMatch(picked.text, /Answer…/);
    const [closed] = rowsOf([asked, ev('ui_dialog_end', { data: { id: 'd1', outcome: 'closed', answer: null, note: 'closed: the turn was aborted' } })]);
    assert.match(closed.text, /no answer \(cancelled\)/);
    assert.match(closed.text, /closed: the turn was aborted/);
    const input = ev('ui_dialog', { title: 'Token?', data: { id: 'd2', method: 'input', message: 'Paste it', options: [] } });
    const [waiting] = rowsOf([input]);
    assert.match(waiting.text, /waiting for you/);
    assert.doesNotMatch(waiting.text, /waiting for you:/, 'no empty option list');
    const [typed] = rowsOf([input, ev('ui_dialog_end', { data: { id: 'd2', outcome: 'answered', answer: null, note: null } })]);
    assert.match(typed.text, /→ answered/);
  });

  it('an assistant message that stopped to call a tool says "calls a tool", not "toolUse"', () => {
    const rows = rowsOf([ev('agent_start'), ev('message_update', { delta: 'Running it.', block_type: 'text' }), ev('message_end', { stop_reason: 'toolUse' })]);
    const text = rows.find((r) => r.e.kind === 'assistant')!.text;
    assert.doesNotMatch(text, /toolUse/);
    assert.match(text, /calls a tool/);
  });

  it('a long reply is described by its opening words, not read in full each time its row takes the focus; its text stays in the row', () => {
    const byId = (root: FakeElement, id: string): FakeElement | null => {
      for (const c of root.children) {
        if (!(c instanceof FakeElement)) continue;
        if (c.id === id) return c;
        const deeper = byId(c, id);
        if (deeper) return deeper;
      }
      return null;
    };
    const long = `${'word '.repeat(2000)}end`;
    const m = new model.LogModel();
    m.apply(stamped([ev('agent_start'), ev('message_start'), ev('message_update', { delta: long, block_type: 'text' })]));
    const reply = () => m.all().find((e) => e.kind === 'assistant')!;
    const row = render.createRow(reply()) as unknown as FakeElement;
    const described = () => byId(row, row.getAttribute('aria-describedby')!)!;
    assert.ok(described(), 'described by an element of the row');
    assert.ok(described().textContent.length <= 200, `a description of ${described().textContent.length} characters`);
    assert.ok(described().textContent.startsWith('word word'), 'the reply\'s opening words');
    assert.ok(described().hidden, 'not drawn nor read a second time with the article');
    assert.equal(row.querySelector('.body')!.textContent, long, 'the whole reply is in the row, read on demand');
    // Streamed on: the description follows the reply's opening, still short.
    m.apply(stamped([ev('message_update', { delta: ' more', block_type: 'text' })]));
    render.updateRow(row as unknown as HTMLElement, reply());
    assert.ok(described().textContent.length <= 200);
    assert.equal(row.children.filter((c) => c instanceof FakeElement && c.hidden).length, 1, 'one description, not one per update');
    // A short prompt is described by its text itself.
    const short = rowsOf([ev('prompt_sent', { data: { text: 'fix the build' } })])[0];
    const shortRow = render.createRow(short.e) as unknown as FakeElement;
    assert.equal(byId(shortRow, shortRow.getAttribute('aria-describedby')!)!.textContent, 'fix the build');
  });
});

describe('ui event log list: what it counts and shows as a live log changes', () => {
  let eventList: typeof import('../../src/webview/eventList');
  let model: typeof import('../../src/webview/model');
  const g = globalThis as unknown as { document?: unknown; ResizeObserver?: unknown };
  before(async () => {
    g.document = { createElement: (tag: string) => new FakeElement(tag), get activeElement() { return focusDoc.activeElement; }, get body() { return focusDoc.body; }, hasFocus: () => focusDoc.pageFocused };
    g.ResizeObserver = class { observe() {} };
    eventList = await import('../../src/webview/eventList');
    model = await import('../../src/webview/model');
  });
  after(() => { delete g.document; delete g.ResizeObserver; });

  /** A clock that never runs what waits on it: the announcements wait for ever (one test turns its own). */
  const stopped = { now: () => 0, setTimeout: () => undefined, clearTimeout: () => undefined };
  /** A list under `matches`, its counter line, and frames drawn until every row is built. */
  const listOf = (matches: (e: Entry) => boolean, maxEntries?: number) => {
    const shown = { counter: '' };
    const list = new eventList.EventList({ matches, why: () => 'the search matches nothing', showAll() {}, showCount: (t) => { shown.counter = t; } }, () => {}, {}, {}, undefined, stopped);
    list.showWorker(true);
    if (maxEntries) list.model = new model.LogModel(maxEntries);
    const el = list.element as unknown as FakeElement;
    const text = (cls: string) => el.querySelector(cls)!;
    return {
      list, shown,
      feed(events: PageEvent[]) {
        list.model.apply(events);
        while (list.draw(Infinity));
      },
      rows: () => text('.rows').children.map((r) => Number((r as FakeElement).attrs.get('data-id'))),
      hiddenLine: () => (text('.hidden-row').hidden ? '' : text('.hidden-text').textContent),
      showMore: () => !text('.link').hidden,
      emptyLine: () => (text('.filtered-empty').hidden ? '' : text('.filtered-text').textContent),
    };
  };
  const searching = (word: string) => (e: Entry) => searchText(e).includes(word);

  it('a reply streamed across frames shows once its text matches the search, and is counted (issue: "0 entries", and "matches nothing")', () => {
    const l = listOf(searching('hello'));
    const s = stamped([ev('agent_start'), ev('message_start'), ev('message_update', { delta: 'he', block_type: 'text' }), ev('message_update', { delta: 'llo world', block_type: 'text' }), ev('message_end')]);
    l.feed(s.slice(0, 3));
    assert.match(l.shown.counter, /^0 entries/);
    assert.match(l.emptyLine(), /matches nothing/);
    l.feed(s.slice(3));
    const reply = l.list.model.all().find((e) => e.kind === 'assistant')!;
    assert.match(l.shown.counter, /^1 entry ·/);
    assert.deepEqual(l.rows(), [reply.id], 'the reply is drawn');
    assert.equal(l.emptyLine(), '', 'the log does not say the search matches nothing');
  });

  it('a tool call that comes to match goes in its place among the rows already drawn', () => {
    const l = listOf(searching('hello'));
    l.feed(stamped([
      ev('prompt_sent', { data: { text: 'say hello' } }),
      ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'bash', args: { command: 'one' } }),
      ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'bash', args: { command: 'two' } }),
      ev('tool_execution_update', { tool_call_id: 'b', result: { output: 'hello from b' } }),
    ]));
    const [prompt, a, b] = l.list.model.all().filter((e) => e.kind === 'prompt' || e.kind === 'tool').map((e) => e.id);
    assert.deepEqual(l.rows(), [prompt, b]);
    l.feed(stamped([ev('tool_execution_update', { tool_call_id: 'a', result: { output: 'hello from a' } })]));
    assert.deepEqual(l.rows(), [prompt, a, b], 'the rows are not in the log\'s order');
    assert.match(l.shown.counter, /^3 entries/);
  });

  it('a tool call whose output no longer matches (its dialect sends the output so far) leaves the rows and the count', () => {
    const l = listOf(searching('downloading'));
    l.feed(stamped([ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'bash', args: { command: 'npm ci' } }), ev('tool_execution_update', { tool_call_id: 'c', replace: true, result: { output: 'downloading 10%' } })]));
    assert.match(l.shown.counter, /^1 entry/);
    assert.equal(l.rows().length, 1);
    l.feed(stamped([ev('tool_execution_update', { tool_call_id: 'c', replace: true, result: { output: 'installed 12 packages' } })]));
    assert.match(l.shown.counter, /^0 entries/);
    assert.deepEqual(l.rows(), []);
    assert.match(l.emptyLine(), /matches nothing/);
  });

  it('an entry that stops matching gives its row to the newest hidden one that matches, so the window stays full and in order', () => {
    const l = listOf(searching('downloading'));
    const calls = Array.from({ length: 502 }, (_, i) => [ev('tool_execution_start', { tool_call_id: `c${i}`, tool_name: 'bash' }), ev('tool_execution_update', { tool_call_id: `c${i}`, replace: true, result: { output: `downloading ${i}` } })]).flat();
    l.feed(stamped(calls));
    assert.equal(l.rows().length, 500);
    assert.equal(l.hiddenLine(), '2 earlier entries hidden');
    const ids = l.list.model.all().filter((e) => e.kind === 'tool').map((e) => e.id);
    l.feed(stamped([ev('tool_execution_update', { tool_call_id: 'c400', replace: true, result: { output: 'installed' } })]));
    const c400 = ids[400];
    // The newest of the two hidden (c1) takes the place the window gave up; c0 stays hidden.
    assert.deepEqual(l.rows(), ids.slice(1).filter((id) => id !== c400));
    assert.equal(l.hiddenLine(), '1 earlier entry hidden');
    assert.match(l.shown.counter, /^501 entries/);
  });

  it('a filter on failed tool calls: a call that ends ok never shows; one cut short by the worker\'s exit does', () => {
    const l = listOf((e) => e.kind === 'tool' && e.isError);
    l.feed(stamped([ev('tool_execution_start', { tool_call_id: 'ok', tool_name: 'bash' }), ev('tool_execution_start', { tool_call_id: 'cut', tool_name: 'bash' })]));
    l.feed(stamped([ev('tool_execution_end', { tool_call_id: 'ok', result: { output: 'fine' } })]));
    assert.match(l.shown.counter, /^0 entries/);
    l.feed(stamped([ev('worker_exit', { data: { status: 'failed' } })]));
    const cut = l.list.model.all().find((e) => e.kind === 'tool' && e.toolCallId === 'cut')!;
    assert.match(l.shown.counter, /^1 entry/);
    assert.deepEqual(l.rows(), [cut.id]);
  });

  it('a past log with lines that could not be read says how many and what the first was, beside its counts', () => {
    const l = listOf(() => true);
    l.list.reset('', { before: 0, after: 0, dropped: 0, unreadable: { lines: 2, first: 'the line at byte 120: not JSON (Unexpected token)' } });
    l.feed(stamped([ev('auto_retry_start', { data: { attempt: 1 } })]));
    assert.equal(l.hiddenLine(), '2 lines of the history could not be read as events and are not shown (the first: the line at byte 120: not JSON (Unexpected token))');
    assert.match(l.shown.counter, / · 2 unreadable$/);
  });

  it('a search kept across a reload of the page matches what it matched when typed (issue: its spaces were kept, and it hid entries)', async () => {
    const { Toolbar } = await import('../../src/webview/toolbar');
    const reply = stamped([ev('message_update', { delta: 'I ran npm test' }), ev('message_end')]);
    const entry = listOf(() => true);
    entry.feed(reply);
    const shown = entry.list.model.all().find((e) => e.kind === 'assistant')!;
    assert.equal(new Toolbar({ hidden: [], search: 'npm test ' }, () => {}, () => {}).matches(shown), true);
    assert.equal(new Toolbar({ hidden: [], search: ' NPM Test' }, () => {}, () => {}).matches(shown), true);
    assert.equal(new Toolbar({ hidden: [], search: 'npm tests' }, () => {}, () => {}).matches(shown), false);
  });

  it('a past log says which bound dropped its events, the events that never reached the history, and an earlier session it could not read', () => {
    const l = listOf(() => true);
    l.list.reset('', {
      before: 0, after: 0, dropped: 20, droppedBy: 'the history removing earlier sessions whole (more than 1 sessions were kept; rpcWorkers.history.maxSessions, rpcWorkers.history.maxTotalMiB)',
      lost: { events: 45, why: 'the last error: ENOSPC: no space left on device' },
      unread: { sessions: 1, first: 'abc: it is no longer in the history' },
    });
    l.feed(stamped([ev('auto_retry_start', { data: { attempt: 1 } })]));
    assert.equal(l.hiddenLine(), [
      '20 oldest events were dropped by the history removing earlier sessions whole (more than 1 sessions were kept; rpcWorkers.history.maxSessions, rpcWorkers.history.maxTotalMiB)',
      '1 earlier session this one resumed could not be read, so its events are not shown (abc: it is no longer in the history)',
      '45 events never reached the history and cannot be shown (the last error: ENOSPC: no space left on device)',
    ].join(' · '));
    assert.match(l.shown.counter, / · 20 dropped · 45 lost · 1 session unread$/);
  });

  it('entries the cap drops leave the count and the rows; the hidden-row line counts them once, and Show more only when more can be shown', () => {
    const l = listOf(() => true, 1000);
    const retries = (n: number) => Array.from({ length: n }, () => ev('auto_retry_start', { data: { attempt: 1 } }));
    l.feed(retries(400));
    l.feed(retries(400));
    l.feed(retries(400));
    assert.equal(l.list.model.length, 1000);
    assert.match(l.shown.counter, /^1,?000 entries/);
    // 500 rows of the 1,000 left are shown: 500 can be shown more, 200 are gone.
    assert.equal(l.rows().length, 500);
    assert.equal(l.hiddenLine(), '500 earlier entries hidden · 200 older entries dropped from this view');
    assert.ok(l.showMore());

    const small = listOf(() => true, 100);
    small.feed(retries(100));
    small.feed(retries(100));
    small.feed(retries(100));
    assert.match(small.shown.counter, /^100 entries/);
    assert.deepEqual(small.rows(), small.list.model.all().map((e) => e.id));
    assert.equal(small.hiddenLine(), '200 older entries dropped from this view');
    assert.ok(!small.showMore(), 'Show more, with nothing more to show');
  });

  it('a matching entry the cap drops takes its row with it', () => {
    const l = listOf(searching('hello'), 100);
    l.feed(stamped([ev('prompt_sent', { data: { text: 'hello' } })]));
    assert.equal(l.rows().length, 1);
    l.feed(Array.from({ length: 150 }, () => ev('auto_retry_start', { data: { attempt: 1 } })));
    assert.match(l.shown.counter, /^0 entries/);
    assert.deepEqual(l.rows(), []);
    assert.match(l.emptyLine(), /^None of the 100 entries is shown/);
  });

  it('one entry hidden or dropped is said as one ("None of the 1 entries", "1 older entries" were said)', () => {
    const l = listOf(searching('nothing matches this'));
    l.feed(stamped([ev('prompt_sent', { data: { text: 'hello' } })]));
    assert.match(l.emptyLine(), /^The one entry is not shown: the search matches nothing/);
    const capped = listOf(() => true, 2);
    capped.feed(Array.from({ length: 3 }, () => ev('auto_retry_start', { data: { attempt: 1 } })));
    assert.equal(capped.hiddenLine(), '1 older entry dropped from this view');
  });

  it('a search that matches what a folded row hides (a call\'s output, thinking) opens the row: the match is in sight, not behind its expander', () => {
    const filter = { matches: (e: Entry) => searchText(e).toLowerCase().includes('enoent'), why: () => '', showAll() {}, showCount() {}, searching: () => 'enoent' };
    const list = new eventList.EventList(filter, () => {}, {}, {}, undefined, stopped);
    list.showWorker(true);
    list.model.apply(stamped([
      ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'bash', args: { command: 'cat x' } }),
      ev('tool_execution_end', { tool_call_id: 'c', result: { output: 'cat: x: ENOENT' }, is_error: true }),
      ev('tool_execution_start', { tool_call_id: 'd', tool_name: 'enoent-probe' }),
      ev('tool_execution_end', { tool_call_id: 'd', result: { output: 'fine' } }),
    ]));
    list.full();
    while (list.draw(Infinity));
    const rows = (list.element as unknown as FakeElement).querySelector('.rows')!.children as FakeElement[];
    assert.equal(rows.length, 2);
    assert.equal(rows[0].querySelector('details')!.open, true, 'the call whose output matches is open');
    assert.equal(rows[1].querySelector('details')!.open, false, 'a call whose title matches stays folded');
  });

  it('a log button pressed by keyboard that hides itself (Show everything, Show more, Jump to latest) hands the focus to the log\'s row, not the page', () => {
    let everything = false;
    const list = new eventList.EventList({ matches: (e) => everything || searchText(e).includes('nothing like it'), why: () => 'the search matches nothing', showAll() { everything = true; list.full(); }, showCount() {} }, () => {}, {}, {}, undefined, stopped);
    list.showWorker(true);
    const el = list.element as unknown as FakeElement;
    const newest = (of: FakeElement) => of.querySelector('.rows')!.children.at(-1);
    const draw = () => { while (list.draw(Infinity)); };
    list.model.apply(stamped([ev('prompt_sent', { data: { text: 'hello' } })]));
    draw();
    const showAll = el.querySelector('.show-all')!;
    assert.ok(!el.querySelector('.filtered-empty')!.hidden, 'the search hides the one entry: Show everything is offered');
    showAll.focus();
    showAll.click();
    // Not before its work is drawn: the focus stays on the button until it hides.
    assert.equal(focusDoc.activeElement, showAll);
    draw();
    assert.ok(showAll.closest('[hidden]'), 'Show everything hides once everything is shown');
    assert.equal(focusDoc.activeElement, newest(el), 'the focus is on the log\'s row (its Tab stop), not dropped to the page');

    // Show more, pressed while more remains to show, keeps the focus; the press that shows the last hands it on.
    const many = new eventList.EventList({ matches: () => true, why: () => '', showAll() {}, showCount() {} }, () => {}, {}, {}, undefined, stopped);
    many.showWorker(true);
    const mel = many.element as unknown as FakeElement;
    many.model.apply(Array.from({ length: 1200 }, () => ev('auto_retry_start', { data: { attempt: 1 } })));
    while (many.draw(Infinity));
    const more = mel.querySelector('.link')!;
    assert.equal(more.textContent, 'Show more');
    more.focus();
    more.click();
    while (many.draw(Infinity));
    assert.equal(focusDoc.activeElement, more, '700 hidden: Show more stays, and the focus with it');
    more.click();
    while (many.draw(Infinity));
    assert.ok(more.hidden);
    assert.equal(focusDoc.activeElement, newest(mel));

    // Focus moved on elsewhere before the button hid: it is left where the person put it.
    list.model.apply(stamped([ev('prompt_sent', { data: { text: 'again' } })]));
    everything = false;
    list.full();
    draw();
    showAll.focus();
    showAll.click();
    const elsewhere = new FakeElement('textarea');
    elsewhere.focus();
    draw();
    assert.equal(focusDoc.activeElement, elsewhere);

    // Jump to latest hides as it is pressed.
    const jump = el.querySelector('.jump')!;
    jump.focus();
    jump.click();
    assert.equal(focusDoc.activeElement, newest(el));
  });

  describe('as a WAI-ARIA feed', () => {
    const retries = (n: number) => Array.from({ length: n }, () => ev('auto_retry_start', { data: { attempt: 1 } }));
    const tool = (id: string) => ev('tool_execution_start', { tool_call_id: id, tool_name: 'bash', args: { command: `echo ${id}` } });
    const rowEls = (l: ReturnType<typeof listOf>) => (l.list.element as unknown as FakeElement).querySelector('.rows')!.children as FakeElement[];
    const stops = (l: ReturnType<typeof listOf>) => rowEls(l).filter((r) => r.tabIndex >= 0).map((r) => Number(r.dataset.id));
    const idOf = (r: FakeNode | null | undefined) => Number((r as FakeElement).attrs.get('data-id'));
    const key = (el: FakeElement, k: string, mods: Record<string, boolean> = {}) => el.dispatch('keydown', { key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods });

    it('the log is one Tab stop (issue: every row\'s expander was one): its rows are articles, the newest in the Tab order, the other rows\' controls out of it', () => {
      const l = listOf((e) => e.kind === 'tool');
      l.feed(stamped([tool('a'), tool('b'), tool('c')]));
      const el = l.list.element as unknown as FakeElement;
      const feed = el.querySelector('.rows')!;
      assert.equal(feed.getAttribute('role'), 'feed');
      assert.equal(feed.getAttribute('aria-busy'), 'false');
      assert.ok(el.querySelector('.list')!.tabIndex < 0, 'the scroller is no Tab stop of its own');
      const rows = rowEls(l);
      assert.deepEqual(rows.map((r) => r.getAttribute('role')), ['article', 'article', 'article']);
      assert.deepEqual(stops(l), [idOf(rows[2])], 'one row in the Tab order: the newest');
      const expanders = rows.map((r) => r.querySelector('summary')!.tabIndex);
      assert.deepEqual(expanders, [-1, -1, 0], 'only the Tab stop\'s own controls are reached by Tab');
      // Named by its header line, placed in the feed.
      assert.deepEqual(rows.map((r) => [r.getAttribute('aria-posinset'), r.getAttribute('aria-setsize')]), [['1', '3'], ['2', '3'], ['3', '3']]);
      const head = rows[0].querySelector('summary')!;
      assert.equal(rows[0].getAttribute('aria-labelledby'), head.id);
      assert.ok(head.id, 'the header has an id');
    });

    it('a row drawn anew (a tool call ending) keeps its controls where the Tab order has them', () => {
      const l = listOf((e) => e.kind === 'tool');
      l.feed(stamped([tool('a'), tool('b')]));
      l.feed(stamped([ev('tool_execution_end', { tool_call_id: 'a', result: { output: 'done' } }), ev('tool_execution_end', { tool_call_id: 'b', result: { output: 'done' } })]));
      assert.deepEqual(rowEls(l).map((r) => r.querySelector('summary')!.tabIndex), [-1, 0]);
    });

    it('Page Down and Page Up move the focus between rows; the row focused stays the Tab stop as new rows come', () => {
      const l = listOf(() => true);
      l.feed(retries(4));
      const rows = rowEls(l);
      rows[3].focus();
      const press = key(rows[3], 'PageUp');
      assert.ok(press.defaultPrevented, 'the key does not scroll the log as well');
      assert.equal(focusDoc.activeElement, rows[2]);
      key(rows[2], 'PageUp');
      key(rows[1], 'PageDown');
      assert.equal(focusDoc.activeElement, rows[2]);
      key(rows[2], 'ArrowUp');
      assert.equal(focusDoc.activeElement, rows[2], 'the arrows still scroll, as before');
      l.feed(retries(2));
      assert.deepEqual(stops(l), [idOf(rows[2])], 'the row the person is on keeps the Tab stop; the new rows do not take it');
      assert.equal(focusDoc.activeElement, rows[2]);
      // At either end the focus stays.
      const all = rowEls(l);
      all[5].focus();
      key(all[5], 'PageDown');
      assert.equal(focusDoc.activeElement, all[5]);
    });

    it('the focused row trimmed away (the window, the cap, a burst) hands the focus to the row that took its place, not the page (issue: focus fell to the body)', () => {
      // The window: 500 rows; 10 more push the oldest 10 out.
      const l = listOf(() => true);
      l.feed(retries(500));
      const oldest = rowEls(l)[0];
      oldest.focus();
      l.feed(retries(10));
      const now = rowEls(l);
      assert.notEqual(now[0], oldest);
      assert.equal(focusDoc.activeElement, now[0], 'the oldest row left holds the focus');
      assert.deepEqual(stops(l), [idOf(now[0])], 'and is the Tab stop');
      assert.equal(now[0].getAttribute('aria-posinset'), '11', 'ten entries hidden above it');
      assert.equal(now[0].getAttribute('aria-setsize'), '510');

      // The model's cap drops the row's entry.
      const capped = listOf(() => true, 100);
      capped.feed(retries(100));
      rowEls(capped)[0].focus();
      capped.feed(retries(30));
      assert.equal(focusDoc.activeElement, rowEls(capped)[0]);
      assert.equal(rowEls(capped)[0].getAttribute('aria-setsize'), '-1', 'entries were dropped: the feed\'s size is not known');

      // A burst larger than a frame's rows redraws from the newest: the newest row had the focus.
      const burst = listOf(() => true);
      burst.feed(retries(5));
      const was = idOf(rowEls(burst)[4]);
      rowEls(burst)[4].focus();
      burst.list.model.apply(retries(100));
      burst.list.draw(Infinity);
      const log = (burst.list.element as unknown as FakeElement).querySelector('.list');
      assert.equal(focusDoc.activeElement, log, 'while its row waits to be drawn again, the log holds the focus');
      while (burst.list.draw(Infinity));
      assert.equal(idOf(focusDoc.activeElement), was, 'then the row of the entry the person was on');
      assert.deepEqual(stops(burst), [was]);
    });

    it('Page Up on the oldest row shown loads the older rows, as Show more does, and moves the focus to the row just older (issue: it did nothing)', () => {
      const l = listOf(() => true);
      l.feed(retries(510));
      assert.ok(l.showMore(), '10 entries older than the window');
      const oldest = rowEls(l)[0];
      oldest.focus();
      key(oldest, 'PageUp');
      const log = (l.list.element as unknown as FakeElement).querySelector('.list');
      assert.equal(focusDoc.activeElement, log, 'the focus waits on the log while the rows are drawn anew, not on the page');
      while (l.list.draw(Infinity));
      assert.equal(l.rows().length, 510, 'Show more\'s rows');
      assert.equal(idOf(focusDoc.activeElement), idOf(oldest) - 1, 'the row just older than the one the person was on');
      assert.deepEqual(stops(l), [idOf(oldest) - 1]);
      // The oldest entry there is: the focus stays.
      const top = rowEls(l)[0];
      top.focus();
      key(top, 'PageUp');
      assert.equal(focusDoc.activeElement, top);
    });

    it('Page Up on the oldest row of a past log\'s page asks for the page before, as Load older does, and lands on the row just older once it is drawn', () => {
      const asked: string[] = [];
      const list = new eventList.EventList({ matches: () => true, why: () => '', showAll() {}, showCount() {} }, () => {}, {}, {}, (to) => asked.push(to), stopped);
      list.showWorker(true);
      const el = list.element as unknown as FakeElement;
      const rowsNow = () => el.querySelector('.rows')!.children as FakeElement[];
      const calls = (from: number, to: number) => stamped(Array.from({ length: to - from }, (_, i) => tool(`t${from + i}`)));
      const page = (before: number, from: number, top: boolean) => {
        list.reset('', { before, after: 0, dropped: 0 }, top);
        list.full();
        list.model.apply(calls(from, 20));
        while (list.draw(Infinity));
      };
      // The newest page: calls t10..t19, ten events older not shown.
      page(10, 10, false);
      assert.ok(!el.querySelector('.load-older')!.hidden, 'Load older is offered');
      const oldest = rowsNow()[0];
      oldest.focus();
      key(oldest, 'PageUp');
      assert.deepEqual(asked, ['older']);
      const log = el.querySelector('.list');
      assert.equal(focusDoc.activeElement, log, 'the focus waits on the log for the page, not on the page\'s body');
      // The host's page before: t0..t19, read from the top.
      page(0, 0, true);
      const focused = list.model.all().find((e) => e.id === idOf(focusDoc.activeElement));
      assert.equal(focused?.kind === 'tool' && focused.toolCallId, 't9', 'the call just older than t10, where the person was');
    });

    // A past log's page starts on a turn's opening only within TURN_SLACK events (pastLog.ts): a
    // reply streamed in more deltas than that, or a call's output in more updates, is cut, and the
    // page shows its tail as a row of its own.
    it('Page Up on a reply or a call cut at the page\'s start lands on the row just older than it in the page before, not on it again (issue: it stayed on it)', () => {
      const asked: string[] = [];
      const list = new eventList.EventList({ matches: () => true, why: () => '', showAll() {}, showCount() {} }, () => {}, {}, {}, (to) => asked.push(to), stopped);
      list.showWorker(true);
      const el = list.element as unknown as FakeElement;
      const page = (session: PageEvent[], before: number, top: boolean) => {
        list.reset('', { before, after: 0, dropped: 0 }, top);
        list.full();
        list.model.apply(session.slice(before));
        while (list.draw(Infinity));
      };
      const said = (id: number) => {
        const e = list.model.all().find((x) => x.id === id);
        return e && [e.kind, e.kind === 'tool' ? e.toolCallId : e.kind === 'turn' ? e.index : 'text' in e ? e.text : ''];
      };
      /** The row the page cut at `cut` opens on, and the row Page Up on it lands on in the page before. */
      const pageUpAcross = (session: PageEvent[], cut: number) => {
        asked.length = 0;
        page(session, cut, false);
        const oldest = (el.querySelector('.rows')!.children as FakeElement[])[0];
        const was = said(idOf(oldest));
        oldest.focus();
        key(oldest, 'PageUp');
        assert.deepEqual(asked, ['older']);
        page(session, 0, true);
        return [was, said(idOf(focusDoc.activeElement))];
      };
      // Two turns' opening (stamped in place: each session its own events).
      const start = () => [ev('prompt_sent', { data: { text: 'first' } }), ev('agent_start'), tool('t0'), ev('agent_end'), ev('prompt_sent', { data: { text: 'second' } }), ev('agent_start')];
      const deltas = Array.from({ length: 6 }, (_, i) => ev('message_update', { delta: `word${i} ` }));
      const reply = stamped([...start(), ev('message_start'), ...deltas, ev('message_end', { message: { role: 'assistant' } }), tool('t1')]);
      assert.deepEqual(pageUpAcross(reply, reply.findIndex((e) => e.delta === 'word3 ')), [['assistant', 'word3 word4 word5 '], ['turn', 2]], 'the row of the reply\'s turn, not the whole reply');
      const updates = Array.from({ length: 4 }, (_, i) => ev('tool_execution_update', { tool_call_id: 't1', result: { output: `line${i}\n` } }));
      const call = stamped([...start(), tool('t1'), ...updates, ev('tool_execution_end', { tool_call_id: 't1', result: { output: 'done' } })]);
      assert.deepEqual(pageUpAcross(call, call.indexOf(updates[2])), [['tool', 't1'], ['turn', 2]], 'the row of the call\'s turn, not the whole call');
    });

    it("with no worker, the empty log's hint follows the workers messages: untrusted says why none starts, trust granted says how to start one again", async () => {
      const { parseHostMessage } = await import('../../src/protocol/hostMessages');
      const list = new eventList.EventList({ matches: () => true, why: () => '', showAll() {}, showCount() {} }, () => {}, {}, {}, undefined, stopped);
      list.showWorker(false);
      const empty = (list.element as unknown as FakeElement).querySelector('.empty')!;
      assert.ok(!empty.hidden);
      // The two the host sends: with the page's load in an untrusted workspace, and at the grant (ui.trustGranted.test.ts).
      for (const [msg, hint] of [[{ type: 'workers', workers: [], selected: null, untrusted: true }, /not trusted/], [{ type: 'workers', workers: [], selected: null }, /^No worker selected\. Start one from the Sessions view/]] as const) {
        const parsed = parseHostMessage(msg);
        assert.ok(parsed.success && parsed.data.type === 'workers');
        list.trust(parsed.data.untrusted === true);
        assert.match(empty.textContent, hint);
      }
    });

    describe('a past log\'s page asked for and not given', () => {
      /** A page of a past log, `before` events older not shown, that records what it asks the host. */
      const pastList = () => {
        const asked: string[] = [];
        const list = new eventList.EventList({ matches: () => true, why: () => '', showAll() {}, showCount() {} }, () => {}, {}, {}, (to) => asked.push(to), stopped);
        list.showWorker(true);
        const el = list.element as unknown as FakeElement;
        const page = (before: number, after = 0) => {
          list.reset('', { before, after, dropped: 0 });
          list.full();
          list.model.apply(stamped(Array.from({ length: 5 }, (_, i) => tool(`t${i}`))));
          while (list.draw(Infinity));
        };
        const button = el.querySelector('.load-older')!;
        const line = () => (el.querySelector('.hidden-row')!.hidden ? '' : el.querySelector('.hidden-text')!.textContent);
        return { list, el, asked, page, button, line, rows: () => el.querySelector('.rows')!.children as FakeElement[] };
      };

      it('a log no longer held says so where Load older was, and Load older and Page Up ask no more (issue: "Loading…" for ever)', () => {
        const p = pastList();
        p.page(10);
        p.button.click();
        assert.equal(p.button.textContent, 'Loading…');
        p.list.pastFailed('older', 'the log is no longer held', false);
        p.list.draw(Infinity);
        assert.ok(p.button.hidden, 'no Load older that cannot load');
        assert.match(p.line(), /10 older events not shown · the log is no longer held/);
        const oldest = p.rows()[0];
        oldest.focus();
        key(oldest, 'PageUp');
        assert.equal(focusDoc.activeElement, oldest, 'Page Up on the oldest row stays there');
        assert.deepEqual(p.asked, ['older'], 'nothing more asked of a host that holds nothing');
        // Another log shown: it asks again.
        p.page(10);
        assert.ok(!p.button.hidden);
        assert.doesNotMatch(p.line(), /no longer held/);
        p.button.click();
        assert.deepEqual(p.asked, ['older', 'older']);
      });

      it('a page that could not be read says why, and Load older is offered again', () => {
        const p = pastList();
        p.page(10);
        p.button.click();
        p.list.pastFailed('older', 'could not read the older events: EIO', true);
        p.list.draw(Infinity);
        assert.equal(p.button.textContent, 'Load older');
        assert.ok(!p.button.hidden);
        assert.match(p.line(), /could not read the older events: EIO/);
        p.button.click();
        assert.deepEqual(p.asked, ['older', 'older'], 'the second press asks again');
      });

      it('Page Up that asked for the page before gets the focus back on its row when none comes (issue: it waited on the log for ever)', () => {
        const p = pastList();
        p.page(10);
        const oldest = p.rows()[0];
        oldest.focus();
        key(oldest, 'PageUp');
        const log = p.el.querySelector('.list');
        assert.equal(focusDoc.activeElement, log, 'waiting on the log for the page');
        p.list.pastFailed('older', 'the log is no longer held', false);
        while (p.list.draw(Infinity));
        assert.equal(focusDoc.activeElement, oldest, 'back on the row it was on');
      });

      it('Show newest that got no page says so where it was, and asks no more when the log is gone', () => {
        const p = pastList();
        p.page(10, 20);
        const newest = p.el.querySelector('.show-newest')!;
        const newerLine = () => p.el.querySelector('.newer-row')!.querySelector('.hidden-text')!.textContent;
        newest.click();
        p.list.pastFailed('newest', 'the log is no longer held', false);
        p.list.draw(Infinity);
        assert.match(newerLine(), /20 newer events not shown · the log is no longer held/);
        assert.ok(newest.hidden, 'no Show newest that cannot show');
        newest.click();
        assert.deepEqual(p.asked, ['newest']);
      });

      it('a failure answer for an ask another page\'s reset of the log already ended says nothing (issue: a note nobody asked for)', () => {
        const p = pastList();
        p.page(10);
        p.button.click();
        // The side bar's page on the same log moved it: this page is reset, and waits no more.
        p.page(12);
        p.list.pastFailed('older', 'could not read the older events: EIO', true, 1);
        p.list.draw(Infinity);
        assert.doesNotMatch(p.line(), /EIO/);
        assert.equal(p.button.textContent, 'Load older');
      });

      it('a failure answer for an earlier ask does not end the ask it waits for now', () => {
        const p = pastList();
        p.page(10);
        p.button.click();
        p.page(12);
        p.button.click();
        assert.deepEqual(p.asked, ['older', 'older']);
        p.list.pastFailed('older', 'could not read the older events: stale', true, 1);
        p.list.draw(Infinity);
        assert.equal(p.button.textContent, 'Loading…', 'still waiting for its own answer');
        assert.doesNotMatch(p.line(), /stale/);
        p.list.pastFailed('older', 'could not read the older events: EIO', true, 2);
        p.list.draw(Infinity);
        assert.equal(p.button.textContent, 'Load older');
        assert.match(p.line(), /could not read the older events: EIO/);
      });

      it('a page switched to another log while it asked asks that log\'s pages again (the reset ends the wait)', () => {
        const p = pastList();
        p.page(10);
        p.button.click();
        assert.equal(p.button.textContent, 'Loading…');
        p.page(30);
        assert.equal(p.button.textContent, 'Load older');
        p.button.click();
        assert.deepEqual(p.asked, ['older', 'older']);
      });
    });

    it('a row that no longer matches leaves the focus on the next row', () => {
      const l = listOf(searching('echo'));
      l.feed(stamped([tool('a'), tool('b'), tool('c')]));
      const [, b, c] = rowEls(l);
      b.querySelector('summary')!.focus();
      assert.deepEqual(stops(l), [idOf(b)], 'a control in a row makes the row the Tab stop');
      // b's command is replaced by one that no longer matches the search.
      l.feed(stamped([ev('tool_execution_update', { tool_call_id: 'b', args: { command: 'ls' } })]));
      assert.ok(!rowEls(l).includes(b));
      assert.equal(focusDoc.activeElement, c);
    });
  });

  it('new rows are said in the log\'s live line, gathered, while the person is in the log and follows its end (issue: a screen reader heard nothing)', () => {
    const timers: Array<{ at: number; run: () => void }> = [];
    let now = 0;
    const clock = { now: () => now, setTimeout: (run: () => void, ms: number) => { const t = { at: now + ms, run }; timers.push(t); return t; }, clearTimeout: (t: unknown) => { timers.splice(timers.indexOf(t as (typeof timers)[number]) >>> 0, 1); } };
    const advance = (ms: number) => { now += ms; for (const t of timers.splice(0).sort((a, b) => a.at - b.at)) if (t.at <= now) t.run(); else timers.push(t); };
    const list = new eventList.EventList({ matches: () => true, why: () => '', showAll() {}, showCount() {} }, () => {}, {}, {}, undefined, clock);
    list.showWorker(true);
    const el = list.element as unknown as FakeElement;
    const line = el.querySelector('.sr-only')!;
    const feed = (events: PageEvent[]) => { list.model.apply(events); while (list.draw(Infinity)); };
    assert.equal(line.getAttribute('role'), 'status');
    feed(stamped([ev('prompt_sent', { data: { text: 'hi' } })]));
    (el.querySelector('.rows')!.children.at(-1) as FakeElement).focus();
    feed(stamped([ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read_file' }), ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'bash' })]));
    feed(stamped([ev('message_start'), ev('message_update', { delta: 'ok', block_type: 'text' })]));
    assert.equal(line.textContent, '', 'not once per row');
    advance(5000);
    assert.match(line.textContent, /^\d new entr(y|ies): .*tool call read_file, tool call bash/);

    // Scrolled up: the Jump to latest count is enough.
    const scroller = el.querySelector('.list')!;
    Object.assign(scroller, { scrollHeight: 1000, clientHeight: 100, scrollTop: 500 });
    scroller.dispatch('scroll');
    scroller.scrollTop = 100;
    scroller.dispatch('scroll');
    const before = line.textContent;
    feed(stamped([ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'grep' })]));
    advance(5000);
    assert.equal(line.textContent, before, 'nothing said while scrolled up');

    // Focus elsewhere (the composer), following again: nothing either.
    scroller.scrollTop = 905;
    scroller.dispatch('scroll');
    new FakeElement('textarea').focus();
    feed(stamped([ev('tool_execution_start', { tool_call_id: 'd', tool_name: 'ls' })]));
    advance(5000);
    assert.equal(line.textContent, before, 'nothing said with the focus out of the log');
  });

  it('Jump to latest counts the entries that came while the person was scrolled up, and forgets them at the end of the log (issue: it said no count, the README said it did)', () => {
    const list = new eventList.EventList({ matches: () => true, why: () => '', showAll() {}, showCount() {} }, () => {}, {}, {}, undefined, stopped);
    list.showWorker(true);
    const el = list.element as unknown as FakeElement;
    const jump = el.querySelector('.jump')!;
    const feed = (events: PageEvent[]) => { list.model.apply(events); while (list.draw(Infinity)); };
    feed(stamped([ev('prompt_sent', { data: { text: 'hi' } })]));
    const scroller = el.querySelector('.list')!;
    Object.assign(scroller, { scrollHeight: 1000, clientHeight: 100, scrollTop: 500 });
    scroller.dispatch('scroll');
    scroller.scrollTop = 100;
    scroller.dispatch('scroll');
    assert.equal(jump.textContent.trim(), 'Jump to latest', 'nothing new yet');
    feed(stamped([ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read_file' }), ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'bash' })]));
    // The turn the calls opened, and the two calls.
    assert.equal(jump.textContent.trim(), 'Jump to latest (3 new)');
    assert.equal(jump.getAttribute('aria-label'), 'Jump to latest, 3 new entries');
    // A reply growing is no new entry; a new one is.
    feed(stamped([ev('tool_execution_update', { tool_call_id: 'b', partial_result: 'x' }), ev('message_start'), ev('message_update', { delta: 'ok', block_type: 'text' })]));
    assert.equal(jump.textContent.trim(), 'Jump to latest (4 new)');
    jump.click();
    assert.equal(jump.textContent.trim(), 'Jump to latest', 'seen once jumped to');
    // Scrolled up again and back down by hand: seen too.
    scroller.scrollTop = 100;
    scroller.dispatch('scroll');
    feed(stamped([ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'grep' })]));
    assert.equal(jump.textContent.trim(), 'Jump to latest (2 new)', 'a turn and its call, counted from nothing again');
    scroller.scrollTop = 905;
    scroller.dispatch('scroll');
    assert.equal(jump.textContent.trim(), 'Jump to latest');
  });

  it('a worker switch says neither what was gathered of the worker before nor the new worker\'s log so far as new rows (issue: its backlog was said as new); its new rows it says', () => {
    const timers: Array<{ at: number; run: () => void }> = [];
    let now = 0;
    const clock = { now: () => now, setTimeout: (run: () => void, ms: number) => { const t = { at: now + ms, run }; timers.push(t); return t; }, clearTimeout: (t: unknown) => { const i = timers.indexOf(t as (typeof timers)[number]); if (i >= 0) timers.splice(i, 1); } };
    const advance = (ms: number) => { now += ms; for (const t of timers.splice(0).sort((a, b) => a.at - b.at)) if (t.at <= now) t.run(); else timers.push(t); };
    const list = new eventList.EventList({ matches: () => true, why: () => '', showAll() {}, showCount() {} }, () => {}, {}, {}, undefined, clock);
    list.showWorker(true);
    const el = list.element as unknown as FakeElement;
    const line = el.querySelector('.sr-only')!;
    const draw = () => { while (list.draw(Infinity)); };
    list.model.apply(stamped([ev('prompt_sent', { data: { text: 'hi' } })]));
    draw();
    (el.querySelector('.rows')!.children.at(-1) as FakeElement).focus();
    list.model.apply(stamped([ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read_file' })]));
    draw();
    assert.equal(timers.length, 1, 'the old worker\'s row is gathered');
    // Another worker: the host resets the page, then replays its log so far, which comes over frames.
    const backlog = stamped([ev('prompt_sent', { data: { text: 'build it' } }), ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'make' }), ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'test' })]);
    list.reset('', undefined, false, backlog.length);
    list.full();
    assert.equal(timers.length, 0, 'the old worker\'s announcement no longer waits');
    draw();
    list.model.apply(backlog.slice(0, 1));
    draw();
    list.model.apply(backlog.slice(1));
    draw();
    assert.ok(el.contains(focusDoc.activeElement), 'the person is still in the log');
    advance(5000);
    assert.equal(line.textContent, '', 'neither the old worker\'s row nor the new one\'s backlog is said as new');
    list.model.apply(stamped([ev('tool_execution_start', { tool_call_id: 'd', tool_name: 'deploy' })]));
    draw();
    advance(5000);
    assert.match(line.textContent, /^\d new entr(y|ies): .*tool call deploy$/, 'its new rows are said');
    assert.doesNotMatch(line.textContent, /make|test|prompt|read_file/);
  });
});
