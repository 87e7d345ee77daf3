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
import { closeEditorsAndProfiles, EXTENSION_ID, extensionApi, nextEvent, startFromProfile, tabDirty, waitFor, workspaceFolder } from './ui.support';

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
    id = await startFromProfile(api, { name: PROFILE, dialect: 'acp', command: process.execPath, args: [fake], env: { ELECTRON_RUN_AS_NODE: '1' } });
  });
  after(async () => {
    await closeEditorsAndProfiles();
    for (const f of made) fs.rmSync(f, { force: true });
  });

  /** One turn of the agent; what it said. */
  async function said(prompt: string, events: AgentEvent[] = [], worker = id): Promise<string> {
    const off = api.onEvent((w, e) => { if (w === worker) events.push(e); });
    const settled = nextEvent(api, worker, 'agent_settled');
    const p = await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: worker, message: prompt });
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
    // The extension host hears of the save's clean state in a message of its own, which may follow
    // the write's answer under load: wait for it (a write left unsaved never gets it and fails here).
    await waitFor(api, () => `saved after the edit, as the README says (document dirty: ${editor.document.isDirty}, tab dirty: ${tabDirty(editor.document.uri)})`, () => !editor.document.isDirty);
    assert.equal(fs.readFileSync(f, 'utf8'), 'after');
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    await waitFor(api, 'the undo to restore the text', () => editor.document.getText() === 'before\n');
    await vscode.commands.executeCommand('redo');
    await waitFor(api, 'the redo to put the write back in one step', () => editor.document.getText() === 'after');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a write over unsaved edits says so in the log, and Undo brings the person\'s text back', async () => {
    const f = file('hands-dirty', 'before\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(f));
    await editor.edit((b) => b.replace(new vscode.Range(0, 0, 1, 0), 'mine, unsaved\n'));
    assert.equal(editor.document.isDirty, true);
    const events: AgentEvent[] = [];
    assert.equal(await said(`write: ${f} = after`, events), 'wrote');
    assert.equal(editor.document.getText(), 'after');
    // The save's clean state comes in a message of its own (see above): waited for, not read at once.
    await waitFor(api, () => `saved over the unsaved edits (document dirty: ${editor.document.isDirty}, tab dirty: ${tabDirty(editor.document.uri)})`, () => !editor.document.isDirty);
    assert.equal(fs.readFileSync(f, 'utf8'), 'after');
    const wrote = events.find((e) => e.type === 'client_file');
    assert.deepEqual(wrote?.data, { op: 'write', path: f, through: 'editor', bytes: 5, replacedUnsaved: true });
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    await waitFor(api, 'the undo to bring back the unsaved text', () => editor.document.getText() === 'mine, unsaved\n');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a write over unsaved edits the agent read first is no warning: it built on them', async () => {
    const f = file('hands-read-then-write', 'before\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(f));
    await editor.edit((b) => b.replace(new vscode.Range(0, 0, 1, 0), 'mine, unsaved\n'));
    assert.equal(await said(`read: ${f}`), `read: ${JSON.stringify('mine, unsaved\n')}`);
    const events: AgentEvent[] = [];
    assert.equal(await said(`write: ${f} = mine, unsaved\nand the agent's line\n`, events), 'wrote');
    await waitFor(api, () => `saved after the edit (document dirty: ${editor.document.isDirty}, tab dirty: ${tabDirty(editor.document.uri)})`, () => !editor.document.isDirty);
    assert.equal(fs.readFileSync(f, 'utf8'), "mine, unsaved\nand the agent's line\n");
    assert.deepEqual(events.find((e) => e.type === 'client_file')?.data, { op: 'write', path: f, through: 'editor', bytes: 35 });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('another agent\'s read of the unsaved edits does not count for this one: its write over them still warns', async () => {
    const other = await vscode.commands.executeCommand<R>('rpcWorkers.startWorker', { profile: PROFILE });
    assert.equal(other.status, 'started', JSON.stringify(other));
    const f = file('hands-two-agents', 'before\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(f));
    await editor.edit((b) => b.replace(new vscode.Range(0, 0, 1, 0), 'mine, unsaved\n'));
    assert.equal(await said(`read: ${f}`, [], other.workerId), `read: ${JSON.stringify('mine, unsaved\n')}`);
    const events: AgentEvent[] = [];
    assert.equal(await said(`write: ${f} = after`, events), 'wrote');
    assert.deepEqual(events.find((e) => e.type === 'client_file')?.data, { op: 'write', path: f, through: 'editor', bytes: 5, replacedUnsaved: true });
    await vscode.commands.executeCommand('rpcWorkers.stop', { workerId: other.workerId });
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a write changes only what differs: the cursor and the rest of the document stay where they were', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
    const f = file('hands-span', `${lines.join('\n')}\n`);
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(f));
    editor.selection = new vscode.Selection(150, 3, 150, 7);
    editor.revealRange(new vscode.Range(150, 0, 150, 0), vscode.TextEditorRevealType.InCenter);
    const changed = lines.map((l, i) => (i === 10 ? 'line 11, changed by the agent' : l));
    const before = editor.document.version;
    const edits: vscode.TextDocumentContentChangeEvent[] = [];
    const sub = vscode.workspace.onDidChangeTextDocument((e) => { if (e.document === editor.document) edits.push(...e.contentChanges); });
    try {
      assert.equal(await said(`write: ${f} = ${changed.join('\n')}\n`), 'wrote');
    } finally {
      sub.dispose();
    }
    assert.ok(editor.document.version > before);
    assert.deepEqual(edits.map((c) => [c.range.start.line, c.range.end.line]), [[10, 10]], 'one edit, on line 11 only');
    assert.deepEqual([editor.selection.start.line, editor.selection.start.character, editor.selection.end.character], [150, 3, 7], 'the selection stayed');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a path outside the workspace is refused, and nothing there is read or written', async () => {
    const outside = path.join(path.dirname(workspaceFolder().uri.fsPath), `outside-${Date.now()}.txt`);
    assert.match(await said(`write: ${outside} = x`), /^write failed \(-32001\): .*outside the worker's folder/);
    assert.equal(fs.existsSync(outside), false);
    assert.match(await said('read: /etc/hostname'), /^read failed \(-32001\): .*outside the worker's folder/);
  });
});
