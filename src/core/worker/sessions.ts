// One worker's session: which one it is on (so that the caller can resume it after the worker
// is gone), resuming one at start, the session verbs (new, fork, model, pi's HTML export), and
// the worker's own token accounting, read when a turn settles. Each verb resolves with an honest
// status: `unsupported` when the worker has no such verb and nothing was sent.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { MarkdownResult, SessionRef, SessionVerbResult, WorkerSpec, WorkerUsage } from '../api';
import { pathWithin } from '../pathWithin';
import type { AgentEvent, Untimed } from '../events/agentEvent';
import { sessionMarkdown, toolDetailsFromMessages, type MarkdownMeta } from '../export/markdown';
import type { Dialect, ProbeInfo } from '../wire/dialect';
import { Unsupported, type SessionVerbs } from '../wire/sessionVerbs';

/** What the session module needs of its worker. */
export interface SessionSite {
  readonly id: string;
  readonly spec: WorkerSpec;
  readonly dialect: Dialect;
  /** A request to the worker, bounded by the command timeout and by its exit. */
  request<T>(send: (connection: MessageConnection) => Promise<T>, what: string): Promise<T>;
  /** Why the worker cannot take a session verb now (starting, streaming, gone), or null. */
  busy(): string | null;
  emit(event: Untimed): void;
  changed(): void;
  /** The session mode the worker is in, with its name where the agent gave one (ACP); null: none known. */
  mode?(): { id: string; name: string | null } | null;
  /** The model the worker's state names now (the last switch's, else its start's); null: none known. */
  model?(): string | null;
  output(text: string): void;
}

/** How long after the first readout not yet read the usage is read (the state shows it): readouts in between are read with it. */
export const USAGE_READ_MS = 100;

const elapsed = (since: number) => Math.round((performance.now() - since) * 1000) / 1000;

/**
 * Why a verb is refused while `moving` (new_session, fork) takes the worker to another session:
 * sent meanwhile it would go to the session being left, or race the one being opened. `then`:
 * what the person may do once it is open ("send the message").
 */
export const openingAnother = (moving: string, then: string): string => `the worker is opening another session (${moving}); ${then} once it is open`;

/**
 * A resume the launch can honour, or why not. A pi session file must be in the spec's
 * sessionDir (pi would write beside it, and nothing of the host's goes elsewhere) and must
 * exist: pi starts a fresh session at a path that does not, which would be no resume at all.
 */
export function checkResume(spec: WorkerSpec): string | null {
  const ref = spec.resume;
  if (!ref) return null;
  // An ACP agent keeps its sessions itself and resumes one by its id.
  if (spec.dialect === 'acp') return ref.id ? null : 'an ACP agent resumes a session by its id; the reference names none';
  if (!spec.sessionDir) return 'resume needs the sessionDir the session was kept in';
  if (spec.dialect === 'tau') return ref.id ? null : 'τ resumes a session by its id; the reference names none';
  if (!ref.file) return 'pi resumes a session from its file; the reference names none';
  if (pathWithin(path.resolve(spec.sessionDir), path.resolve(ref.file)) === null) return `the session file ${ref.file} is not inside sessionDir ${spec.sessionDir}`;
  if (!existsSync(ref.file)) return `no session file at ${ref.file} (pi writes it after the first reply; a session with no reply has nothing to resume)`;
  return null;
}

/** The file the launch reopens (pi), if the spec resumes one. */
export function resumeFileOf(spec: WorkerSpec): string | undefined {
  return spec.dialect === 'pi' ? spec.resume?.file ?? undefined : undefined;
}

/** new_session or fork, sent; `model`: the new session's, where it opens on one of its own. */
type SwitchRun = (v: SessionVerbs, c: MessageConnection) => Promise<{ cancelled: boolean; model?: string | null }>;
/** What the state named before a switch: the log says what the new session changed of it. */
type SwitchBefore = { previous: SessionRef | null; modeBefore: { id: string; name: string | null } | null; modelBefore: string | null };

export class WorkerSessions {
  ref: SessionRef | null = null;
  usage: WorkerUsage | null = null;
  /** The model a set_model switched to; null until one did. */
  model: string | null = null;
  /** The verb (new_session, fork) moving the worker to another session, until it is there; null: none. */
  moving: string | null = null;
  private usageAsked = 0;
  /** The read that the agent's latest usage readouts wait for (USAGE_READ_MS). */
  private usageTimer: NodeJS.Timeout | null = null;
  /** The worker exited: readouts still being read from its output start no read. */
  private gone = false;

  constructor(private readonly site: SessionSite) {}

  private get verbs(): SessionVerbs | undefined {
    return this.site.dialect.sessions;
  }

