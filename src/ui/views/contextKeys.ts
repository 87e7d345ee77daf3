// The context keys that `when` clauses read, set from the host's state only when they change.
import * as vscode from 'vscode';
import type { Supervisor } from '../../core/api';
import { contextValues } from './describe';
import { Disposable, toDisposable } from '../disposable';

export class ContextKeys extends Disposable {
  private readonly last = new Map<string, boolean>();

  /**
   * `unsetBefore`: the window holds none of the keys yet (a new window, or an earlier extension
   * host of it that ended with no worker on record). The first reading then sets only what is
   * true: every `when` that names these keys reads an unset one as false, and each setContext
   * is a message to the window, seven of them at activation otherwise.
   */
  constructor(private readonly supervisor: Supervisor, unsetBefore = false) {
    super();
    this._register(toDisposable(supervisor.onState(() => queueMicrotask(() => this.update()))));
    this._register(toDisposable(supervisor.onRemoved(() => this.update())));
    if (unsetBefore) for (const key of Object.keys(contextValues([]))) this.last.set(key, false);
    this.update();
  }

  /** The value last set for `key` (the host tests read it). */
  value(key: string): boolean | undefined {
    return this.last.get(key);
  }

  update(): void {
    // host.list() after the state change. A stopped worker leaves the list only after its
    // stopped state (and a Stop of one that had exited says no state): onRemoved is when it has.
    for (const [key, value] of Object.entries(contextValues(this.supervisor.list()))) {
      if (this.last.get(key) === value) continue;
      this.last.set(key, value);
      void vscode.commands.executeCommand('setContext', key, value);
    }
  }
}
