// A small Disposable base (the shape vscode-pull-request-github uses): everything a class
// creates is registered with `_register` and disposed with it, newest first.
import type * as vscode from 'vscode';

export type DisposableLike = { dispose(): unknown };

export abstract class Disposable implements vscode.Disposable {
  private _disposables: DisposableLike[] = [];
  private _isDisposed = false;

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }

  protected _register<T extends DisposableLike>(value: T): T {
    if (this._isDisposed) value.dispose();
    else this._disposables.push(value);
    return value;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    const list = this._disposables.reverse();
    this._disposables = [];
    for (const d of list) {
      try {
        d.dispose();
      } catch (error) {
        console.error('[rpc-workers] dispose failed', error);
      }
    }
  }
}

/** A Disposable around a plain unsubscribe function (the core's `on*` return these). */
export function toDisposable(fn: () => void): DisposableLike {
  let done = false;
  return { dispose: () => { if (!done) { done = true; fn(); } } };
}
