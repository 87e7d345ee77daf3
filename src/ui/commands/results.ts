// Results shown honestly: what went as asked is said quietly in the status bar, `not_streaming`
// is information, an error is an error with its detail and a way to look further.
import * as vscode from 'vscode';
import { resultSentence, resultTone, type Action, type AnyResult } from './resultWords';

export type { Action, AnyResult };

export interface ResultHooks {
  showOutput(workerId: string): void;
  showEventLog(workerId: string): void;
}

export class ResultPresenter {
  constructor(private readonly hooks: ResultHooks) {}

  /** Shows the result without waiting for the person to dismiss it. */
  show(action: Action, name: string, r: AnyResult): void {
    const sentence = resultSentence(action, name, r);
    const tone = resultTone(action, r);
    if (tone === 'ok') {
      vscode.window.setStatusBarMessage(`$(check) ${sentence}`, 4000);
      return;
    }
    if (tone === 'info') {
      void vscode.window.showInformationMessage(sentence);
      return;
    }
    const buttons = r.workerId ? ['Show Output', 'Show Event Log'] : [];
    void vscode.window.showErrorMessage(sentence, ...buttons).then((choice) => {
      if (!r.workerId) return;
      if (choice === 'Show Output') this.hooks.showOutput(r.workerId);
      else if (choice === 'Show Event Log') this.hooks.showEventLog(r.workerId);
    });
  }
}
