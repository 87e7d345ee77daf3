// One reading of "a file that is safe to read whole", for the agent card reader (cards/) and the
// launch gate's reader (guard/launchConfig.ts). A FIFO or a link to a device (/dev/zero) among
// the cards: the read would block or grow without end, in the extension host's own thread. The
// launch gate loads this at activation, so it imports node:fs and nothing else.
import { readFileSync, statSync } from 'node:fs';

export type RegularFileText = { ok: true; text: string } | { ok: false; reason: string };

/**
 * `file`'s text (UTF-8) when it is a regular file (after links) of at most `maxBytes`; else why
 * it was not read. What fs throws (absent, unreadable) is the caller's to word.
 */
export function readRegularFile(file: string, maxBytes = Infinity): RegularFileText {
  const stat = statSync(file);
  if (!stat.isFile()) return { ok: false, reason: 'not a regular file' };
  if (stat.size > maxBytes) return { ok: false, reason: `larger than ${maxBytes} bytes` };
  return { ok: true, text: readFileSync(file, 'utf8') };
}
