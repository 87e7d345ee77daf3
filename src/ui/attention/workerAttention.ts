// Each worker's attention state for the UI: the core's AttentionBoard fed from the host's states,
// "seen" when the person looks (its log on screen: a selected tree row alone is not looking, since
// the log's own picker can show another worker while the row stays selected), the view's badge
// (workers that need input), and a notification for a change the person would otherwise miss, as
// the rpcWorkers.notifications setting and the core's policy say.
import * as vscode from 'vscode';
import type { LoginCommand, Supervisor, WorkerSpec, WorkerState } from '../../core/api';
import type { AgentEvent } from '../../core/events/agentEvent';
import { AttentionBoard } from '../../core/attention/board';
import { lastEndedTurn, type AttentionInfo } from '../../core/attention/attention';
import type { AttentionChange, NotifyDecision, NotifySetting } from '../../core/attention/notify';
import { runLogin } from '../commands/loginTerminal';
import { loginButton, loginWords } from '../commands/resultWords';
import { Disposable, toDisposable } from '../disposable';
import { badgeFor } from './attentionLook';

export interface AttentionServices {
  supervisor: Supervisor;
  setting(): NotifySetting;
  /** The workers whose log is on screen now. */
  visibleLogs(): Set<string>;
  /** Fires when visibleLogs may have changed. */
  onDidChangeLooking: vscode.Event<void>;
  /** The core's policy (dist/core.js is loaded by then: a worker runs). */
  decide(setting: NotifySetting, change: AttentionChange, logVisible: boolean): NotifyDecision;
  openLog(workerId: string): unknown;
  /** The worker's name as lists show it ("Demo worker #2" when two share a name). */
  label(workerId: string): string | undefined;
  /** How the worker's agent takes a key or login (profiles.ts loginHint), for a turn it refused for want of one. */
  loginHint?(state: WorkerState): string | null;
  /** The spec the worker started with (its env, for the terminal a login it names runs in). */
  specOf?(workerId: string): WorkerSpec | undefined;
  /** Where the badge goes (the Sessions view). */
  setBadge(badge: vscode.ViewBadge | undefined): void;
  log?(message: string): void;
}

export interface Notified { workerId: string; level: 'info' | 'warning' | 'error'; message: string }

/**
 * What the person looks at is marked seen this long after they looked. A click on a row of the
 * Sessions view selects it and then runs the row's command; marking its worker seen at once
 * redraws the tree in between, and VS Code then drops the command the click carried ("Actual
 * command not found"), so the click did nothing.
 */
export const LOOK_DELAY_MS = 400;

export class WorkerAttention extends Disposable {
  readonly board = new AttentionBoard();
  private readonly _onDidChange = this._register(new vscode.EventEmitter<string>());
  /** A worker's attention changed (its id). */
  readonly onDidChange = this._onDidChange.event;
  /** Every notification shown, newest last (the host tests read it). */
  readonly notified: Notified[] = [];
  private badgeValue = 0;
  /** Workers seen running: one that fails before it ever ran failed its start, which Start says itself. */
  private readonly ran = new Set<string>();
  private lookTimer: ReturnType<typeof setTimeout> | undefined;
  /** Workers the person is interrupting now (their Abort or Redirect), by how many such calls run. */
  private readonly interrupting = new Map<string, number>();
  /** Workers the guard said it stops, until they end: their loss of input is said by that stop. */
  private readonly guardStops = new Set<string>();

  constructor(private readonly s: AttentionServices) {
    super();
    this._register(toDisposable(s.supervisor.onState((state) => this.onState(state))));
    this._register(toDisposable(s.supervisor.onEvent((workerId, e) => this.onEvent(workerId, e))));
    this._register(toDisposable(s.supervisor.onRemoved((workerId) => this.onRemoved(workerId))));
    this._register(s.onDidChangeLooking(() => this.lookSoon()));
    this._register(toDisposable(() => clearTimeout(this.lookTimer)));
    for (const state of s.supervisor.list()) {
      if (state.status === 'running') this.ran.add(state.workerId);
      this.board.update(state);
    }
    this.updateBadge();
  }

  get(workerId: string): AttentionInfo | null {
    return this.board.get(workerId);
  }

  /**
   * The attention of this state of a worker, as it is or as it is about to be: a listener of
   * host.onState that runs before this one gets what the board will hold once it has run.
   */
  current(state: WorkerState): AttentionInfo {
    return this.board.peek(state, { looking: this.seesIt(state) });
  }

  /**
   * Runs the person's own interruption of a worker (their Abort, their Redirect; resolves once
   * the turn has settled). The turn it aborts is seen as it ends, as if its log were on screen:
   * they ended it a moment ago, so it is no news (no "done", no notification). A turn aborted by
   * anything else (another extension through the API, the guard) still is.
   */
  async byThePerson<T>(workerId: string, run: () => Promise<T>): Promise<T> {
    this.interrupting.set(workerId, (this.interrupting.get(workerId) ?? 0) + 1);
    try {
      return await run();
    } finally {
      const n = (this.interrupting.get(workerId) ?? 1) - 1;
      if (n > 0) this.interrupting.set(workerId, n);
      else this.interrupting.delete(workerId);
    }
  }

  get badge(): number {
    return this.badgeValue;
  }

  private looking(workerId: string): boolean {
    return this.s.visibleLogs().has(workerId);
  }

  /** Its log is on screen, or the turn that just ended is one the person aborted themselves. */
  private seesIt(state: WorkerState): boolean {
    return this.looking(state.workerId) || (this.interrupting.has(state.workerId) && lastEndedTurn(state)?.endReason === 'aborted');
  }

