// Lines as bytes, for the history's writer: counted, and a stretch of several buffers taken as one.
const NL = 0x0a;

/** LF-ended lines in `b`. */
function countLines(b: Buffer): number {
  let n = 0;
  let i = -1;
  while ((i = b.indexOf(NL, i + 1)) !== -1) n++;
  return n;
}

/** LF-ended lines in `bufs`, end to end. */
export function countLinesOf(bufs: Buffer[]): number {
  let n = 0;
  for (const b of bufs) n += countLines(b);
  return n;
}

/** Views of the bytes [from, to) of `bufs` taken end to end. */
export function span(bufs: Buffer[], from: number, to: number): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (const b of bufs) {
    const end = at + b.length;
    if (end > from && at < to) out.push(b.subarray(Math.max(0, from - at), Math.min(b.length, to - at)));
    at = end;
    if (at >= to) break;
  }
  return out;
}
