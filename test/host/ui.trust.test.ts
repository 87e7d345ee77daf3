// Workspace trust: in an untrusted workspace no worker starts, by command or by API, and the
// refusal says how to trust the workspace. (The harness runs with trust off, so trust is
// swapped where the extension reads it; the real untrusted workbench is a UI scenario.)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { UNTRUSTED_REFUSAL } from '../../src/ui/settings/trust';
import { extensionApi, workspaceFolder } from './ui.support';

describe('UI workspace trust', function () {
  this.timeout(30_000);

  it('package.json declares limited support for untrusted workspaces', () => {
    const ext = vscode.extensions.getExtension('rpc-workers.rpc-workers')!;
    const caps = (ext.packageJSON as { capabilities?: { untrustedWorkspaces?: { supported?: unknown } } }).capabilities;
    assert.equal(caps?.untrustedWorkspaces?.supported, 'limited');
  });

  it('refuses to start a worker, with a message that says how to trust the workspace', async () => {
    const api = await extensionApi();
    // The test bundle has its own copy of trust.ts; the extension's is reached through its API.
    const state = api.__ui.trust;
    const real = state.isTrusted;
    state.isTrusted = () => false;
    try {
      const r = await vscode.commands.executeCommand<{ status: string; error?: string }>('rpcWorkers.startDemoWorker', {});
      assert.equal(r.status, 'error');
      assert.equal(r.error, UNTRUSTED_REFUSAL);
      assert.match(UNTRUSTED_REFUSAL, /Manage Workspace Trust/);
      const viaApi = await api.start({ dialect: 'tau', command: process.execPath, args: ['-e', ''], cwd: workspaceFolder().uri.fsPath });
      assert.equal(viaApi.status, 'error');
      assert.equal(api.list().length, 0, 'a worker started in an untrusted workspace');
    } finally {
      state.isTrusted = real;
    }
  });
});