  private onState(state: WorkerState): void {
    if (state.status === 'running') this.ran.add(state.workerId);
    const ran = this.ran.has(state.workerId);
    const over = state.status === 'stopped' || state.status === 'exited' || state.status === 'failed';
    if (over) this.ran.delete(state.workerId);
    const guardStopped = this.guardStops.has(state.workerId);
    if (over) this.guardStops.delete(state.workerId);
    const { change } = this.board.update(state, { looking: this.seesIt(state) });
    if (!change) return;
    this.changed(state.workerId);
    // The guard's abort found it deaf and the guard stops it: its notification said both, just
    // before this state (toolAudit.ts), and "stop it" would be stale as it appears.
    if (guardStopped && state.inputLost) {
      this.s.log?.(`attention: ${change.name} ${change.from ?? 'new'} → ${change.to.attention} (not notified: the guard's stop said it)`);
      return;
    }
    if ((state.status === 'failed' || state.status === 'exited') && !ran) {
      this.s.log?.(`attention: ${change.name} ${state.status === 'failed' ? 'failed' : 'exited'} before it ran (not notified: the start's own error says so)`);
      return;
    }
    const decision = this.s.decide(this.s.setting(), change, this.s.visibleLogs().has(state.workerId));
    if (!decision.notify) {
      this.s.log?.(`attention: ${change.name} ${change.from ?? 'new'} → ${change.to.attention} (not notified: ${decision.why})`);
      return;
    }
    // The core's decision, said with the name that tells this worker apart from its namesakes;
    // a turn refused for want of a key says how this agent takes one, and offers to run the login
    // it names, as its start would.
    // Only a failure that is that turn's error: a crash after it is not for want of a login.
    const refused = change.to.attention === 'failed' && change.to.turn !== undefined ? state.turns.find((t) => t.index === change.to.turn) : undefined;
    const login = refused?.needsLogin ? loginWords(state.name, this.s.loginHint?.(state) ?? null) : '';
    const name = this.s.label(state.workerId) ?? state.name;
    this.notify(state.workerId, decision.level, `${name}: ${change.to.reason}${login}`, refused?.needsLogin && refused.login ? this.logIn(state, name, refused.login) : undefined);
  }

  /** Gone from the lists (Remove, Clear Exited): nothing of it is counted, badged or kept. */
  private onRemoved(workerId: string): void {
    if (!this.board.get(workerId)) return;
    this.board.forget(workerId);
    this.ran.delete(workerId);
    this.guardStops.delete(workerId);
    this.changed(workerId);
  }

  /**
   * The guard stopped a worker its abort could not reach (toolAudit.ts): the person did not ask for
   * that Stop, and the worker leaves the lists, so they are told why, as of a failure (unless they
   * look at its log, where the violation's row says it, or notifications are off).
   */
  private onEvent(workerId: string, e: AgentEvent): void {
    if (e.type !== 'guard_violation' || e.data?.action !== 'stop') return;
    this.guardStops.add(workerId);
    const st = this.s.supervisor.state(workerId);
    const name = this.s.label(workerId) ?? (st.status === 'not_found' ? workerId : st.state.name);
    if (this.s.setting() === 'none' || this.looking(workerId)) {
      this.s.log?.(`attention: ${name} was stopped by the guard (not notified: ${this.s.setting() === 'none' ? 'notifications are off' : 'its log is visible'})`);
      return;
    }
    this.notify(workerId, 'error', `${name}: guard: ${e.error ?? 'violation'}`);
  }

  /**
   * The button that runs the login a refused turn names, in the worker's folder and env, as a refused start's does.
   * What to do next comes with Open Log (where the person prompts again): VS Code shows a notification
   * without a button as one line, which cut "then prompt <name> again" off.
   */
  private logIn(state: WorkerState, name: string, login: LoginCommand): { button: string; run(): void } {
    const openLog = { button: 'Open Log', run: () => this.s.openLog(state.workerId) };
    return { button: loginButton(login), run: () => runLogin(login, { cwd: state.cwd, env: this.s.specOf?.(state.workerId)?.env }, `prompt ${name} again`, openLog) };
  }

  /** Counted from the last change of what is looked at: a second click restarts the wait. */
  private lookSoon(): void {
    clearTimeout(this.lookTimer);
    this.lookTimer = setTimeout(() => {
      this.lookTimer = undefined;
      this.lookNow();
    }, LOOK_DELAY_MS);
  }

  /** What the person now looks at is seen (if they still look at it, see LOOK_DELAY_MS). */
  private lookNow(): void {
    for (const id of this.s.visibleLogs()) {
      const r = this.board.markSeen(id);
      if (r?.change) this.changed(id);
    }
  }

  private changed(workerId: string): void {
    this.updateBadge();
    this._onDidChange.fire(workerId);
  }

  private updateBadge(): void {
    this.badgeValue = this.board.badge();
    this.s.setBadge(badgeFor(this.badgeValue));
  }

  /** `action`: a button before Open Log (a refused turn's login). */
  private notify(workerId: string, level: Notified['level'], message: string, action?: { button: string; run(): void }): void {
    this.notified.push({ workerId, level, message });
    if (this.notified.length > 100) this.notified.shift();
    const show = level === 'error' ? vscode.window.showErrorMessage : level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(`RPC Workers: ${message}`, ...(action ? [action.button] : []), 'Open Log').then((choice) => {
      if (action && choice === action.button) action.run();
      else if (choice) this.s.openLog(workerId);
    });
  }
}
