// The workspace's past sessions as the UI sees them: the history store's listing (read without
// the core until something loads it, never at activation), the sessions this window
// hosts left out (they are the live part of the tree), archived ones behind a toggle, and the
// record that lets a session be resumed later (what was started and on which conversation).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SessionRef, Supervisor, WorkerSpec, WorkerState } from '../../core/api';
import type { HistoryListing, SessionSummary } from '../../core/history/format';
import { SESSION_ID } from '../../core/history/records';
import type { HistoryStore } from '../../core/history/store';
import type { AgentEvent } from '../../core/events/agentEvent';
import { HOST_SHUT_DOWN } from '../../core/shutDownWords';
import { neverWritten, plural, theCount } from '../../protocol/words';
import { Disposable, toDisposable } from '../disposable';
import { PastLog } from '../eventLog/pastLog';
import { throttle } from '../throttle';
import { envDigest, interruptedSchema, profileOf, resumeRecordsSchema, storableSpec, type ResumeRecord } from './resumeRecord';

const BOOK_KEY = 'rpcWorkers.history.resume';
/** Sessions resumed from sessions resumed from ...: the log shows at most this many before the current one. */
const CHAIN_MAX = 8;

/** What the history part of the host gives (LazySupervisor forwards it once the core is loaded). */
export interface HistoryHost extends Supervisor {
  host(): Supervisor;
  readonly loaded: boolean;
  /** After the window's end: the host's history store is closed, or was never opened. */
  readonly shutDown: boolean;
}

/** A tool call's event with neither its arguments (a start) nor its result (an end): τ 0.15.0 sends them so. */
const bareToolEvent = (e: AgentEvent) => (e.type === 'tool_execution_start' && e.args == null) || (e.type === 'tool_execution_end' && e.result == null);

export class PastSessions extends Disposable {
  private listing: HistoryListing | null = null;
  private loading: Promise<void> | null = null;
  /** What the tree showed last: a listing that reads the same changes nothing on screen. */
  private shown = '';
  /** Why the history cannot be shown (off, or the store could not be used); null when it can. */
  error: string | null = null;
  showArchived = false;
  private readonly specs = new Map<string, WorkerSpec>();
  /** History sessions this window's workers wrote (their end is written just after the worker goes). */
  private readonly mine = new Set<string>();
  private endRetries = 0;
  /** This window's sessions whose end is not on disk yet, with a relist due (see sessions()). */
  private ending = new Set<string>();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this._onDidChange.event;
  private readonly relist = throttle(() => void this.load(), 300);

  /**
   * `interruptedFile`: where the window's end names the sessions whose workers were still
   * running (the host stops them on the way out, which the store records as `stopped`; for the
   * person they were interrupted by the reload, and those are the ones to resume).
   */
  constructor(
    private readonly host: HistoryHost, private readonly memento: vscode.Memento, readonly enabled: boolean, private readonly interruptedFile?: string,
    private readonly listWithoutCore?: () => Promise<HistoryListing>,
  ) {
    super();
    this._register(this.relist);
    this._register(toDisposable(host.onState((s) => {
      const id = this.sessionOf(s.workerId);
      if (id) this.mine.add(id);
      this.remember(s);
      // A worker that ends becomes a past session; its summary is final at its end.
      if (s.status !== 'running' && s.status !== 'starting') this.relist.schedule();
    })));
    // A worker let go (Stop on one that had exited already says no state): its session is past now.
    this._register(toDisposable(host.onRemoved(() => this.relist.schedule())));
  }

  /** The start spec of a worker this window started (LazySupervisor reports each). */
  startedWorker(workerId: string, spec: WorkerSpec): void {
    this.specs.set(workerId, spec);
    const st = this.host.state(workerId);
    if (st.status !== 'not_found') this.remember(st.state);
  }

  /** The start spec of a worker this window started, while it is known (its env, for a login's terminal). */
  specOf(workerId: string): WorkerSpec | undefined {
    return this.specs.get(workerId);
  }

  get loaded(): boolean {
    return this.listing !== null;
  }

