// The editor as an ACP agent's hands, in a real extension host: with the fake ACP agent, a read
// of an open document with unsaved edits gets the unsaved text; a write to an open document is one
// undo step (a WorkspaceEdit) and leaves the document saved, not dirty, as the README says; a
// path outside the workspace is refused. The core's side is tested in acp.hands.test.ts with a
// stand-in for the editor; this is the editor itself.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import type { ExtensionApi } from '../../src/ui/extension';
import { EXTENSION_ID, extensionApi, nextEvent, stopAll, waitFor, workspaceFolder } from './ui.support';

type R = { status: string; workerId?: string; error?: string };
const PROFILE = 'Fake ACP agent (files)';

describe('UI: an ACP agent\'s files through the editor', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let id: string;
  const made: string[] = [];

  before(async () => {
    api = await extensionApi();
    const fake = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'fixtures', 'fake-acp-agent.mjs');
    await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', [{ name: PROFILE, dialect: 'acp', command: process.execPath, args: [fake], env: { ELECTRON_RUN_AS_NODE: '1' } }], vscode.ConfigurationTarget.Global);
    await waitFor(api, 'the ACP profile', () => api.__ui.settings.profiles.some((p) => p.name === PROFILE));
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.startWorker', { profile: PROFILE });
    assert.equal(r.status, 'started', JSON.stringify(r));
    id = r.workerId!;
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await stopAll();
    await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', undefined, vscode.ConfigurationTarget.Global);
    for (const f of made) fs.rmSync(f, { force: true });
  });

  /** One turn of the agent; what it said. */
  async function said(prompt: string): Promise<string> {
    const events: AgentEvent[] = [];
    const off = api.onEvent((w, e) => { if (w === id) events.push(e); });
    const settled = nextEvent(api, id, 'agent_settled');
    const p = await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: prompt });
    assert.equal(p.status, 'accepted', JSON.stringify(p));
    await settled;
    off();
    return events.filter((e) => e.type === 'message_update' && e.block_type === 'text').map((e) => e.delta).join('');
  }
  function file(name: string, text: string): string {
    const f = path.join(workspaceFolder().uri.fsPath, `${name}-${Date.now()}.txt`);
    fs.writeFileSync(f, text);
    made.push(f);
    return f;
  }

  it('a read of an open document with unsaved edits gets the unsaved text', async () => {
    const f = file('hands-read', 'on disk\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(f));
    await editor.edit((b) => b.replace(new vscode.Range(0, 0, 1, 0), 'unsaved\n'));
    assert.equal(editor.document.isDirty, true);
    assert.equal(await said(`read: ${f}`), `read: ${JSON.stringify('unsaved\n')}`);
    assert.equal(fs.readFileSync(f, 'utf8'), 'on disk\n', 'the read changed nothing on disk');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a write to an open document is one undo step, and leaves it saved, not dirty', async () => {
    const f = file('hands-write', 'before\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(f));
    assert.equal(await said(`write: ${f} = after`), 'wrote');
    assert.equal(editor.document.getText(), 'after');
    assert.equal(editor.document.isDirty, false, 'saved after the edit, as the README says');
    assert.equal(fs.readFileSync(f, 'utf8'), 'after');
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    await waitFor(api, 'the undo to restore the text', () => editor.document.getText() === 'before\n');
    await vscode.commands.executeCommand('redo');
    await waitFor(api, 'the redo to put the write back in one step', () => editor.document.getText() === 'after');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a path outside the workspace is refused, and nothing there is read or written', async () => {
    const outside = path.join(path.dirname(workspaceFolder().uri.fsPath), `outside-${Date.now()}.txt`);
    assert.match(await said(`write: ${outside} = x`), /^write failed \(-32001\): .*outside the worker's folder/);
    assert.equal(fs.existsSync(outside), false);
    assert.match(await said('read: /etc/hostname'), /^read failed \(-32001\): .*outside the worker's folder/);
  });
});
