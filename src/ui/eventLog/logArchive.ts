// The logs the event log can show with no worker behind them, or with more than its worker holds:
// a stopped worker's (kept after the supervisor forgets it), a past session's read back from the
// history, and the earlier sessions a resumed worker carries on. Each is kept in one bounded map
// (the newest LOGS_KEPT, and any an open tab shows), so nothing here grows with the window's
// age. No VS Code here: a unit test holds it (test/unit/ui.logArchive.test.ts).
import type { StateResult, WorkerState } from '../../core/api';
import type { AgentEvent } from '../../core/events/agentEvent';
import type { LogGaps } from '../../core/history/records';
import type { PastCounts } from '../../protocol/hostMessages';
import { neverWritten } from '../../protocol/words';
import { PastLog, type PastView } from './pastLog';

/** Logs kept of each kind: stopped workers', past sessions', resumed sessions' earlier events. */
export const LOGS_KEPT = 8;

/**
 * A Map that keeps its `capacity` most recently set entries, and every entry `pinned` holds on
 * to besides (a log an open tab shows: let go, the tab would come back empty).
 */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    readonly capacity: number,
    private readonly pinned: (key: K) => boolean = () => false,
  ) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Keeps `value` as the newest entry; the oldest not pinned beyond the capacity go. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    let over = this.map.size - this.capacity;
    for (const k of [...this.map.keys()]) {
      if (over <= 0) break;
      if (k === key || this.pinned(k)) continue;
      this.map.delete(k);
      over--;
    }
  }

  /** Oldest first. */
  values(): V[] {
    return [...this.map.values()];
  }
}

/** What a page is given of a log: its worker, its events (oldest first), and how many its store dropped. */
export interface LogContents {
  state: WorkerState;
  events: AgentEvent[];
  evicted: number;
  note?: string;
  /** A log read from the history a page at a time: the events on either side of those given, and what no page has (hostMessages.ts `reset.past`). */
  past?: PastCounts;
}

/** The supervisor's side of it: the live workers' states and events. */
export interface LiveLogs {
  state(workerId: string): StateResult;
  events(workerId: string): AgentEvent[];
}

interface Kept {
  state: WorkerState;
  events: AgentEvent[];
}

export class LogArchive {
  private readonly retired: BoundedMap<string, Kept>;
  /** Past sessions' logs, read back from the history (read-only: no worker behind them). */
  private readonly past: BoundedMap<string, { state: WorkerState; log: PastLog; note: string }>;
  /** Events of the sessions a worker resumed: its log shows them before its own. */
  private readonly earlier: BoundedMap<string, PastLog>;

  /** `shown`: whether an open log tab or view shows the log of this key (kept beyond the bound while it does). */
  constructor(
    private readonly live: LiveLogs,
    shown: (key: string) => boolean = () => false,
  ) {
    this.retired = new BoundedMap(LOGS_KEPT, shown);
    this.past = new BoundedMap(LOGS_KEPT, shown);
    this.earlier = new BoundedMap(LOGS_KEPT, shown);
  }

  /** A worker stopped: its log is kept so that it can still be shown after the supervisor forgets it. */
  retire(state: WorkerState): void {
    this.retired.set(state.workerId, { state, events: this.live.events(state.workerId) });
  }

  addPast(key: string, state: WorkerState, events: AgentEvent[] | PastLog, note: string): void {
    this.past.set(key, { state, log: asLog(events), note });
  }

  /** The log under this key is a past session's (read-only), not a worker's. */
  isPast(key: string): boolean {
    return this.past.has(key);
  }

  setEarlier(workerId: string, events: AgentEvent[] | PastLog): void {
    this.earlier.set(workerId, asLog(events));
  }

  /** The past session's log shown under `key`, or the earlier sessions' of the worker `key`: read a page at a time. */
  pastLogOf(key: string): { log: PastLog; earlier: boolean } | undefined {
    const p = this.past.get(key);
    if (p) return { log: p.log, earlier: false };
    const e = this.earlier.get(key);
    return e ? { log: e, earlier: true } : undefined;
  }

  /** A worker's state (a past session's, live, or stopped and kept), without reading its events, which decodes the store. */
  stateOf(workerId: string): WorkerState | undefined {
    const p = this.past.get(workerId);
    if (p) return p.state;
    const st = this.live.state(workerId);
    return st.status !== 'not_found' ? st.state : this.retired.get(workerId)?.state;
  }

  lookup(workerId: string): LogContents | undefined {
    const p = this.past.get(workerId);
    if (p) {
      const { events, ...view } = p.log.view();
      return { state: p.state, events, evicted: 0, note: p.note, ...(paged(p.log) ? { past: pastOf(view, p.log.gaps) } : {}) };
    }
    const st = this.live.state(workerId);
    const kept = st.status !== 'not_found' ? { state: st.state, events: this.live.events(workerId) } : this.retired.get(workerId);
    if (!kept) return undefined;
    const log = this.earlier.get(workerId);
    const earlier = log?.loaded ?? [];
    // The worker's own store is what dropped events; the earlier sessions' are read a page at a time.
    const past = log && paged(log) ? { past: pastOf({ before: log.notLoaded, after: 0, dropped: log.dropped, unreadable: log.unreadable }, log.gaps) } : {};
    return { state: kept.state, events: earlier.length ? [...earlier, ...kept.events] : kept.events, evicted: kept.state.eventsDropped, ...past };
  }

  /** The past session shown under `key`, as the worker picker lists it (none: not a past session). */
  pastEntry(key: string | undefined): { workerId: string; name: string; status: string } | undefined {
    const p = key !== undefined ? this.past.get(key) : undefined;
    return p ? { workerId: key!, name: p.state.name, status: 'history' } : undefined;
  }

  /** Stopped workers whose logs are kept, newest first. */
  retiredList(): Array<{ workerId: string; name: string; status: string }> {
    return this.retired
      .values()
      .reverse()
      .map((r) => ({ workerId: r.state.workerId, name: r.state.name, status: r.state.status }));
  }
}

/** Events given whole (a test's, an older caller's) are a log with nothing more to read. */
const asLog = (events: AgentEvent[] | PastLog): PastLog => (events instanceof PastLog ? events : new PastLog(events, null));

/** A log that has more than it shows, or lacks some of what was received (the history's bounds, a write, a session unread): the page says so. */
const paged = (log: PastLog): boolean =>
  log.notLoaded > 0 || log.dropped > 0 || log.gaps.lost > 0 || log.gaps.unread.length > 0 || log.unreadable !== null || log.view().after > 0 || log.view().before > 0;

/** What the page is told around the events; what is missing, and why, only when something is. */
function pastOf(v: Omit<PastView, 'events'>, gaps: LogGaps): PastCounts {
  const { unreadable, ...counts } = v;
  const by = [
    gaps.rotated > 0 && "the history's size limit (rpcWorkers.history.maxSessionMiB)",
    // The store's own words for the bound it applied, then the settings that set the bounds.
    gaps.evicted > 0 && `the history removing earlier sessions whole (${gaps.evictedWhy ?? 'its bounds'}; rpcWorkers.history.maxSessions, rpcWorkers.history.maxTotalMiB)`,
  ].filter((x): x is string => !!x);
  return {
    ...counts,
    ...(by.length ? { droppedBy: by.join(' and ') } : {}),
    ...(gaps.lost > 0 ? { lost: { events: gaps.lost, why: neverWritten(gaps.lostWhy) } } : {}),
    ...(gaps.unread.length ? { unread: { sessions: gaps.unread.length, first: gaps.unread[0] } } : {}),
    ...(unreadable ? { unreadable } : {}),
  };
}
