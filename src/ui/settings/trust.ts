// Workspace trust: in an untrusted workspace no worker starts (a worker runs programs with the
// person's rights), and the worktree room runs no git (git runs programs the repository's own
// config and hooks name); each refusal says how to trust the workspace.
import * as vscode from 'vscode';

export const UNTRUSTED_REFUSAL =
  'RPC Workers does not start workers in an untrusted workspace, because a worker runs programs with your permissions. ' +
  'To trust this workspace, run "Workspaces: Manage Workspace Trust" from the Command Palette and choose "Trust".';

export const UNTRUSTED_WORKTREE_REFUSAL =
  'RPC Workers does not list, merge or discard worker worktrees in an untrusted workspace, because git runs programs that the repository itself names (its hooks, core.fsmonitor) with your permissions. ' +
  'To trust this workspace, run "Workspaces: Manage Workspace Trust" from the Command Palette and choose "Trust".';

/** Where trust is read; the host tests swap `isTrusted` to see the untrusted paths. */
export const trustState = { isTrusted: (): boolean => vscode.workspace.isTrusted };

export function isTrusted(): boolean {
  return trustState.isTrusted();
}

/** Tells the person why nothing started (or ran); resolves once the message is shown. */
export function refuseUntrusted(message: string = UNTRUSTED_REFUSAL): { status: 'error'; error: string; ms: number } {
  void vscode.window.showErrorMessage(message, 'Manage Workspace Trust').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return { status: 'error', error: message, ms: 0 };
}
