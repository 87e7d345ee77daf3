// Commands on past sessions (open the log read-only, resume, rename, archive, delete, export)
// and the session verbs of a running worker (new session, fork, switch model, export). Each
// says what really happened: the status the host or the store returned, in words.
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { lazySchema, type LazyInfer } from '../../protocol/lazySchema';
import type { StartResult, Supervisor, WorkerState } from '../../core/api';
import type { AgentEvent } from '../../core/events/agentEvent';
import type { SessionSummary } from '../../core/history/format';
import type { EventLog } from '../eventLog/eventLogView';
import { turnLoginSentence } from '../eventLog/workerView';
import type { SessionsTree } from '../views/sessionsTree';
import type { WorkerSelection } from '../views/workerSelection';
import type { Profile } from '../settings/settings';
import { Disposable } from '../disposable';
import { any, hasModes, isIdle, isRunning, pickWorker, type WorkerFilter } from '../commands/pickers';
import { isTrusted, refuseUntrusted } from '../settings/trust';
import type { PastSessions } from './pastSessions';
import type { PastLog } from '../eventLog/pastLog';
import { profileOf, resumeEnvChanged, resumeSpec, type ResumeRecord } from './resumeRecord';
import { deleteDetail, endWords, pickDetail } from './words';
import { HISTORY_COMMANDS } from './historyIds';
import type { RegisterCommand } from '../laterCommands';


const sessionArg = lazySchema(() => z.looseObject({ sessionId: z.optional(z.string()), workerId: z.optional(z.string()), name: z.optional(z.string()), model: z.optional(z.string()), mode: z.optional(z.string()), confirm: z.optional(z.boolean()), format: z.optional(z.enum(['markdown', 'html'])) }));
type Arg = LazyInfer<typeof sessionArg>;

export interface HistoryServices {
  supervisor: Supervisor;
  past: PastSessions;
  eventLog: EventLog;
  tree: SessionsTree;
  selection: WorkerSelection;
  log: vscode.LogOutputChannel;
  profiles(): Profile[];
  /** How the commands are registered: VS Code's own, or LaterCommands' (extension.ts makes this class on a history command's first call). */
  registerCommand?: RegisterCommand;
  /** The launch configuration gate of a normal start (LaunchConfigGate.confirm): a resume reads the same profiles and cards. */
  confirmLaunch(programmatic: boolean): Promise<{ ok: true } | { ok: false; error: string; cancelled?: boolean }>;
  /** dist/core.js (loaded already when a past session is listed). */
  markdown(events: Parameters<typeof import('../../core/export/markdown').sessionMarkdown>[0], meta: Parameters<typeof import('../../core/export/markdown').sessionMarkdown>[1]): string;
}

/** What `session()` picked: a session, or the result to return when there is none to act on. */
const isSession = (x: SessionSummary | HistoryResult): x is SessionSummary => 'id' in x;

export type HistoryResult = { status: string; error?: string; sessionId?: string; workerId?: string; [k: string]: unknown };

/** A past session's log is kept under this prefix and its id. */
const PAST_KEY = 'history:';

