// A past session's log as the event log shows it: read from the history a page at a time,
// newest first (core/history/pages.ts), and shown as a window of at most VIEW_EVENTS events that
// the person moves back ("Load older") and forward ("Show newest"). Nothing read is read again;
// the page is given only the window, so a 100,000-event session costs the page what one window
// costs. No VS Code here: a unit test holds it (test/unit/ui.pastLog.test.ts).
import type { AgentEvent } from '../../core/events/agentEvent';
import type { LogGaps } from '../../core/history/records';

/** Events read for the first page, and for each "Load older". */
export const PAGE_EVENTS = 2500;
/**
 * Events the page is given at most (and up to TURN_SLACK more): every entry of them fits the
 * page's widest row window (eventList.ts DOM_ROWS_MAX, 5,000), so what is given can be scrolled to.
 */
export const VIEW_EVENTS = 4000;

/** Events a window may end later than VIEW_EVENTS says, to end where a turn does. */
export const TURN_SLACK = 1000;

/** Where the older events come from (SessionPages, or a test's). */
export interface OlderSource {
  older(max: number): Promise<AgentEvent[]>;
  /** Events the history holds and that were not read yet. */
  readonly notLoaded: number;
  readonly done: boolean;
  /** Lines read and left out (not events, or torn), the first in words; null (or absent) while none. */
  readonly unreadable?: { lines: number; first: string } | null;
}

/** A log the history left whole. */
export const NO_GAPS: LogGaps = Object.freeze({ rotated: 0, evicted: 0, evictedWhy: null, lost: 0, lostWhy: null, unread: [] });

/** The window the page is given, and what lies on either side of it. */
export interface PastView {
  events: AgentEvent[];
  /** Events older than the window: read and not shown, or not read yet. */
  before: number;
  /** Events newer than the window (the person went back in the log). */
  after: number;
  /** Events the history's bounds dropped from the session: no page has them. */
  dropped: number;
  /** Lines of the files read so far that were not events (or were torn): left out, so said. */
  unreadable: { lines: number; first: string } | null;
}

export class PastLog {
  private events: AgentEvent[];
  /** The window: `size` events ending `skipNewest` events before the newest read. */
  private skipNewest = 0;
  private size: number;
  private reading: Promise<void> = Promise.resolve();

  /** `gaps`: what the history could not give of these sessions, and why (core/history/records.ts). */
  constructor(
    first: AgentEvent[],
    private readonly source: OlderSource | null,
    readonly gaps: LogGaps = NO_GAPS,
  ) {
    this.events = first;
    this.size = first.length;
  }

  /** The newest page of `source`, read before the log is shown. */
  static async open(source: OlderSource, gaps: LogGaps = NO_GAPS): Promise<PastLog> {
    return new PastLog(await source.older(PAGE_EVENTS), source, gaps);
  }

  /** Events the history's bounds removed from these sessions: no page has them. */
  get dropped(): number {
    return this.gaps.rotated + this.gaps.evicted;
  }

  /** Every event read so far, oldest first (a resumed worker's log shows them all before its own). */
  get loaded(): AgentEvent[] {
    return this.events;
  }

  get notLoaded(): number {
    return this.source?.notLoaded ?? 0;
  }

  get unreadable(): { lines: number; first: string } | null {
    return this.source?.unreadable ?? null;
  }

  view(): PastView {
    const end = this.events.length - this.skipNewest;
    const start = this.turnStart(end - this.size, end);
    return { events: this.events.slice(start, end), before: start + this.notLoaded, after: this.skipNewest, dropped: this.dropped, unreadable: this.unreadable };
  }

  /** Read a page more of older events (a resumed worker's log: its window is all of them). */
  readMore(): Promise<void> {
    return this.queue(async () => {
      if (!this.source || this.source.done) return;
      const more = await this.source.older(PAGE_EVENTS);
      this.events = more.concat(this.events);
      this.size = this.events.length;
    });
  }

  /** The window moves a page back, reading what it needs; beyond VIEW_EVENTS its newest leave it. */
  older(): Promise<void> {
    return this.queue(async () => {
      let ready = this.events.length - this.skipNewest - this.size;
      if (ready < PAGE_EVENTS && this.source && !this.source.done) {
        const more = await this.source.older(PAGE_EVENTS - ready);
        this.events = more.concat(this.events);
        ready += more.length;
      }
      this.size += Math.min(PAGE_EVENTS, ready);
      if (this.size > VIEW_EVENTS) {
        const end = this.turnEdge(this.events.length - this.skipNewest - (this.size - VIEW_EVENTS));
        this.size -= this.events.length - this.skipNewest - end;
        this.skipNewest = this.events.length - end;
      }
    });
  }

  /**
   * Where a window that would end at `end` ends instead: at the next turn's start, up to
   * TURN_SLACK events later, so its last turn is not drawn as still streaming.
   */
  private turnEdge(end: number): number {
    const limit = Math.min(this.events.length, end + TURN_SLACK);
    for (let i = end; i < limit; i++) if (this.opensTurn(i)) return i;
    return end;
  }

  /**
   * Where a window that would start at `start` starts instead: at the first turn's opening, up to
   * TURN_SLACK events later, so its oldest entry is not the tail of a reply cut in two (drawn as
   * a reply that begins mid-sentence). The events skipped stay older ones, for Load older. A turn
   * longer than the slack, or the session's very first event, keeps the start as it is.
   */
  private turnStart(start: number, end: number): number {
    if (start === 0 && this.notLoaded === 0) return start;
    const limit = Math.min(end, start + TURN_SLACK);
    for (let i = start; i < limit; i++) if (this.opensTurn(i)) return i;
    return start;
  }

  /** A turn begins here: the host's prompt, or a turn the worker opened without one. */
  private opensTurn(i: number): boolean {
    const e = this.events[i];
    return e.type === 'prompt_sent' || (e.turn?.opens === true && this.events[i - 1]?.type !== 'prompt_sent');
  }

  /** Back to the newest page. */
  newest(): void {
    this.skipNewest = 0;
    this.size = Math.min(PAGE_EVENTS, this.events.length);
  }

  /** One read at a time: two clicks read two pages, in turn, never the same page twice. */
  private queue(read: () => Promise<void>): Promise<void> {
    const next = this.reading.then(read);
    this.reading = next.catch(() => undefined);
    return next;
  }
}
