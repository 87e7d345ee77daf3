// Workspace trust: in an untrusted workspace no worker starts (a worker runs programs with the
// person's rights); the refusal says how to trust the workspace.
import * as vscode from 'vscode';

export const UNTRUSTED_REFUSAL =
  'RPC Workers does not start workers in an untrusted workspace, because a worker runs programs with your permissions. ' +
  'To trust this workspace, run "Workspaces: Manage Workspace Trust" from the Command Palette and choose "Trust".';

/** Where trust is read; the host tests swap `isTrusted` to see the untrusted paths. */
export const trustState = { isTrusted: (): boolean => vscode.workspace.isTrusted };

export function isTrusted(): boolean {
  return trustState.isTrusted();
}

/** Tells the person why nothing started; resolves once the message is shown. */
export function refuseUntrusted(): { status: 'error'; error: string; ms: number } {
  void vscode.window.showErrorMessage(UNTRUSTED_REFUSAL, 'Manage Workspace Trust').then((choice) => {
    if (choice) void vscode.commands.executeCommand('workbench.trust.manage');
  });
  return { status: 'error', error: UNTRUSTED_REFUSAL, ms: 0 };
}
