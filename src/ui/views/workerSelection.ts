// Which worker the person is looking at: set by the Sessions tree's selection, by "Show Event
// Log" for a worker, or by the event log's own worker picker. Pickers preselect it and the event
// log follows it.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';

export class WorkerSelection extends Disposable {
  private _current: string | undefined;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<string | undefined>());
  readonly onDidChange = this._onDidChange.event;

  get current(): string | undefined {
    return this._current;
  }

  set(workerId: string | undefined): void {
    if (workerId === this._current) return;
    this._current = workerId;
    this._onDidChange.fire(workerId);
  }
}
