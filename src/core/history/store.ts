// The persisted history of one workspace: a directory the caller gives (the extension: its
// workspace storage), written by every window's host at once. Each process writes only the
// sessions it hosts; everything shared is a whole file replaced atomically (see format.ts).
//
// Writer side (the host): `open` a session when a worker starts, `append` each delivered event
// (queued; written once per tick, off the event path), `end` it when the worker exits.
// Reader side (the Sessions tree, the read-only log): `list`, `read`, `rename`, `archive`, `delete`.
// Nothing here throws into its caller for what the disk does: results say what happened, and
// write failures go to `onError` and to the session's own record.
import { randomUUID } from 'node:crypto';
import { mkdirSync, promises as fsp } from 'node:fs';
import path from 'node:path';
import type { DialectName } from '../dialectName';
import type { AgentEvent } from '../events/agentEvent';
import { startStamp } from '../worker/processTree';
import { errorText, readJson, replaceFile } from './files';
import {
  FILE_OF, NAME_MAX, SESSION_ID, type LineReader, metaSchema, nameSchema, resolveHistoryLimits, sessionFiles,
  type EditResult, type HistoryError, type HistoryLimits, type HistoryListing, type LogGaps, type ReadResult, type SessionMeta,
  type SessionSummary,
} from './format';
import { parseEvents, readSegments } from './lines';
import { listSessions, readSummary, type SummaryRead } from './listing';

// Read by the tests and embedders from here, where it always was.
export { parseEvents };
import { SessionPages } from './pages';
import { SessionWriter, type SessionSnapshot } from './sessionWriter';

export interface HistoryOptions {
  dir: string;
  limits?: Partial<HistoryLimits>;
  /** Told of every write, summary or eviction failure (default: a process warning). */
  onError?: (error: HistoryError) => void;
  /** A reader of a dialect's worker lines (a codec of its own); without one such lines read as bad. */
  lineReader?: (dialect: DialectName) => LineReader;
}

export interface SessionStart {
  workerId: string;
  name: string;
  dialect: DialectName;
  cwd: string;
  command: string;
  model?: string | null;
  workerVersion?: string | null;
  /** Read whenever the summary is written: the worker's own turns and touched files. */
  snapshot?: () => SessionSnapshot;
}

export type PagesResult =
  | { status: 'read'; session: SessionSummary; pages: SessionPages; gaps: LogGaps }
  | Exclude<ReadResult, { status: 'read' }>;

export interface WorkerEnd {
  reason: string;
  code?: number | null;
  signal?: string | null;
  error?: string | null;
  /** False: it never became ready (its start failed), whatever ended it. */
  started?: boolean;
}

const MAX_ERRORS_KEPT = 50;

export class HistoryStore {
  readonly dir: string;
  readonly limits: HistoryLimits;
  /** The latest failures (oldest first), as `onError` was told of them. */
  readonly errors: HistoryError[] = [];
  private readonly open_ = new Map<string, SessionWriter>();
  private readonly ending = new Set<Promise<void>>();
  private scheduled = false;
  private evicting: Promise<void> = Promise.resolve();
  private readonly writer = { pid: process.pid, start: startStamp(process.pid) ?? null };
  private lastOpenedAt = 0;
  private readonly onError: (error: HistoryError) => void;

  private constructor(dir: string, limits: HistoryLimits, onError: ((e: HistoryError) => void) | undefined, private readonly lineReader?: (dialect: DialectName) => LineReader) {
    this.dir = dir;
    this.limits = limits;
    this.onError = onError ?? ((e) => process.emitWarning(`history: ${e.op}${e.sessionId ? ` ${e.sessionId}` : ''}: ${e.error}`));
  }

  /** A store on `dir` (created if missing), or why not: bad limits, a directory that cannot be made. */
  static create(options: HistoryOptions): { ok: true; store: HistoryStore } | { ok: false; error: string } {
    const limits = resolveHistoryLimits(options.limits);
    if (!limits.ok) return limits;
    if (!path.isAbsolute(options.dir)) return { ok: false, error: `the history directory must be an absolute path, not "${options.dir}"` };
    try {
      mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      return { ok: false, error: `the history directory ${options.dir} could not be made: ${errorText(error)}` };
    }
    return { ok: true, store: new HistoryStore(options.dir, limits.limits, options.onError, options.lineReader) };
  }

  // ---- writer side