  /**
   * Right after the readiness probe: moves onto the session to resume (τ), checks that it is the
   * one asked for, and learns where the conversation is kept. Throws when a resume failed, so
   * that the start fails instead of going on in a fresh session.
   */
  async afterProbe(probed: ProbeInfo): Promise<void> {
    const verbs = this.verbs;
    if (!verbs) return;
    const wanted = this.site.spec.resume;
    if (wanted && verbs.resume) {
      const r = await this.site.request((c) => verbs.resume!(c, wanted), `resuming session ${wanted.id}`);
      if (r.cancelled) throw new Error(`the worker's extension vetoed switching to session ${wanted.id}`);
    }
    let ref: SessionRef;
    try {
      // A probe that named the file (pi) spares a request; after a switch (τ) the worker is asked again.
      ref = probed.sessionFile !== undefined && !(wanted && verbs.resume)
        ? { id: probed.sessionId, file: probed.sessionFile }
        : await this.site.request((c) => verbs.current(c), 'reading the worker\'s session');
    } catch (error) {
      // Not knowing where a fresh worker keeps its session costs a later resume, not this start.
      if (wanted) throw error;
      this.site.output(`could not learn the worker's session: ${(error as Error).message}`);
      return;
    }
    this.ref = ref.id !== null || ref.file !== null ? ref : null;
    if (!wanted) return;
    if (wanted.id && ref.id !== wanted.id) throw new Error(`asked to resume session ${wanted.id}, but the worker is on ${ref.id ?? 'no session'}`);
    this.site.emit({ type: 'session_resumed', data: { session: this.ref } });
    await this.refreshUsage();
  }

  /**
   * The agent sent its usage (ACP's usage_update): read USAGE_READ_MS later, with whatever else
   * came meanwhile, so that the last readout is read (and the turn's end reads it again).
   * claude-agent-acp's turns carry one in about every third line; a read each (a bounded request
   * and a state change for every listener) cost the host 0.44 µs of main thread per event at its
   * real pace.
   */
  usageUpdated(): void {
    if (this.usageTimer || this.gone) return;
    this.usageTimer = setTimeout(() => {
      this.usageTimer = null;
      void this.refreshUsage();
    }, USAGE_READ_MS);
  }

  /** The worker exited: a read still due is not made, nor one for a readout read from its output after. */
  ended(): void {
    this.gone = true;
    if (this.usageTimer) clearTimeout(this.usageTimer);
    this.usageTimer = null;
  }

  /** The worker's own accounting, asked when a turn settles and after the agent's readouts; a newer answer wins over an older one. */
  async refreshUsage(): Promise<void> {
    const verbs = this.verbs;
    if (!verbs) return;
    const asked = ++this.usageAsked;
    try {
      const usage = await this.site.request((c) => verbs.usage(c), 'reading the token usage');
      if (asked !== this.usageAsked) return;
      this.usage = usage;
      this.site.changed();
    } catch (error) {
      // A worker without the verb has no usage to show; any other failure is said.
      if (!(error instanceof Unsupported)) this.site.output(`could not read the worker's token usage: ${(error as Error).message}`);
    }
  }

  newSession(): Promise<SessionVerbResult> {
    return this.switching('created', 'new_session', (v, c) => v.newSession(c), 'start a new session');
  }

  fork(entryId?: string): Promise<SessionVerbResult> {
    return this.switching('forked', 'fork', (v, c) => v.fork(c, entryId), 'fork');
  }

  async setModel(model: string): Promise<SessionVerbResult> {
    const t0 = performance.now();
    return this.guarded(t0, async (verbs) => {
      const r = await this.site.request((c) => verbs.setModel(c, model), 'set_model');
      this.model = r.model ?? model;
      this.site.emit({ type: 'model_changed', data: { model: this.model, asked: model } });
      this.site.changed();
      return { status: 'model_set', workerId: this.site.id, session: this.ref, model: this.model, ms: elapsed(t0) };
    }, 'set the model');
  }

  /** Moves the session into another of the agent's modes (ACP); its mode_changed is the agent's, or made here when the agent said none. */
  async setMode(mode: string): Promise<SessionVerbResult> {
    const t0 = performance.now();
    return this.guarded(t0, async (verbs) => {
      if (!verbs.setMode) throw new Unsupported(`a ${this.site.spec.dialect} worker has no modes`);
      const r = await this.site.request((c) => verbs.setMode!(c, mode), 'set_mode');
      // One event per change: the agent's own update during the request (Gemini's) already is it.
      if (r.said !== true) this.site.emit({ type: 'mode_changed', data: { mode: r.mode ?? mode, asked: mode, name: r.name ?? null } });
      this.site.changed();
      return { status: 'mode_set', workerId: this.site.id, session: this.ref, model: this.model, mode: r.mode ?? mode, ms: elapsed(t0) };
    }, 'switch the mode');
  }

  async exportHtml(outputPath?: string): Promise<SessionVerbResult> {
    const t0 = performance.now();
    if (outputPath !== undefined && !path.isAbsolute(outputPath)) return { status: 'error', workerId: this.site.id, error: 'the export path must be absolute', ms: 0 };
    return this.guarded(t0, async (verbs) => {
      const r = await this.site.request((c) => verbs.exportHtml(c, outputPath), 'export_html');
      return { status: 'exported', workerId: this.site.id, path: r.path, ms: elapsed(t0) };
    }, 'export it');
  }

