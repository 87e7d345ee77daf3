// The history's reader side that the Sessions view needs first: the listing of every session
// and one session's summary. The core's store uses it, and so does dist/extension-later.js, which
// lists past sessions at a window's start without loading the core (see records.ts).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isRecordedProcessAlive } from '../worker/processTree';
import { errorText, readJson } from './files';
import { FILE_OF, SESSION_ID, metaSchema, nameSchema, type HistoryListing, type SessionMeta, type SessionSummary } from './records';

/** Whether this process writes the session now (a writer's own pid is alive, but so is a reload's). */
export type WrittenHere = (sessionId: string) => boolean;

export type SummaryRead = { ok: true; summary: SessionSummary; meta: SessionMeta } | { ok: false; missing: boolean; error: string };

/**
 * Every session of `dir`, newest first, with the files that could not be read. A directory that
 * does not exist yet (no session was ever written) lists nothing; any other failure is named.
 */
export async function listSessions(dir: string, writtenHere: WrittenHere, missingDirIsEmpty = false): Promise<HistoryListing> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (error) {
    if (missingDirIsEmpty && (error as NodeJS.ErrnoException).code === 'ENOENT') names = [];
    else return { sessions: [], evictedSessions: { count: 0, lastAt: null }, unreadable: [{ file: dir, error: errorText(error) }] };
  }
  const present = new Set(names);
  const ids = names.filter((n) => n.endsWith('.meta.json')).map((n) => n.slice(0, -'.meta.json'.length)).filter((id) => SESSION_ID.test(id));
  const unreadable: HistoryListing['unreadable'] = [];
  // An events file whose record is missing cannot be shown as a session; it is named, not hidden.
  for (const n of names) {
    const id = n.replace(/(\.1)?\.jsonl$/, '');
    if (id !== n && SESSION_ID.test(id) && !present.has(FILE_OF.meta(id))) unreadable.push({ file: n, error: 'no session record beside it' });
  }
  const read = await Promise.all(ids.map((id) => readSummary(dir, id, writtenHere, present)));
  const sessions: SessionSummary[] = [];
  read.forEach((r, i) => {
    if (r.ok) sessions.push(r.summary);
    else if (!r.missing) unreadable.push({ file: FILE_OF.meta(ids[i]), error: r.error });
  });
  sessions.sort((a, b) => b.startedAt - a.startedAt);
  const evicted = sessions.filter((s) => s.removed);
  return {
    sessions,
    evictedSessions: { count: evicted.length, lastAt: evicted.length ? Math.max(...evicted.map((s) => s.removed!.at)) : null },
    unreadable,
  };
}

/** One session's summary from its record, its name, its archive mark and its files' sizes. */
export async function readSummary(dir: string, id: string, writtenHere: WrittenHere, present?: Set<string>): Promise<SummaryRead> {
  const meta = await readJson(path.join(dir, FILE_OF.meta(id)), metaSchema);
  if (!meta.ok) return meta;
  const m = meta.value;
  const has = (f: string) => (present ? Promise.resolve(present.has(f)) : fsp.access(path.join(dir, f)).then(() => true, () => false));
  const statOf = (f: string) => (m.removed ? null : fsp.stat(path.join(dir, f)).catch(() => null));
  const [name, archived, stat, olderStat] = await Promise.all([
    has(FILE_OF.name(id)).then((yes) => (yes ? readJson(path.join(dir, FILE_OF.name(id)), nameSchema) : null)),
    has(FILE_OF.archived(id)),
    statOf(FILE_OF.events(id)),
    statOf(FILE_OF.olderEvents(id)),
  ]);
  const status = m.removed ? 'evicted' : m.ended ? 'ended' : writtenHere(id) || isRecordedProcessAlive(m.writer) ? 'live' : 'interrupted';
  return {
    ok: true,
    meta: m,
    summary: {
      id, workerId: m.workerId, name: name?.ok ? name.value.name : m.name, dialect: m.dialect, cwd: m.cwd, command: m.command,
      model: m.model, workerVersion: m.workerVersion, status, startedAt: m.startedAt, endedAt: m.ended?.at ?? null,
      endReason: m.ended?.reason ?? (status === 'interrupted' ? 'interrupted' : null), exit: m.ended,
      lastWriteAt: stat?.mtimeMs ?? olderStat?.mtimeMs ?? null, turns: m.turns, lastTurnEndReason: m.lastTurnEndReason, filesTouched: m.filesTouched,
      // An evicted session keeps its record only: none of its events is kept (removed.events counts them).
      events: m.removed ? 0 : m.events - (m.evictedEvents?.events ?? 0), lost: m.lost, lastError: m.lastError, bytes: (stat?.size ?? 0) + (olderStat?.size ?? 0), archived,
      evictedEvents: m.evictedEvents, removed: m.removed,
    },
  };
}
