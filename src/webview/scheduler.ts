// When the page folds and draws: batches of events wait here and are folded, then drawn, in
// animation-frame chunks with a time budget, so a flood never freezes the page. It knows no
// DOM: what folding and drawing are, and how a frame is asked for, are its inputs.
import type { PageEvent } from '../protocol/messages';

/**
 * Script time a frame may take: folding events first (up to FOLD_BUDGET_MS), then building rows
 * with what is left (at least MIN_DRAW_MS). What the browser then spends on paint comes on top,
 * and the sum stays well under the 50 ms of a long task.
 */
const FRAME_BUDGET_MS = 16;
const FOLD_BUDGET_MS = 8;
const MIN_DRAW_MS = 4;
const FOLD_CHUNK = 500;
/** During a burst, draw at most this often. */
const DRAW_EVERY_MS = 250;
/** A webview in the background gets no animation frames; the log still keeps up by this timer. */
const BACKGROUND_FRAME_MS = 120;

export interface FrameWork {
  fold(events: PageEvent[]): void;
  /** Draw what changed, building rows until `deadline` (a `now()` time); true while rows still wait. */
  draw(deadline: number): boolean;
  /** Everything received is folded and drawn. */
  settled(): void;
}

export interface Clock {
  now(): number;
  requestFrame(run: () => void): void;
  setTimeout(run: () => void, ms: number): void;
}

export class RenderScheduler {
  /** Where the page's time went, for the `rendered` report. validateMs and receiveSpanMs are the receiver's. */
  readonly timing = { validateMs: 0, foldMs: 0, drawMs: 0, receiveSpanMs: 0 };
  frames = 0;
  rafFrames = 0;
  private readonly pending: PageEvent[][] = [];
  private scheduled = false;
  private lastDraw = 0;
  private lastDrawCost = 0;

  constructor(private readonly work: FrameWork, private readonly clock: Clock) {}

  push(events: PageEvent[]): void {
    this.pending.push(events);
    this.schedule();
  }

  /** Drop what waits to be folded (the page shows another worker now). */
  clear(): void {
    this.pending.length = 0;
  }

  schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      this.scheduled = false;
      this.frame();
    };
    this.clock.requestFrame(() => { this.rafFrames++; run(); });
    this.clock.setTimeout(run, BACKGROUND_FRAME_MS);
  }

  private frame(): void {
    const { clock, pending } = this;
    this.frames++;
    const t0 = clock.now();
    while (pending.length && clock.now() - t0 < FOLD_BUDGET_MS) {
      const batch = pending[0];
      this.work.fold(batch.length > FOLD_CHUNK ? batch.splice(0, FOLD_CHUNK) : pending.shift()!);
      if (batch.length === 0 && pending[0] === batch) pending.shift();
    }
    const td = clock.now();
    this.timing.foldMs += td - t0;
    // While events keep coming, a draw that was slow earns a pause before the next one (up to
    // DRAW_EVERY_MS): in a flood the page folds on and draws a few times a second, and rows that
    // would scroll away at once are never built. A cheap draw (a streamed word) follows at once,
    // and once everything is folded the rows still to build go in frame after frame.
    const wait = Math.min(DRAW_EVERY_MS, this.lastDrawCost * 4) - (td - this.lastDraw);
    if (wait > 0 && pending.length) {
      this.schedule();
      return;
    }
    this.lastDraw = td;
    const waiting = this.work.draw(Math.max(t0 + FRAME_BUDGET_MS, td + MIN_DRAW_MS));
    this.lastDrawCost = clock.now() - td;
    this.timing.drawMs += this.lastDrawCost;
    if (pending.length || waiting) this.schedule();
    else this.work.settled();
  }
}
