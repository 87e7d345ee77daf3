// Placeholder until the UI layer lands: activates and registers one command, so the host-test
// harness has a real extension to load.
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): { ready: true } {
  context.subscriptions.push(vscode.commands.registerCommand('rpcWorkers.showEventLog', () => undefined));
  return { ready: true };
}

export function deactivate(): void {}
