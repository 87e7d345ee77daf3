// One session's writer: the only process that ever writes this session's events file. Events
// are queued as they are delivered, as the bytes they are written as: a worker's line is copied
// into a batch as it came (its bytes from the read buffer, never text encoded again), an event
// kept as an object is serialised into it. `pump`, which the store runs once per tick, writes
// the batches: one open file per session, one write in flight at a time, so lines reach the
// file whole and in delivery order.
import { close, open, promises as fsp, writev } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../events/agentEvent';
import { errorText, replaceFile, replaceFileSync } from './files';
import { FILE_OF, workerLineHead, type HistoryError, type HistoryLimits, type SessionMeta } from './format';
import { countLinesOf, span } from './lineBytes';

/** What the worker itself knows about its session, read when the summary is written. */
export interface SessionSnapshot {
  turns: number;
  lastTurnEndReason: string | null;
  filesTouched: string[];
  model: string | null;
  workerVersion: string | null;
}

/** Lines queued for one write: a batch's bytes, and how many lines they are. */
interface Batch {
  bytes: Buffer;
  lines: number;
}

const NL = 0x0a;
const NEWLINE = Buffer.from('\n');
/** A batch starts this small (most sessions write a few events a tick) and doubles while it fills, to this. */
const FIRST_BATCH_BYTES = 4 * 1024;
const MAX_BATCH_BYTES = 256 * 1024;
/** Written batches kept for reuse, at most (4 MiB of the largest: what a flood queues in a pump). */
const MAX_SPARE = 16;

export class SessionWriter {
  /** Full batches, oldest first, each with its number of lines (the one being filled is `batch`). */
  private pending: Batch[] = [];
  // Never from Node's shared pool (allocUnsafeSlow), so that a written batch's whole memory is its own to take again.
  private batch: Buffer = Buffer.allocUnsafeSlow(FIRST_BATCH_BYTES);
  private batchAt = 0;
  /** Lines in the batch being filled: counted as they go in, so that a write need not look for them. */
  private batchLines = 0;
  /**
   * Written batches' memory, taken again by the next ones: a new batch per write left the
   * collector tens of megabytes of buffers a second to account for under a flood.
   */
  private readonly spare: Buffer[] = [];
  /** Events queued and not yet handed to a write. */
  private queued = 0;
  private head: { timestamp: number; turn: number | undefined; bytes: Buffer } = { timestamp: NaN, turn: undefined, bytes: Buffer.alloc(0) };
  /** The one open file of the session (a plain fd: the callback API costs the event loop less per write than FileHandle). */
  private fd: number | null = null;
  private pumping: Promise<void> | null = null;
  /** The file ends in part of a line (a write failed midway): the next batch starts on a new line. */
  private tornTail = false;
  private metaDirty = false;
  private lastMetaAt = 0;
  private metaTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Bytes and events in the current events file, and in the segment before it. */
  private current = { bytes: 0, events: 0 };
  private older = { bytes: 0, events: 0 };
  readonly eventsFile: string;
  readonly olderFile: string;
  readonly metaFile: string;

  constructor(
    readonly meta: SessionMeta,
    dir: string,
    private readonly limits: HistoryLimits,
    private readonly snapshot: (() => SessionSnapshot) | null,
    private readonly report: (e: Omit<HistoryError, 'at'>) => void,
  ) {
    this.eventsFile = path.join(dir, FILE_OF.events(meta.id));
    this.olderFile = path.join(dir, FILE_OF.olderEvents(meta.id));
    this.metaFile = path.join(dir, FILE_OF.meta(meta.id));
    // Written at once, before any event, so that a session is listed (and known as interrupted)
    // whatever happens to this process next.
    replaceFileSync(this.metaFile, JSON.stringify(meta) + '\n');
    this.lastMetaAt = Date.now();
  }

  get hasPending(): boolean {
    return this.queued > 0;
  }

  get busy(): boolean {
    return this.pumping !== null;
  }

