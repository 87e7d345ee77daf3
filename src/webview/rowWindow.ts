// Which entries the log keeps as rows, and building them a few at a time. The window holds the
// newest `max` matching entries; some are built (in the DOM) and the rest wait on either side of
// them: `behind` (older than every built row, after a redraw) and `ahead` (newer, as they come).
// Each step builds a bounded number of rows, newest first, so no frame spends long in the DOM
// however many entries arrived at once, and the DOM always shows a contiguous run of entries in
// order, ending at the newest built. Rows that would fall out of the window before they are
// built are never built. Kept entries are in id order (behind, then built, then ahead), which is
// the log's order: an entry that starts or stops matching, or leaves the log, is found by its id.
import type { Entry } from './entries';

/** Where rows go: the DOM in the page, arrays in a test. */
export interface RowSink<R> {
  create(e: Entry): R;
  update(row: R, e: Entry): void;
  /** Put rows after every row there (oldest first). */
  append(rows: R[]): void;
  /** Put rows before every row there (oldest first). */
  prepend(rows: R[]): void;
  remove(row: R): void;
  /** Put a row just before another one there. */
  insert(row: R, before: R): void;
  clear(): void;
}

export class RowWindow<R> {
  private readonly rows = new Map<number, { row: R; entry: Entry; version: number }>();
  /** Ids of the built rows, oldest first: the DOM's order. */
  private order: number[] = [];
  private behind: Entry[] = [];
  private ahead: Entry[] = [];
  /** Built oldest first (the person went back in the log and reads from its top): no reorder. */
  private topDown = false;

  constructor(private readonly sink: RowSink<R>, public max: number) {}

  /** Entries kept (built or waiting). */
  get size(): number {
    return this.order.length + this.behind.length + this.ahead.length;
  }

  get built(): number {
    return this.order.length;
  }

  /** The oldest kept entry's id, 0 when none is kept. */
  get firstId(): number {
    return this.behind[0]?.id ?? this.order[0] ?? this.ahead[0]?.id ?? 0;
  }

  /** The built rows' ids, oldest first (the DOM's order). */
  get builtIds(): readonly number[] {
    return this.order;
  }

  /** Kept entries waiting to be built above the built rows. */
  get before(): number {
    return this.behind.length;
  }

  /** The ids of the entries kept, built or waiting, oldest first. */
  keptIds(): number[] {
    return [...this.behind.map((e) => e.id), ...this.order, ...this.ahead.map((e) => e.id)];
  }

  /** The built row of an entry, if built. */
  rowOf(id: number): R | undefined {
    return this.rows.get(id)?.row;
  }

  /** Rows still to build. */
  get waiting(): number {
    return this.behind.length + this.ahead.length;
  }

  /**
   * Start over with these entries (oldest first); the newest `max` are kept. `fromTop`: the
   * oldest `max` are kept and built oldest first, so the top of the log is drawn first and stays
   * put while the rows below it are built.
   */
  reset(entries: readonly Entry[], fromTop = false): void {
    this.sink.clear();
    this.rows.clear();
    this.order = [];
    this.topDown = fromTop;
    const kept = entries.length <= this.max ? [...entries] : fromTop ? entries.slice(0, this.max) : entries.slice(entries.length - this.max);
    this.ahead = fromTop ? kept : [];
    this.behind = fromTop ? [] : kept;
  }

  /** Entries newer than any kept (oldest first). The oldest kept leave if there are too many. */
  add(entries: readonly Entry[]): void {
    for (const e of entries) this.ahead.push(e);
    this.trim();
  }

  /** Redraw a built row whose entry changed; an unbuilt one is drawn as it is when built. */
  refresh(e: Entry): void {
    const r = this.rows.get(e.id);
    if (r && r.version !== e.version) {
      this.sink.update(r.row, e);
      r.version = e.version;
    }
  }

