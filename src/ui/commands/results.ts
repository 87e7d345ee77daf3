// Results shown honestly: what went as asked is said quietly in the status bar, `not_streaming`
// is information, an error is an error with its detail and a way to look further.
import * as vscode from 'vscode';
import type { Action, AnyResult } from './resultWords';

export type { Action, AnyResult };

export interface ResultHooks {
  showOutput(workerId: string): void;
  showEventLog(workerId: string): void;
}

/** How long a result's line stays in the status bar. */
const LINE_MS = 4000;

export class ResultPresenter {
  /** The status bar lines that may still be up (set less than LINE_MS ago), and the worker each is of. */
  private lines: Array<{ of: string; shown: vscode.Disposable; at: number }> = [];

  constructor(private readonly hooks: ResultHooks) {}

  /**
   * Shows a result's sentence (resultWords.ts) in its tone, without waiting for the person to
   * dismiss it; `workerId`: the worker whose output and log an error offers; `of`: the worker the
   * verb was asked of (an unknown id's too).
   */
  say(sentence: string, tone: 'ok' | 'info' | 'error', workerId: string | undefined, of = workerId): void {
    // The worker's newer outcome replaces its line: "Prompt accepted" stayed up beside the refusal
    // of the next prompt, as if that one had been accepted.
    const now = Date.now();
    this.takeDown(of, now);
    if (tone === 'ok') {
      const shown = vscode.window.setStatusBarMessage(`$(check) ${sentence}`, LINE_MS);
      if (of !== undefined) this.lines.push({ of, shown, at: now });
      return;
    }
    if (tone === 'info') {
      void vscode.window.showInformationMessage(sentence);
      return;
    }
    const buttons = workerId ? ['Show Output', 'Show Event Log'] : [];
    void vscode.window.showErrorMessage(sentence, ...buttons).then((choice) => {
      if (!workerId) return;
      if (choice === 'Show Output') this.hooks.showOutput(workerId);
      else if (choice === 'Show Event Log') this.hooks.showEventLog(workerId);
    });
  }

  /**
   * The worker's turn ended in an error: a "Prompt accepted by …" still in the status bar would
   * put a tick beside the error that refused that prompt (an ACP agent's login, said at once).
   */
  turnFailed(workerId: string): void {
    this.takeDown(workerId, Date.now());
  }

  /** Takes down the worker's line, and forgets the lines whose time is up. */
  private takeDown(of: string | undefined, now: number): void {
    this.lines = this.lines.filter((l) => {
      if (l.of === of) l.shown.dispose();
      return l.of !== of && now - l.at < LINE_MS;
    });
  }
}
