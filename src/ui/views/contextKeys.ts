// The context keys that `when` clauses read, set from the host's state only when they change.
import * as vscode from 'vscode';
import type { Supervisor } from '../../core/api';
import { contextValues } from './describe';
import { Disposable, toDisposable } from '../disposable';

export class ContextKeys extends Disposable {
  private readonly last = new Map<string, boolean>();

  constructor(private readonly supervisor: Supervisor) {
    super();
    this._register(toDisposable(supervisor.onState(() => queueMicrotask(() => this.update()))));
    this.update();
  }

  update(): void {
    // host.list() after the state change: a stopped worker is gone from it only after its
    // stopped state was emitted, so the microtask above runs this once more than strictly needed.
    for (const [key, value] of Object.entries(contextValues(this.supervisor.list()))) {
      if (this.last.get(key) === value) continue;
      this.last.set(key, value);
      void vscode.commands.executeCommand('setContext', key, value);
    }
  }
}
