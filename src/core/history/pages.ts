// A past session read newest first, a page at a time: the log draws its last events at once and
// reads older ones only when the person asks. The files are read backwards in slices of
// SLICE_BYTES, each parsed in one go (a few milliseconds) with the thread free between slices,
// so no read of a long session holds the extension host for long. Every line is still read and
// checked as `read` does (parseEvents): torn and bad lines are counted, never thrown.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../events/agentEvent';
import { FILE_OF, type LineReader } from './format';
import { parseEvents } from './lines';

/**
 * Bytes read and parsed in one turn of the event loop. 256 KiB is about a thousand events of a
 * real session, parsed in 3 to 6 ms here: a read of any size is then a run of short tasks.
 */
export const SLICE_BYTES = 256 * 1024;

/** One events file still to read, from its start up to `end` (what was read is after it). */
interface Segment {
  file: string;
  /** The file as it was when the pages were opened: a file renamed over it since is not read as it. */
  ino: number;
  end: number;
  /** The start of a line whose rest was read (it began in the part not read yet). */
  carry: Buffer;
  readLine: LineReader | undefined;
}

/** A session of the chain to read: its id and its dialect's reader of the worker's own lines. */
export interface PagedSession {
  id: string;
  readLine?: LineReader;
}

export class SessionPages {
  /** Events given so far. */
  loaded = 0;
  /** Bytes of torn last lines left out (a crash mid-write), and the lines that were not events. */
  tornBytes = 0;
  readonly badLines = { count: 0, first: null as string | null };
  /** Torn last lines met so far (one a file at most), and the first of them in words. */
  private torn = { count: 0, first: null as string | null };
  /** Read but older than the pages given: the start of the next page. */
  private spare: AgentEvent[] = [];

  private constructor(private readonly segments: Segment[], private readonly expected: number) {}

  /**
   * The events of `sessions` (oldest first, as the log shows them) in `dir`, to be read newest
   * first. `expected`: how many events the sessions' records count (for "N older not loaded").
   * The files are found now: a rotation after this point does not make one segment be read twice.
   */
  static async open(dir: string, sessions: PagedSession[], expected: number): Promise<SessionPages> {
    const segments: Segment[] = [];
    for (const s of [...sessions].reverse()) {
      const current = await statOrNull(path.join(dir, FILE_OF.events(s.id)));
      const older = await statOrNull(path.join(dir, FILE_OF.olderEvents(s.id)));
      // A rotation between the two stats makes both the same file: it is read once.
      const same = current && older && current.ino === older.ino;
      for (const seg of same ? [current] : [current, older]) {
        if (seg && seg.size > 0) segments.push({ file: seg.file, ino: seg.ino, end: seg.size, carry: Buffer.alloc(0), readLine: s.readLine });
      }
    }
    return new SessionPages(segments, expected);
  }

  /** The lines read and left out (not events, or torn), and the first of them in words; null while none. */
  get unreadable(): { lines: number; first: string } | null {
    const lines = this.badLines.count + this.torn.count;
    const first = this.badLines.first ?? this.torn.first;
    return lines > 0 && first !== null ? { lines, first } : null;
  }

  /** Every event has been given. */
  get done(): boolean {
    return this.segments.length === 0 && this.spare.length === 0;
  }

  /**
   * Events the records count and that were not given yet (0 once done). At least 1 while the
   * files hold more: a session its host's crash ended counts fewer than it wrote, and a count of
   * 0 took "Load older" away from events still there.
   */
  get notLoaded(): number {
    return this.done ? 0 : Math.max(1, this.expected - this.loaded);
  }

  /** The next page back: up to `max` events just older than those given, oldest first. */
  async older(max: number): Promise<AgentEvent[]> {
    const chunks: AgentEvent[][] = [];
    let n = this.spare.length;
    if (n) chunks.push(this.spare);
    this.spare = [];
    while (n < max && this.segments.length) {
      const events = await this.slice(this.segments[0]);
      if (this.segments[0].end === 0 && this.segments[0].carry.length === 0) this.segments.shift();
      if (events.length) chunks.unshift(events);
      n += events.length;
    }
    const all = chunks.length === 1 ? chunks[0] : chunks.flat();
    const give = all.length > max ? all.slice(all.length - max) : all;
    if (all.length > max) this.spare = all.slice(0, all.length - max);
    this.loaded += give.length;
    return give;
  }

  /** The slice of `seg` just before what was read of it: its whole lines, as events. */
  private async slice(seg: Segment): Promise<AgentEvent[]> {
    const start = Math.max(0, seg.end - SLICE_BYTES);
    const bytes = Buffer.allocUnsafe(seg.end - start);
    const handle = await fsp.open(seg.file, 'r');
    try {
      const now = await handle.stat();
      if (now.ino !== seg.ino) throw new Error(`${path.basename(seg.file)} was replaced while its log was read (its session is still being written); open the log again`);
      let got = 0;
      while (got < bytes.length) {
        const { bytesRead } = await handle.read(bytes, got, bytes.length - got, start + got);
        if (bytesRead === 0) throw new Error(`${path.basename(seg.file)} became shorter while its log was read`);
        got += bytesRead;
      }
    } finally {
      await handle.close();
    }
    let data = seg.carry.length ? Buffer.concat([bytes, seg.carry]) : bytes;
    seg.end = start;
    seg.carry = Buffer.alloc(0);
    if (start > 0) {
      // The first line began before this slice: kept for the next one.
      const nl = data.indexOf(0x0a);
      seg.carry = Buffer.from(nl === -1 ? data : data.subarray(0, nl + 1));
      if (nl === -1) return [];
      data = data.subarray(nl + 1);
    }
    const parsed = parseEvents(data, seg.readLine);
    // Only a file's last line can be torn, and it is in the first slice read of it.
    if (parsed.torn) {
      this.tornBytes += parsed.torn.bytes;
      this.torn.count++;
      this.torn.first ??= `the unfinished last line of ${path.basename(seg.file)} (${parsed.torn.bytes} bytes: its write was cut short)`;
    }
    this.badLines.count += parsed.badLines.count;
    this.badLines.first ??= parsed.badLines.first;
    return parsed.events;
  }
}

async function statOrNull(file: string): Promise<{ file: string; ino: number; size: number } | null> {
  try {
    const st = await fsp.stat(file);
    return { file, ino: st.ino, size: st.size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
