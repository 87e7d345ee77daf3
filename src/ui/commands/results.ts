// Results shown honestly: what went as asked is said quietly in the status bar, `not_streaming`
// is information, an error is an error with its detail and a way to look further.
import * as vscode from 'vscode';
import type { Action, AnyResult } from './resultWords';

export type { Action, AnyResult };

export interface ResultHooks {
  showOutput(workerId: string): void;
  showEventLog(workerId: string): void;
}

export class ResultPresenter {
  /** The quiet sentence in the status bar now, and whose worker it was about. */
  private quiet: { workerId: string | undefined; line: vscode.Disposable } | undefined;

  constructor(private readonly hooks: ResultHooks) {}

  /**
   * Shows a result's sentence (resultWords.ts) in its tone, without waiting for the person to
   * dismiss it; `workerId`: the worker whose output and log an error offers.
   */
  say(sentence: string, tone: 'ok' | 'info' | 'error', workerId: string | undefined): void {
    if (tone === 'ok') {
      this.quiet = { workerId, line: vscode.window.setStatusBarMessage(`$(check) ${sentence}`, 4000) };
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
    if (this.quiet?.workerId !== workerId) return;
    this.quiet.line.dispose();
    this.quiet = undefined;
  }
}
