// The log itself: the newest matching entries as rows (a bounded window of them), the notes on
// what is not shown, and the scroll that follows the newest entry until the person scrolls up.
// It holds the worker's folded model; the scheduler says when to fold and when to draw.
import { Announcer, inLog, type AnnounceClock } from './announce';
import { h, setText } from './dom';
import { emptyLogHint } from './emptyHint';
import { JumpToLatest } from './jumpToLatest';
import type { Entry } from './entries';
import { LogModel } from './model';
import { OlderPageFocus, olderShown } from './feedEdge';
import { feedKey, feedTarget, focusHeir, olderRows, tabStop, type OlderRows } from './feedKeys';
import { createRow, openToShow, updateRow } from './render';
import type { PastCounts } from '../protocol/hostMessages';
import { PastPager, type PastTo } from './pastPager';
import { listenToLinks, type RowLinks } from './rowLinks';
import { RowWindow } from './rowWindow';
import type { ListFilter } from './toolbar';

/** Rows kept in the DOM (more on request, up to the max). */
const DOM_ROWS = 500;
const DOM_ROWS_MAX = 5000;
/** Rows built in one frame at most: a full redraw or a burst is spread over frames. */
const ROWS_PER_FRAME = 25;
/** This close to the bottom counts as at the bottom. */
const BOTTOM_SLACK_PX = 40;
/** What in a row takes the focus: out of the Tab order but in the feed's one stop (feedKeys.ts). */
const ROW_CONTROLS = 'summary, button, a[href], input, select, textarea';
/** What the focus may go to on leaving the feed (Ctrl+End, Ctrl+Home). */
const TABBABLE = 'button, [href], input, select, textarea, summary, [tabindex]';