  /**
   * The event path: queue it, whole; a full queue counts it as lost rather than hold it. `line`:
   * the bytes of the worker's line that stands for the event (a view of the read buffer, copied
   * here), written as it came beside the event's time and turn, which the history's reader reads
   * back through the worker's codec (format.ts, workerLineHead).
   */
  append(event: AgentEvent, line?: Uint8Array): void {
    if (this.closed) return;
    if (this.queued >= this.limits.maxPendingEvents) {
      this.meta.lost++;
      this.metaDirty = true;
      return;
    }
    if (line === undefined) {
      let text: string;
      try {
        text = JSON.stringify(event);
      } catch (error) {
        this.meta.lost++;
        this.fail('write', `an event could not be serialised: ${errorText(error)}`);
        return;
      }
      const need = Buffer.byteLength(text) + 1;
      const at = this.room(need);
      this.batch.write(text, at, 'utf8');
      this.batch[at + need - 1] = NL;
    } else {
      const head = this.headOf(event);
      const need = head.length + line.length + 2;
      let at = this.room(need);
      this.batch.set(head, at);
      at += head.length;
      this.batch.set(line, at);
      at += line.length;
      this.batch[at] = 0x7d; // }
      this.batch[at + 1] = NL;
    }
    this.batchLines++;
    this.queued++;
  }

  /**
   * The start of the entry (workerLineHead), as bytes: the same for the events of a turn within a
   * millisecond, which a flood's are, so it is built once for them (building it was most of the
   * cost of keeping a line).
   */
  private headOf(event: AgentEvent): Buffer {
    const turn = event.turn?.index;
    if (event.timestamp !== this.head.timestamp || turn !== this.head.turn) {
      this.head = { timestamp: event.timestamp, turn, bytes: Buffer.from(workerLineHead(event.timestamp, turn), 'latin1') };
    }
    return this.head.bytes;
  }

  /** Where `need` bytes start in the batch: a full batch is queued for writing and the next one begun. */
  private room(need: number): number {
    if (this.batchAt + need > this.batch.length) {
      this.seal();
      if (need > this.batch.length) this.batch = Buffer.allocUnsafeSlow(Math.max(need, Math.min(this.batch.length * 2, MAX_BATCH_BYTES)));
    }
    const at = this.batchAt;
    this.batchAt += need;
    return at;
  }

  /** The batch being filled joins the queue; the next one is as large, or twice that while it fills. */
  private seal(): void {
    if (this.batchAt === 0) return;
    const full = this.batchAt > this.batch.length / 2;
    this.pending.push({ bytes: this.batch.subarray(0, this.batchAt), lines: this.batchLines });
    const bytes = full ? Math.min(this.batch.length * 2, MAX_BATCH_BYTES) : this.batch.length;
    const i = this.spare.findIndex((b) => b.length >= bytes);
    this.batch = i === -1 ? Buffer.allocUnsafeSlow(bytes) : this.spare.splice(i, 1)[0];
    this.batchAt = 0;
    this.batchLines = 0;
  }

  /**
   * A batch whose write is over (every write awaited): its memory serves again. With the spares
   * full, it takes the place of a smaller one, since a flood's batches double to the largest size
   * and a kept small one would not serve them. (What made a flood allocate a batch per write was
   * the writes falling behind: writeBatches.)
   */
  private recycle(batch: Buffer): void {
    const whole = Buffer.from(batch.buffer, batch.byteOffset, batch.buffer.byteLength - batch.byteOffset);
    if (whole.length > MAX_BATCH_BYTES) return;
    if (this.spare.length < MAX_SPARE) {
      this.spare.push(whole);
      return;
    }
    const smallest = this.smallestSpare();
    if (this.spare[smallest].length < whole.length) this.spare[smallest] = whole;
  }

  private smallestSpare(): number {
    let at = 0;
    for (let i = 1; i < this.spare.length; i++) if (this.spare[i].length < this.spare[at].length) at = i;
    return at;
  }

  /** The summary changed (turn settled, files touched, ...): written when due, not at once. */
  touch(): void {
    this.metaDirty = true;
  }

  /** Writes what is queued (and the summary when due); resolves when the queue is empty. */
  pump(): Promise<void> {
    return this.start(true);
  }

