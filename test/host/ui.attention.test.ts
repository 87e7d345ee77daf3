// Attention in the real workbench: each worker's state on its row, "done" until the person looks
// (its log opened in a tab of its own), needs-input from a standing τ-style extension request
// (the demo worker's `ask:`), the view's badge, the notification policy and the tab's title.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/ui/extension';
import { extensionApi, startDemo, stopAll, waitFor } from './ui.support';

const attentionOf = (api: ExtensionApi, id: string) => api.__ui.attention.attention.get(id)?.attention;
const notifiedFor = (api: ExtensionApi, id: string) => api.__ui.attention.attention.notified.filter((n) => n.workerId === id);
const rowIcon = (api: ExtensionApi, id: string) => {
  const item = api.__ui.tree.getTreeItem({ kind: 'worker', workerId: id });
  return (item.iconPath as vscode.ThemeIcon).id;
};

describe('UI attention', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  before(async () => { api = await extensionApi(); });
  afterEach(async () => {
    await stopAll();
    // Log tabs left open would be found by other files' tests.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('rpcWorkers').update('notifications', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a turn that ends unseen is done (icon, info notification); opening its log tab marks it seen and titles the tab', async () => {
    const a = await startDemo(api, 'Attn A');
    await startDemo(api, 'Attn B'); // selected last: A is not being looked at
    assert.equal(attentionOf(api, a), 'idle');
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: a, message: 'hello there' });
    await waitFor(api, 'A to be done', () => attentionOf(api, a) === 'done');
    assert.equal(rowIcon(api, a), 'pass-filled');
    const n = notifiedFor(api, a);
    assert.equal(n.length, 1, JSON.stringify(n));
    assert.equal(n[0].level, 'info');
    assert.equal(n[0].message, 'Attn A: its turn ended');
    await vscode.commands.executeCommand('rpcWorkers.openEventLogPanel', { workerId: a });
    await waitFor(api, 'A to be seen', () => attentionOf(api, a) === 'idle');
    assert.equal(rowIcon(api, a), 'circle-filled');
    const tab = api.__ui.attention.tabs.tabs().get(a);
    assert.ok(tab, 'no log tab for A');
    assert.equal(tab.title, 'Attn A · idle');
    // A second open shows the same tab: one per worker.
    await vscode.commands.executeCommand('rpcWorkers.openEventLogPanel', { workerId: a });
    assert.equal(api.__ui.eventLog.panelSessions.filter((s) => s.workerId === a && s.panel).length, 1);
  });

  it('two log tabs side by side: each renders its own worker', async () => {
    const a = await startDemo(api, 'Tab A');
    const b = await startDemo(api, 'Tab B');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const sa = api.__ui.eventLog.openPanel(a);
    await waitFor(api, 'tab A to render', () => sa.stats.rendered?.workerId === a);
    const sb = api.__ui.eventLog.openPanel(b);
    await waitFor(api, 'tab B to render', () => sb.stats.rendered?.workerId === b);
    assert.ok(sa.panel?.visible && sb.panel?.visible, 'both tabs are on screen');
    assert.notEqual(sa.panel?.viewColumn, sb.panel?.viewColumn);
    const before = sa.stats.posted;
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: a, message: 'still live?' });
    await waitFor(api, 'tab A to get the new turn', () => sa.stats.posted > before && sa.stats.rendered?.workerId === a && sa.stats.rendered.events > 0);
  });

  it('a standing extension request is needs-input: badge, warning, tab title', async () => {
    const a = await startDemo(api, 'Attn Ask');
    await startDemo(api, 'Attn Other');
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: a, message: 'ask: Ship it?' });
    await waitFor(api, 'A to need input', () => attentionOf(api, a) === 'needs-input');
    assert.equal(api.__ui.attention.attention.badge, 1);
    assert.equal(api.__ui.tree.view?.badge?.value, 1);
    assert.match(api.__ui.tree.view?.badge?.tooltip ?? '', /1 worker needs your input/);
    assert.equal(rowIcon(api, a), 'bell-dot');
    const warn = notifiedFor(api, a).filter((n) => n.level === 'warning');
    assert.equal(warn.length, 1, JSON.stringify(notifiedFor(api, a)));
    assert.match(warn[0].message, /Ship it\?/);
    await vscode.commands.executeCommand('rpcWorkers.openEventLogPanel', { workerId: a });
    await waitFor(api, 'the tab title', () => api.__ui.attention.tabs.tabs().get(a)?.title === 'Attn Ask · needs input');
    // Looking does not answer it: still needs input.
    assert.equal(attentionOf(api, a), 'needs-input');
  });

  it('rpcWorkers.notifications = needsInputAndFailures: a done turn is not notified, its state still shows', async () => {
    await vscode.workspace.getConfiguration('rpcWorkers').update('notifications', 'needsInputAndFailures', vscode.ConfigurationTarget.Global);
    await waitFor(api, 'the setting', () => api.__ui.settings.notifications === 'needsInputAndFailures');
    const a = await startDemo(api, 'Attn Quiet');
    await startDemo(api, 'Attn Quiet B');
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: a, message: 'quietly' });
    await waitFor(api, 'A to be done', () => attentionOf(api, a) === 'done');
    assert.deepEqual(notifiedFor(api, a), []);
    await vscode.commands.executeCommand('rpcWorkers.prompt', { workerId: a, message: 'ask: Now?' });
    await waitFor(api, 'A to need input', () => attentionOf(api, a) === 'needs-input');
    assert.equal(notifiedFor(api, a).length, 1);
  });
});
