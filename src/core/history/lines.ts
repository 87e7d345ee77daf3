// Reading an events file back: its lines into events (the worker's own lines through their
// dialect's codec), a torn last line and lines that are not events counted, not thrown.
import { promises as fsp } from 'node:fs';
import type { AgentEvent } from '../events/agentEvent';
import { errorText } from './files';
import { eventLineSchema, workerLineSchema, type LineReader, type ReadResult } from './format';
import { upgradeOldEvent } from './oldEvents';

/**
 * The current segment, then the older one, each opened before either is read: a rotation in
 * between makes both the same file (same inode), read once; in the other order it would skip the
 * segment that was current. A segment not there (no event yet, never rotated) is empty.
 */
export async function readSegments(currentFile: string, olderFile: string): Promise<[Buffer, Buffer]> {
  const openOrNull = (f: string) => fsp.open(f, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const current = await openOrNull(currentFile);
  const older = await openOrNull(olderFile).catch(async (error) => {
    await current?.close();
    throw error;
  });
  try {
    const [a, b] = await Promise.all([current?.stat(), older?.stat()]);
    const same = a && b && a.ino === b.ino && a.dev === b.dev;
    const empty = Buffer.alloc(0);
    return [current ? await current.readFile() : empty, older && !same ? await older.readFile() : empty];
  } finally {
    await Promise.all([current?.close(), older?.close()]);
  }
}

/**
 * Splits an events file into its events, its torn tail (if any) and the lines that were not events.
 * `readLine` reads the worker's lines kept for their events (workerLineHead) back into them.
 */
export function parseEvents(buf: Buffer, readLine?: LineReader): Omit<Extract<ReadResult, { status: 'read' }>, 'status' | 'session'> {
  const events: AgentEvent[] = [];
  let bad = 0;
  let first: string | null = null;
  let from = 0;
  for (;;) {
    const nl = buf.indexOf(0x0a, from);
    if (nl === -1) break;
    const line = buf.toString('utf8', from, nl);
    const at = from;
    from = nl + 1;
    if (line.length === 0) continue;
    let parsed: unknown;
    let problem: string | null = null;
    try {
      parsed = JSON.parse(line);
      const kept = isWorkerLine(parsed) ? workerLine(parsed, readLine) : null;
      if (kept && !kept.ok) problem = kept.error;
      else if (kept) parsed = kept.event;
      else {
        const ok = eventLineSchema.safeParse(parsed);
        if (!ok.success) problem = `not an event (${ok.error.issues[0]?.path.join('.') || 'root'}: ${ok.error.issues[0]?.message})`;
      }
    } catch (error) {
      problem = `not JSON (${errorText(error)})`;
    }
    if (problem) {
      bad++;
      first ??= `the line at byte ${at}: ${problem}`;
      continue;
    }
    // Kept whole, as delivered: the schema checks, it does not reshape; only an event an older host
    // kept raw, which this one types, is read as this one would have made it.
    events.push(upgradeOldEvent(parsed as AgentEvent));
  }
  const torn = from < buf.length ? { bytes: buf.length - from, offset: from } : null;
  return { events, torn, badLines: { count: bad, first } };
}

const isWorkerLine = (v: unknown): boolean => typeof v === 'object' && v !== null && 'raw' in v && !('type' in v);

/** A worker's line kept for its event, read back into it with the time and turn kept beside it. */
function workerLine(value: unknown, readLine: LineReader | undefined): ReturnType<LineReader> {
  const entry = workerLineSchema.safeParse(value);
  if (!entry.success) return { ok: false, error: `not a worker line (${entry.error.issues[0]?.path.join('.') || 'root'}: ${entry.error.issues[0]?.message})` };
  if (!readLine) return { ok: false, error: 'a worker\'s line, and no reader for its dialect' };
  const read = readLine(entry.data.raw);
  if (!read.ok) return { ok: false, error: `a worker's line that does not read as an event: ${read.error}` };
  read.event.timestamp = entry.data.timestamp;
  if (entry.data.turn) read.event.turn = entry.data.turn;
  return read;
}