  /** The store, loading the core if needed; null when history is off or unusable. */
  store(): HistoryStore | null {
    if (!this.enabled) return null;
    // A read after the window's end (a relist due, a command still running) would load a host,
    // and open a store, that nothing closes: there is no history to read any more.
    if (this.host.shutDown) {
      this.error = HOST_SHUT_DOWN;
      return null;
    }
    const real = this.host.host();
    if (!real.history) {
      this.error = real.historyError ?? 'the history is off';
      return null;
    }
    return real.history.store;
  }

  /** Listing now (first call loads the core). Resolves when the listing is fresh. */
  load(): Promise<void> {
    if (this.loading) return this.loading;
    this.loading = (async () => {
      try {
        const listing = await this.read();
        if (!listing) {
          this.listing = { sessions: [], evictedSessions: { count: 0, lastAt: null }, unreadable: [] };
          if (!this.enabled) this.error = 'history is off (rpcWorkers.history.enabled)';
        } else {
          this.listing = this.withInterrupted(listing);
          this.error = null;
          // A worker of this window that just ended may be listed before its end is on disk:
          // list again shortly rather than call it "running in another window".
          const hosted = this.ownSessionIds();
          const ending = this.listing.sessions.filter((x) => x.status === 'live' && this.mine.has(x.id) && !hosted.has(x.id)).map((x) => x.id);
          if (ending.length && this.endRetries++ < 20) this.relist.schedule();
          else if (!ending.length) this.endRetries = 0;
          this.ending = new Set(this.relist.pending ? ending : []);
          void this.prune();
        }
      } catch (error) {
        this.error = (error as Error).message;
      } finally {
        this.loading = null;
        // Only a listing that differs in what a row or its tooltip says redraws the tree: each
        // redraw races the tree's own updates of live workers (VS Code's "Data tree node not
        // found" when one is removed).
        const now = JSON.stringify([this.error, this.listing?.sessions.map((x) => [x.id, x.name, x.status, x.turns, x.archived, x.filesTouched.length, x.endedAt, x.events, x.lost, x.lastTurnEndReason, x.endReason, x.exit, x.model, this.resumeRecord(x.id)?.resumedInto ?? null])]);
        if (now !== this.shown) {
          this.shown = now;
          this._onDidChange.fire();
        }
      }
    })();
    return this.loading;
  }

  /**
   * The store's listing. Before anything has loaded the core (the view's first listing, at a
   * window's start) it is read without it: the core is 900 KB to load, and no worker of this
   * window writes a session yet.
   */
  private read(): Promise<HistoryListing> | null {
    if (this.enabled && this.listWithoutCore && !this.host.loaded && !this.host.shutDown) return this.listWithoutCore();
    return this.store()?.list() ?? null;
  }

  /** Called at the window's end, before the host stops its workers: synchronous, so it lands. */
  markRunningInterrupted(): void {
    if (!this.interruptedFile || !this.host.loaded) return;
    const running = this.host.list().filter((s) => s.status === 'running' || s.status === 'starting').map((s) => this.sessionOf(s.workerId)).filter((id): id is string => !!id);
    const ids = [...new Set([...this.readInterrupted(), ...running])].slice(-500);
    try {
      writeFileSync(this.interruptedFile, JSON.stringify({ sessions: ids }));
    } catch {
      // No storage to write to: those sessions read as stopped.
    }
  }

  private readInterrupted(): string[] {
    if (!this.interruptedFile) return [];
    try {
      const parsed = interruptedSchema.safeParse(JSON.parse(readFileSync(this.interruptedFile, 'utf8')));
      return parsed.success ? parsed.data.sessions : [];
    } catch {
      return [];
    }
  }

  private withInterrupted(listing: HistoryListing): HistoryListing {
    const marked = new Set(this.readInterrupted());
    if (!marked.size) return listing;
    const sessions = listing.sessions.map((x) => (marked.has(x.id) && x.status === 'ended' ? { ...x, status: 'interrupted' as const, endReason: 'interrupted' } : x));
    return { ...listing, sessions };
  }

  /**
   * The listing's sessions the tree shows: not hosted by this window, archived only when asked.
   * A session of this window's that is gone from the host but still reads live is ending: its end
   * is not on disk yet, and a relist is due. While one is due it is not shown, rather than shown
   * as "running in another window"; an end that never comes (a write that failed) shows it again.
   */
  sessions(): SessionSummary[] {
    return this.shownSessions().filter((s) => this.showArchived || !s.archived);
  }

