// When an event log page that could not load is given its page again, and when it is given up
// on. No VS Code here: the webview, the clock and the timers come in as hooks, so the rules can
// be tested alone (test/unit/ui.pageLoadPolicy.test.ts).
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/**
 * A page whose script or styles failed to load says so (html.ts) and is given its page again, up
 * to START_RELOADS times, after RELOAD_DELAY_MS and then twice the last wait. In a browser
 * workbench (code-server) every webview registers its own service worker on one shared origin; a
 * webview whose page loads while another one's worker takes over is left without a worker, so its
 * script and styles fail to load and it would stay blank. Loaded again, it gets them. The page
 * reports the failure itself, so a host too busy to hear `ready` in time reloads nothing.
 */
export const START_RELOADS = 4;
export const RELOAD_DELAY_MS = 250;
/** Failures this far apart are counted afresh (a page's files fail before or after its `ready`). */
export const FAILURES_WINDOW_MS = 60_000;
/**
 * A page can also fail before any of it runs (its document itself is not served), and then says
 * nothing at all. A running page's load guard says `loading` first thing, before any file loads,
 * so a slow page is not mistaken for it. One on screen that has said nothing this long after it
 * was loaded is treated as failed, unless the extension host was busy for most of the wait: then
 * what the page said may simply not have been read yet, and the wait starts again.
 */
export const SILENT_WAIT_MS = 4000;
/** The share of a wait the extension host may spend busy before a silence no longer counts. */
export const BUSY_HOST = 0.5;

export interface PageLoadHooks {
  /** Whether the page is on screen (a page off screen is not loaded, and says nothing). */
  visible(): boolean;
  /** Give the webview its page again. */
  reload(): void;
  /** A line for the extension's log. */
  warn(message: string): void;
  /** Tell the person, once, that the page was given up on. */
  giveUp(message: string): void;
  /** Who the page is for (" for <worker>", or nothing), and how the person gets a new one. */
  who(): string;
  howAgain(): string;
}

/** The clock and timers the policy runs on (a test passes its own). */
export interface PageLoadClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  /** Starts a measure of how busy the host is; the function returns the busy share since then. */
  busySince(): () => number;
}

export const realClock: PageLoadClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  busySince: () => {
    const since: EventLoopUtilization = performance.eventLoopUtilization();
    return () => performance.eventLoopUtilization(since).utilization;
  },
};

export class PageLoadPolicy {
  /** The reload after a page said it could not load, while it waits. */
  private reloadTimer: unknown;
  /** The reload waiting is for a silence (not a failure the page said): a word from the page calls it off. */
  private reloadForSilence = false;
  private reloads = 0;
  /** Waits for a word from a page on screen (see SILENT_WAIT_MS); anything the page says ends it. */
  private silenceTimer: unknown;
  /** The page loaded last has run (its load guard said `loading`, or it said `ready` or `loadFailed`). */
  private heard = false;
  private gaveUpOnPage = false;
  private lastFailureAt = 0;
  private disposed = false;

  constructor(
    private readonly hooks: PageLoadHooks,
    private readonly clock: PageLoadClock = realClock,
  ) {}

  /** The page was given up on (START_RELOADS), and the person told once. */
  get gaveUp(): boolean {
    return this.gaveUpOnPage;
  }

  /** A reload waits to be done. */
  get reloadPending(): boolean {
    return this.reloadTimer !== undefined;
  }

  /** How many reloads it took so far (since the last quiet FAILURES_WINDOW_MS). */
  get reloadCount(): number {
    return this.reloads;
  }

  /** The page is gone (hidden, or about to be given again): what it said is forgotten. */
  unloaded(): void {
    this.stopWatching();
    this.heard = false;
  }

  /** The page said one of its start words (`loading`, `ready`, `loadFailed`): it runs. */
  heardFromPage(): void {
    this.heard = true;
    this.stopWatching();
    // It was slow, not dead (a workbench still loading, the browser busy): reloading it now would
    // throw away a page the person may already be typing into.
    if (this.reloadForSilence && this.reloadTimer !== undefined) {
      this.clock.clearTimeout(this.reloadTimer);
      this.reloadTimer = undefined;
      this.reloadForSilence = false;
      this.reloads = Math.max(0, this.reloads - 1);
      this.hooks.warn(`the event log page${this.hooks.who()} spoke after all: not loaded again`);
    }
  }

  /** Waits for a word from the page on screen (see SILENT_WAIT_MS); false if none is awaited (heard, waited for already, off screen). */
  watch(): boolean {
    if (this.heard || this.silenceTimer !== undefined || !this.hooks.visible()) return false;
    this.awaitWord(this.clock.busySince());
    return true;
  }

  /** The page said a script or stylesheet of its own did not load, or nothing of it ran. */
  failed(what: string, silence = false): void {
    if (this.reloadTimer !== undefined) return;
    this.reloadForSilence = silence;
    const now = this.clock.now();
    if (now - this.lastFailureAt > FAILURES_WINDOW_MS) {
      this.reloads = 0;
      this.gaveUpOnPage = false;
    }
    this.lastFailureAt = now;
    const who = this.hooks.who();
    if (this.reloads >= START_RELOADS) {
      if (this.gaveUpOnPage) return;
      this.gaveUpOnPage = true;
      const message = `The event log${who} could not load its page (${what}) after ${this.reloads + 1} tries. ${this.hooks.howAgain()}.`;
      this.hooks.warn(message);
      this.hooks.giveUp(message);
      return;
    }
    const wait = RELOAD_DELAY_MS * 2 ** this.reloads;
    this.reloads++;
    this.hooks.warn(`the event log page${who} could not load ${what}; loading it again in ${wait} ms (${this.reloads} of ${START_RELOADS})`);
    this.reloadTimer = this.clock.setTimeout(() => {
      this.reloadTimer = undefined;
      this.reloadForSilence = false;
      if (!this.disposed) this.hooks.reload();
    }, wait);
  }

  dispose(): void {
    this.disposed = true;
    this.stopWatching();
    if (this.reloadTimer !== undefined) this.clock.clearTimeout(this.reloadTimer);
    this.reloadTimer = undefined;
  }

  private stopWatching(): void {
    if (this.silenceTimer !== undefined) this.clock.clearTimeout(this.silenceTimer);
    this.silenceTimer = undefined;
  }

  private awaitWord(busy: () => number): void {
    this.silenceTimer = this.clock.setTimeout(() => {
      this.silenceTimer = undefined;
      if (this.disposed || !this.hooks.visible()) return;
      if (busy() > BUSY_HOST) this.awaitWord(this.clock.busySince());
      else this.failed('its page: nothing of it ran', true);
    }, SILENT_WAIT_MS);
  }
}
