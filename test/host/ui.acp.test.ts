// An ACP agent in a real extension host: a profile with `"dialect": "acp"` (the fake ACP agent,
// which asks before its shell commands and its edits as Claude, Copilot and Gemini do), its
// permission question put to the person as a QuickPick while the tree says it needs input, the
// answer reaching the agent, the change of an edit in the diff editor, and an abort that takes the
// open question away. The five real agents are driven by the core's own suite (acp.real.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/ui/extension';
import { workerTooltip } from '../../src/ui/views/sessionsTree';
import { EXTENSION_ID, extensionApi, nextEvent, state, stopAll, waitFor, workspaceFolder } from './ui.support';

type R = { status: string; workerId?: string; error?: string };
const PROFILE = 'Fake ACP agent';
/** Its "allow always" option listed first, as Gemini lists them. */
const ALWAYS_FIRST = 'Fake ACP agent (allow always first)';
const attentionOf = (api: ExtensionApi, id: string) => api.__ui.attention.attention.get(id)?.attention;

describe('UI with an ACP agent', function () {
  this.timeout(60_000);
  let api: ExtensionApi;

  before(async () => {
    api = await extensionApi();
    const fake = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'fixtures', 'fake-acp-agent.mjs');
    await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', [
      { name: PROFILE, dialect: 'acp', command: process.execPath, args: [fake], env: { ELECTRON_RUN_AS_NODE: '1' } },
      { name: ALWAYS_FIRST, dialect: 'acp', command: process.execPath, args: [fake], env: { ELECTRON_RUN_AS_NODE: '1', FAKE_ACP_ALWAYS_FIRST: '1' } },
    ], vscode.ConfigurationTarget.Global);
    await waitFor(api, 'the ACP profiles', () => api.__ui.settings.profiles.some((p) => p.name === ALWAYS_FIRST));
  });
  // Each test starts its own workers; each stops them, so none depends on what the last left running.
  afterEach(() => stopAll());
  after(async () => {
    await stopAll();
    await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', undefined, vscode.ConfigurationTarget.Global);
  });

  async function start(profile = PROFILE): Promise<string> {
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.startWorker', { profile });
    assert.equal(r.status, 'started', JSON.stringify(r));
    return r.workerId!;
  }

  it('starts from a profile, says it is an ACP agent, and its question is answered from a QuickPick while it needs input', async () => {
    const id = await start();
    assert.equal(state(api, id).dialect, 'acp');
    assert.match(workerTooltip(state(api, id)).value.replace(/\\/g, '').replace(/&nbsp;/g, ' '), /Dialect: acp 1\.2\.3/);
    const marker = path.join(workspaceFolder().uri.fsPath, `acp-marker-${Date.now()}`);
    const asked = nextEvent(api, id, 'permission_request');
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: `shell: echo hi > '${marker}'` });
    assert.equal(r.status, 'accepted');
    await asked;
    await waitFor(api, 'the worker to need input', () => attentionOf(api, id) === 'needs-input');
    assert.equal(fs.existsSync(marker), false, 'nothing ran before the answer');
    const answered = nextEvent(api, id, 'permission_end');
    const settled = nextEvent(api, id, 'agent_settled');
    // The first option is the agent's "Allow once".
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal((await answered).data?.optionKind, 'allow_once');
    await settled;
    assert.equal(fs.readFileSync(marker, 'utf8'), 'hi\n');
    fs.rmSync(marker, { force: true });
    assert.notEqual(attentionOf(api, id), 'needs-input');
  });

  it('Enter answers "allow once" even where the agent lists "allow always" first (Gemini), never grants it for good', async () => {
    const id = await start(ALWAYS_FIRST);
    const asked = nextEvent(api, id, 'permission_request');
    await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: 'shell: echo once' });
    assert.equal(((await asked).data?.options as Array<{ kind: string }>)[0].kind, 'allow_always', 'the agent lists allow always first');
    await waitFor(api, 'the question on screen', () => api.__ui.questions.onScreen !== null);
    const answered = nextEvent(api, id, 'permission_end');
    const settled = nextEvent(api, id, 'agent_settled');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal((await answered).data?.optionKind, 'allow_once');
    await settled;
    assert.doesNotMatch(workerTooltip(state(api, id)).value, /Allowed always/);
  });

  it('an edit\'s change opens in the diff editor beside the question; abort takes the question away', async () => {
    const id = await start();
    const asked = nextEvent(api, id, 'permission_request');
    await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: 'edit: src/app.ts' });
    const q = await asked;
    assert.equal(q.diffs?.[0]?.newText, 'new line\n');
    await waitFor(api, 'the diff editor with the proposed change', () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === 'rpc-workers-change')));
    const ended = nextEvent(api, id, 'permission_end');
    const a = await vscode.commands.executeCommand<R>('rpcWorkers.abort', { workerId: id });
    assert.equal(a.status, 'aborted', JSON.stringify(a));
    assert.equal((await ended).data?.outcome, 'cancelled');
    await waitFor(api, 'the worker not to need input', () => attentionOf(api, id) !== 'needs-input');
    assert.equal(state(api, id).lastEndReason, 'aborted');
  });

  it('allow always: the next same command is not asked, the tooltip lists the rule, Forget Always-Allowed Actions clears it', async () => {
    const id = await start();
    const asked = nextEvent(api, id, 'permission_request');
    await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: 'shell: echo always' });
    await asked;
    const answered = nextEvent(api, id, 'permission_end');
    const settled = nextEvent(api, id, 'agent_settled');
    // The second option is the agent's "Always allow".
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal((await answered).data?.optionKind, 'allow_always');
    await settled;
    const tip = () => workerTooltip(state(api, id)).value.replace(/\\/g, '').replace(/&nbsp;/g, ' ');
    assert.match(tip(), /Allowed always[\s\S]*execute: echo always/);
    const again = nextEvent(api, id, 'permission_end');
    await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: 'shell: echo always' });
    assert.equal((await again).data?.rule, 'execute: echo always', 'answered by the rule, not asked');
    const f = await vscode.commands.executeCommand<R & { forgotten?: number }>('rpcWorkers.forgetAllowed', { workerId: id, all: true });
    assert.equal(f.forgotten, 1, JSON.stringify(f));
    assert.doesNotMatch(tip(), /Allowed always/);
  });

  it('a question hidden by another quick input is put aside, not answered; Answer Open Questions… brings it back', async () => {
    const id = await start();
    const marker = path.join(workspaceFolder().uri.fsPath, `acp-aside-${Date.now()}`);
    const asked = nextEvent(api, id, 'permission_request');
    await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: `shell: echo later > '${marker}'` });
    await asked;
    await waitFor(api, 'the question on screen', () => api.__ui.questions.onScreen !== null);
    const answered = nextEvent(api, id, 'permission_end');
    // VS Code shows one quick input at a time: this one hides the question.
    const other = vscode.window.showQuickPick(['something else']);
    await waitFor(api, 'the question put aside', () => api.__ui.questions.asideCount === 1);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await other;
    assert.equal(attentionOf(api, id), 'needs-input', 'the worker still waits for the answer');
    assert.equal(fs.existsSync(marker), false);
    const settled = nextEvent(api, id, 'agent_settled');
    const back = await vscode.commands.executeCommand<{ count: number }>('rpcWorkers.answerQuestions');
    assert.equal(back.count, 1);
    await waitFor(api, 'the question on screen again', () => api.__ui.questions.onScreen !== null);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal((await answered).data?.optionKind, 'allow_once', 'answered by the person, not cancelled by the other pick');
    await settled;
    assert.equal(fs.readFileSync(marker, 'utf8'), 'later\n');
    fs.rmSync(marker, { force: true });
  });

  it('two workers asking at once: the questions come one after the other, each answered', async () => {
    const [a, b] = [await start(), await start()];
    const asked = [nextEvent(api, a, 'permission_request'), nextEvent(api, b, 'permission_request')];
    const ends = [nextEvent(api, a, 'permission_end'), nextEvent(api, b, 'permission_end')];
    await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: a, message: 'shell: echo a' });
    await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: b, message: 'shell: echo b' });
    await Promise.all(asked);
    for (let i = 0; i < 2; i++) {
      await waitFor(api, `question ${i + 1} on screen`, () => api.__ui.questions.onScreen !== null);
      const shown = api.__ui.questions.onScreen;
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await waitFor(api, `question ${i + 1} answered`, () => api.__ui.questions.onScreen !== shown || i === 1);
    }
    const [ea, eb] = await Promise.all(ends);
    assert.deepEqual([ea.data?.optionKind, eb.data?.optionKind], ['allow_once', 'allow_once']);
    assert.equal(api.__ui.questions.asideCount, 0);
  });

  it('Show in Terminal still shows the command of a worker that was stopped, from its kept log', async () => {
    const id = await start();
    const created = nextEvent(api, id, 'terminal');
    const settled = nextEvent(api, id, 'agent_settled');
    await vscode.commands.executeCommand<R>('rpcWorkers.prompt', { workerId: id, message: 'term: echo kept' });
    const terminalId = (await created).data?.terminalId;
    await settled;
    assert.equal((await vscode.commands.executeCommand<R>('rpcWorkers.stop', { workerId: id })).status, 'stopped');
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.showHostTerminal', { workerId: id, terminalId });
    assert.equal(r.status, 'opened', JSON.stringify(r));
  });

  it('Compact is refused with the reason for an agent without one', async () => {
    const id = await start();
    const c = await vscode.commands.executeCommand<R>('rpcWorkers.compact', { workerId: id });
    assert.equal(c.status, 'error');
    assert.match(c.error ?? '', /no compaction/);
  });
});