  /**
   * The store's tick: writes what is queued now (and the summary when due), and leaves what comes
   * meanwhile to the next tick (`hasPending` says whether there is some). Under a flood, writing
   * again as soon as a write ended made one write per turn of the reader's slices: ten times the
   * writes of one per interval, each a call into the pool and its promise on the main thread.
   */
  writeDue(): Promise<void> {
    return this.start(false);
  }

  private start(all: boolean): Promise<void> {
    this.untilEmpty ||= all;
    this.pumping ??= this.drain().finally(() => {
      this.pumping = null;
      this.untilEmpty = false;
    });
    return this.pumping;
  }

  /** A caller waits for the queue to be empty (a read, a flush, the end): the drain goes on until it is. */
  private untilEmpty = false;

  private async drain(): Promise<void> {
    let written = 0;
    for (;;) {
      while (this.queued > 0) {
        this.seal();
        const batches = this.pending;
        this.pending = [];
        this.queued = 0;
        await this.writeBatches(batches);
        for (const batch of batches) this.recycle(batch.bytes);
        written += batches.length;
        if (!this.untilEmpty) break;
      }
      // As many spare batches as this pump wrote, the largest: a flood keeps its batches, a quiet worker lets them go.
      while (this.spare.length > written) this.spare.splice(this.smallestSpare(), 1);
      if (this.metaDirty && !this.closed) await this.metaWhenDue();
      if (this.queued === 0 || !this.untilEmpty) return;
    }
  }

  /**
   * The batches in as few writes as the bounds allow: each write takes up to maxWriteBytes of
   * them. A write's answer comes on the loop's next turn, so a write per batch wrote one batch a
   * turn, and under a flood the batches piled up in memory faster than that (a 100,000-event τ
   * flood queued 30 MB). They are cut after the line with which the file reaches half the bound,
   * and the file rotated there, so a slow disk (a long queue) cannot overshoot it.
   */
  private async writeBatches(batches: Batch[]): Promise<void> {
    const half = this.limits.maxSessionBytes / 2;
    let group: Buffer[] = [];
    let bytes = 0;
    let lines = 0;
    const flush = async () => {
      if (bytes === 0) return;
      await this.writeLines(group, bytes, lines);
      group = [];
      bytes = 0;
      lines = 0;
      if (this.current.bytes >= half) await this.rotate();
    };
    for (const batch of batches) {
      let rest = batch.bytes;
      let restLines = batch.lines;
      while (rest.length > 0) {
        const room = half - this.current.bytes - bytes;
        const lf = room <= rest.length ? rest.indexOf(NL, Math.max(0, room - 1)) : -1;
        const piece = lf === -1 ? rest : rest.subarray(0, lf + 1);
        // Only the piece before a cut (where the file reaches half its bound) is counted by looking; the rest by subtraction.
        const pieceLines = lf === -1 ? restLines : countLinesOf([piece]);
        rest = rest.subarray(piece.length);
        restLines -= pieceLines;
        group.push(piece);
        bytes += piece.length;
        lines += pieceLines;
        if (lf !== -1 || bytes >= this.limits.maxWriteBytes) await flush();
      }
    }
    await flush();
  }

  /** `pieces`, `count` whole lines end to end (`total` bytes), appended to the events file. */
  private async writeLines(pieces: Buffer[], total: number, count: number): Promise<void> {
    const bufs = this.tornTail ? [NEWLINE, ...pieces] : pieces;
    const size = this.tornTail ? total + 1 : total;
    let offset = 0;
    try {
      this.fd ??= await new Promise<number>((resolve, reject) => open(this.eventsFile, 'a', 0o600, (error, fd) => (error ? reject(error) : resolve(fd))));
      const fd = this.fd;
      while (offset < size) {
        const next = span(bufs, offset, Math.min(size, offset + this.limits.maxWriteBytes));
        offset += await new Promise<number>((resolve, reject) => {
          writev(fd, next, null, (error, n) => (error ? reject(error) : resolve(n)));
        });
      }
      this.tornTail = false;
      this.meta.events += count;
      this.current.events += count;
    } catch (error) {
      // What reached the file stays (its last line may be partial: the next batch starts a new
      // line, so at most that one line is lost, and the reader reports it as a bad line).
      const startsTorn = bufs[0] === NEWLINE;
      if (offset > 0) this.tornTail = span(bufs, offset - 1, offset)[0][0] !== NL;
      const whole = offset > 0 ? countLinesOf(span(bufs, 0, offset)) - (startsTorn ? 1 : 0) : 0;
      this.meta.events += whole;
      this.current.events += whole;
      this.meta.lost += count - whole;
      this.fail('write', errorText(error));
    }
    this.current.bytes += offset;
    // The record's count is what a reader trusts after a crash (how many older events there are
    // to page through): rewritten with the writes, at most every metaIntervalMs.
    this.metaDirty = true;
  }

