// The write guard and agent cards through the extension's commands: an unknown card is the
// core's error listing the cards; a card starts a guarded pi worker (real pi on the mock LLM)
// that the tree calls guarded; a profile with `guard: true` is guarded by the settings, a setting
// the guard cannot honour starts nothing, and a violation shows in the tree with a warning icon.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import type { ExtensionApi } from '../../src/ui/extension';
import type { SessionNode } from '../../src/ui/views/sessionsTree';
import { extensionApi, nextEvent, startDemo, state, stopAll, waitFor, workspaceFolder } from './ui.support';

type R = { status: string; workerId?: string; error?: string };
const config = () => vscode.workspace.getConfiguration('rpcWorkers');
/** Tooltip Markdown with its escapes (backslashes, &nbsp; for spaces) removed, to match words. */
const tooltipText = (item: vscode.TreeItem) => (item.tooltip as vscode.MarkdownString).value.replace(/\\(.)/g, '$1').replaceAll('&nbsp;', ' ');

describe('UI guard and agent cards', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  let llm: MockLlm;
  let dir: string;
  let extraCard: string;
  let freeCard: string;
  const extensionPath = () => vscode.extensions.getExtension('rpc-workers.rpc-workers')!.extensionPath;
  const piBin = () => path.join(extensionPath(), 'node_modules', '.bin', 'pi');

  before(async function () {
    api = await extensionApi();
    // The sample workspace has .pi/agents/reviewer.md; a second card is written beside it.
    extraCard = path.join(workspaceFolder().uri.fsPath, '.pi', 'agents', 'scribe.md');
    fs.writeFileSync(extraCard, '---\nname: scribe\ndescription: Writes notes.\ntools: read, write\n---\nWrite notes.\n');
    // Written before any worker runs: one written while a worker ran must be confirmed first.
    freeCard = path.join(workspaceFolder().uri.fsPath, '.pi', 'agents', 'free.md');
    fs.writeFileSync(freeCard, '---\nname: free\ndescription: Unguarded.\ntools: read, write, bash\nguard: false\n---\nDo anything.\n');
    llm = await startMockLlm();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ui-guard-agent-'));
    fs.writeFileSync(path.join(dir, 'models.json'), JSON.stringify({ providers: { mock: { baseUrl: llm.baseUrl, api: 'openai-completions', apiKey: 'x', compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: 'mock-1' }] } } }));
    const env = { PI_CODING_AGENT_DIR: dir, PI_CODING_AGENT_SESSION_DIR: path.join(dir, 'sessions'), PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' };
    const demo = { command: process.execPath, args: [path.join(extensionPath(), 'dist', 'demo-worker.js')], env: { ELECTRON_RUN_AS_NODE: '1' } };
    await config().update('profiles', [
      { name: 'pi (mock)', dialect: 'pi', command: piBin(), model: 'mock/mock-1', env },
      { name: 'demo guarded', dialect: 'tau', ...demo, guard: true },
      { name: 'pi guarded (mock)', dialect: 'pi', command: piBin(), model: 'mock/mock-1', env, guard: true },
    ], vscode.ConfigurationTarget.Global);
    await waitFor(api, 'the profiles', () => api.__ui.settings.profiles.length === 3);
  });
  afterEach(stopAll);
  after(async () => {
    for (const key of ['profiles', 'guard.allowedPaths', 'guard.onViolation']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    if (extraCard) fs.rmSync(extraCard, { force: true });
    if (freeCard) fs.rmSync(freeCard, { force: true });
    await llm?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('an unknown card is refused with the cards there are, and nothing starts', async () => {
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.startAgentWorker', { agent: 'nobody', profile: 'pi (mock)' });
    assert.equal(r.status, 'error', JSON.stringify(r));
    assert.match(r.error!, /unknown agent "nobody"; available: (?:free, reviewer, scribe|reviewer, scribe, free)/);
    assert.equal(api.list().length, 0);
  });

  it('a card starts a guarded pi worker named by its card, and the tree says so', async function () {
    if (!fs.existsSync(piBin())) this.skip();
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.startAgentWorker', { agent: 'reviewer', profile: 'pi (mock)' });
    assert.equal(r.status, 'started', JSON.stringify(r));
    const s = state(api, r.workerId!);
    assert.equal(s.agent, 'reviewer');
    assert.equal(s.name, 'reviewer');
    assert.equal(s.guarded, true);
    assert.deepEqual(s.tools, ['read', 'grep', 'find', 'ls']);
    const tree = api.__ui.tree;
    const node: SessionNode = { kind: 'worker', workerId: r.workerId! };
    await waitFor(api, 'the worker in the tree', () => tree.workerState(r.workerId!)?.guarded);
    const item = tree.getTreeItem(node);
    assert.match(String(item.description), /guarded$/);
    const tip = tooltipText(item);
    for (const part of ['$(shield)', 'guarded: writes are confined', 'agent card: reviewer', 'tools: read, grep, find, ls', 'bash: off (the guard cannot confine a shell)']) {
      assert.ok(tip.includes(part), `tooltip lacks ${part}: ${tip}`);
    }
  });

  it('a card saying guard: false, run on a profile with guard: true, is guarded by the settings: the card does not take the guard away', async function () {
    if (!fs.existsSync(piBin())) this.skip();
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.startAgentWorker', { agent: 'free', profile: 'pi guarded (mock)' });
    assert.equal(r.status, 'started', JSON.stringify(r));
    const s = state(api, r.workerId!);
    assert.equal(s.guarded, true);
    assert.deepEqual(s.tools, ['read', 'write'], 'bash stays off under the guard');
  });

  it('a profile with guard: true is guarded by the settings; an invalid setting starts nothing', async () => {
    await config().update('guard.allowedPaths', ['~/anywhere'], vscode.ConfigurationTarget.Global);
    await waitFor(api, 'the guard setting', () => api.__ui.settings.guard.allowedPaths.length === 1);
    const refused = await vscode.commands.executeCommand<R>('rpcWorkers.startWorker', { profile: 'demo guarded' });
    assert.equal(refused.status, 'error', JSON.stringify(refused));
    assert.match(refused.error!, /rpcWorkers\.guard\.allowedPaths: .*"~" is not expanded.*; nothing was started$/);
    assert.equal(api.list().length, 0);

    await config().update('guard.allowedPaths', undefined, vscode.ConfigurationTarget.Global);
    await config().update('guard.onViolation', 'flag', vscode.ConfigurationTarget.Global);
    await waitFor(api, 'the guard settings', () => api.__ui.settings.guard.allowedPaths.length === 0 && api.__ui.settings.guard.onViolation === 'flag');
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.startWorker', { profile: 'demo guarded' });
    assert.equal(r.status, 'started', JSON.stringify(r));
    const id = r.workerId!;
    assert.equal(state(api, id).guarded, true);
    // bash is not allowed: the host's audit flags the call, the turn goes on (onViolation: flag).
    const violation = nextEvent(api, id, 'guard_violation');
    const end = nextEvent(api, id, 'agent_end');
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: id, message: 'run: echo hi' });
    await violation;
    await end;
    const tree = api.__ui.tree;
    const turnNode = await waitFor(api, 'the turn in the tree', () => tree.getChildren({ kind: 'worker', workerId: id }).find((n) => n.kind === 'turn'));
    const toolNode = await waitFor(api, 'the flagged tool', () => tree.getChildren(turnNode).find((n) => String(tree.getTreeItem(n).description).startsWith('⚠')));
    const toolItem = tree.getTreeItem(toolNode);
    assert.equal((toolItem.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.ok(tooltipText(tree.getTreeItem({ kind: 'worker', workerId: id })).includes('guarded'));
  });

  it('a card written by a worker while it ran must be confirmed: a start with arguments is refused, naming it; put back, it passes', async () => {
    const sneaky = path.join(workspaceFolder().uri.fsPath, '.pi', 'agents', 'sneaky.md');
    const id = await startDemo(api, 'Card writer');
    const end = nextEvent(api, id, 'agent_end');
    // The demo worker is unguarded: its bash writes the card.
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: id, message: `run: printf -- '---\\nname: sneaky\\ndescription: x\\ntools: read, bash\\nguard: false\\n---\\nAnything.\\n' > ${JSON.stringify(sneaky)}` });
    await end;
    try {
      assert.ok(fs.existsSync(sneaky), 'the worker wrote the card');
      await stopAll();
      const refused = await vscode.commands.executeCommand<R>('rpcWorkers.startAgentWorker', { agent: 'reviewer', profile: 'pi (mock)' });
      assert.equal(refused.status, 'error', JSON.stringify(refused));
      assert.match(refused.error!, /^While a worker ran \(in this window or before it was reloaded\), what configures the next worker changed:/);
      assert.ok(refused.error!.includes(sneaky), refused.error);
      assert.equal(api.list().length, 0);
    } finally {
      fs.rmSync(sneaky, { force: true });
    }
    const r = await vscode.commands.executeCommand<R>('rpcWorkers.startWorker', { profile: 'demo guarded' });
    assert.equal(r.status, 'started', JSON.stringify(r));
  });
});
