// A session's records on disk (its meta and its name) and their zod schemas: what the Sessions
// view's listing reads. zod/mini, each schema built on its first parse, and nothing else of the
// core imported: dist/extension-later.js lists past sessions with this at a window's start,
// without loading the core (dist/core.js) for it.
import * as z from 'zod/mini';
import { DIALECT_NAMES, type DialectName } from '../dialectName';
import { lazySchema, type LazyInfer } from '../../protocol/lazySchema';

export const SESSION_ID = /^s-[0-9a-z]+-[0-9a-f]{8}$/;
export const FILE_OF = {
  events: (id: string) => `${id}.jsonl`,
  olderEvents: (id: string) => `${id}.1.jsonl`,
  meta: (id: string) => `${id}.meta.json`,
  name: (id: string) => `${id}.name.json`,
  archived: (id: string) => `${id}.archived`,
};
/** Every file a session may have (for delete). */
export const sessionFiles = (id: string) => [FILE_OF.events(id), FILE_OF.olderEvents(id), FILE_OF.meta(id), FILE_OF.name(id), FILE_OF.archived(id)];

export const metaSchema = lazySchema(() => {
  const exit = z.object({
    at: z.number(),
    /** The worker's end: the `worker_exit` event's status. */
    reason: z.string(),
    code: z.nullable(z.number()),
    signal: z.nullable(z.string()),
    error: z.nullable(z.string()),
    /** False: it never became ready (its start failed); absent in files from before 5 Dec 2026. */
    started: z.optional(z.boolean()),
  });
  const evictedEvents = z.object({ events: z.number(), bytes: z.number(), times: z.number(), firstAt: z.number(), lastAt: z.number() });
  const removed = z.object({ at: z.number(), reason: z.string(), events: z.number(), bytes: z.number() });
  return z.object({
    version: z.literal(1),
    id: z.string().check(z.regex(SESSION_ID)),
    workerId: z.string(),
    name: z.string(),
    dialect: z.enum(DIALECT_NAMES),
    cwd: z.string(),
    command: z.string(),
    model: z.nullable(z.string()),
    workerVersion: z.nullable(z.string()),
    /** The process that writes the session (the host), to tell a live session from an interrupted one. */
    writer: z.object({ pid: z.int().check(z.positive()), start: z.nullable(z.string()) }),
    startedAt: z.number(),
    updatedAt: z.number(),
    ended: z.nullable(exit),
    /** From the worker's own state at the last summary write (derived once, by the worker). */
    turns: z.number(),
    lastTurnEndReason: z.nullable(z.string()),
    filesTouched: z.array(z.string()),
    /** Events written to the file so far, and how many never reached it (a write failed, the queue was full). */
    events: z.number(),
    lost: z.number(),
    lastError: z.nullable(z.string()),
    /** The oldest events this session's bound evicted. */
    evictedEvents: z.nullable(evictedEvents),
    /** Set when the whole session was evicted: its events are gone, this record stays. */
    removed: z.nullable(removed),
  });
});
export type SessionMeta = LazyInfer<typeof metaSchema>;

export const NAME_MAX = 500;
export const nameSchema = lazySchema(() => z.object({ name: z.string().check(z.minLength(1), z.maxLength(NAME_MAX)), at: z.number() }));

export type SessionStatus = 'live' | 'ended' | 'interrupted' | 'evicted';

/** One past (or live) session, as the Sessions tree shows it. */
export interface SessionSummary {
  id: string;
  workerId: string;
  /** The person's name for it when they gave one, else the worker's. */
  name: string;
  dialect: DialectName;
  cwd: string;
  command: string;
  model: string | null;
  workerVersion: string | null;
  /**
   * live: its host still runs it (this window or another). ended: its worker exited and the host
   * recorded why. interrupted: its host went away (window reload, host killed) before the worker
   * ended. evicted: removed by the history's bound; only this record is left.
   */
  status: SessionStatus;
  startedAt: number;
  endedAt: number | null;
  /** The worker's end (`stopped`, `exited`, `failed`), or `interrupted`; null while live. */
  endReason: string | null;
  exit: SessionMeta['ended'];
  /** The events file's last change (for an interrupted session: about when it was cut off). */
  lastWriteAt: number | null;
  turns: number;
  lastTurnEndReason: string | null;
  filesTouched: string[];
  /** Events written as of the last summary (exact once ended; `read` counts them exactly). */
  events: number;
  lost: number;
  lastError: string | null;
  /** Bytes of its events files now. */
  bytes: number;
  archived: boolean;
  evictedEvents: SessionMeta['evictedEvents'];
  removed: SessionMeta['removed'];
}

/**
 * What a session's log cannot show, and why, so that it is said beside the log (nothing left out
 * unsaid): the history's bounds, events that never reached the disk, earlier sessions unread.
 */
export interface LogGaps {
  /** The oldest events of these sessions that a session's size bound removed. */
  rotated: number;
  /** Events of the earlier sessions the history removed whole, and the first reason it gave. */
  evicted: number;
  evictedWhy: string | null;
  /** Events that never reached the disk (a full queue, a failed write), and the last error said. */
  lost: number;
  lostWhy: string | null;
  /** Earlier sessions that could not be read at all (gone, or their record unreadable), as `id: why`. */
  unread: string[];
}

export interface HistoryListing {
  /** Newest first; archived ones included (flagged), evicted ones as records without events. */
  sessions: SessionSummary[];
  /** Whole sessions evicted whose record is still kept, and the latest such eviction. */
  evictedSessions: { count: number; lastAt: number | null };
  /** Files of the history that could not be read, and why (the rest are listed regardless). */
  unreadable: Array<{ file: string; error: string }>;
}
