// Results shown honestly: what went as asked is said quietly in the status bar, `not_streaming`
// is information, an error is an error with its detail and a way to look further.
import * as vscode from 'vscode';

export type AnyResult = { status: string; workerId?: string; error?: string; note?: string };

export type Action = 'start' | 'prompt' | 'steer' | 'followUp' | 'abort' | 'redirect' | 'compact' | 'stop' | 'stopAll';

const DONE: Record<Action, string> = {
  start: 'Started', prompt: 'Prompt accepted by', steer: 'Steer queued for', followUp: 'Follow-up queued for', abort: 'Aborted the turn of',
  redirect: 'Redirected', compact: 'Compacted', stop: 'Stopped', stopAll: 'Stopped',
};

const QUIET = new Set(['started', 'accepted', 'aborted', 'redirected', 'compacted', 'stopped']);

export interface ResultHooks {
  showOutput(workerId: string): void;
  showEventLog(workerId: string): void;
}

/** One line for a result: the same words the event log's composer shows. */
export function resultSentence(action: Action, name: string, r: AnyResult): string {
  if (QUIET.has(r.status)) {
    if (action === 'compact' && r.status === 'aborted') return `The compaction of ${name} was cancelled`;
    return `${DONE[action]} ${name}`;
  }
  if (r.status === 'not_streaming') return `${name} is not streaming: there was no turn to abort${r.note ? ` (${r.note})` : ''}`;
  if (r.status === 'not_found') return `${name} is no longer there (it was stopped)`;
  return `${actionWord(action)} ${name} failed: ${r.error ?? 'no detail'}`;
}

function actionWord(action: Action): string {
  return { start: 'Starting', prompt: 'Prompting', steer: 'Steering', followUp: 'Queueing a follow-up for', abort: 'Aborting', redirect: 'Redirecting', compact: 'Compacting', stop: 'Stopping', stopAll: 'Stopping' }[action];
}

export class ResultPresenter {
  constructor(private readonly hooks: ResultHooks) {}

  /** Shows the result without waiting for the person to dismiss it. */
  show(action: Action, name: string, r: AnyResult): void {
    const sentence = resultSentence(action, name, r);
    if (QUIET.has(r.status)) {
      vscode.window.setStatusBarMessage(`$(check) ${sentence}`, 4000);
      return;
    }
    if (r.status === 'not_streaming') {
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
