// The log's toolbar: a chip per kind of entry (on or off) and the search box. It says which
// entries match and why none do; what it holds is kept in the webview's saved state.
import { h, icon, setText } from './dom';
import { arrowKeys } from './toolbarKeys';
import { FILTER_GROUPS, GROUP_OF, searchText, type Entry, type FilterGroup } from './entries';

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
/** Typing settles this long before the log is filtered again. */
const SEARCH_DEBOUNCE_MS = 120;

export interface Saved { hidden: FilterGroup[]; search: string }

/** What the log's list (eventList.ts) draws under: the toolbar, or a test's stand-in. */
export interface ListFilter {
  matches(e: Entry): boolean;
  /** Why entries are hidden, '' when nothing is filtered. */
  why(): string;
  showAll(): void;
  showCount(text: string): void;
  /** The search typed, in lower case ('' for none): a folded row it matches inside is opened. */
  searching?(): string;
}

/** What the search box's text matches: typed and restored alike (a restored one kept its spaces, and matched less after a reload). */
const queryOf = (text: string) => text.trim().toLowerCase();

export class Toolbar implements ListFilter {
  readonly element: HTMLElement;
  private readonly hidden: Set<FilterGroup>;
  private query: string;
  private readonly chips = h('div', { class: 'chips', attrs: { role: 'toolbar', 'aria-label': 'Filter by kind' } });
  private readonly search = h('input', { class: 'search', attrs: { type: 'search', placeholder: 'Search the log', 'aria-label': 'Search the log' } });
  private readonly counter = h('span', { class: 'counter' });
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  /** `changed`: what matches is different now; `save`: keep this across reloads of the page. */
  constructor(saved: Saved, private readonly changed: () => void, private readonly save: (s: Saved) => void) {
    this.hidden = new Set(saved.hidden.filter((g) => g in FILTER_GROUPS));
    this.query = queryOf(saved.search);
    this.search.value = saved.search;
    this.element = h('div', { class: 'toolbar' }, this.chips, h('div', { class: 'search-row' }, this.search, this.counter));
    for (const g of Object.keys(FILTER_GROUPS) as FilterGroup[]) {
      const chip = h('button', { class: 'chip', attrs: { 'data-group': g } }, icon(GROUP_LABELS[g].icon), h('span', { class: 'lbl', text: ` ${GROUP_LABELS[g].label}` }));
      chip.setAttribute('aria-label', GROUP_LABELS[g].label);
      chip.addEventListener('click', () => {
        if (this.hidden.has(g)) this.hidden.delete(g);
        else this.hidden.add(g);
        this.paintChip(chip, g);
        this.commit();
      });
      this.paintChip(chip, g);
      this.chips.appendChild(chip);
    }
    arrowKeys(this.chips);
    this.search.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => {
        this.query = queryOf(this.search.value);
        this.commit();
      }, SEARCH_DEBOUNCE_MS);
    });
  }

  matches(e: Entry): boolean {
    return !this.hidden.has(GROUP_OF[e.kind]) && (!this.query || searchText(e).toLowerCase().includes(this.query));
  }

  /** The search, as it matches (lower case, trimmed); '' for none. */
  searching(): string {
    return this.query;
  }

  /** Why entries are hidden, '' when nothing is filtered. */
  why(): string {
    const n = this.hidden.size;
    return [n ? `${n} filter${n === 1 ? ' is' : 's are'} off` : '', this.query ? `the search "${this.search.value.trim()}" matches nothing` : ''].filter(Boolean).join(' and ');
  }

  /** Every kind on, no search. */
  showAll(): void {
    this.hidden.clear();
    this.chips.querySelectorAll<HTMLElement>('.chip').forEach((chip) => this.paintChip(chip, chip.dataset.group as FilterGroup));
    this.search.value = '';
    this.query = '';
    this.commit();
  }

  showCount(text: string): void {
    setText(this.counter, text);
    // A narrow page may cut the counts: the tooltip has them whole.
    this.counter.title = text;
  }

  private commit(): void {
    this.save({ hidden: [...this.hidden], search: this.search.value });
    this.changed();
  }

  private paintChip(chip: HTMLElement, g: FilterGroup): void {
    const on = !this.hidden.has(g);
    chip.setAttribute('aria-pressed', String(on));
    chip.title = `${GROUP_LABELS[g].label}: ${on ? 'shown (click to hide)' : 'hidden (click to show)'}`;
  }
}
