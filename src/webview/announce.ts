// What a screen reader hears of a streaming turn: the new rows, said politely and sparingly in
// one live region ("3 new entries: tool call read_file, reply, …"), at most once every
// SAY_EVERY_MS however many arrive (a flood is thousands of events a second), and only while the
// person is in the log and following its end. Scrolled up, the Jump to latest count is enough.
// No DOM and no timers of its own: the clock is given, so the tests drive time.
import { endWords, type Entry } from './entries';

/** At most one announcement this often. */
export const SAY_EVERY_MS = 2000;
/** The first rows of a burst wait this long for the rest of it, so that it is said as one. */
export const GATHER_MS = 500;
/** Rows named in an announcement; the rest are counted. */
const NAMED = 3;
/** A name longer than this is cut (a question's or a warning's title). */
const NAME_MAX = 60;

export interface AnnounceClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** How a row is named in an announcement: its kind, and what tells it apart (a tool's name). */
export function entryWords(e: Entry): string {
  const words = ((): string => {
    switch (e.kind) {
      case 'prompt': return e.behavior === 'steer' ? 'steer' : e.behavior === 'followUp' ? 'follow-up' : 'prompt';
      case 'turn': return `turn ${e.index}`;
      case 'assistant': return 'reply';
      case 'thinking': return 'thinking';
      case 'tool': return `tool call ${e.title ?? e.name}`;
      case 'question': return `question: ${e.title}`;
      case 'plan': return 'plan';
      case 'end': return `turn ended: ${endWords(e.reason)}`;
      case 'compaction': return 'compaction';
      case 'queue': return 'queue';
      case 'retry': return 'retry';
      case 'warning': return `warning: ${e.title}`;
      case 'exit': return e.text;
      case 'other': return e.type;
    }
  })();
  return words.length > NAME_MAX ? `${words.slice(0, NAME_MAX - 1)}…` : words;
}

/**
 * The person is in the log: its page has the keyboard focus, and the log holds it there. The
 * focused element stays where it was when the person goes back to the editor beside the log, or
 * the log's tab is hidden; a live region there is still heard, so that alone is not enough.
 */
export function inLog(page: { activeElement: Element | null; hasFocus(): boolean }, log: { contains(node: Node | null): boolean }): boolean {
  return page.hasFocus() && log.contains(page.activeElement);
}

export class Announcer {
  private count = 0;
  private names: string[] = [];
  private waiting = false;
  /** The timer of the announcement being gathered, while `waiting`. */
  private timer: unknown;
  private saidAt = -Infinity;

  /**
   * `listening`: the person is in the log and it follows its end (asked as rows come and again
   * when they would be said); `say`: the live region's text.
   */
  constructor(private readonly clock: AnnounceClock, private readonly listening: () => boolean, private readonly say: (text: string) => void) {}

  /** Rows drawn for new entries (oldest first). */
  added(entries: readonly Entry[]): void {
    if (!entries.length || !this.listening()) return;
    this.count += entries.length;
    for (const e of entries) {
      if (this.names.length >= NAMED) break;
      this.names.push(entryWords(e));
    }
    if (this.waiting) return;
    this.waiting = true;
    this.timer = this.clock.setTimeout(() => this.flush(), Math.max(GATHER_MS, this.saidAt + SAY_EVERY_MS - this.clock.now()));
  }

  /**
   * The log shows another worker (or another page of its log): what was gathered of the one
   * before is not said over it, and no timer waits for it.
   */
  stop(): void {
    if (this.waiting) this.clock.clearTimeout(this.timer);
    this.waiting = false;
    this.timer = undefined;
    this.count = 0;
    this.names = [];
  }

  private flush(): void {
    const { count, names } = this;
    this.waiting = false;
    this.timer = undefined;
    this.count = 0;
    this.names = [];
    // The person left the log or scrolled up meanwhile: what came is not said later.
    if (!count || !this.listening()) return;
    this.saidAt = this.clock.now();
    this.say(`${count.toLocaleString('en')} new entr${count === 1 ? 'y' : 'ies'}: ${names.join(', ')}${count > names.length ? ', …' : ''}`);
  }
}
