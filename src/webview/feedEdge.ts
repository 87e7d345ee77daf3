// Page Up at the feed's edge (the feed pattern loads more there): the entry just older than the
// oldest row drawn, and, when that entry is in the page before of a past log (Load older), how
// it is found again in that page, whose entries have other ids. No DOM: eventList.ts draws.
import type { LogModel } from './model';

/** The entry just older than `id` that the filter shows, null if none: ids run from 1 in the log's order. */
export function olderShown(model: LogModel, id: number, shown: ReadonlySet<number>): number | null {
  const first = model.length ? model.at(0).id : 0;
  let to = id - 1;
  while (to >= first && !shown.has(to)) to--;
  return to >= first ? to : null;
}

/**
 * An entry by the event that made it (its place among the events folded): the `nth` of the `made`
 * entries that event made.
 */
interface EventMark {
  event: number;
  nth: number;
  made: number;
}

/**
 * Page Up asked for the page before: the focus goes to the entry just older than the one it was on,
 * found again there. That page's fold began earlier, so an entry the event made may be one it carries
 * on there (a reply cut at the page's start is the whole reply in the page before): the model notes
 * what the event makes and carries on (LogModel.watch), and the entries it made here that it made
 * no more there are the ones it carries on, in the same order.
 */
export class OlderPageFocus {
  /** Asked: the entry's mark, and the events older than the page then. */
  private asked: (EventMark & { before: number }) | null = null;
  /** The page came: the mark in it, until the event is folded. */
  private want: EventMark | null = null;

  /** Page Up on entry `id` of a page with `before` older events asks for the page before. */
  ask(model: LogModel, id: number, before: number): void {
    const event = model.madeByEvent(id);
    const first = model.length ? model.at(0).id : 0;
    let nth = 0;
    for (let other = id - 1; other >= first && model.madeByEvent(other) === event; other--) nth++;
    let made = nth + 1;
    for (let other = id + 1; model.madeByEvent(other) === event; other++) made++;
    this.asked = { event, nth, made, before };
    this.want = null;
  }

  /** The ask came to nothing (no page came): the focus goes back to the row it was on. */
  cancel(): void {
    this.asked = null;
    this.want = null;
  }

  /** A page came (the log was reset, `model` is its new one): the page asked for holds the entry this many events further in. */
  reset(past: { before: number } | undefined, top: boolean, model: LogModel): void {
    const a = this.asked;
    this.asked = null;
    this.want = a && past && top ? { event: a.event + (a.before - past.before), nth: a.nth, made: a.made } : null;
    if (this.want) model.watch(this.want.event);
  }

  /**
   * Once the event is folded: the entry just older than the one found again (of those shown), or
   * that entry itself when none older is shown. null: not folded yet, or nothing asked.
   * `onLog`: the focus still waits on the log; the person moved it on, and it is left there.
   */
  find(model: LogModel, shown: ReadonlySet<number>, onLog: boolean): number | null {
    const want = this.want;
    if (want && !onLog) this.want = null;
    const seen = want && onLog ? model.watchedEntries() : null;
    if (!want || !seen) return null;
    this.want = null;
    const carried = want.made - seen.made.length;
    const again = want.nth < carried ? seen.touched[want.nth] : seen.made[want.nth - Math.max(0, carried)];
    const all = model.all();
    // Not found (the event neither made nor carried on such an entry there): the first entry from that event on.
    let at = again !== undefined ? all.findIndex((e) => e.id === again) : all.findIndex((e) => model.madeByEvent(e.id) >= want.event);
    if (at < 0) at = all.length;
    let to = at;
    while (to > 0 && !shown.has(all[to - 1].id)) to--;
    return (to > 0 ? all[to - 1] : all[Math.min(at, all.length - 1)])?.id ?? null;
  }
}