export class HistoryCommands extends Disposable {
  constructor(private readonly s: HistoryServices) {
    super();
    const reg = (id: string, fn: (a: Arg) => Promise<HistoryResult>) => this._register((s.registerCommand ?? vscode.commands.registerCommand)(id, async (raw: unknown) => {
      const parsed = sessionArg.safeParse(raw ?? {});
      if (!parsed.success) return this.fail(`invalid argument: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      return fn(parsed.data);
    }));
    const C = HISTORY_COMMANDS;
    reg(C.openLog, (a) => this.openLog(a));
    reg(C.resume, (a) => this.resume(a));
    reg(C.rename, (a) => this.rename(a));
    reg(C.archive, (a) => this.archive(a, true));
    reg(C.unarchive, (a) => this.archive(a, false));
    reg(C.delete, (a) => this.delete(a));
    reg(C.exportMarkdown, (a) => this.exportPast(a));
    reg(C.showArchived, async () => { s.past.setShowArchived(true); return { status: 'shown' }; });
    reg(C.hideArchived, async () => { s.past.setShowArchived(false); return { status: 'hidden' }; });
    reg(C.newSession, (a) => this.verb(a, 'New Session'));
    reg(C.fork, (a) => this.verb(a, 'Fork Session'));
    reg(C.switchModel, (a) => this.verb(a, 'Switch Model'));
    reg(C.switchMode, (a) => this.switchMode(a));
    reg(C.exportWorker, (a) => this.exportWorker(a));
  }

  private fail(error: string, extra: Partial<HistoryResult> = {}): HistoryResult {
    void vscode.window.showErrorMessage(`RPC Workers: ${error}`);
    return { status: 'error', error, ...extra };
  }

  /** The session the command is about: from the argument, else picked from the listing. */
  private async session(a: Arg, title: string, filter: (s: SessionSummary) => boolean = () => true): Promise<SessionSummary | HistoryResult> {
    if (!this.s.past.loaded) await this.s.past.load();
    if (a.sessionId) {
      const found = this.s.past.summary(a.sessionId);
      if (found) return found;
      await this.s.past.load();
      return this.s.past.summary(a.sessionId) ?? this.fail(`no session ${a.sessionId} in this workspace's history`, { status: 'not_found', sessionId: a.sessionId });
    }
    const items = this.s.past.sessions().filter(filter).map((s) => ({ label: s.name, description: endWords(s), detail: pickDetail(s), s }));
    if (!items.length) {
      void vscode.window.showInformationMessage('RPC Workers: no past session to choose from.');
      return { status: 'cancelled' };
    }
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder: 'Past session' });
    return pick?.s ?? { status: 'cancelled' };
  }

  private store() {
    return this.s.past.store();
  }

  /** A past session's events (with those of the sessions it resumed), or why they cannot be read. */
  private async readPast(session: SessionSummary, what: string): Promise<{ ok: true; events: AgentEvent[]; torn: boolean; missing: string[] } | { ok: false; result: HistoryResult }> {
    const store = this.store();
    if (!store) return { ok: false, result: this.fail(this.s.past.error ?? 'the history is off') };
    const read = await this.s.past.eventsWithEarlier(store, session.id);
    if (read.error) return { ok: false, result: this.fail(`could not read ${what}: ${read.error}`, { sessionId: session.id }) };
    return { ok: true, events: read.events, torn: read.torn, missing: read.missing };
  }

  async openLog(a: Arg): Promise<HistoryResult> {
    const session = await this.session(a, 'Open Log of a Past Session');
    if (!isSession(session)) return session;
    const read = await this.pagesPast(session);
    if (!read.ok) return read.result;
    const key = this.keepPast(session, read.log);
    this.s.eventLog.openPanel(key);
    const view = read.log.view();
    return { status: 'opened', sessionId: session.id, workerId: key, events: view.events.length, older: view.before, dropped: view.dropped };
  }

  /** A past session's log (with the sessions it resumed) read newest first, its first page read; or why not. */
  private async pagesPast(session: SessionSummary): Promise<{ ok: true; log: PastLog } | { ok: false; result: HistoryResult }> {
    const store = this.store();
    if (!store) return { ok: false, result: this.fail(this.s.past.error ?? 'the history is off') };
    const read = await this.s.past.pagesWithEarlier(store, session.id);
    if (!read.ok) return { ok: false, result: this.fail(`could not read the log of "${session.name}": ${read.error}`, { sessionId: session.id }) };
    return read;
  }

  /** The past session's log kept for the log's pages, read-only; its key. */
  private keepPast(session: SessionSummary, events: PastLog): string {
    const key = `${PAST_KEY}${session.id}`;
    const note = `Past session (${endWords(session)}): read-only.${this.s.past.resumeRecord(session.id) ? ' Resume it from the Sessions view to continue.' : ''}`;
    this.s.eventLog.keepPast(key, pastState(key, session), events, note);
    return key;
  }

  /**
   * What a log tab that showed `shows` (a worker's id or a past session's key) before a reload
   * shows now: that worker if it still runs, the worker that resumed its session, or its session
   * read-only; null when the history has none of it.
   */
  async restoreKey(shows: string): Promise<string | null> {
    if (this.s.supervisor.list().some((w) => w.workerId === shows)) return shows;
    await this.s.past.load();
    const session = shows.startsWith(PAST_KEY) ? this.s.past.summary(shows.slice(PAST_KEY.length)) : this.s.past.sessions().find((x) => x.workerId === shows);
    if (!session) return null;
    const into = this.s.past.resumeRecord(session.id)?.resumedInto;
    const live = into ? this.s.supervisor.list().find((w) => this.s.past.sessionOf(w.workerId) === into) : undefined;
    if (live) return live.workerId;
    const read = await this.pagesPast(session);
    return read.ok ? this.keepPast(session, read.log) : null;
  }

  async resume(a: Arg): Promise<HistoryResult> {
    const session = await this.session(a, 'Resume a Past Session', (x) => !!this.s.past.resumeRecord(x.id) && x.status !== 'live' && x.status !== 'evicted');
    if (!isSession(session)) return session;
    // A session named by the caller (another extension, a keybinding), not a tree node's menu:
    // a change to confirm is refused, as for a start with arguments, not put to the person.
    const programmatic = a.sessionId !== undefined && (a as { kind?: unknown }).kind === undefined;
    return this.resumeSession(session, false, programmatic);
  }

  /** Start a worker on the session's conversation; its log shows the earlier events first. */
  async resumeSession(asked: SessionSummary, automatic: boolean, programmatic = automatic): Promise<HistoryResult> {
    if (!isTrusted()) return refuseUntrusted();
    // A session resumed before went on in the session that resumed it: the conversation is that
    // one's now (its turns, its log), so that is what goes on, not the older part of it.
    const session = this.newestOf(asked);
    if (session !== asked) this.s.log.info(`resuming ${asked.id} as ${session.id}, the session its conversation went on in`);
    // That session may be a worker of this window's (its resume here): it is listed live, and runs here, not in another window.
    const here = this.s.supervisor.list().find((w) => (w.status === 'running' || w.status === 'starting') && this.s.past.sessionOf(w.workerId) === session.id);
    if (session !== asked && here) return this.fail(`"${asked.name}" is already resumed: ${here.name} runs on its conversation`, { status: 'live', sessionId: asked.id, workerId: here.workerId });
    // Its record went with its events (the tree offers no Resume): its own reason, not "no conversation".
    if (session.status === 'evicted') return this.fail(`"${session.name}" cannot be resumed: the history removed it (${session.removed?.reason ?? 'its bound'})`, { status: 'evicted', sessionId: session.id });
    if (session.status === 'live') return this.fail(`"${session.name}" is still running in another window`, { status: 'live', sessionId: session.id });
    const record = this.s.past.resumeRecord(session.id);
    if (!record) return this.fail(`"${session.name}" cannot be resumed: its worker kept no conversation to return to (pi without a session folder, or a worker that offers no sessions)`, { status: 'unsupported', sessionId: session.id });
    // Two workers on one conversation would write one session file from two processes.
    const running = this.s.supervisor.list().find((w) => (w.status === 'running' || w.status === 'starting') && this.s.past.sessionOf(w.workerId) === record.resumedInto);
    if (record.resumedInto && running) return this.fail(`"${session.name}" is already resumed: ${running.name} runs on its conversation`, { status: 'live', sessionId: session.id, workerId: running.workerId });
    const profile = this.s.profiles().find((p) => p.name === profileOf(record));
    const unconfirmed = await this.unconfirmed(record, session, profile?.env, automatic, programmatic);
    if (unconfirmed) return unconfirmed;
    // Numbered on from the session's turns, so the log does not show a second "Turn 1".
    // Under the session's own name (a rename included): the same conversation goes on.
    const spec = { ...resumeSpec(record, profile?.env), turnsBefore: session.turns, name: session.name };
    const store = this.store();
    const read = store ? await this.s.past.pagesWithEarlier(store, session.id) : null;
    const earlier = read?.ok ? read.log : null;
    const r: StartResult = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Resuming ${session.name}…`, cancellable: false },
      () => this.s.supervisor.start(spec),
    );
    if (r.status !== 'started') return this.fail(`could not resume "${session.name}": ${r.error}`, { status: 'error', sessionId: session.id, workerId: r.workerId });
    if (earlier) this.s.eventLog.setEarlier(r.workerId, earlier);
    else if (read && !read.ok) this.s.log.warn(`resumed ${session.id} without its earlier events in the log: ${read.error}`);
    // A read-only tab of the session goes on as the resumed worker's log: its old events, then the new ones.
    for (const p of this.s.eventLog.panelSessions) if (p.workerId === `${PAST_KEY}${session.id}`) p.setWorker(r.workerId);
    await this.s.past.resumed(session.id, r.workerId);
    this.s.log.info(`resumed history session ${session.id} as worker ${r.workerId}${automatic ? ' (rpcWorkers.history.resumeInterrupted)' : ''}`);
    if (!automatic) {
      this.s.selection.set(r.workerId);
      void this.s.tree.reveal(r.workerId);
      void this.s.eventLog.show(r.workerId, { preserveFocus: true });
    } else if (!this.s.selection.current) {
      // After a reload nothing is selected: the sidebar log follows the worker, without a reveal.
      this.s.selection.set(r.workerId);
    }
    return { status: 'resumed', sessionId: session.id, workerId: r.workerId };
  }

  /**
   * Why the resume must not go on without the person (null when it may): what configures workers
   * changed while one ran (the gate a normal start passes), or the profile's env is not the one
   * the session was started with. The gate keeps what it read across reloads; the env's digest
   * is the session's own: a worker that rewrote its profile's env in .vscode/settings.json and
   * turned on rpcWorkers.history.resumeInterrupted would otherwise have it run at the next reload unasked.
   */
  private async unconfirmed(record: ResumeRecord, session: SessionSummary, env: Record<string, string> | undefined, automatic: boolean, programmatic: boolean): Promise<HistoryResult | null> {
    const gate = await this.s.confirmLaunch(programmatic);
    if (!gate.ok) {
      if (gate.cancelled) return { status: 'cancelled', sessionId: session.id, error: gate.error };
      // After a reload the person did not ask for it: which session stayed put, then why.
      return this.fail(automatic ? `"${session.name}" was not resumed after the reload. ${gate.error}` : gate.error, { sessionId: session.id });
    }
    if (!resumeEnvChanged(record, env)) return null;
    const what = `The env of profile "${profileOf(record) ?? ''}" is not the one "${session.name}" was started with: it changed since, maybe by a worker (profiles are read from the workspace's settings too).`;
    if (programmatic) return this.fail(`${what} ${automatic ? 'It was not resumed after the reload' : 'Nothing was resumed'}: resume it from the Sessions view to confirm the change.`, { sessionId: session.id });
    const use = 'Resume With This Env';
    const choice = await vscode.window.showWarningMessage(`Resume "${session.name}" with a changed env?`, { modal: true, detail: what }, use);
    return choice === use ? null : { status: 'cancelled', sessionId: session.id, error: 'the changed env was not confirmed' };
  }

  /** The last session of the chain `session` was resumed into (itself when it was not), that can be resumed. */
  private newestOf(session: SessionSummary): SessionSummary {
    let newest = session;
    const seen = new Set([session.id]);
    for (let into = this.s.past.resumeRecord(session.id)?.resumedInto; into && !seen.has(into); into = this.s.past.resumeRecord(into)?.resumedInto) {
      seen.add(into);
      const next = this.s.past.summary(into);
      if (!next || !this.s.past.resumeRecord(into)) break;
      newest = next;
    }
    return newest;
  }

  /** After a reload: resume what the window's end interrupted (rpcWorkers.history.resumeInterrupted). */
  async resumeInterrupted(): Promise<HistoryResult[]> {
    await this.s.past.load();
    const due = this.s.past.sessions().filter((x) => x.status === 'interrupted' && !x.archived && this.s.past.resumeRecord(x.id) && !this.s.past.resumeRecord(x.id)!.resumedInto);
    const out: HistoryResult[] = [];
    for (const session of due) out.push(await this.resumeSession(session, true));
    return out;
  }

  async rename(a: Arg): Promise<HistoryResult> {
    const session = await this.session(a, 'Rename a Past Session');
    if (!isSession(session)) return session;
    const name = a.name ?? await vscode.window.showInputBox({
      title: `Rename "${session.name}"`, value: session.name, prompt: 'The name the Sessions view shows (kept across reloads)',
      validateInput: (v) => (v.trim() ? (v.length > 500 ? 'at most 500 characters' : undefined) : 'a name cannot be empty'),
    });
    if (name === undefined) return { status: 'cancelled' };
    return this.edit(session, () => this.store()!.rename(session.id, name.trim()));
  }

  async archive(a: Arg, on: boolean): Promise<HistoryResult> {
    const session = await this.session(a, on ? 'Archive a Past Session' : 'Unarchive a Past Session', (x) => x.archived !== on);
    if (!isSession(session)) return session;
    return this.edit(session, () => this.store()!.archive(session.id, on));
  }

  async delete(a: Arg): Promise<HistoryResult> {
    const session = await this.session(a, 'Delete a Past Session');
    if (!isSession(session)) return session;
    if (a.confirm !== true) {
      const choice = await vscode.window.showWarningMessage(
        `Delete "${session.name}"?`,
        { modal: true, detail: deleteDetail(session) },
        'Delete',
      );
      if (choice !== 'Delete') return { status: 'cancelled', sessionId: session.id };
    }
    const r = await this.edit(session, () => this.store()!.delete(session.id));
    if (r.status === 'deleted') {
      await this.s.past.forget(session.id);
      // Its read-only tabs would show a log whose file is gone (Load older: ENOENT).
      for (const p of this.s.eventLog.panelSessions) if (p.workerId === `${PAST_KEY}${session.id}`) p.panel?.dispose();
    }
    return r;
  }

  private async edit(session: SessionSummary, act: () => Promise<{ status: string; error?: string }>): Promise<HistoryResult> {
    if (!this.store()) return this.fail(this.s.past.error ?? 'the history is off');
    const r = await act();
    await this.s.past.load();
    if (r.status === 'live' || r.status === 'not_found' || r.status === 'error') return this.fail(`"${session.name}": ${r.error ?? r.status}`, { status: r.status, sessionId: session.id });
    vscode.window.setStatusBarMessage(`$(check) ${session.name}: ${r.status}`, 4000);
    return { status: r.status, sessionId: session.id };
  }

  async exportPast(a: Arg): Promise<HistoryResult> {
    const session = await this.session(a, 'Export a Past Session to Markdown');
    if (!isSession(session)) return session;
    const read = await this.readPast(session, `"${session.name}"`);
    if (!read.ok) return read.result;
    const markdown = this.s.markdown(read.events, { title: session.name, dialect: session.dialect, model: session.model, cwd: session.cwd, missing: read.missing, login: turnLoginSentence(session) });
    await openMarkdown(markdown);
    return { status: 'exported', sessionId: session.id, chars: markdown.length };
  }

  // ---- verbs of a running worker

  /** `pick`: which workers the person is offered (running ones unless said), and what is said when there is none. */
  private async worker(a: Arg, title: string, pick: { filter: WorkerFilter; none: string } = { filter: isRunning, none: 'No worker is running: start one first.' }): Promise<WorkerState | undefined> {
    const id = a.workerId ?? await pickWorker(this.s.supervisor, { title, ...pick, selected: this.s.selection.current });
    if (!id) return undefined;
    const st = this.s.supervisor.state(id);
    return st.status === 'not_found' ? undefined : st.state;
  }

  async verb(a: Arg, title: 'New Session' | 'Fork Session' | 'Switch Model'): Promise<HistoryResult> {
    // A worker that cannot take the verb at all (an ACP agent's fork, its model when it lists no
    // choice) is not offered it: asked for a model first, it was then refused in a cut-off line.
    const cannot = (s: WorkerState) => (title === 'Fork Session' ? s.forkUnavailable : title === 'Switch Model' ? s.modelUnavailable : undefined);
    const w = await this.worker(a, title, { filter: (s) => isIdle(s) && !cannot(s), none: this.noneFor(title, cannot) });
    if (!w) return a.workerId ? this.fail(`no worker with id ${a.workerId}`, { status: 'not_found' }) : { status: 'cancelled' };
    const why = cannot(w);
    if (why) {
      this.said(w, title, 'unsupported', `${w.name}: ${why}`, 'info');
      return { status: 'unsupported', workerId: w.workerId, error: why };
    }
    let r;
    if (title === 'Switch Model') {
      const model = a.model ?? await vscode.window.showInputBox({
        title: `Switch Model of ${w.name}`, value: w.model ?? '',
        prompt: w.dialect === 'pi' ? 'pi: provider/model id, e.g. anthropic/claude-sonnet-4-5' : w.dialect === 'acp' ? 'one of the models the agent lists (its model option)' : 'τ: a model name from its configuration',
        validateInput: (v) => (v.trim() ? undefined : 'a model cannot be empty'),
      });
      if (model === undefined) return { status: 'cancelled', workerId: w.workerId };
      r = await this.s.supervisor.setModel(w.workerId, model.trim());
    } else {
      r = title === 'New Session' ? await this.s.supervisor.newSession(w.workerId) : await this.s.supervisor.fork(w.workerId);
    }
    const done = r.status === 'created' || r.status === 'forked' || r.status === 'model_set';
    const what = r.status === 'created' ? 'started a new session' : r.status === 'forked' ? 'forked its session' : r.status === 'model_set' ? `now runs ${'model' in r && r.model ? r.model : 'the model asked for'}` : '';
    if (done) this.said(w, title, r.status, `${w.name} ${what}`, 'ok');
    else if (r.status === 'unsupported' || r.status === 'cancelled') this.said(w, title, r.status, `${title} for ${w.name}: ${r.status === 'cancelled' ? 'the worker\'s extension declined; nothing changed' : `not supported (${'error' in r ? r.error : ''})`}`, 'info');
    else this.said(w, title, r.status, `${title} for ${w.name} failed: ${'error' in r ? r.error : r.status}`, 'error');
    return { ...r };
  }

  /**
   * What came of a session verb: in the status bar (done) or a notification, and on the line under
   * the worker's composers, where the action before it ("Prompt accepted by …") stood on otherwise.
   */
  private said(w: WorkerState, action: string, status: string, message: string, tone: 'ok' | 'info' | 'error'): void {
    if (tone === 'ok') vscode.window.setStatusBarMessage(`$(check) ${message}`, 4000);
    else if (tone === 'info') void vscode.window.showInformationMessage(`RPC Workers: ${message}`);
    else void vscode.window.showErrorMessage(`RPC Workers: ${message}`);
    this.s.eventLog.result(w.workerId, { action, status, message, tone });
  }

  /** What the palette's verb says when no worker can take it: why each idle one cannot, else that none is idle. */
  private noneFor(title: string, cannot: (s: WorkerState) => string | undefined): string {
    const unable = this.s.supervisor.list().filter((s) => isIdle(s) && cannot(s));
    if (!unable.length) return SESSION_VERB.none;
    return `No worker can take ${title}: ${unable.map((s) => `${s.name}: ${cannot(s)}`).join('; ')}.`;
  }

  /** An ACP agent's session modes (Claude: default / acceptEdits / plan; Gemini: default / autoEdit / yolo). */
  async switchMode(a: Arg): Promise<HistoryResult> {
    // An agent that lists no modes is not offered, as its row does not offer Switch Mode….
    const w = await this.worker(a, 'Switch Mode', { filter: hasModes, none: this.noneFor('Switch Mode', (s) => ((s.modes ?? []).length ? undefined : 'it has no modes to switch between')) });
    if (!w) return a.workerId ? this.fail(`no worker with id ${a.workerId}`, { status: 'not_found' }) : { status: 'cancelled' };
    const modes = w.modes ?? [];
    if (modes.length === 0) {
      void vscode.window.showInformationMessage(`RPC Workers: ${w.name} has no modes to switch between (only ACP agents that list modes do).`);
      return { status: 'unsupported', workerId: w.workerId, error: 'the worker has no modes' };
    }
    // The id is the program's word (Copilot's are URLs): a person reads the agent's description of the mode, if any.
    const picked = a.mode ?? (await vscode.window.showQuickPick(modes.map((m) => ({ label: m.name, description: m.id === w.mode ? 'current' : m.description, id: m.id })), { title: `Switch Mode of ${w.name}` }))?.id;
    if (picked === undefined) return { status: 'cancelled', workerId: w.workerId };
    const r = await this.s.supervisor.setMode(w.workerId, picked);
    if (r.status === 'mode_set') this.said(w, 'Switch Mode', r.status, `${w.name} is in mode ${modes.find((m) => m.id === r.mode)?.name ?? r.mode}`, 'ok');
    else this.said(w, 'Switch Mode', r.status, `Switch Mode for ${w.name} failed: ${'error' in r ? r.error : r.status}`, 'error');
    return { ...r };
  }

  async exportWorker(a: Arg): Promise<HistoryResult> {
    // Every worker the host still lists, as its row offers Export: one that exited keeps its events.
    const w = await this.worker(a, 'Export to Markdown', { filter: any, none: 'There is no worker to export: start one first (a past session exports from its row under Past sessions).' });
    if (!w) return a.workerId ? this.fail(`no worker with id ${a.workerId}`, { status: 'not_found' }) : { status: 'cancelled' };
    let format = a.format;
    // pi's HTML export is pi's own verb: a pi that no longer runs cannot answer it.
    if (!format && w.dialect === 'pi' && w.status === 'running') {
      const pick = await vscode.window.showQuickPick([
        { label: 'Markdown', description: 'opened in an editor', format: 'markdown' as const },
        { label: 'HTML', description: 'pi\'s own export_html, opened in the browser', format: 'html' as const },
      ], { title: `Export ${w.name}` });
      if (!pick) return { status: 'cancelled', workerId: w.workerId };
      format = pick.format;
    }
    if (format === 'html') {
      const r = await this.s.supervisor.exportHtml(w.workerId);
      if (r.status !== 'exported') return this.fail(`export of ${w.name} to HTML: ${'error' in r ? r.error : r.status}`, { status: r.status, workerId: w.workerId });
      void vscode.env.openExternal(vscode.Uri.file(r.path));
      return { status: 'exported', workerId: w.workerId, path: r.path };
    }
    // A turn the agent refused for want of a key says how it takes one, as the Event Log's row does.
    const r = await this.s.supervisor.exportMarkdown(w.workerId, { login: turnLoginSentence(w) });
    if (r.status !== 'exported') return this.fail(`export of ${w.name}: ${r.error}`, { status: r.status, workerId: w.workerId });
    await openMarkdown(r.markdown);
    return { status: 'exported', workerId: w.workerId, chars: r.markdown.length };
  }
}

/**
 * Whom a session verb is offered: idle workers, as their rows offer it and the palette shows it
 * (anyIdle); the host refuses one mid-turn or compacting (sessions.ts `busy`).
 */
const SESSION_VERB = { filter: isIdle, none: 'No worker is idle: a session can change once its turn or compaction has ended.' };

async function openMarkdown(content: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(doc, { preview: false });
}

/** A past session as the Event Log's page sees a worker: ended, no pid, its name and model. */
function pastState(key: string, s: SessionSummary): WorkerState {
  return {
    workerId: key, name: s.name, status: s.status === 'ended' && s.endReason === 'failed' ? 'failed' : s.status === 'ended' && s.endReason === 'stopped' ? 'stopped' : 'exited',
    streaming: false, afterTurn: null, compacting: false, pid: null, cwd: s.cwd, dialect: s.dialect, workerVersion: s.workerVersion,
    command: s.command, args: [], model: s.model, sessionId: null, session: null, usage: null, agent: null, guarded: false, writeGuard: null, tools: null,
    turnCount: s.turns, lastEndReason: s.lastTurnEndReason, lastError: s.exit?.error ?? null, exitCode: s.exit?.code ?? null, signal: s.exit?.signal ?? null,
    startedAt: s.startedAt, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: s.filesTouched, turns: [], pendingInput: [],
    mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: true, followUp: 'worker' },
  };
}
