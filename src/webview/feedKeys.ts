// The event log as a WAI-ARIA feed (https://www.w3.org/WAI/ARIA/apg/patterns/feed/), pure (no
// DOM) so the tests hold it: which row is the log's one Tab stop, and where the feed's keys move
// the focus. Before, every row's expander and buttons were Tab stops: a 500-row log took hundreds
// of presses to get past.

/** What a key pressed in the feed does: to the next or previous row, or out of the feed. */
export type FeedMove = 'next' | 'previous' | 'after' | 'before';

/**
 * The feed's keys: Page Down / Page Up to the next / previous row, Ctrl+End / Ctrl+Home out of the
 * feed to what follows / precedes it. null: not the feed's (the arrows still scroll the log).
 */
export function feedKey(key: string, mods: { ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): FeedMove | null {
  if (mods.altKey || mods.shiftKey) return null;
  const ctrl = mods.ctrlKey || mods.metaKey;
  if (ctrl) return key === 'End' ? 'after' : key === 'Home' ? 'before' : null;
  return key === 'PageDown' ? 'next' : key === 'PageUp' ? 'previous' : null;
}

/** The row `move` goes to from row `from` of `count` (oldest first); it stays at either end. */
export function feedTarget(move: 'next' | 'previous', from: number, count: number): number {
  if (count === 0) return -1;
  return Math.max(0, Math.min(count - 1, from + (move === 'next' ? 1 : -1)));
}

/**
 * Where the rows older than the oldest drawn come from when Page Up is pressed on it (the feed
 * loads more at its edge): rows kept and still to be built above it, the rows Show more draws,
 * or the page Load older asks the host for. null: it is the oldest there is, and the focus stays.
 */
export type OlderRows = 'waiting' | 'showMore' | 'loadOlder' | null;

export function olderRows(at: { waitingAbove: number; showMore: boolean; loadOlder: boolean }): OlderRows {
  if (at.waitingAbove > 0) return 'waiting';
  if (at.showMore) return 'showMore';
  if (at.loadOlder) return 'loadOlder';
  return null;
}

/**
 * The row that is the Tab stop, of the built rows' ids (oldest first): the one last focused while it
 * is there, otherwise the newest. -1: no row.
 */
export function tabStop(ids: readonly number[], chosen: number | null): number {
  if (chosen !== null) {
    const i = ids.indexOf(chosen);
    if (i >= 0) return i;
  }
  return ids.length - 1;
}

/**
 * Where the focus goes when the row holding it left (the list was trimmed, a page dropped, the
 * row no longer matches): the row that took its place, the next newer one; else the newest. -1:
 * no row is left (the log takes it).
 */
export function focusHeir(ids: readonly number[], gone: number): number {
  const i = ids.findIndex((id) => id > gone);
  return i >= 0 ? i : ids.length - 1;
}
