// A page's ask for another page of a log read from the history (its `pastPage`): the window moved,
// or why it could not be, in the words the page shows beside the button that asked. Every ask is
// answered, by a reset (the window moved) or by this refusal: a page left waiting said "Loading…"
// for ever. No VS Code here: a unit test holds it (test/unit/ui.pastPages.test.ts).
import type { LogArchive } from './logArchive';

/** `held`: the log is still held (a read failed), and asking again may work. */
export type PastPageRead = { read: true } | { read: false; message: string; held: boolean };

/** The log's window is no longer here to move: the archive let it go, or the window was reloaded. */
export const NOT_HELD = 'this log is no longer held in this window: open its session again from Past sessions (Open Log) to read it';

export async function readPastPage(archive: Pick<LogArchive, 'pastLogOf'>, key: string, to: 'older' | 'newest'): Promise<PastPageRead> {
  const found = archive.pastLogOf(key);
  if (!found) return { read: false, message: NOT_HELD, held: false };
  try {
    if (to === 'newest') found.log.newest();
    else if (found.earlier) await found.log.readMore();
    else await found.log.older();
    return { read: true };
  } catch (error) {
    return { read: false, message: `could not read the older events: ${(error as Error).message}`, held: true };
  }
}