  /** Tool details come from the worker's messages while it runs; a gone worker's events stand alone. */
  async exportMarkdown(events: AgentEvent[], meta: MarkdownMeta): Promise<MarkdownResult> {
    const t0 = performance.now();
    const verbs = this.verbs;
    let tools: MarkdownMeta['tools'];
    let without: string | null = null;
    if (verbs && !this.site.busy()) {
      try {
        tools = toolDetailsFromMessages(await this.site.request((c) => verbs.messages(c), 'get_messages'));
      } catch (error) {
        without = `the worker's messages could not be read (${(error as Error).message})`;
        this.site.output(`the export goes without the worker's messages: ${(error as Error).message}`);
      }
    } else if (verbs && this.gone) {
      // Exported after its exit (its row, the palette): nothing will settle to export again.
      without = 'the worker has ended, and its messages with it';
    } else if (verbs) {
      without = `${this.site.busy() ?? 'the worker was busy'} (export again once it settles)`;
    }
    // Tool calls whose events carry no arguments or result (τ) have them from the messages only.
    const bare = without !== null && events.some((e) => (e.type === 'tool_execution_start' && e.args === undefined) || (e.type === 'tool_execution_end' && e.result === undefined));
    const missing = [...(meta.missing ?? []), ...(bare ? [`the arguments and results of tool calls whose events carry none: ${without}`] : [])];
    // A turn the worker is still in ends the document saying so (busy: a turn or a compaction).
    const running = !this.gone && this.site.busy() !== null;
    return { status: 'exported', workerId: this.site.id, markdown: sessionMarkdown(events, { ...meta, tools, missing, running }), ms: elapsed(t0) };
  }

  /** new_session and fork: the worker moves to another session, which the state then names. */
  private switching(status: 'created' | 'forked', verb: string, run: SwitchRun, then: string): Promise<SessionVerbResult> {
    const t0 = performance.now();
    return this.guarded(t0, async (verbs) => {
      const previous = this.ref;
      const modeBefore = this.site.mode?.() ?? null;
      const modelBefore = this.site.model?.() ?? null;
      // Until the new session's marks are said, a prompt (prompting.ts), a compaction
      // (interrupts.ts) and every verb here are refused: sent meanwhile each would go to the
      // session being left, or race the one being opened.
      this.moving = verb;
      try {
        return await this.moveTo(t0, status, verb, verbs, run, { previous, modeBefore, modelBefore });
      } finally {
        this.moving = null;
      }
    }, then);
  }

  /** The move itself, and what the log and the state say of the session it lands in. */
  private async moveTo(t0: number, status: 'created' | 'forked', verb: string, verbs: SessionVerbs, run: SwitchRun, before: SwitchBefore): Promise<SessionVerbResult> {
    const { previous, modeBefore, modelBefore } = before;
    const r = await this.site.request((c) => run(verbs, c), verb);
    if (r.cancelled) return { status: 'cancelled', workerId: this.site.id, ms: elapsed(t0) };
    try {
      this.ref = await this.site.request((c) => verbs.current(c), 'reading the worker\'s session');
    } catch (error) {
      // The move happened: it is not reported as failed for not knowing where it went.
      this.ref = null;
      this.site.output(`the worker moved to another session but did not say which: ${(error as Error).message}`);
    }
    this.usage = null;
    this.site.emit({ type: 'session_changed', data: { verb, session: this.ref, previous } });
    // The new session opens in a mode of its own (an ACP agent's first): after "Mode: Allow all"
    // the log and the export would have its turns read as allowed all. Said when it differs.
    const modeNow = this.site.mode?.() ?? null;
    if (modeNow && modeBefore && modeNow.id !== modeBefore.id) this.site.emit({ type: 'mode_changed', data: { mode: modeNow.id, name: modeNow.name } });
    // So does its model (an ACP agent's own): the state named the model the last one was switched to.
    if (typeof r.model === 'string') {
      this.model = r.model;
      if (r.model !== modelBefore) this.site.emit({ type: 'model_changed', data: { model: r.model } });
    }
    this.site.changed();
    this.moving = null;
    await this.refreshUsage();
    return { status, workerId: this.site.id, session: this.ref, model: this.model, ms: elapsed(t0) };
  }

  /** `then`: what the person may do once a move under way is over (openingAnother). */
  private async guarded(t0: number, run: (verbs: SessionVerbs) => Promise<SessionVerbResult>, then: string): Promise<SessionVerbResult> {
    const workerId = this.site.id;
    const verbs = this.verbs;
    if (!verbs) return { status: 'unsupported', workerId, error: `a ${this.site.spec.dialect} worker has no session verbs`, ms: 0 };
    const busy = this.site.busy() ?? (this.moving ? openingAnother(this.moving, then) : null);
    if (busy) return { status: 'error', workerId, error: busy, ms: elapsed(t0) };
    try {
      return await run(verbs);
    } catch (error) {
      return { status: error instanceof Unsupported ? 'unsupported' : 'error', workerId, error: (error as Error).message, ms: elapsed(t0) };
    }
  }
}