  archivedCount(): number {
    return this.shownSessions().filter((s) => s.archived).length;
  }

  private shownSessions(): SessionSummary[] {
    if (!this.listing) return [];
    const hosted = this.ownSessionIds();
    return this.listing.sessions.filter((s) => !hosted.has(s.id) && !this.ending.has(s.id));
  }

  get unreadable(): HistoryListing['unreadable'] {
    return this.listing?.unreadable ?? [];
  }

  get evictedSessions(): HistoryListing['evictedSessions'] | null {
    return this.listing?.evictedSessions ?? null;
  }

  summary(sessionId: string): SessionSummary | undefined {
    return this.listing?.sessions.find((s) => s.id === sessionId);
  }

  /** The history session of a worker this window hosts. */
  sessionOf(workerId: string): string | null {
    return this.host.loaded ? this.host.host().history?.sessionOf(workerId) ?? null : null;
  }

  private ownSessionIds(): Set<string> {
    const out = new Set<string>();
    for (const s of this.host.list()) {
      const id = this.sessionOf(s.workerId);
      if (id) out.add(id);
    }
    return out;
  }

  setShowArchived(on: boolean): void {
    this.showArchived = on;
    void vscode.commands.executeCommand('setContext', 'rpcWorkers.history.showArchived', on);
    this._onDidChange.fire();
  }

  // ---- the resume book (workspace state: kept across reloads, per workspace)

  private book(): Record<string, ResumeRecord> {
    const parsed = resumeRecordsSchema.safeParse(this.memento.get(BOOK_KEY, {}));
    return parsed.success ? parsed.data : {};
  }

  resumeRecord(sessionId: string): ResumeRecord | undefined {
    return this.book()[sessionId];
  }

  private async write(mutate: (book: Record<string, ResumeRecord>) => void): Promise<void> {
    const book = this.book();
    mutate(book);
    await this.memento.update(BOOK_KEY, book);
  }

  /** A worker with a conversation to resume: record it against its history session. */
  private remember(s: WorkerState): void {
    const spec = this.specs.get(s.workerId);
    const id = this.sessionOf(s.workerId);
    if (!spec || !id || !s.session) return;
    const prev = this.resumeRecord(id);
    if (prev && prev.session.id === s.session.id && prev.session.file === s.session.file) return;
    const from = this.resumedFrom.get(s.workerId);
    const fromRecord = from ? this.resumeRecord(from) : undefined;
    // A resumed worker runs under its session's name ("pi #2", a rename), not its profile's.
    const profile = prev ? profileOf(prev) : fromRecord ? profileOf(fromRecord) : spec.name;
    const record: ResumeRecord = { spec: storableSpec(spec), session: s.session, previous: prev?.previous ?? from ?? null, resumedInto: null, at: Date.now(), envDigest: envDigest(spec.env), ...(profile !== undefined ? { profile } : {}) };
    void this.write((b) => { b[id] = record; });
  }

  private readonly resumedFrom = new Map<string, string>();

  /** A worker started to resume `from`: its own record links back, and `from` is marked resumed. */
  async resumed(from: string, workerId: string): Promise<void> {
    this.resumedFrom.set(workerId, from);
    const into = this.sessionOf(workerId);
    await this.write((b) => {
      if (b[from]) b[from] = { ...b[from], resumedInto: into };
      const profile = b[from] ? profileOf(b[from]) : undefined;
      if (into && b[into]) b[into] = { ...b[into], previous: from, ...(profile !== undefined ? { profile } : {}) };
    });
    this._onDidChange.fire();
  }

  async forget(sessionId: string): Promise<void> {
    await this.write((b) => { delete b[sessionId]; });
  }

  /**
   * Records whose session the history no longer has (deleted or evicted elsewhere) go. A session
   * whose files could not be read is not known to be gone: its record stays, and while the
   * folder itself cannot be read, every record does.
   */
  private async prune(): Promise<void> {
    if (!this.listing) return;
    const unread = this.listing.unreadable.map((u) => path.basename(u.file).replace(/(\.meta\.json|\.1\.jsonl|\.jsonl)$/, ''));
    if (unread.some((id) => !SESSION_ID.test(id))) return;
    const known = new Set([...this.listing.sessions.filter((s) => s.status !== 'evicted').map((s) => s.id), ...unread]);
    const book = this.book();
    const gone = Object.keys(book).filter((id) => !known.has(id));
    if (gone.length) await this.write((b) => { for (const id of gone) delete b[id]; });
  }

