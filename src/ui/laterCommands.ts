// Commands registered at activation whose part (a class in dist/extension-later.js, later.ts) is
// made on the first call of any of them. The part registers its handlers through the function it
// is given, as it would with VS Code's, and each command then runs its handler.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from './disposable';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- VS Code's own handler type
export type CommandHandler = (...args: any[]) => unknown;
export type RegisterCommand = (id: string, handler: CommandHandler) => vscode.Disposable;

export class LaterCommands<T extends vscode.Disposable> extends Disposable {
  private made: T | undefined;
  private readonly handlers = new Map<string, CommandHandler>();

  /** `ids`: every command the part registers (package.json declares them; each must be registered at activation). */
  constructor(private readonly ids: readonly string[], private readonly make: (registerCommand: RegisterCommand) => T) {
    super();
    for (const id of ids) this._register(vscode.commands.registerCommand(id, (...args: unknown[]) => this.handler(id)(...args)));
  }

  /** The part, made now if no command has made it yet. */
  get part(): T {
    // The window is closing (a restored log tab's lookup, say): nothing to make it for.
    if (!this.made && this.isDisposed) throw new Error('the extension is shutting down: its commands are disposed');
    if (!this.made) {
      const made = this.make((id, handler) => {
        if (!this.ids.includes(id)) throw new Error(`${id} is not among the commands registered for it at activation`);
        this.handlers.set(id, handler);
        return toDisposable(() => this.handlers.delete(id));
      });
      this.made = this._register(made);
      const missing = this.ids.filter((id) => !this.handlers.has(id));
      if (missing.length) throw new Error(`registered at activation, yet without a handler: ${missing.join(', ')}`);
    }
    return this.made;
  }

  private handler(id: string): CommandHandler {
    const handler = this.part && this.handlers.get(id);
    if (!handler) throw new Error(`${id} has no handler (disposed)`);
    return handler;
  }
}
