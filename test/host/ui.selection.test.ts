// Redirect with Selection and Send Selection from a real editor: the message names the
// workspace-relative path and line range and quotes the code in a fenced block.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/ui/extension';
import { extensionApi, nextEvent, startDemo, stopAll, workspaceFolder } from './ui.support';

type R = { status: string; aborted?: boolean; streamingBehavior?: string | null };

describe('UI redirect with selection', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let editor: vscode.TextEditor;
  before(async () => {
    api = await extensionApi();
    const doc = await vscode.workspace.openTextDocument(path.join(workspaceFolder().uri.fsPath, 'src', 'hello.js'));
    editor = await vscode.window.showTextDocument(doc);
  });
  afterEach(stopAll);
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('redirects a streaming worker with the selected lines, path and an instruction', async () => {
    const id = await startDemo(api);
    const started = nextEvent(api, id, 'tool_execution_start');
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: id, message: 'run: sleep 30' });
    await started;
    editor.selection = new vscode.Selection(1, 0, 4, 0); // lines 2-4, ending at column 0 of line 5
    const sent = nextEvent(api, id, 'prompt_sent', (e) => String(e.data?.text).includes('hello.js'));
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.redirectWithSelection', { workerId: id, message: 'Make greet trim the name' });
    assert.equal(r.status, 'redirected', JSON.stringify(r));
    assert.equal(r.aborted, true);
    const p = await sent;
    const text = String(p.data?.text);
    assert.match(text, /^Make greet trim the name\n/);
    assert.ok(text.includes('From `src/hello.js`, lines 2-4:'), text);
    assert.ok(text.includes('```javascript\nfunction greet(name) {\n  return `Hello, ${name}!`;\n}\n```'), text);
    assert.equal(p.source, 'editor');
    assert.deepEqual((p.correlation as Record<string, unknown>).lines, [2, 4]);
  });

  it('Send Selection with an empty selection sends the cursor line as a prompt, and queues while streaming', async () => {
    const id = await startDemo(api);
    // The file in front again: an earlier suite's output channel (VS Code's "tasks", once the git
    // extension ran for the worktree tests) may have taken the active editor meanwhile.
    editor = await vscode.window.showTextDocument(editor.document, { preview: false });
    editor.selection = new vscode.Selection(5, 3, 5, 3); // line 6: module.exports
    const sent = nextEvent(api, id, 'prompt_sent');
    const ended = nextEvent(api, id, 'agent_end');
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.sendSelection', { workerId: id, message: '' });
    assert.equal(r.status, 'accepted');
    assert.equal(r.streamingBehavior, null);
    const text = String((await sent).data?.text);
    assert.ok(text.includes('From `src/hello.js`, line 6:'), text);
    assert.ok(text.includes('module.exports = { greet };'), text);
    await ended;
    const started = nextEvent(api, id, 'tool_execution_start');
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: id, message: 'run: sleep 30' });
    await started;
    const queued = await vscode.commands.executeCommand<R>('rpcWorkers.sendSelection', { workerId: id, message: 'after this', streamingBehavior: 'followUp' });
    assert.equal(queued.status, 'accepted');
    assert.equal(queued.streamingBehavior, 'followUp');
  });
});
