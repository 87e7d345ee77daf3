// A real program's pace, for the flood workers (flood-worker.mjs, acp-flood-agent.mjs): real
// workers write one event per write, at their own rate, so the reader pays its per-read costs for
// every event, which a flood (as many lines a write as the pipe takes) hides.

/** A buffer of LF-ended lines as one buffer per line, each with its LF. */
export const linesOf = (buf) => buf.toString('utf8').split('\n').filter(Boolean).map((l) => Buffer.from(l + '\n'));

/** One line per write, `rate` lines a second on average: every millisecond, the lines then due. */
export async function writePaced(out, lines, rate) {
  const drain = () => new Promise((r) => out.once('drain', r));
  const t0 = performance.now();
  let i = 0;
  while (i < lines.length) {
    const due = Math.min(lines.length, Math.floor(((performance.now() - t0) * rate) / 1000) + 1);
    while (i < due) out.write(lines[i++]);
    if (out.writableLength > 1 << 20) await drain();
    await new Promise((r) => setTimeout(r, 1));
  }
}
