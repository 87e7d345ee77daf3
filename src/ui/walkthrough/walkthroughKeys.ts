// Sets the walkthrough's context keys as the workers show each step done, so every step of
// "Get Started with RPC Workers" ticks itself off (completionEvents: onContext:<key>). A key,
// once set, stays set for the window: the walkthrough remembers a step done on its own.
import * as vscode from 'vscode';
import type { Supervisor } from '../../core/api';
import { Disposable, toDisposable } from '../disposable';
import { stepsDone, WALKTHROUGH_KEYS, type WalkthroughStep } from './progress';

export const WALKTHROUGH_ID = 'rpc-workers.rpc-workers#rpcWorkers.gettingStarted';

export class WalkthroughKeys extends Disposable {
  /** The steps seen done in this window (the host tests read it). */
  readonly done = new Set<WalkthroughStep>();

  constructor(supervisor: Supervisor) {
    super();
    this._register(toDisposable(supervisor.onState((s) => this.see(stepsDone(s)))));
    for (const s of supervisor.list()) this.see(stepsDone(s));
  }

  private see(steps: WalkthroughStep[]): void {
    for (const step of steps) {
      if (this.done.has(step)) continue;
      this.done.add(step);
      void vscode.commands.executeCommand('setContext', WALKTHROUGH_KEYS[step], true);
    }
  }
}
