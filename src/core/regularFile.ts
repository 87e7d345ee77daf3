// One reading of "a file that is safe to read", for the agent card reader (cards/) and the
// launch gate's reader (guard/launchConfig.ts, which reads no more of a card than the other
// takes). A FIFO or a link to a device (/dev/zero) among the cards: the read would block or grow
// without end, in the extension host's own thread. The launch gate loads this at activation, so
// it imports node:fs and nothing else.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';

/** The most of a card the card reader takes (cards/agentCards.ts); the launch gate reads no more of one. */
export const MAX_CARD_BYTES = 256 * 1024;

/** An agent card's file name: `.md` in any case, as the card loader reads them (the launch gate must watch the same files). */
export const isCardFileName = (name: string): boolean => name.toLowerCase().endsWith('.md');

export type RegularFileHead = { ok: true; head: Buffer; whole: boolean; size: number; mtimeMs: number } | { ok: false; reason: string };

/**
 * At most `maxBytes` of `file` (a regular file after links), `whole` when that is all of it. The
 * card reader takes a card only whole; the launch gate, which reads every card at each start and
 * each worker's end on the extension host's thread, stands for a longer one by its head, size and
 * time. Opened without blocking, so a FIFO swapped in after a stat is not waited on. What fs throws
 * (absent, unreadable) is the caller's to word.
 */
export function readRegularFileHead(file: string, maxBytes: number): RegularFileHead {
  // Not opened at all unless it is a file: opening some devices does something.
  if (!statSync(file).isFile()) return { ok: false, reason: 'not a regular file' };
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: 'not a regular file' };
    // One byte more than the cap tells a file at the cap from a longer one, even one growing now.
    // Read to the end, not to the size: procfs says 0 bytes of a file that has more, and a file
    // may have grown since; the card reader takes all of it.
    let buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let got = 0;
    for (let n = -1; n !== 0 && got < buffer.length; got += n) {
      n = readSync(fd, buffer, got, buffer.length - got, got);
      if (n !== 0 && got + n === buffer.length && buffer.length <= maxBytes) {
        const grown = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown, 0, 0, got + n);
        buffer = grown;
      }
    }
    const whole = got <= maxBytes;
    return { ok: true, head: buffer.subarray(0, Math.min(got, maxBytes)), whole, size: whole ? got : Math.max(stat.size, got), mtimeMs: stat.mtimeMs };
  } finally {
    closeSync(fd);
  }
}