  /**
   * Oldest-first eviction within the session: the current file becomes the older segment (the
   * rename drops the one before, the oldest half), and the next write starts a new file.
   */
  private async rotate(): Promise<void> {
    try {
      await this.closeFile();
      await fsp.rename(this.eventsFile, this.olderFile);
    } catch (error) {
      this.fail('compact', errorText(error));
      return;
    }
    const dropped = this.older;
    this.older = this.current;
    this.current = { bytes: 0, events: 0 };
    if (dropped.events === 0 && dropped.bytes === 0) return;
    const now = Date.now();
    const prior = this.meta.evictedEvents;
    this.meta.evictedEvents = {
      events: (prior?.events ?? 0) + dropped.events, bytes: (prior?.bytes ?? 0) + dropped.bytes, times: (prior?.times ?? 0) + 1,
      firstAt: prior?.firstAt ?? now, lastAt: now,
    };
    await this.writeMeta();
  }

  /** Written now when due (resolves once it is), else once metaIntervalMs has passed since the last. */
  private metaWhenDue(): Promise<void> {
    const wait = this.lastMetaAt + this.limits.metaIntervalMs - Date.now();
    if (wait <= 0) return this.writeMeta();
    if (this.metaTimer) return Promise.resolve();
    this.metaTimer = setTimeout(() => {
      this.metaTimer = null;
      if (!this.closed && this.metaDirty) void this.writeMeta();
    }, wait);
    this.metaTimer.unref();
    return Promise.resolve();
  }

  private metaWriting: Promise<void> = Promise.resolve();

  /** Summary writes are chained, so an older one can never land after a newer one. */
  writeMeta(): Promise<void> {
    this.metaDirty = false;
    this.lastMetaAt = Date.now();
    this.metaWriting = this.metaWriting.then(async () => {
      this.refresh();
      try {
        await replaceFile(this.metaFile, JSON.stringify(this.meta) + '\n');
      } catch (error) {
        this.fail('meta', errorText(error));
      }
    });
    return this.metaWriting;
  }

  private refresh(): void {
    this.meta.updatedAt = Date.now();
    if (!this.snapshot) return;
    try {
      const s = this.snapshot();
      Object.assign(this.meta, s, { filesTouched: [...s.filesTouched] });
    } catch (error) {
      this.fail('meta', `the worker's summary could not be read: ${errorText(error)}`);
    }
  }

  /**
   * The worker ended: everything queued is written, the file closed, and the end recorded.
   * Without `exit` (the store closes while the worker still runs) the session is left without an
   * end, so that a later reader sees it as interrupted once this process is gone.
   */
  async end(exit: NonNullable<SessionMeta['ended']> | null): Promise<void> {
    if (this.closed) return;
    while (this.queued > 0 || this.pumping) await this.pump();
    this.closed = true;
    this.spare.length = 0;
    if (exit) this.meta.ended = exit;
    if (this.metaTimer) clearTimeout(this.metaTimer);
    try {
      await this.closeFile();
    } catch (error) {
      this.fail('close', errorText(error));
    }
    await this.writeMeta();
  }

  private closeFile(): Promise<void> {
    const fd = this.fd;
    this.fd = null;
    if (fd === null) return Promise.resolve();
    return new Promise((resolve, reject) => close(fd, (error) => (error ? reject(error) : resolve())));
  }

  private fail(op: HistoryError['op'], error: string): void {
    this.meta.lastError = error;
    this.metaDirty = true;
    this.report({ sessionId: this.meta.id, op, error });
  }
}
