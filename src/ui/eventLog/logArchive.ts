// The logs the event log can show with no worker behind them, or with more than its worker holds:
// a stopped worker's (kept after the supervisor forgets it), a past session's read back from the
// history, and the earlier sessions a resumed worker carries on. Each is kept in one bounded map
// (the newest LOGS_KEPT), so nothing here grows with the window's age. No VS Code here: a unit
// test holds it (test/unit/ui.logArchive.test.ts).
import type { StateResult, WorkerState } from '../../core/api';
import type { AgentEvent } from '../../core/events/agentEvent';

/** Logs kept of each kind: stopped workers', past sessions', resumed sessions' earlier events. */
export const LOGS_KEPT = 8;

/** A Map that keeps its `capacity` most recently set entries. */
export class BoundedMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Keeps `value` as the newest entry; the oldest beyond the capacity go. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value!);
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
  private readonly retired = new BoundedMap<string, Kept>(LOGS_KEPT);
  /** Past sessions' logs, read back from the history (read-only: no worker behind them). */
  private readonly past = new BoundedMap<string, Kept & { note: string }>(LOGS_KEPT);
  /** Events of the sessions a worker resumed: its log shows them before its own. */
  private readonly earlier = new BoundedMap<string, AgentEvent[]>(LOGS_KEPT);

  constructor(private readonly live: LiveLogs) {}

  /** A worker stopped: its log is kept so that it can still be shown after the supervisor forgets it. */
  retire(state: WorkerState): void {
    this.retired.set(state.workerId, { state, events: this.live.events(state.workerId) });
  }

  addPast(key: string, state: WorkerState, events: AgentEvent[], note: string): void {
    this.past.set(key, { state, events, note });
  }

  /** The log under this key is a past session's (read-only), not a worker's. */
  isPast(key: string): boolean {
    return this.past.has(key);
  }

  setEarlier(workerId: string, events: AgentEvent[]): void {
    this.earlier.set(workerId, events);
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
    if (p) return { state: p.state, events: p.events, evicted: 0, note: p.note };
    const st = this.live.state(workerId);
    const kept = st.status !== 'not_found' ? { state: st.state, events: this.live.events(workerId) } : this.retired.get(workerId);
    if (!kept) return undefined;
    const earlier = this.earlier.get(workerId) ?? [];
    // The worker's own store is what dropped events; the earlier sessions' are given whole.
    return { state: kept.state, events: earlier.length ? [...earlier, ...kept.events] : kept.events, evicted: kept.state.eventsDropped };
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
