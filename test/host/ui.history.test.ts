// Persisted history in the window (issue 14): a demo worker's session becomes a past session in
// the Sessions tree; its log opens read-only from the store; rename, archive, export, resume
// (the conversation continues, the log shows the earlier events, the resumed mark, then the new
// ones) and delete go through the commands, each with the status that really came of it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/ui/extension';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { EVENT_LOG_PANEL } from '../../src/ui/eventLog/eventLogView';
import { PAGE_EVENTS, VIEW_EVENTS } from '../../src/ui/eventLog/pastLog';
import { NOT_HELD } from '../../src/ui/eventLog/pastPages';
import { EXTENSION_ID, extensionApi, nextEvent, startDemo, state, stopAll, waitFor } from './ui.support';

type R = { status: string; sessionId?: string; workerId?: string; error?: string; events?: number; chars?: number };
const run = (id: string, arg?: unknown) => vscode.commands.executeCommand<R>(id, arg);

async function demoTurn(api: ExtensionApi, id: string, message: string): Promise<string> {
  const texts: string[] = [];
  const off = api.onEvent((w, e) => { if (w === id && e.type === 'message_update' && typeof (e as { delta?: unknown }).delta === 'string') texts.push((e as unknown as { delta: string }).delta); });
  const settled = nextEvent(api, id, 'agent_settled');
  assert.equal((await run('rpcWorkers.prompt', { workerId: id, message })).status, 'accepted');
  await settled;
  off();
  return texts.join('');
}