export class EventList {
  readonly element: HTMLElement;
  model = new LogModel();
  // The scroller takes the focus only when given it (no row to give it to): a row is the log's Tab stop.
  private readonly list = h('div', { class: 'list', attrs: { role: 'region', 'aria-label': 'Event log', tabindex: '-1' } });
  private readonly rows = h('div', { class: 'rows', attrs: { role: 'feed', 'aria-label': 'Entries', 'aria-busy': 'false' } });
  private readonly hiddenRow = h('div', { class: 'hidden-row' });
  private readonly showMore = h('button', { class: 'link', text: 'Show more' });
  /** A past log's Load older and Show newest, and their asks of the host. */
  private readonly pager: PastPager;
  /** The row Page Up asked for the page before on: the focus goes back to it when no page comes. */
  private askedFrom: number | null = null;
  private readonly empty = h('div', { class: 'empty', text: emptyLogHint(false) });
  private readonly filteredEmpty = h('div', { class: 'filtered-empty', attrs: { role: 'status' } }, h('span', { class: 'filtered-text' }), h('button', { class: 'link show-all', text: 'Show everything' }));
  private readonly jumpTo = new JumpToLatest();
  private readonly win: RowWindow<HTMLElement>;
  /** A screen reader's line for the new rows (announce.ts): polite, said now and then, never drawn. */
  private readonly spoken = h('div', { class: 'sr-only', attrs: { role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' } });
  private readonly announcer: Announcer;
  /** The events of the log so far that the host replays after a reset: their rows are not new. */
  private replayed = 0;
  private hasWorker = false;
  private storeNote = '';
  private pinned = true;
  private lastScrollTop = 0;
  private needsFull = true;
  private lastAppendedId = 0;
  /**
   * The ids of the model's entries that matched the filter when last tested: what the counter,
   * the hidden-row line and Show more count. Kept per entry, not as a number, so that an entry
   * that changes (a reply streamed, a tool's end) and one that leaves the model (its cap) is
   * counted in or out by itself, without testing the whole log again.
   */
  private readonly matching = new Set<number>();
  /** A button of the log pressed by keyboard, until it hides (the focus then goes to the log) or the focus moves on. */
  private refocusFrom: HTMLElement | null = null;
  /** `model.dropped` when last drawn. */
  private droppedSeen = 0;
  /** The row in the Tab order (roving tabindex), and the entry last focused, which keeps that place while it has a row. */
  private stop: HTMLElement | null = null;
  private chosen: number | null = null;
  /** The entry whose row gets the focus once built: the focus waits on the log meanwhile. */
  private focusTo: number | null = null;
  /** That row is scrolled into sight as it takes the focus (Page Up brought it), not only focused. */
  private focusShows = false;
  /** Page Up on the oldest row asked for the page before of a past log: the row just older there gets the focus. */
  private readonly olderPage = new OlderPageFocus();

  /** `redraw`: ask for a frame; `marks`: where the page says what it holds (the host tests read it). */
  /** `pastPage`: ask the host for the page before, or the newest again, of a past log (`req` numbers the ask). `clock`: the announcements' (the tests drive it). */
  constructor(private readonly filter: ListFilter, private readonly redraw: () => void, private readonly marks: DOMStringMap, links: RowLinks = {}, pastPage?: (to: PastTo, req: number) => unknown, clock: AnnounceClock = { now: () => performance.now(), setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>) }) {
    const rows = this.rows;
    const pager = (this.pager = new PastPager(pastPage));
    this.announcer = new Announcer(clock, () => this.listening(), (text) => this.sayNew(text));
    listenToLinks(rows, links, () => this.model);
    this.win = new RowWindow<HTMLElement>({
      create: (e) => this.tame(openToShow(createRow(e), this.filter.searching?.() ?? ''), false),
      update: (r, e) => {
        updateRow(r, e);
        this.tame(r, r === this.stop);
      },
      append: (r) => rows.append(...r),
      prepend: (r) => rows.prepend(...r),
      remove: (r) => r.remove(),
      insert: (r, before) => rows.insertBefore(r, before),
      clear: () => rows.replaceChildren(),
    }, DOM_ROWS);
    this.filteredEmpty.hidden = true;
    this.hiddenRow.append(h('span', { class: 'hidden-text' }), this.showMore, pager.loadOlder);
    this.hiddenRow.hidden = true;
    this.showMore.hidden = true;
    this.list.append(this.hiddenRow, rows, pager.newerRow, this.empty, this.filteredEmpty);
    pager.loadOlder.addEventListener('click', () => pager.request('older'));
    pager.showNewest.addEventListener('click', () => pager.request('newest'));
    this.element = h('div', { class: 'list-wrap' }, this.list, this.jumpTo.element, this.spoken);

    this.filteredEmpty.querySelector('.show-all')!.addEventListener('click', () => filter.showAll());
    // These buttons hide once they have done their work (the rows they asked for are drawn, or
    // the host's page came): pressed by keyboard, the focus would drop to the page, and the next
    // Tab start from its top. The log takes it once the button is hidden (see finishDraw).
    for (const b of [this.showMore, pager.loadOlder, pager.showNewest, this.filteredEmpty.querySelector<HTMLElement>('.show-all')!]) {
      b.addEventListener('click', () => {
        if (document.activeElement === b) this.refocusFrom = b;
      });
    }
    // The row focused (by key or click) is the feed's Tab stop from now on.
    rows.addEventListener('focusin', (ev) => {
      const row = this.rowAround(ev.target);
      if (!row) return;
      this.chosen = Number(row.dataset.id);
      this.syncStop();
    });
    rows.addEventListener('keydown', (ev) => this.feedKeys(ev));
    this.showMore.addEventListener('click', () => this.showMoreRows());
    // Auto-scroll pauses when the person scrolls up, and resumes at the bottom. Only a move up
    // unpins: the log growing below (rows settling their height) never does.
    this.list.addEventListener('scroll', () => {
      const top = this.list.scrollTop;
      const atBottom = this.list.scrollHeight - top - this.list.clientHeight < BOTTOM_SLACK_PX;
      if (atBottom) this.pinned = true;
      else if (top < this.lastScrollTop - 2) this.pinned = false;
      this.lastScrollTop = top;
      this.jumpTo.show(!this.pinned);
    }, { passive: true });
    // Rows measure themselves after they are drawn (content-visibility): stay at the bottom.
    new ResizeObserver(() => { if (this.pinned) this.toBottom(); }).observe(rows);
    this.jumpTo.element.addEventListener('click', () => {
      // It hides at once: the focus goes to the log's newest row, where the latest entry now is.
      if (document.activeElement === this.jumpTo.element) {
        this.chosen = null;
        this.syncStop();
        this.focusFeed();
      }
      // A past log shown from further back: its newest page is the latest.
      if (pager.newerToAsk) return void pager.request('newest');
      this.pinned = true;
      this.toBottom();
      this.jumpTo.show(false);
    });
  }

  /** New rows are said only to a person in the log who follows its end. */
  private listening(): boolean {
    return this.pinned && inLog(document, this.list);
  }

  private sayNew(text: string): void {
    // The same words again (one more reply) are a change too, or the region says nothing.
    this.spoken.textContent = text === this.spoken.textContent ? `${text}\u00a0` : text;
  }

  /** Rows built. */
  get built(): number {
    return this.win.built;
  }

  /**
   * A new worker's log (or none): an empty model, the default window, following the newest.
   * `past`: a log read a page at a time; `top`: the person went back in it, and its oldest
   * entries are drawn first, at the top, where they are read. `replay`: the events sent next are
   * the log so far, not new (a screen reader is not told of them as new rows).
   */
  reset(storeNote: string, past?: PastCounts, top = false, replay = 0): void {
    this.model = new LogModel();
    // What was gathered of the log before is not said over this one.
    this.announcer.stop();
    this.replayed = replay;
    this.storeNote = storeNote;
    this.pager.reset(past);
    this.askedFrom = null;
    // Another log's ids: the row last focused is not among them.
    this.chosen = null;
    this.focusTo = null;
    this.focusShows = false;
    this.olderPage.reset(past, top, this.model);
    this.fromTop = top;
    this.win.max = top ? DOM_ROWS_MAX : DOM_ROWS;
    this.pinned = !top;
    this.jumpTo.fresh(top);
    if (top) this.list.scrollTop = 0;
  }

  private fromTop = false;

  /**
   * The host gave no page for the ask, and no reset follows: the page stops waiting, says why beside
   * the button that asked (and to a screen reader), and Page Up's focus goes back to its row.
   * `held`: the host still holds the log (a read failed), and asking again may work.
   */
  pastFailed(to: PastTo, why: string, held: boolean, seq?: number): void {
    // An answer to an ask it no longer waits for: a reset ended that wait (another page moved the
    // log), or it asked again since; its note would stand beside a button nobody pressed.
    if (!this.pager.failed(to, why, held, seq)) return;
    this.olderPage.cancel();
    const row = this.askedFrom !== null ? this.win.rowOf(this.askedFrom) : undefined;
    this.askedFrom = null;
    if (document.activeElement === this.list) (row ?? this.list).focus({ preventScroll: true });
    this.sayNew(why);
    this.redraw();
  }

  /** Show more: a window of DOM_ROWS more rows, older ones, drawn anew. */
  private showMoreRows(): void {
    this.win.max = Math.min(DOM_ROWS_MAX, this.win.max + DOM_ROWS);
    this.pinned = false;
    this.full();
  }

  /** Whether workers may start here: the empty log says how to start one, or why none starts. */
  trust(untrusted: boolean): void {
    setText(this.empty, emptyLogHint(untrusted));
  }

  showWorker(present: boolean): void {
    this.hasWorker = present;
    this.empty.hidden = present;
  }

  /** Draw every row anew on the next frame (the filter or the worker changed). */
  full(): void {
    this.needsFull = true;
    this.redraw();
  }

  /** One frame's drawing: see RenderScheduler. True while rows still wait to be built. */
  draw(deadline: number): boolean {
    const focused = this.focusedRow();
    if (this.needsFull) this.drawAll();
    else this.drawDirty();
    // Reading a size lays out the rows built so far, so their layout is paid inside the budget
    // (a long reply costs more to lay out than to build) instead of after it, unmeasured.
    if (this.win.waiting) this.win.step(ROWS_PER_FRAME, () => this.rows.offsetHeight >= 0 && performance.now() < deadline);
    this.finishDraw();
    // The page Page Up asked for came: the focus waits on the log for the row just older than the one it was on.
    const older = this.olderPage.find(this.model, this.matching, document.activeElement === this.list);
    if (older !== null) [this.focusTo, this.focusShows] = [older, true];
    this.keepFocus(focused);
    return this.win.waiting > 0;
  }

  /** The id of the row holding the focus (itself or a control in it), null if none does. */
  private focusedRow(): number | null {
    const row = this.rowAround(document.activeElement);
    return row ? Number(row.dataset.id) : null;
  }

  /** The feed's row that holds `node` (the row itself or a control in it), null if none does. */
  private rowAround(node: EventTarget | null): HTMLElement | null {
    const row = (node as Element | null)?.closest?.('.entry') as HTMLElement | null | undefined;
    return row?.parentElement === this.rows ? row : null;
  }

  /**
   * The row that held the focus left in this frame (the window trimmed, a page of a past log
   * came, the row no longer matches) or was drawn anew under it: the focus goes to the row that
   * took its place, or the log, never to the page's body, where the next Tab starts from the top.
   */
  private keepFocus(had: number | null): void {
    const active = document.activeElement;
    let lost: number;
    if (this.focusTo !== null && active === this.list) {
      // Waiting on the log for a row a burst took down (the window builds the newest rows first).
      lost = this.focusTo;
    } else {
      this.focusTo = null;
      this.focusShows = false;
      if (had === null || (active && active !== document.body && this.rows.contains(active))) return;
      lost = had;
    }
    // The entry itself if it is still kept (drawn anew, or waiting to be), else the one after it.
    const kept = this.win.keptIds();
    const i = kept.includes(lost) ? kept.indexOf(lost) : focusHeir(kept, lost);
    const id = i >= 0 ? kept[i] : null;
    const row = id !== null ? this.win.rowOf(id) : undefined;
    this.chosen = id;
    this.focusTo = row ? null : id;
    this.syncStop();
    (row ?? this.list).focus({ preventScroll: !(row && this.focusShows) });
    if (row) this.focusShows = false;
  }

  /**
   * Page Up on the oldest row drawn, with older rows to come (olderRows): they come as the log's
   * buttons bring them, and the focus waits on the log for the row just older than this one.
   */
  private pageUpOlder(id: number, how: Exclude<OlderRows, null>): void {
    if (how === 'loadOlder') {
      this.olderPage.ask(this.model, id, this.pager.past?.before ?? 0);
      this.askedFrom = id;
      this.list.focus({ preventScroll: true });
      this.pager.request('older');
      return;
    }
    // Kept and waiting above, or hidden by the window (Show more).
    const to = olderShown(this.model, id, this.matching);
    if (to === null) return;
    this.focusTo = to;
    this.focusShows = true;
    this.list.focus({ preventScroll: true });
    if (how === 'showMore') this.showMoreRows();
    else this.redraw();
  }

  /** The log's focus: its Tab stop row, or the log itself while it shows no row. */
  focusFeed(): void {
    (this.stop ?? this.list).focus({ preventScroll: true });
  }

  /** A row's own controls: in the Tab order while it is the feed's stop, out of it otherwise. */
  private tame(row: HTMLElement, on: boolean): HTMLElement {
    row.querySelectorAll<HTMLElement>(ROW_CONTROLS).forEach((c) => { c.tabIndex = on ? 0 : -1; });
    return row;
  }

  /** One row in the Tab order: the one last focused while it is drawn, else the newest. */
  private syncStop(): void {
    const ids = this.win.builtIds;
    const i = tabStop(ids, this.chosen);
    const row = i >= 0 ? (this.win.rowOf(ids[i]) ?? null) : null;
    if (row === this.stop) return;
    if (this.stop) {
      this.stop.tabIndex = -1;
      this.tame(this.stop, false);
    }
    this.stop = row;
    if (row) {
      row.tabIndex = 0;
      this.tame(row, true);
    }
  }

  /** The feed pattern's keys, from a row or a control in it. */
  private feedKeys(ev: KeyboardEvent): void {
    const move = feedKey(ev.key, ev);
    const row = this.rowAround(ev.target);
    if (!move || !row) return;
    ev.preventDefault();
    if (move === 'after' || move === 'before') return this.leave(move);
    const ids = this.win.builtIds;
    const id = Number(row.dataset.id);
    const from = ids.indexOf(id);
    if (move === 'previous' && from === 0) {
      // The feed's edge: it loads more, as Show more and Load older would.
      const how = olderRows({ waitingAbove: this.win.before, showMore: !this.showMore.hidden, loadOlder: this.pager.canLoadOlder });
      if (how) return this.pageUpOlder(id, how);
    }
    const to = feedTarget(move, from, ids.length);
    this.win.rowOf(ids[to])?.focus();
  }

  /** Ctrl+End, Ctrl+Home: to the first control after the feed, or the last one before it. */
  private leave(to: 'after' | 'before'): void {
    const rows = this.rows;
    const usable = Array.from(document.querySelectorAll<HTMLElement>(TABBABLE)).filter((el) => el.tabIndex >= 0 && !rows.contains(el) && !(el as HTMLButtonElement).disabled && !el.closest('[hidden]') && el.getClientRects().length > 0);
    const side = to === 'after' ? Node.DOCUMENT_POSITION_FOLLOWING : Node.DOCUMENT_POSITION_PRECEDING;
    const beside = usable.filter((el) => rows.compareDocumentPosition(el) & side);
    (to === 'after' ? beside[0] : beside[beside.length - 1])?.focus();
  }

  private toBottom(): void {
    this.list.scrollTop = this.list.scrollHeight;
    this.lastScrollTop = this.list.scrollTop;
  }

  private drawAll(): void {
    this.needsFull = false;
    this.model.takeDirty();
    const all = this.model.all();
    const chosen: Entry[] = [];
    this.matching.clear();
    this.droppedSeen = this.model.dropped;
    for (let i = all.length - 1; i >= 0; i--) {
      const e = all[i];
      if (!this.filter.matches(e)) continue;
      this.matching.add(e.id);
      if (chosen.length < this.win.max) chosen.push(e);
    }
    if (this.fromTop) {
      // The oldest first: the page the person went back to starts at the top.
      chosen.length = 0;
      for (const e of all) if (this.filter.matches(e) && chosen.length < this.win.max) chosen.push(e);
      this.win.reset(chosen, true);
    } else {
      this.win.reset(chosen.reverse());
    }
    this.lastAppendedId = all.length ? all[all.length - 1].id : 0;
  }

  private drawDirty(): void {
    const { model, win, matching } = this;
    this.dropGone();
    const fresh: Entry[] = [];
    for (const e of model.takeDirty()) {
      if (e.id > this.lastAppendedId) {
        this.lastAppendedId = e.id;
        fresh.push(e);
        continue;
      }
      // Changed since it was drawn (a reply grows, a tool ends): what it says now may match the
      // search or a filter, or no longer. Only the entries that changed are tested again.
      const now = this.filter.matches(e);
      if (now === matching.has(e.id)) {
        if (now) win.refresh(e);
      } else if (now) {
        // The window keeps the newest matching entries: one older than all it keeps joins them
        // only if none is hidden, or the rows would skip the hidden ones between.
        const hidden = matching.size > win.size;
        matching.add(e.id);
        if (!hidden || e.id > win.firstId) win.insert(e);
      } else {
        matching.delete(e.id);
        win.delete(e);
      }
    }
    // After the changed ones: the window's count above leaves out these, not yet added.
    const shown = fresh.filter((e) => this.filter.matches(e));
    for (const e of shown) matching.add(e.id);
    win.add(shown);
    const added = shown.filter((e) => model.madeByEvent(e.id) >= this.replayed);
    this.announcer.added(added);
    this.jumpTo.add(added.length);
    this.fillFromHidden();
  }

  /**
   * Entries that stopped matching left room in the window while older matching ones are hidden:
   * the newest of those take it, so the rows stay the newest matching entries, contiguous. Ids run
   * from 1 in the log's order, so an id's entry is found by its place, and the walk goes back from
   * the oldest kept only as far as it must.
   */
  private fillFromHidden(): void {
    const { model, win, matching } = this;
    let room = Math.min(win.max, matching.size) - win.size;
    if (room <= 0) return;
    const first = model.length ? model.at(0).id : 0;
    for (let id = (win.firstId || this.lastAppendedId + 1) - 1; id >= first && room > 0; id--) {
      if (!matching.has(id)) continue;
      const e = model.at(id - first);
      if (e?.id !== id) return; // not the log's order after all: leave it to the next full draw
      win.insert(e);
      room--;
    }
  }

  /**
   * The model's cap dropped its oldest entries since the last frame: they are counted out and their
   * rows leave. Ids are given from 1 in order and the oldest go first, so the ids gone are those up
   * to `model.dropped`; the cheaper of walking those ids or the ids counted is taken (a burst may
   * drop far more entries than ever matched).
   */
  private dropGone(): void {
    const gone = this.model.dropped;
    if (gone === this.droppedSeen) return;
    if (gone - this.droppedSeen < this.matching.size) {
      for (let id = this.droppedSeen + 1; id <= gone; id++) this.matching.delete(id);
    } else {
      for (const id of this.matching) if (id <= gone) this.matching.delete(id);
    }
    this.win.dropThrough(gone);
    this.droppedSeen = gone;
  }

  private refocus(): void {
    const b = this.refocusFrom;
    if (!b) return;
    const active = document.activeElement;
    if (active && active !== b && active !== document.body) this.refocusFrom = null;
    else if (b.closest('[hidden]')) {
      this.refocusFrom = null;
      this.focusFeed();
    }
  }

  /**
   * Each article's place in the feed, and the feed's size when it is known (all of the log is
   * loaded and none of it dropped; -1 otherwise), for a screen reader's "article 5 of 120"; and
   * aria-busy while rows of a batch are still to be drawn.
   */
  private placeRows(matchingTotal: number): void {
    const { win } = this;
    const past = this.pager.past;
    const ids = win.builtIds;
    // The window holds the newest matching entries (the oldest, read from the top): the hidden ones are older.
    const first = (this.fromTop ? 0 : Math.max(0, matchingTotal - win.size)) + win.before + 1;
    const size = String(past?.before || past?.after || this.model.dropped || this.storeNote ? -1 : matchingTotal);
    for (let i = 0; i < ids.length; i++) {
      const row = win.rowOf(ids[i])!;
      const pos = String(first + i);
      if (row.getAttribute('aria-posinset') !== pos) row.setAttribute('aria-posinset', pos);
      if (row.getAttribute('aria-setsize') !== size) row.setAttribute('aria-setsize', size);
    }
    const busy = String(win.waiting > 0);
    if (this.rows.getAttribute('aria-busy') !== busy) this.rows.setAttribute('aria-busy', busy);
  }

  private finishDraw(): void {
    const { model, win } = this;
    const matchingTotal = this.matching.size;
    const hidden = Math.max(0, matchingTotal - win.size);
    const parts: string[] = [];
    if (hidden) parts.push(`${hidden} earlier entr${hidden === 1 ? 'y' : 'ies'} hidden`);
    if (model.dropped) parts.push(`${model.dropped} older entr${model.dropped === 1 ? 'y' : 'ies'} dropped from this view`);
    if (this.storeNote) parts.push(this.storeNote);
    parts.push(...this.pager.lineParts(!!this.filter.why()));
    setText(this.hiddenRow.querySelector('.hidden-text')!, parts.join(' · '));
    this.hiddenRow.hidden = parts.length === 0;
    this.showMore.hidden = hidden === 0 || win.max >= DOM_ROWS_MAX;
    this.pager.show(!this.showMore.hidden);
    // A log that has entries but shows none says why, and how to see them again.
    this.filteredEmpty.hidden = !this.hasWorker || matchingTotal > 0 || model.length === 0;
    if (!this.filteredEmpty.hidden) {
      const none = model.length === 1 ? 'The one entry is not shown' : `None of the ${model.length} entries is shown`;
      setText(this.filteredEmpty.querySelector('.filtered-text')!, `${none}: ${this.filter.why() || 'the filters hide them'}. `);
    }
    // A past log's counts stay in sight wherever it is scrolled: what is older, newer, and gone.
    const around = this.pager.around();
    this.filter.showCount(`${matchingTotal} entr${matchingTotal === 1 ? 'y' : 'ies'} · ${model.eventCount} event${model.eventCount === 1 ? '' : 's'}${around.length ? ` · ${around.join(' · ')}` : ''}`);
    this.syncStop();
    this.placeRows(matchingTotal);
    this.refocus();
    this.marks.rows = String(win.built);
    if (this.pinned) this.toBottom();
  }
}
