// What the history keeps on disk, and the zod schemas every file is held to when read back
// (a file written by another window, an older version, or torn by a crash is data, not trust).
//
// Why JSONL and not an embedded database: the .vsix must stay platform-neutral (no native
// module such as better-sqlite3 per OS and Electron ABI), appending one line per event is the
// cheapest write there is, a crash can only tear the last line (which the reader detects and
// reports), and two windows never share a file they both write: each session has its own files,
// owned by the one process that hosts the worker, and the few shared decisions (a person's rename
// or archive, an eviction) are whole files replaced by an atomic rename.
//
// Files in the history directory, per session `<id>`:
//   <id>.jsonl         the events as delivered, one JSON object per line (the owner appends):
//                      the event itself, or, where the worker's own line stands for it, that
//                      line as it came with the event's time and turn (workerLineHead), read
//                      back through the worker's codec
//   <id>.1.jsonl       the segment before it: at half the session's bound the current file is
//                      renamed over this one, so the oldest half goes at once and nothing is
//                      ever copied (eviction costs a rename, not a rewrite)
//   <id>.meta.json     the session's facts: who, when, summary, end or eviction (atomic rename)
//   <id>.name.json     a name the person gave it (atomic rename; separate from the archive mark
//   <id>.archived      and from the meta, so no edit can lose another)
import { z } from 'zod';
import type { AgentEvent } from '../events/agentEvent';

// The session's records (meta and name) and the listing's shapes: in records.ts, which the later
// bundle lists past sessions with, without the core.
export { FILE_OF, NAME_MAX, SESSION_ID, metaSchema, nameSchema, sessionFiles, type HistoryListing, type LogGaps, type SessionMeta, type SessionStatus, type SessionSummary } from './records';
import type { SessionSummary } from './records';

/** Bounds of the history; settings-like, each with a default. */
export interface HistoryLimits {
  /** Bytes of events kept per session: the oldest half is evicted when it is reached (between half and all of it is kept). */
  maxSessionBytes: number;
  /** Bytes of every session's events together; beyond it the oldest finished sessions are evicted whole. */
  maxTotalBytes: number;
  /** Sessions kept with their events; beyond it the oldest finished ones are evicted whole. */
  maxSessions: number;
  /** Records of evicted sessions kept (so the person can see what went, and when). */
  maxEvictedRecords: number;
  /** Events waiting for the disk per session; beyond it new ones are counted as lost, never held without bound. */
  maxPendingEvents: number;
  /** A live session's summary is rewritten at most this often (and always at its end). */
  metaIntervalMs: number;
  /** Bytes per write call: bounds how long one write holds a thread of the pool (4 MiB: a few milliseconds to the page cache, and a flood's queue written in a turn or two). */
  maxWriteBytes: number;
  /**
   * Events delivered within this long are written together (0: every tick). A crash loses what
   * was not written yet: at most this long of events, and the line being written.
   */
  writeIntervalMs: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  maxSessionBytes: 32 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxSessions: 200,
  maxEvictedRecords: 100,
  maxPendingEvents: 200_000,
  metaIntervalMs: 1000,
  maxWriteBytes: 4 * 1024 * 1024,
  writeIntervalMs: 25,
};

const positive = z.number().int().positive();
export const historyLimitsSchema = z.object({
  maxSessionBytes: positive.min(1024),
  maxTotalBytes: positive.min(1024),
  maxSessions: positive,
  maxEvictedRecords: z.number().int().nonnegative(),
  maxPendingEvents: positive,
  metaIntervalMs: z.number().int().nonnegative(),
  maxWriteBytes: positive,
  writeIntervalMs: z.number().int().nonnegative().max(10_000),
}).partial().strict();

export function resolveHistoryLimits(input: Partial<HistoryLimits> | undefined): { ok: true; limits: HistoryLimits } | { ok: false; error: string } {
  const parsed = historyLimitsSchema.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, error: `invalid history limits: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
  return { ok: true, limits: { ...DEFAULT_HISTORY_LIMITS, ...parsed.data } };
}

/** A line read back: the host's event shape at its least (type and time); every other field kept whole. */
export const eventLineSchema = z.looseObject({ type: z.string(), timestamp: z.number() });

/** A worker's line kept for its event: its time and turn beside the line, which is decoded again on reading. */
export const workerLineSchema = z.object({ timestamp: z.number(), turn: z.object({ index: z.number().int() }).optional(), raw: z.unknown() });

/**
 * The history line for an event whose worker line stands for it is `workerLineHead(…)`, the
 * line, then `}`. The line was parsed when it came, so it is valid JSON and goes in as it is:
 * bytes copied, where serialising the event again cost the extension host's thread about 1 µs
 * per event.
 */
export function workerLineHead(timestamp: number, turn: number | undefined): string {
  return `{"timestamp":${timestamp}${turn === undefined ? '' : `,"turn":{"index":${turn}}`},"raw":`;
}

/** Reads a worker's line back into its event (the dialect's codec), or says why it cannot. */
export type LineReader = (raw: unknown) => { ok: true; event: AgentEvent } | { ok: false; error: string };

export type ReadResult =
  | {
    status: 'read';
    session: SessionSummary;
    /** Every whole event line, in the order written (oldest first). */
    events: AgentEvent[];
    /** The file ended in an incomplete line (a crash mid-write): it was left out and is reported here (`offset` in `<id>.jsonl`). */
    torn: { bytes: number; offset: number } | null;
    /** Complete lines that were not an event (not JSON, or no type/timestamp): skipped, counted, the first described. */
    badLines: { count: number; first: string | null };
  }
  | { status: 'evicted'; session: SessionSummary; error: string }
  | { status: 'not_found' | 'error'; sessionId: string; error: string };

export type EditResult =
  | { status: 'renamed' | 'archived' | 'unarchived' | 'deleted'; sessionId: string }
  | { status: 'live'; sessionId: string; error: string }
  | { status: 'not_found' | 'error'; sessionId: string; error: string };

/** Something the history could not do; reported, never thrown into the event path. */
export interface HistoryError {
  sessionId: string | null;
  op: 'open' | 'write' | 'meta' | 'compact' | 'evict' | 'close';
  error: string;
  at: number;
}