  /** Records a new session; its identity is on disk before this returns. */
  open(start: SessionStart): { ok: true; sessionId: string } | { ok: false; error: string } {
    // The wall clock, as every other time of the record (its end, its events): the host's start
    // plus performance.now() fell behind it by every suspend since (that clock stops while the
    // machine sleeps), so a session opened after a night's sleep was dated the evening before.
    // Just after the last one opened here when the clock says its millisecond again, so that
    // sessions opened together keep their order (the listing's, and eviction's oldest first); a
    // clock set back is taken as it is, the time the person reads.
    const clock = Date.now();
    const now = clock <= this.lastOpenedAt && this.lastOpenedAt - clock < 1 ? this.lastOpenedAt + 0.001 : clock;
    this.lastOpenedAt = now;
    const id = `s-${Math.floor(now).toString(36)}-${randomUUID().slice(0, 8)}`;
    const meta: SessionMeta = {
      version: 1, id, workerId: start.workerId, name: start.name, dialect: start.dialect, cwd: start.cwd, command: start.command,
      model: start.model ?? null, workerVersion: start.workerVersion ?? null, writer: this.writer, startedAt: now, updatedAt: now,
      ended: null, turns: 0, lastTurnEndReason: null, filesTouched: [], events: 0, lost: 0, lastError: null, evictedEvents: null, removed: null,
    };
    try {
      this.open_.set(id, new SessionWriter(meta, this.dir, this.limits, start.snapshot ?? null, (e) => this.fail(e)));
    } catch (error) {
      const said = errorText(error);
      this.fail({ sessionId: id, op: 'open', error: said });
      return { ok: false, error: said };
    }
    this.enforceBounds();
    return { ok: true, sessionId: id };
  }

  /** The event path: a push onto the session's queue; the write happens on a later tick. */
  append(sessionId: string, event: AgentEvent, line?: Buffer): void {
    const session = this.open_.get(sessionId);
    if (!session) return;
    session.append(event, line);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // One write per session per interval, whatever the number of events: each write call
    // costs the event loop about as much as serialising many events, so writing every tick
    // (a few events each) cost the event path more than all the serialising.
    if (this.limits.writeIntervalMs === 0) setImmediate(this.tick);
    else setTimeout(this.tick, this.limits.writeIntervalMs);
  }

  /** The session's summary changed; it is rewritten when due. */
  touch(sessionId: string): void {
    this.open_.get(sessionId)?.touch();
  }

  private readonly tick = () => {
    this.scheduled = false;
    for (const session of this.open_.values()) {
      // What is queued while the write runs waits for the next interval: a tick that finds the
      // session busy leaves it alone, so the write's end asks for that tick.
      if (session.hasPending && !session.busy) void session.writeDue().then(() => session.hasPending && this.schedule());
    }
  };

  /** The worker exited: its queue is written, its file closed, and its end recorded. */
  end(sessionId: string, end: WorkerEnd): Promise<void> {
    const session = this.open_.get(sessionId);
    if (!session) return Promise.resolve();
    this.open_.delete(sessionId);
    const done = session.end({ at: Date.now(), reason: end.reason, code: end.code ?? null, signal: end.signal ?? null, error: end.error ?? null, ...(end.started === false ? { started: false } : {}) })
      .then(() => this.enforceBounds())
      .finally(() => this.ending.delete(done));
    this.ending.add(done);
    return done;
  }

  /** Everything delivered so far is on disk (events and summaries of sessions that ended). */
  async flush(): Promise<void> {
    for (;;) {
      const work = [...this.open_.values()].filter((s) => s.hasPending || s.busy).map((s) => s.pump());
      if (work.length === 0 && this.ending.size === 0) break;
      await Promise.all([...work, ...this.ending]);
    }
    await this.evicting;
  }

  /**
   * Flushes and closes every file. A session still open (its worker was not ended: a closing host
   * stops its workers first) keeps no end, and reads as interrupted once this process is gone.
   */
  async close(): Promise<void> {
    await this.flush();
    const open = [...this.open_.values()];
    this.open_.clear();
    await Promise.all(open.map((s) => s.end(null)));
  }

  private fail(e: Omit<HistoryError, 'at'>): void {
    const error = { ...e, at: Date.now() };
    this.errors.push(error);
    if (this.errors.length > MAX_ERRORS_KEPT) this.errors.shift();
    try {
      this.onError(error);
    } catch {
      // The error listener's own failure has nobody left to tell.
    }
  }

