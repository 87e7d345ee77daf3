// The login an agent names (ACP initialize's `authMethods`), offered as a button and run in a
// terminal: one path for a start it refused and for a turn it refused (Copilot signed out).
import * as vscode from 'vscode';
import type { LoginCommand } from '../../core/api';

/**
 * Runs the login in a terminal of the worker's folder and env (the agent reads its credentials
 * from there), then says what to do once it is done; `again`, where given, is that as a button.
 */
export function runLogin(login: LoginCommand, where: { cwd?: string; env?: Record<string, string> }, after: string, again?: { button: string; run(): unknown }): void {
  const terminal = vscode.window.createTerminal({ name: login.label, cwd: where.cwd, env: where.env });
  terminal.show();
  terminal.sendText(login.line);
  const message = `Finish the login in the terminal "${login.label}", then ${after}.`;
  void vscode.window.showInformationMessage(message, ...(again ? [again.button] : [])).then((c) => {
    if (c && again) void again.run();
  });
}
