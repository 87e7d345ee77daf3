// One session's writer: the only process that ever writes this session's events file. Events
// are queued as they are delivered (a push, nothing else, on the event path) and written by
// `pump`, which the store runs once per tick: one batch per write, one open file per session,
// one write in flight at a time, so lines reach the file whole and in delivery order.
import { close, open, promises as fsp, write } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../events/agentEvent';
import { errorText, replaceFile, replaceFileSync } from './files';
import { FILE_OF, workerLineEntry, type HistoryError, type HistoryLimits, type SessionMeta } from './format';

/** What the worker itself knows about its session, read when the summary is written. */
export interface SessionSnapshot {
  turns: number;
  lastTurnEndReason: string | null;
  filesTouched: string[];
  model: string | null;
  workerVersion: string | null;
}

const NL = 0x0a;

export class SessionWriter {
  private pending: unknown[] = [];
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
    return this.pending.length > 0;
  }

  get busy(): boolean {
    return this.pumping !== null;
  }

  /**
   * The event path: queue it, whole; a full queue counts it as lost rather than hold it. `line`:
   * the worker's line that stands for the event, written as it came (workerLineEntry), which
   * costs a concatenation instead of serialising the event again.
   */
  append(event: AgentEvent, line?: string): void {
    if (this.closed) return;
    if (this.pending.length >= this.limits.maxPendingEvents) {
      this.meta.lost++;
      this.metaDirty = true;
      return;
    }
    this.pending.push(line === undefined ? event : workerLineEntry(event, line));
  }

  /** The summary changed (turn settled, files touched, ...): written when due, not at once. */
  touch(): void {
    this.metaDirty = true;
  }

  /** Writes what is queued (and the summary when due); resolves when the queue is empty. */
  pump(): Promise<void> {
    if (!this.pumping) {
      this.pumping = this.drain().finally(() => {
        this.pumping = null;
      });
    }
    return this.pumping;
  }

  private async drain(): Promise<void> {
    const half = this.limits.maxSessionBytes / 2;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      // Serialised here, off the event path, the whole object as delivered. A batch is cut where
      // the file reaches half the bound, so a slow disk (a long batch) cannot overshoot it.
      let text = '';
      let count = 0;
      for (const event of batch) {
        try {
          text += (typeof event === 'string' ? event : JSON.stringify(event)) + '\n';
          count++;
        } catch (error) {
          this.meta.lost++;
          this.fail('write', `an event could not be serialised: ${errorText(error)}`);
        }
        if (this.current.bytes + text.length >= half) {
          await this.writeLines(text, count);
          text = '';
          count = 0;
          if (this.current.bytes >= half) await this.rotate();
        }
      }
      if (count > 0) await this.writeLines(text, count);
    }
    if (this.metaDirty && !this.closed) this.metaWhenDue();
  }

  private async writeLines(text: string, lines: number): Promise<void> {
    const buf = Buffer.from(this.tornTail ? '\n' + text : text, 'utf8');
    let offset = 0;
    try {
      this.fd ??= await new Promise<number>((resolve, reject) => open(this.eventsFile, 'a', 0o600, (error, fd) => (error ? reject(error) : resolve(fd))));
      const fd = this.fd;
      while (offset < buf.length) {
        offset += await new Promise<number>((resolve, reject) => {
          write(fd, buf, offset, Math.min(this.limits.maxWriteBytes, buf.length - offset), null, (error, n) => (error ? reject(error) : resolve(n)));
        });
      }
      this.tornTail = false;
      this.meta.events += lines;
      this.current.events += lines;
    } catch (error) {
      // What reached the file stays (its last line may be partial: the next batch starts a new
      // line, so at most that one line is lost, and the reader reports it as a bad line).
      if (offset > 0) this.tornTail = buf[offset - 1] !== NL;
      const whole = offset > 0 ? countLines(buf.subarray(0, offset)) - (buf[0] === NL ? 1 : 0) : 0;
      this.meta.events += whole;
      this.current.events += whole;
      this.meta.lost += lines - whole;
      this.fail('write', errorText(error));
    }
    this.current.bytes += offset;
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

  private metaWhenDue(): void {
    const wait = this.lastMetaAt + this.limits.metaIntervalMs - Date.now();
    if (wait <= 0) {
      void this.writeMeta();
      return;
    }
    if (this.metaTimer) return;
    this.metaTimer = setTimeout(() => {
      this.metaTimer = null;
      if (!this.closed && this.metaDirty) void this.writeMeta();
    }, wait);
    this.metaTimer.unref();
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
    while (this.pending.length > 0 || this.pumping) await this.pump();
    this.closed = true;
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

export function countLines(buf: Uint8Array): number {
  let n = 0;
  let i = -1;
  const b = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  while ((i = b.indexOf(NL, i + 1)) !== -1) n++;
  return n;
}