  // ---- bounds

  /** Evicts the oldest finished sessions whole while the total is over its bounds (chained, never two at once here). */
  private enforceBounds(): Promise<void> {
    this.evicting = this.evicting.then(() => this.evictOldest()).catch((error) => this.fail({ sessionId: null, op: 'evict', error: errorText(error) }));
    return this.evicting;
  }

  private async evictOldest(): Promise<void> {
    const { sessions } = await this.list();
    const kept = sessions.filter((s) => s.status !== 'evicted');
    let total = kept.reduce((n, s) => n + s.bytes, 0);
    let count = kept.length;
    const candidates = kept.filter((s) => s.status === 'ended' || s.status === 'interrupted').sort((a, b) => a.startedAt - b.startedAt);
    for (const s of candidates) {
      const overBytes = total > this.limits.maxTotalBytes;
      const overCount = count > this.limits.maxSessions;
      if (!overBytes && !overCount) break;
      const reason = overBytes ? `all sessions together held more than ${this.limits.maxTotalBytes} bytes` : `more than ${this.limits.maxSessions} ${this.limits.maxSessions === 1 ? 'session was' : 'sessions were'} kept`;
      await this.evictSession(s, reason);
      total -= s.bytes;
      count--;
    }
    // Another window may have evicted the same session meanwhile: both wrote the same record.
    const records = sessions.filter((s) => s.status === 'evicted').sort((a, b) => b.removed!.at - a.removed!.at);
    for (const s of records.slice(this.limits.maxEvictedRecords)) await this.removeFiles(s.id);
  }

  private async evictSession(s: SessionSummary, reason: string): Promise<void> {
    const metaFile = path.join(this.dir, FILE_OF.meta(s.id));
    const meta = await readJson(metaFile, metaSchema);
    if (!meta.ok || meta.value.removed) return;
    const stored = meta.value.events - (meta.value.evictedEvents?.events ?? 0);
    const record: SessionMeta = { ...meta.value, removed: { at: Date.now(), reason, events: stored, bytes: s.bytes } };
    // The record first, then the events: a crash between leaves a record and a stray file, never a session without its record.
    await replaceFile(metaFile, JSON.stringify(record) + '\n');
    await fsp.rm(path.join(this.dir, FILE_OF.events(s.id)), { force: true });
    await fsp.rm(path.join(this.dir, FILE_OF.olderEvents(s.id)), { force: true });
  }

  private async removeFiles(id: string): Promise<void> {
    await Promise.all(sessionFiles(id).map((f) => fsp.rm(path.join(this.dir, f), { force: true })));
  }

  // ---- reader side

  /** Every session of this directory, newest first, with the files that could not be read. */
  list(): Promise<HistoryListing> {
    return listSessions(this.dir, this.writtenHere);
  }

  private summary(id: string): Promise<SummaryRead> {
    return readSummary(this.dir, id, this.writtenHere);
  }

  private readonly writtenHere = (id: string) => this.open_.has(id);

  /** One session's events in the order they were delivered; a torn last line is left out and reported. */
  async read(sessionId: string): Promise<ReadResult> {
    if (!SESSION_ID.test(sessionId)) return { status: 'not_found', sessionId, error: `"${sessionId}" is not a session id` };
    // A session this process writes is read with everything delivered so far.
    await this.open_.get(sessionId)?.pump();
    const s = await this.summary(sessionId);
    if (!s.ok) return { status: s.missing ? 'not_found' : 'error', sessionId, error: s.missing ? `no session ${sessionId} in ${this.dir}` : s.error };
    if (s.summary.status === 'evicted') return { status: 'evicted', session: s.summary, error: `session ${sessionId} was evicted: ${s.meta.removed!.reason}` };
    let older: Buffer;
    let current: Buffer;
    try {
      [current, older] = await readSegments(path.join(this.dir, FILE_OF.events(sessionId)), path.join(this.dir, FILE_OF.olderEvents(sessionId)));
    } catch (error) {
      return { status: 'error', sessionId, error: errorText(error) };
    }
    // A torn end of the older segment (it never has one unless a write failed) meets the first
    // line of the current one: that makes one bad line, counted, not a torn tail.
    const parsed = parseEvents(older.length ? Buffer.concat([older, current]) : current, this.lineReader?.(s.summary.dialect));
    const torn = parsed.torn && { bytes: parsed.torn.bytes, offset: parsed.torn.offset - older.length };
    return { status: 'read', session: s.summary, ...parsed, torn };
  }