  /**
   * A session's events with the sessions it was resumed from before it, oldest first, so its log
   * reads as one conversation. `chain` names the sessions read.
   */
  async eventsWithEarlier(store: HistoryStore, sessionId: string): Promise<{ events: AgentEvent[]; chain: string[]; error: string | null; torn: boolean; missing: string[] }> {
    const chain = this.chainOf(sessionId);
    const events: AgentEvent[] = [];
    let error: string | null = null;
    let torn = false;
    // What these events leave out, for whoever shows them as the whole session (the export).
    const missing: string[] = [];
    for (const id of chain) {
      const r = await store.read(id);
      if (r.status === 'read') {
        events.push(...r.events);
        torn ||= r.torn !== null;
        const name = `"${r.session.name}"`;
        const evicted = r.session.evictedEvents?.events ?? 0;
        if (evicted > 0) missing.push(`the oldest ${theCount(evicted, 'event')} of ${name}: the history's size bound (rpcWorkers.history.maxSessionMiB) removed ${evicted === 1 ? 'it' : 'them'}`);
        if (r.torn) missing.push(`the unfinished last line of ${name} (${plural(r.torn.bytes, 'byte')}: its write was cut short)`);
        if (r.badLines.count > 0) missing.push(`${plural(r.badLines.count, 'line')} of ${name} that could not be read as ${r.badLines.count === 1 ? 'an event' : 'events'}`);
        const lost = r.session.lost ?? 0;
        if (lost > 0) missing.push(`${plural(lost, 'event')} of ${name} that never reached the history (${neverWritten(r.session.lastError)})`);
        // A live τ's export reads them from its messages (get_messages); a past one has only its events.
        if (r.session.dialect === 'tau' && r.events.some(bareToolEvent)) missing.push(`the arguments and results of the tool calls of ${name}: τ's events carry none, and its messages, which have them, ended with its worker`);
      } else if (id === sessionId) {
        error = r.error;
      } else {
        missing.push(`the events of the earlier session ${id} that this one resumed: ${r.error}`);
      }
    }
    // A conversation resumed at every reload goes back further than the log reads: said, not cut unsaid.
    const before = this.beyond(chain);
    if (before > 0) missing.push(`${plural(before, 'earlier session')} of this conversation, resumed before the first one here: a log reads at most ${CHAIN_MAX} sessions of one conversation`);
    return { events, chain, error, torn, missing };
  }

  /**
   * The same log read newest first, a page at a time (the first page read before this returns):
   * what Open Log and Resume show, so a long session opens at once (issue 24).
   */
  async pagesWithEarlier(store: HistoryStore, sessionId: string): Promise<{ ok: true; log: PastLog } | { ok: false; error: string }> {
    const chain = this.chainOf(sessionId);
    const r = await store.pages(sessionId, chain.slice(0, -1));
    if (r.status !== 'read') return { ok: false, error: r.error };
    try {
      return { ok: true, log: await PastLog.open(r.pages, r.gaps) };
    } catch (error) {
      return { ok: false, error: (error as Error).message };
    }
  }

  /** The sessions a session resumed, oldest first, then itself. */
  private chainOf(sessionId: string): string[] {
    const chain: string[] = [];
    for (let id: string | null = sessionId; id && chain.length < CHAIN_MAX && !chain.includes(id); id = this.resumeRecord(id)?.previous ?? null) chain.unshift(id);
    return chain;
  }

  /** How many sessions the conversation of `chain` (oldest first) resumed before its first. */
  private beyond(chain: readonly string[]): number {
    const seen = new Set(chain);
    let n = 0;
    for (let id = this.resumeRecord(chain[0] ?? '')?.previous ?? null; id && !seen.has(id); id = this.resumeRecord(id)?.previous ?? null) {
      seen.add(id);
      n++;
    }
    return n;
  }

  /** The session a resumed start should carry (the newest conversation of that record). */
  resumeRef(sessionId: string): SessionRef | null {
    return this.resumeRecord(sessionId)?.session ?? null;
  }
}