  /**
   * An entry kept now that was not (it matches the filter since it changed), in its place among
   * those kept: one row built at most, in the DOM's run, or none if it waits on either side.
   * The oldest kept leave if there are too many.
   */
  insert(e: Entry): void {
    const built = this.order;
    if (built.length && e.id > built[0] && e.id < built[built.length - 1]) {
      let i = built.length - 1;
      while (built[i - 1] > e.id) i--;
      const row = this.build(e);
      this.sink.insert(row, this.rows.get(built[i])!.row);
      built.splice(i, 0, e.id);
    } else {
      // Unbuilt: older than the built rows waits behind them, newer (or none built yet) ahead.
      const list = built.length ? (e.id < built[0] ? this.behind : this.ahead) : this.behind.length && e.id < this.behind[this.behind.length - 1].id ? this.behind : this.ahead;
      let i = list.length;
      while (i > 0 && list[i - 1].id > e.id) i--;
      list.splice(i, 0, e);
    }
    this.trim();
  }

  /** An entry no longer kept (it stopped matching the filter): its row leaves, if built. */
  delete(e: Entry): void {
    const r = this.rows.get(e.id);
    if (r) {
      this.sink.remove(r.row);
      this.rows.delete(e.id);
      this.order.splice(this.order.indexOf(e.id), 1);
      return;
    }
    for (const list of [this.behind, this.ahead]) {
      const i = list.findIndex((x) => x.id === e.id);
      if (i >= 0) list.splice(i, 1);
    }
  }

  /** Entries with ids up to `id` left the log (its cap drops the oldest): they leave too. */
  dropThrough(id: number): void {
    let n = 0;
    while (n < this.behind.length && this.behind[n].id <= id) n++;
    this.behind.splice(0, n);
    n = 0;
    while (n < this.order.length && this.order[n] <= id) n++;
    this.removeBuilt(n);
    n = 0;
    while (n < this.ahead.length && this.ahead[n].id <= id) n++;
    this.ahead.splice(0, n);
  }

  /**
   * Build up to `limit` rows while `more()` says there is time (at least one row, so every step
   * makes progress): newer entries first, then older ones above them. Each row goes in as it is
   * built, so `more()` can measure what the rows built so far cost. Returns how many were built.
   */
  step(limit: number, more: () => boolean = () => true): number {
    // More new entries than one step can append: appending them oldest first would build rows
    // that the next ones push out. Start from the newest instead and fill in above them.
    if (this.ahead.length > limit && !this.topDown) this.reset([...this.behind, ...this.order.map((id) => this.rows.get(id)!.entry), ...this.ahead]);
    let n = 0;
    while (n < limit && (n === 0 || more())) {
      if (this.ahead.length) {
        const e = this.ahead.shift()!;
        this.sink.append([this.build(e)]);
        this.order.push(e.id);
      } else if (this.behind.length) {
        const e = this.behind.pop()!;
        this.sink.prepend([this.build(e)]);
        this.order.unshift(e.id);
      } else {
        break;
      }
      n++;
    }
    return n;
  }

  private build(e: Entry): R {
    const row = this.sink.create(e);
    this.rows.set(e.id, { row, entry: e, version: e.version });
    return row;
  }

  /** Oldest first: unbuilt older entries, then built rows, then unbuilt newer ones. */
  private trim(): void {
    let over = this.size - this.max;
    if (over <= 0) return;
    const fromBehind = Math.min(over, this.behind.length);
    this.behind.splice(0, fromBehind);
    over -= fromBehind;
    const fromBuilt = Math.min(over, this.order.length);
    this.removeBuilt(fromBuilt);
    this.ahead.splice(0, over - fromBuilt);
  }

  /** The oldest `n` built rows leave (all of them at once when that is all). */
  private removeBuilt(n: number): void {
    if (n && n === this.order.length) {
      this.sink.clear();
      this.rows.clear();
      this.order = [];
    } else {
      for (const id of this.order.splice(0, n)) {
        this.sink.remove(this.rows.get(id)!.row);
        this.rows.delete(id);
      }
    }
  }
}
