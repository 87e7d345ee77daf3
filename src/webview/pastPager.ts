// A log read from the history a page at a time, as the page shows it: the Load older and Show
// newest buttons, the ask each makes of the host, and what the host answered. Every ask ends, in a
// reset (the page came) or in pastFailed (none will come: said beside the button that asked),
// never in a button that says "Loading…" for ever. eventList.ts places the buttons and the lines.
import type { PastCounts } from '../protocol/hostMessages';
import { h, setText } from './dom';

export type PastTo = 'older' | 'newest';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export class PastPager {
  readonly loadOlder = h('button', { class: 'link load-older', text: 'Load older' });
  /** Below the rows: the newer events a person who went back in a past log does not see. */
  readonly newerRow = h('div', { class: 'hidden-row newer-row', attrs: { role: 'status' } }, h('span', { class: 'hidden-text' }), h('button', { class: 'link show-newest', text: 'Show newest' }));
  readonly showNewest = this.newerRow.querySelector<HTMLElement>('.show-newest')!;
  past: PastCounts | null = null;
  /** Asked for another page, and waits for it. */
  asking = false;
  /** The number of the last ask (its `req`): a failure answer names the ask it answers. */
  private asked = 0;
  /** The host gave no page for the last ask: why, said beside the button that asked. */
  private note: { to: PastTo; text: string } | null = null;
  /** The host no longer holds the log: the buttons ask nothing more (a log shown anew asks again). */
  private gone = false;

  /** `ask`: asks the host, `req` numbering the ask; false: it could not be asked (no log is shown). */
  constructor(private readonly ask?: (to: PastTo, req: number) => unknown) {
    this.loadOlder.hidden = true;
    this.newerRow.hidden = true;
  }

  reset(past: PastCounts | undefined): void {
    this.past = past ?? null;
    this.asking = false;
    this.note = null;
    this.gone = false;
    this.loadOlder.textContent = 'Load older';
  }

  /** Load older may be pressed (by Page Up too): offered, not waiting, and there is a host to ask. */
  get canLoadOlder(): boolean {
    return !this.loadOlder.hidden && !this.asking && !!this.ask;
  }

  /** Show newest (Jump to latest) asks for the newest page rather than scrolling: the window is further back. */
  get newerToAsk(): boolean {
    return !!this.past?.after && !this.gone;
  }

  /** Asks for the page; false: not asked (waiting already, the log is gone, or nothing to ask). */
  request(to: PastTo): boolean {
    if (this.asking || this.gone || !this.ask) return false;
    this.asking = true;
    this.note = null;
    this.loadOlder.textContent = to === 'older' ? 'Loading…' : 'Load older';
    if (this.ask(to, ++this.asked) !== false) return true;
    this.failed(to, 'no log is shown', true);
    return false;
  }

  /**
   * The host gave no page: the wait ends; `held`: the host still holds the log, and asking again
   * may work. False, and nothing changes: it answers an ask not waited for now (`seq`: its number).
   */
  failed(to: PastTo, why: string, held: boolean, seq?: number): boolean {
    if (!this.asking || (seq !== undefined && seq !== this.asked)) return false;
    this.asking = false;
    this.note = { to, text: why };
    this.gone ||= !held;
    this.loadOlder.textContent = 'Load older';
    return true;
  }

  /** The hidden-row line's words for the past log: what is older, and what its bounds dropped. */
  lineParts(filtered: boolean): string[] {
    const { past, note } = this;
    const parts: string[] = [];
    if (past?.before) parts.push(`${plural(past.before, 'older event', 'older events')} not shown${filtered ? ' (the search and filters see only the events loaded)' : ''}`);
    if (note?.to === 'older') parts.push(note.text);
    // The host names the bound that dropped them (logArchive.ts pastOf), with its setting.
    if (past?.dropped) parts.push(`${plural(past.dropped, 'oldest event was', 'oldest events were')} dropped by ${past.droppedBy ?? 'the history\'s bounds'}`);
    if (past?.unread) parts.push(`${plural(past.unread.sessions, 'earlier session', 'earlier sessions')} this one resumed could not be read, so ${past.unread.sessions === 1 ? 'its events are' : 'their events are'} not shown (${past.unread.first})`);
    if (past?.lost) parts.push(`${plural(past.lost.events, 'event', 'events')} never reached the history and cannot be shown (${past.lost.why})`);
    if (past?.unreadable) parts.push(`${plural(past.unreadable.lines, 'line of the history could not be read as an event and is', 'lines of the history could not be read as events and are')} not shown (the first: ${past.unreadable.first})`);
    return parts;
  }

  /** The buttons and the newer row as they stand; `moreRows`: Show more still has rows to show first. */
  show(moreRows: boolean): void {
    const { past, note } = this;
    // Older events come once the rows loaded are all shown (or can be shown no further).
    this.loadOlder.hidden = !past?.before || moreRows || this.gone;
    this.newerRow.hidden = !past?.after;
    this.showNewest.hidden = this.gone;
    if (past?.after) setText(this.newerRow.querySelector('.hidden-text')!, `${plural(past.after, 'newer event', 'newer events')} not shown${note?.to === 'newest' ? ` · ${note.text}` : ''}`);
  }

  /** The counts that stay in sight wherever the log is scrolled: what is older, newer, and gone. */
  around(): string[] {
    const past = this.past;
    return past ? [past.before && `${past.before.toLocaleString('en')} older`, past.after && `${past.after.toLocaleString('en')} newer`, past.dropped && `${past.dropped.toLocaleString('en')} dropped`, past.lost && `${past.lost.events.toLocaleString('en')} lost`, past.unread && `${plural(past.unread.sessions, 'session', 'sessions')} unread`, past.unreadable && `${past.unreadable.lines.toLocaleString('en')} unreadable`].filter((x): x is string => !!x) : [];
  }
}
