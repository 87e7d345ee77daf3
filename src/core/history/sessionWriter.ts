// One session's writer: the only process that ever writes this session's events file. Events
// are queued as they are delivered (a push, nothing else, on the event path) and written by
// `pump`, which the store runs once per tick: one batch per write, one open file per session,
// one write in flight at a time, so lines reach the file whole and in delivery order.
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { AgentEvent } from '../events/agentEvent';
import { errorText, replaceFile, replaceFileSync } from './files';
import { FILE_OF, type HistoryError, type HistoryLimits, type SessionMeta } from './format';

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
  private handle: FileHandle | null = null;
  private pumping: Promise<void> | null = null;
  /** The file ends in part of a line (a write failed midway): the next batch starts on a new line. */
  private tornTail = false;
  private metaDirty = false;
  private lastMetaAt = 0;
  private metaTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Bytes in the events file (as this writer left it). */
  bytes = 0;
  readonly eventsFile: string;
  readonly metaFile: string;

  constructor(
    readonly meta: SessionMeta,
    dir: string,
    private readonly limits: HistoryLimits,
    private readonly snapshot: (() => SessionSnapshot) | null,
    private readonly report: (e: Omit<HistoryError, 'at'>) => void,
  ) {
    this.eventsFile = path.join(dir, FILE_OF.events(meta.id));
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

  /** The event path: queue it, whole; a full queue counts it as lost rather than hold it. */
  append(event: AgentEvent): void {
    if (this.closed) return;
    if (this.pending.length >= this.limits.maxPendingEvents) {
      this.meta.lost++;
      this.metaDirty = true;
      return;
    }
    this.pending.push(event);
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
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      await this.writeBatch(batch);
      if (this.bytes > this.limits.maxSessionBytes) await this.compact();
    }
    if (this.metaDirty && !this.closed) this.metaWhenDue();
  }

  private async writeBatch(batch: unknown[]): Promise<void> {
    // Serialised here, off the event path, the whole object as delivered.
    let text = this.tornTail ? '\n' : '';
    let written = 0;
    for (const event of batch) {
      try {
        text += JSON.stringify(event) + '\n';
        written++;
      } catch (error) {
        this.meta.lost++;
        this.fail('write', `an event could not be serialised: ${errorText(error)}`);
      }
    }
    if (written === 0) return;
    const buf = Buffer.from(text, 'utf8');
    let offset = 0;
    try {
      this.handle ??= await fsp.open(this.eventsFile, 'a', 0o600);
      const handle = this.handle;
      while (offset < buf.length) {
        const { bytesWritten } = await handle.write(buf, offset, Math.min(this.limits.maxWriteBytes, buf.length - offset));
        offset += bytesWritten;
      }
      this.tornTail = false;
      this.meta.events += written;
    } catch (error) {
      // What reached the file stays (its last line may be partial: the next batch starts a new
      // line, so at most that one line is lost, and the reader reports it as a bad line).
      if (offset > 0) this.tornTail = buf[offset - 1] !== NL;
      const whole = offset > 0 ? countLines(buf.subarray(0, offset)) : 0;
      this.meta.events += whole;
      this.meta.lost += written - whole;
      this.fail('write', errorText(error));
    }
    this.bytes += offset;
  }

  /** Oldest-first eviction within the session: keep the newest lines up to 3/4 of the bound. */
  private async compact(): Promise<void> {
    try {
      await this.handle?.close();
      this.handle = null;
      const buf = await fsp.readFile(this.eventsFile);
      const keep = Math.floor(this.limits.maxSessionBytes * 0.75);
      const cutAt = Math.max(0, buf.length - keep);
      const start = cutAt === 0 ? 0 : buf.indexOf(NL, cutAt - 1) + 1 || buf.length;
      const dropped = countLines(buf.subarray(0, start));
      await replaceFile(this.eventsFile, buf.subarray(start));
      this.bytes = buf.length - start;
      const now = Date.now();
      const prior = this.meta.evictedEvents;
      this.meta.evictedEvents = {
        events: (prior?.events ?? 0) + dropped, bytes: (prior?.bytes ?? 0) + start, times: (prior?.times ?? 0) + 1,
        firstAt: prior?.firstAt ?? now, lastAt: now,
      };
      await this.writeMeta();
    } catch (error) {
      this.fail('compact', errorText(error));
    }
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
      await this.handle?.close();
    } catch (error) {
      this.fail('close', errorText(error));
    }
    this.handle = null;
    await this.writeMeta();
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