const pastRow = (api: ExtensionApi, sessionId: string) => api.__ui.tree.getTreeItem({ kind: 'past', sessionId });
/** The tooltip's text, as a person reads it (without the markdown's escapes). */
const pastTooltip = (api: ExtensionApi, sessionId: string) => (pastRow(api, sessionId).tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');

describe('UI history', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  before(async () => { api = await extensionApi(); });
  afterEach(stopAll);
  // The past log's panel and exported documents would stay the active editor for the next suite.
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  // Two ways a start fails: the program exits by itself, or it runs and its readiness fails (an
  // ACP agent asked for a model it does not offer), and the host ends it (SIGTERM).
  const failing = () => {
    const fake = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test', 'fixtures', 'fake-acp-agent.mjs');
    return [
      { name: 'Fails', dialect: 'tau', command: process.execPath, args: ['-e', 'console.error("no model"); process.exit(3)'], env: { ELECTRON_RUN_AS_NODE: '1' } },
      { name: 'Fails ready', dialect: 'acp', command: process.execPath, args: [fake], model: 'no-such-model', env: { ELECTRON_RUN_AS_NODE: '1' } },
    ];
  };
  for (const which of ['Fails', 'Fails ready']) it(`a worker that fails to start (${which === 'Fails' ? 'it exits' : 'its readiness fails and the host ends it'}) is never listed as "running in another window" on its way to past, and its row says it failed to start`, async () => {
    const ui = api.__ui;
    const config = vscode.workspace.getConfiguration('rpcWorkers');
    await config.update('profiles', failing(), vscode.ConfigurationTarget.Global);
    const seen: string[] = [];
    let sessionId: string | null = null;
    const record = () => { for (const s of ui.past.sessions()) seen.push(`${s.id}:${s.status}`); };
    const sub = ui.past.onDidChange(record);
    try {
      await waitFor(api, 'the profile setting to be read', () => ui.settings.profiles.some((p) => p.name === which));
      const off = api.onState((st) => { sessionId ??= ui.past.sessionOf(st.workerId); });
      const r = await run('rpcWorkers.startWorker', { profile: which });
      off();
      assert.equal(r.status, 'error');
      // What to do about it, not only what went wrong.
      if (which === 'Fails ready') assert.match(r.error ?? '', /"no-such-model" cannot be set: leave the profile's model unset/);
      sessionId ??= r.workerId ? ui.past.sessionOf(r.workerId) : null;
      assert.ok(sessionId, 'the failed worker has no history session');
      await waitFor(api, 'its session to be listed as past with its end', () => {
        void ui.past.load();
        return ui.past.sessions().find((s) => s.id === sessionId && s.status === 'ended');
      });
      record();
      assert.deepEqual(seen.filter((x) => x.startsWith(`${sessionId}:`) && x.endsWith(':live')), [], 'listed as running in another window on its way');
      const row = pastRow(api, sessionId!);
      assert.match(String(row.description), /failed to start/, String(row.description));
      assert.doesNotMatch(String(row.description), /SIGTERM/);
      assert.match((row.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' '), /Error: .+/);
    } finally {
      sub.dispose();
      await config.update('profiles', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a stopped session is listed as past, opens read-only, renames, archives, exports, resumes with its conversation, and deletes', async () => {
    const ui = api.__ui;
    const id = await startDemo(api, 'History demo');
    assert.match(await demoTurn(api, id, 'remember kumquat'), /no earlier prompt/);
    const sessionId = ui.past.sessionOf(id);
    assert.ok(sessionId, 'the worker has no history session: historyDir was not passed');
    assert.ok(ui.supervisor.history?.store, `the host has no history: ${ui.supervisor.historyError}`);
    await run('rpcWorkers.stop', { workerId: id });
    // The past group lists it once the worker is gone from the host's list.
    await waitFor(api, 'the stopped session among the past sessions', () => {
      if (api.list().some((s) => s.workerId === id)) return false;
      void ui.past.load();
      return ui.past.sessions().find((s) => s.id === sessionId && s.status === 'ended');
    });
    const group = ui.tree.getChildren().find((n) => n.kind === 'pastGroup');
    assert.ok(group, 'no Past sessions group in the tree');
    const node = ui.tree.getChildren(group).find((n) => n.kind === 'past' && n.sessionId === sessionId);
    assert.ok(node, 'the session is not under Past sessions');
    const item = ui.tree.getTreeItem(node);
    assert.equal(item.label, 'History demo');
    assert.match(String(item.description), /^(today|yesterday) \d\d:\d\d · stopped · 1 turn$/);
    assert.match(String(item.contextValue), /^rpcPastSession\.ended\.resumable\.tau$/);

    // Open Log: the persisted events, through the same page, composer off with a note.
    const opened = await run('rpcWorkers.history.openLog', { sessionId });
    assert.equal(opened.status, 'opened', JSON.stringify(opened));
    const logged = ui.eventLog.lookup(opened.workerId!);
    assert.ok(logged && logged.events.some((e) => e.type === 'prompt_sent') && logged.events.some((e) => e.type === 'worker_exit'), 'the read-only log lacks the persisted events');
    assert.match(logged.note ?? '', /read-only/);
    const panel = ui.eventLog.panelSessions.find((p) => p.workerId === opened.workerId);
    assert.ok(panel, 'no panel for the past session');
    await waitFor(api, 'the past log rendered', () => { const r = panel.stats.rendered; return !!r && r.workerId === opened.workerId && r.events >= logged.events.length; });

    // Rename and archive are kept in the store (files another window reads too).
    assert.equal((await run('rpcWorkers.history.rename', { sessionId, name: 'Kumquat talk' })).status, 'renamed');
    assert.equal(ui.past.summary(sessionId)?.name, 'Kumquat talk');
    assert.equal((await run('rpcWorkers.history.archive', { sessionId })).status, 'archived');
    assert.ok(!ui.past.sessions().some((s) => s.id === sessionId), 'an archived session is shown without the filter');
    await run('rpcWorkers.history.showArchived');
    assert.ok(ui.past.sessions().some((s) => s.id === sessionId), 'Show Archived does not show it');
    assert.equal((await run('rpcWorkers.history.unarchive', { sessionId })).status, 'unarchived');
    await run('rpcWorkers.history.hideArchived');

    // Export: Markdown of the persisted events, in an editor.
    const exported = await run('rpcWorkers.history.exportMarkdown', { sessionId });
    assert.equal(exported.status, 'exported');
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.languageId, 'markdown');
    assert.match(doc!.getText(), /^# Kumquat talk/);
    assert.match(doc!.getText(), /remember kumquat/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    // Resume: a new worker on the same conversation; its log has the old events, the mark, the new ones.
    const resumed = await run('rpcWorkers.history.resume', { sessionId });
    assert.equal(resumed.status, 'resumed', JSON.stringify(resumed));
    const again = resumed.workerId!;
    assert.equal(state(api, again).status, 'running');
    assert.match(await demoTurn(api, again, 'what did I say?'), /1 earlier prompt\b/);
    const log = ui.eventLog.lookup(again)!.events;
    const mark = log.findIndex((e) => e.type === 'session_resumed');
    const firstPrompt = log.findIndex((e) => e.type === 'prompt_sent');
    const lastPrompt = log.map((e) => e.type).lastIndexOf('prompt_sent');
    assert.ok(firstPrompt >= 0 && firstPrompt < mark && mark < lastPrompt, `order of old prompt, resumed mark, new prompt: ${firstPrompt}, ${mark}, ${lastPrompt}`);
    assert.equal(ui.past.resumeRecord(sessionId)?.resumedInto, ui.past.sessionOf(again));
    assert.ok(state(api, again).usage, 'no usage after the resumed turn');
    const twice = await run('rpcWorkers.history.resume', { sessionId });
    assert.equal(twice.status, 'live', `a second worker on one conversation: ${JSON.stringify(twice)}`);
    assert.equal(twice.workerId, again);
    const went = ui.past.sessionOf(again)!;
    await run('rpcWorkers.stop', { workerId: again });
    // Resumed again from the older session: the conversation went on in the newer one, so that
    // one goes on (its turns and log), not the older part of it.
    await waitFor(api, 'the resumed session among the past sessions', () => {
      void ui.past.load();
      return ui.past.sessions().find((s) => s.id === went && s.status === 'ended');
    });
    const third = await run('rpcWorkers.history.resume', { sessionId });
    assert.equal(third.status, 'resumed', JSON.stringify(third));
    assert.equal(third.sessionId, went, 'the older part of the conversation was resumed, not where it went on');
    assert.match(await demoTurn(api, third.workerId!, 'and now?'), /2 earlier prompts\b/);
    await run('rpcWorkers.stop', { workerId: third.workerId });

    // Delete: asks (here confirmed by the argument), removes the files, and closes its read-only tab.
    const reopened = await run('rpcWorkers.history.openLog', { sessionId });
    assert.ok(ui.eventLog.panelSessions.some((p) => p.workerId === reopened.workerId), 'no tab of the session to close');
    const dir = ui.supervisor.history!.store.dir;
    assert.ok(fs.readdirSync(dir).some((f) => f.startsWith(sessionId)));
    assert.equal((await run('rpcWorkers.history.delete', { sessionId, confirm: true })).status, 'deleted');
    assert.ok(!fs.readdirSync(dir).some((f) => f.startsWith(sessionId)), 'files of the deleted session remain');
    await waitFor(api, 'the deleted session\'s tab to close', () => !ui.eventLog.panelSessions.some((p) => p.workerId === reopened.workerId));
    assert.equal(ui.past.summary(sessionId), undefined);
  });

  it('a session the window\'s end interrupted reads as such and resumes by itself once (resumeInterrupted)', async () => {
    const ui = api.__ui;
    const id = await startDemo(api, 'Interrupted demo');
    await demoTurn(api, id, 'remember fig');
    const sessionId = ui.past.sessionOf(id)!;
    // What shutdown() does before the host stops its workers on a reload.
    ui.past.markRunningInterrupted();
    await run('rpcWorkers.stop', { workerId: id });
    await waitFor(api, 'the session listed as interrupted', () => {
      void ui.past.load();
      return ui.past.sessions().find((s) => s.id === sessionId && s.status === 'interrupted');
    });
    assert.match(pastRow(api, sessionId).description as string, / · interrupted while idle · 1 turn$/);
    assert.match(pastTooltip(api, sessionId), /Ended: interrupted by reload while idle\n- Started: [^]*- Turns: 1 \(last: done\)/);
    // A window just reloaded has no worker selected: the sidebar log showed "No worker selected"
    // beside the worker that resumed by itself.
    ui.selection.set(undefined);
    const first = await ui.historyCommands.resumeInterrupted();
    const mine = first.find((r) => r.sessionId === sessionId);
    assert.equal(mine?.status, 'resumed', JSON.stringify(first));
    assert.equal(ui.selection.current, mine.workerId, 'the resumed worker is not the selected one, so the sidebar log shows none');
    assert.match(await demoTurn(api, mine.workerId!, 'and now?'), /1 earlier prompt\b/);
    const again = await ui.historyCommands.resumeInterrupted();
    assert.ok(!again.some((r) => r.sessionId === sessionId), 'a session already resumed was resumed again');
  });

  // Issue 28, minor 9: the row, the tooltip, the log and the resumed worker agree on a turn the
  // reload cut short.
  it('a session interrupted mid-turn says so on its row and tooltip, as its log does, and resumes holding that turn\'s prompt', async () => {
    const ui = api.__ui;
    const id = await startDemo(api, 'Interrupted mid-turn');
    await demoTurn(api, id, 'remember fig');
    const sessionId = ui.past.sessionOf(id)!;
    const running = nextEvent(api, id, 'tool_execution_start');
    assert.equal((await run('rpcWorkers.prompt', { workerId: id, message: 'run: sleep 30' })).status, 'accepted');
    await running;
    ui.past.markRunningInterrupted();
    await run('rpcWorkers.stop', { workerId: id });
    const past = await waitFor(api, 'the session listed as interrupted', () => {
      void ui.past.load();
      return ui.past.sessions().find((s) => s.id === sessionId && s.status === 'interrupted');
    });
    assert.equal(past.lastTurnEndReason, 'stopped');
    assert.match(pastRow(api, sessionId).description as string, / · interrupted mid-turn · 2 turns$/);
    assert.match(pastTooltip(api, sessionId), /Ended: interrupted mid-turn by reload\n[^]*- Turns: 2 \(last: the worker stopped: the reload cut it short\)/);
    const log = await ui.past.eventsWithEarlier(ui.supervisor.history!.store, sessionId);
    assert.ok(log.events.some((e) => e.turn?.ends && e.end_reason === 'stopped'), 'the log has no turn ended by the stop');
    const resumed = (await ui.historyCommands.resumeInterrupted()).find((r) => r.sessionId === sessionId);
    assert.equal(resumed?.status, 'resumed', JSON.stringify(resumed));
    assert.match(await demoTurn(api, resumed.workerId!, 'what did I say?'), /2 earlier prompts/);
  });

  // Issue 28, polish: an editor-tab log came back empty-handed after a reload. VS Code gives the
  // serializer a new panel and the page's saved state; here the panel is made as VS Code would.
  it('a log tab brought back after a reload shows its session read-only, or the worker that resumed it; a state naming nothing closes it', async () => {
    const ui = api.__ui;
    const restoreFrom = (shows: unknown) => ui.eventLog.restore(vscode.window.createWebviewPanel(EVENT_LOG_PANEL, 'Event Log', vscode.ViewColumn.One, {}), { hidden: [], search: '', shows });
    const id = await startDemo(api, 'Tab comes back');
    await demoTurn(api, id, 'remember quince');
    const sessionId = ui.past.sessionOf(id)!;
    await run('rpcWorkers.stop', { workerId: id });
    await waitFor(api, 'the session listed as past', () => {
      void ui.past.load();
      return ui.past.sessions().find((s) => s.id === sessionId && s.status === 'ended');
    });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const past = await restoreFrom(id);
    assert.equal(past?.workerId, `history:${sessionId}`);
    await waitFor(api, 'the tab titled for its session', () => past.panel?.title === 'Tab comes back · past session');
    await waitFor(api, 'the restored tab to draw the session', () => past.stats.rendered?.workerId === past.workerId && (past.stats.rendered?.events ?? 0) > 0);
    // The same tab again (two tabs were open on it): one is enough.
    assert.equal(await restoreFrom(`history:${sessionId}`), undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const resumed = await run('rpcWorkers.history.resume', { sessionId });
    assert.equal(resumed.status, 'resumed', JSON.stringify(resumed));
    const live = await restoreFrom(id);
    assert.equal(live?.workerId, resumed.workerId, 'the tab does not show the worker that resumed its session');
    await waitFor(api, 'the restored tab to draw the live worker', () => live!.stats.rendered?.workerId === resumed.workerId);
    for (const nothing of [42, null, 'w999-nosuch']) assert.equal(await restoreFrom(nothing), undefined, `restored from ${JSON.stringify(nothing)}`);
    assert.equal(ui.eventLog.panelSessions.filter((s) => s.panel).length, 1, 'a tab naming nothing was left open');
  });

  // A tab opened just before Reload Window came back with no state of its page (VS Code 1.100) and
  // was closed; the host's record in the workspace's state says what it showed (openTabs.ts).
  it('an open log tab is recorded in the workspace state, and leaves the record when it is closed', async () => {
    const ui = api.__ui;
    const recorded = () => ui.context.workspaceState.get<string[]>('rpcWorkers.eventLog.openTabs') ?? [];
    const id = await startDemo(api, 'Tab recorded');
    await vscode.commands.executeCommand('rpcWorkers.openEventLogPanel', { workerId: id });
    await waitFor(api, 'the tab in the record', () => recorded().includes(id));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(api, 'the closed tab out of the record', () => !recorded().includes(id));
  });

  // Issue 24: a long session is read a page at a time; the page's Load older and Show newest move the window.
  it('a long past session opens on its newest page; the page asking for older and newest events moves its window', async () => {
    const ui = api.__ui;
    // The store, the core loaded if no test did yet.
    const store = ui.past.store()!;
    const made = store.open({ workerId: 'w-long', name: 'Long session', dialect: 'tau', cwd: '/', command: 'node' });
    assert.ok(made.ok, JSON.stringify(made));
    const N = 6000;
    for (let i = 0; i < N; i++) store.append(made.sessionId, { type: 'message_update', timestamp: 1_700_000_000_000 + i, delta: `d${i}`, data: { seq: i } } as AgentEvent);
    await store.end(made.sessionId, { reason: 'stopped' });
    await ui.past.load();
    const opened = await run('rpcWorkers.history.openLog', { sessionId: made.sessionId });
    assert.equal(opened.status, 'opened', JSON.stringify(opened));
    assert.equal(opened.events, PAGE_EVENTS, 'Open Log read more than the newest page');
    const key = opened.workerId!;
    const panel = ui.eventLog.panelSessions.find((p) => p.workerId === key)!;
    const drawn = (n: number, what: string) => waitFor(api, what, () => panel.stats.rendered?.workerId === key && panel.stats.rendered.events === n);
    await drawn(PAGE_EVENTS, 'the newest page drawn');
    assert.deepEqual(ui.eventLog.lookup(key)!.past, { before: N - PAGE_EVENTS, after: 0, dropped: 0 });
    // What the page says when the person clicks Load older, then Show newest (validated as any message of the page).
    // Another page on the same log (a second tab, switched to it) is shown the window from its end, not the top.
    const second = await startDemo(api, 'Second page');
    assert.equal((await run('rpcWorkers.openEventLogPanel', { workerId: second })).status, 'shown');
    const other = ui.eventLog.panelSessions.find((p) => p.workerId === second)!;
    other.setWorker(key);
    const tops = new Map<unknown, boolean>();
    for (const s of [panel, other]) {
      const reload = s.reload.bind(s);
      s.reload = (top = false) => { tops.set(s, top); reload(top); };
    }
    panel.channel.receive({ type: 'pastPage', workerId: key, to: 'older' });
    await drawn(VIEW_EVENTS, 'the window moved a page back');
    assert.deepEqual([tops.get(panel), tops.get(other)], [true, false], 'only the page that asked goes to the top');
    assert.deepEqual(ui.eventLog.lookup(key)!.past, { before: N - 2 * PAGE_EVENTS, after: 2 * PAGE_EVENTS - VIEW_EVENTS, dropped: 0 });
    panel.channel.receive({ type: 'pastPage', workerId: key, to: 'older' });
    await waitFor(api, 'the first event reached', () => ui.eventLog.lookup(key)!.past?.before === 0);
    assert.equal(ui.eventLog.lookup(key)!.events[0].data!.seq, 0);
    panel.channel.receive({ type: 'pastPage', workerId: key, to: 'newest' });
    await drawn(PAGE_EVENTS, 'the newest page drawn again');
    assert.equal(ui.eventLog.lookup(key)!.past?.after, 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal((await run('rpcWorkers.history.delete', { sessionId: made.sessionId, confirm: true })).status, 'deleted');
  });

  it('a page asking for another page of a log the window no longer holds is told so, not left "Loading…" for ever', async () => {
    const ui = api.__ui;
    const id = await startDemo(api, 'Asks a log not held');
    assert.equal((await run('rpcWorkers.openEventLogPanel', { workerId: id })).status, 'shown');
    const panel = ui.eventLog.panelSessions.find((p) => p.workerId === id)!;
    await waitFor(api, 'the page drawn', () => panel.stats.rendered?.workerId === id);
    const posted: Array<{ type: string }> = [];
    const post = panel.channel.post.bind(panel.channel);
    panel.channel.post = (m) => { posted.push(m); post(m); };
    // A live worker's log is no past log: the window holds no page of it to move (as for a past
    // log the archive let go, or a window reloaded since the page was given it).
    // The ask's number comes back with its failure: the page says only the answer to the ask it waits for.
    panel.channel.receive({ type: 'pastPage', workerId: id, to: 'older', req: 3 });
    await waitFor(api, 'the page told', () => posted.some((m) => m.type === 'pastPageFailed'));
    assert.deepEqual(posted.find((m) => m.type === 'pastPageFailed'), { type: 'pastPageFailed', workerId: id, to: 'older', message: NOT_HELD, held: false, seq: 3 });
    assert.ok(!posted.some((m) => m.type === 'reset'), 'no reload of a log that did not move');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a session verb a worker lacks says so, and changes nothing', async () => {
    const id = await startDemo(api);
    const r = await run('rpcWorkers.fork', { workerId: id });
    assert.equal(r.status, 'unsupported', JSON.stringify(r));
  });
});