  /**
   * A session's events to read newest first, a page at a time (see pages.ts), after those of the
   * sessions it resumed (`earlier`, oldest first; one evicted, gone or unreadable is left out and
   * said). `gaps`: what no page will give, and why.
   */
  async pages(sessionId: string, earlier: string[] = []): Promise<PagesResult> {
    if (!SESSION_ID.test(sessionId)) return { status: 'not_found', sessionId, error: `"${sessionId}" is not a session id` };
    await this.open_.get(sessionId)?.pump();
    const s = await this.summary(sessionId);
    if (!s.ok) return { status: s.missing ? 'not_found' : 'error', sessionId, error: s.missing ? `no session ${sessionId} in ${this.dir}` : s.error };
    if (s.summary.status === 'evicted') return { status: 'evicted', session: s.summary, error: `session ${sessionId} was evicted: ${s.meta.removed!.reason}` };
    const ids = earlier.filter((id) => id !== sessionId && SESSION_ID.test(id));
    const before = await Promise.all(ids.map((id) => this.summary(id)));
    const chain = [...before.flatMap((b) => (b.ok ? [b.summary] : [])), s.summary];
    const kept = chain.filter((x) => !x.removed);
    const sum = (of: (x: SessionSummary) => number, from = chain) => from.reduce((n, x) => n + of(x), 0);
    const gaps: LogGaps = {
      rotated: sum((x) => x.evictedEvents?.events ?? 0),
      evicted: sum((x) => x.removed?.events ?? 0),
      evictedWhy: chain.find((x) => x.removed)?.removed?.reason ?? null,
      lost: sum((x) => x.lost, kept),
      lostWhy: [...kept].reverse().find((x) => x.lost > 0 && x.lastError)?.lastError ?? null,
      unread: before.flatMap((b, i) => (b.ok ? [] : [`${ids[i]}: ${b.missing ? 'it is no longer in the history' : b.error}`])),
    };
    const expected = kept.reduce((n, x) => n + x.events, 0);
    try {
      const pages = await SessionPages.open(this.dir, kept.map((x) => ({ id: x.id, readLine: this.lineReader?.(x.dialect) })), expected);
      return { status: 'read', session: s.summary, pages, gaps };
    } catch (error) {
      return { status: 'error', sessionId, error: errorText(error) };
    }
  }

  // ---- the person's edits (any window may make them, on any session)

  async rename(sessionId: string, name: string): Promise<EditResult> {
    // Held to the schema the listing reads it back with: a name it would refuse is never written.
    const record = { name: name.trim(), at: Date.now() };
    if (!nameSchema.safeParse(record).success) return { status: 'error', sessionId, error: `a session name must be 1 to ${NAME_MAX} characters` };
    return this.edit(sessionId, 'renamed', () => replaceFile(path.join(this.dir, FILE_OF.name(sessionId)), JSON.stringify(record) + '\n'));
  }

  async archive(sessionId: string, archived = true): Promise<EditResult> {
    const file = path.join(this.dir, FILE_OF.archived(sessionId));
    return this.edit(sessionId, archived ? 'archived' : 'unarchived', () => (archived ? fsp.writeFile(file, '') : fsp.rm(file, { force: true })));
  }

  /** Deletes the session with its files; a live session is refused (stop its worker first). */
  async delete(sessionId: string): Promise<EditResult> {
    return this.edit(sessionId, 'deleted', () => this.removeFiles(sessionId), true);
  }

  private async edit(sessionId: string, done: 'renamed' | 'archived' | 'unarchived' | 'deleted', act: () => Promise<unknown>, refuseLive = false): Promise<EditResult> {
    if (!SESSION_ID.test(sessionId)) return { status: 'not_found', sessionId, error: `"${sessionId}" is not a session id` };
    const s = await this.summary(sessionId);
    if (!s.ok && s.missing) return { status: 'not_found', sessionId, error: `no session ${sessionId} in ${this.dir}` };
    if (refuseLive && s.ok && s.summary.status === 'live') return { status: 'live', sessionId, error: `session ${sessionId} is still running; stop its worker first` };
    try {
      await act();
      return { status: done, sessionId };
    } catch (error) {
      return { status: 'error', sessionId, error: errorText(error) };
    }
  }
}
