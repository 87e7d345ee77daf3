// The editor as a real agent's hands, in a real extension host: Gemini CLI (the agent that reads
// and writes through the client, docs/acp-agents-findings.md) from a profile with `clientFiles`
// on, on the mock model, asked to overwrite a file the person has open with unsaved edits. It
// reads the editor's text (the unsaved edit included) before it asks, the question is answered
// with Enter (allow once), and its text lands in the open document as one saved edit, with no
// warning: it read the edits it replaced. The fake agent's side of this is ui.acpFiles.test.ts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import type { ExtensionApi } from '../../src/ui/extension';
import { pathToFileURL } from 'node:url';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import { closeEditorsAndProfiles, EXTENSION_ID, extensionApi, nextEvent, startFromProfile, tabDirty, waitFor, workspaceFolder } from './ui.support';

type AcpEnv = typeof import('../fixtures/acp-env.mjs');
// acp-env.mjs (and ensure-workers.mjs beneath it) are ES modules that find their files by
// import.meta.url: loaded as they are at run time, not bundled into this CommonJS suite.
const acpEnv = (): Promise<AcpEnv> => import(pathToFileURL(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'fixtures', 'acp-env.mjs')).href) as Promise<AcpEnv>;

type R = { status: string; workerId?: string; error?: string };
const PROFILE = 'Gemini (real, editor files)';

describe('UI: real Gemini CLI writes through the editor', function () {
  this.timeout(180_000);
  let api: ExtensionApi;
  let llm: MockLlm;
  let home: string;
  let id: string;
  let file: string;
  let acp: AcpEnv;

  before(async function () {
    acp = await acpEnv();
    // Installed by the test command before the host suites (scripts/ensure-workers.mjs); never skipped.
    assert.ok(acp.acpAgentInstalled('gemini'), `Gemini CLI ${acp.ACP_AGENTS.gemini.version} is not installed in the cache (node scripts/ensure-workers.mjs acp)`);
    api = await extensionApi();
    llm = await startMockLlm({ defaultText: 'unscripted' });
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'ui-acp-real-gemini-'));
    const l = acp.acpAgentLaunch('gemini', { mockUrl: llm.baseUrl, home });
    id = await startFromProfile(api, { name: PROFILE, dialect: 'acp', command: l.command, args: l.args, env: l.env, clientFiles: true });
  });
  after(async () => {
    await closeEditorsAndProfiles();
    await llm?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
    if (file) fs.rmSync(file, { force: true });
  });

  it('reads the unsaved text, asks, and its write is one saved edit of the open document, with no warning', async () => {
    file = path.join(workspaceFolder().uri.fsPath, `gemini-hands-${Date.now()}.txt`);
    fs.writeFileSync(file, 'saved on disk\n');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    await editor.edit((b) => b.replace(new vscode.Range(0, 0, 1, 0), 'mine, unsaved\n'));
    assert.equal(editor.document.isDirty, true);
    llm.script(acp.writeToolReply('gemini', file, 'written by gemini\n'), { text: 'Written.' });
    const events: AgentEvent[] = [];
    const off = api.onEvent((w, e) => { if (w === id) events.push(e); });
    try {
      const asked = nextEvent(api, id, 'permission_request');
      const settled = nextEvent(api, id, 'agent_settled');
      const p = await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: 'Overwrite the file' });
      assert.equal(p.status, 'accepted', JSON.stringify(p));
      const q = await asked;
      // The old side of its question is the editor's text: Gemini read it through the host.
      const diff = (q.diffs ?? []).find((d) => d.path === file);
      assert.equal(diff?.oldText, 'mine, unsaved\n', JSON.stringify(q.diffs));
      await waitFor(api, 'the question on screen', () => api.__ui.questions.onScreen !== null);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.equal((await settled).end_reason, 'done');
    } finally {
      off();
    }
    assert.equal(events.find((e) => e.type === 'permission_end')?.data?.optionKind, 'allow_once', 'Enter allowed once');
    assert.equal(editor.document.getText(), 'written by gemini\n');
    // The extension host hears of the save's clean state in a message of its own, which may follow
    // the write's answer under load: wait for it (a write left unsaved never gets it and fails here).
    await waitFor(api, () => `saved after the edit (document dirty: ${editor.document.isDirty}, tab dirty: ${tabDirty(editor.document.uri)})`, () => !editor.document.isDirty);
    assert.equal(fs.readFileSync(file, 'utf8'), 'written by gemini\n');
    const wrote = events.find((e) => e.type === 'client_file' && e.data?.op === 'write');
    assert.deepEqual(wrote?.data, { op: 'write', path: file, through: 'editor', bytes: 18 }, 'no replacedUnsaved: it read what it replaced');
    // One undo step gives the person's unsaved text back.
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    await waitFor(api, 'the undo to bring back the unsaved text', () => editor.document.getText() === 'mine, unsaved\n');
  });
});
