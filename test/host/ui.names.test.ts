// One name per worker everywhere (issue 28, majors 1 and 2; minors 6 and 7), in the order a
// person tripped over it: stop a worker, start two more of the same name, open the stopped one's
// past session. Each worker has one name, the host's, and the tree, the log's dropdown, the tab,
// the status line, the export and the past sessions all say it; a past session says when it ran;
// a log tab switched to another worker, or whose session was resumed, is titled for what it shows.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/ui/extension';
import type { SessionNode } from '../../src/ui/views/sessionsTree';
import { extensionApi, startDemo, state, stopAll, waitFor } from './ui.support';

type R = { status: string; sessionId?: string; workerId?: string; error?: string };
const run = (id: string, arg?: unknown) => vscode.commands.executeCommand<R>(id, arg);

describe('UI worker names', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  before(async () => { api = await extensionApi(); });
  afterEach(stopAll);
  after(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('stop one, start two, open the stopped one\'s past session: one name each, in every view', async () => {
    const ui = api.__ui;
    // A name of its own, so that earlier suites' workers in this window's history do not count.
    const name = `Namesake ${randomUUID().slice(0, 6)}`;
    const a = await startDemo(api, name);
    const sessionA = ui.past.sessionOf(a)!;
    await run('rpcWorkers.stop', { workerId: a });
    const b = await startDemo(api, name);
    const c = await startDemo(api, name);
    assert.deepEqual([a, b, c].map((id) => ui.eventLog.stateOf(id)?.name), [name, `${name} #2`, `${name} #3`], 'the host gave the three workers these names');

    // The tree: the same names, which do not change when another worker comes or goes.
    const label = (id: string) => ui.tree.getTreeItem({ kind: 'worker', workerId: id } as SessionNode).label;
    await waitFor(api, 'both workers in the tree', () => [b, c].every((id) => ui.tree.getChildren().some((n) => 'workerId' in n && n.workerId === id)));
    assert.deepEqual([label(b), label(c)], [`${name} #2`, `${name} #3`]);

    // Past sessions: the stopped one under its own name, with when it ran.
    const pastItem = await waitFor(api, 'the stopped session under Past sessions', () => {
      void ui.past.load();
      const group = ui.tree.getChildren().find((n) => n.kind === 'pastGroup');
      const node = group && ui.tree.getChildren(group).find((n) => n.kind === 'past' && n.sessionId === sessionA);
      return node && ui.past.summary(sessionA)?.status === 'ended' ? ui.tree.getTreeItem(node) : undefined;
    });
    assert.equal(pastItem.label, name);
    assert.match(String(pastItem.description), /^(today|yesterday) \d\d:\d\d · stopped · 0 turns$/);
    // The listing above may predate the second worker's record: wait until it lists that one too.
    const summaryB = await waitFor(api, 'the second worker in the history listing', () => {
      void ui.past.load();
      return ui.past.summary(ui.past.sessionOf(b)!);
    });
    assert.equal(summaryB.name, `${name} #2`, 'the history keeps the name the views show');

    // Its read-only log: listed once, under its name; the live ones under theirs.
    const opened = await run('rpcWorkers.history.openLog', { sessionId: sessionA });
    assert.equal(opened.status, 'opened', JSON.stringify(opened));
    const key = opened.workerId!;
    const mine = ui.eventLog.workerList(key).filter((w) => w.name.startsWith(name));
    assert.deepEqual(mine.map((w) => [w.name, w.status]).sort(), [[name, 'history'], [`${name} #2`, 'running'], [`${name} #3`, 'running']].sort());
    const pastTab = ui.eventLog.panelSessions.find((p) => p.workerId === key)!;
    await waitFor(api, 'the past tab titled', () => pastTab.panel?.title === `${name} · past session`);

    // An editor tab, the status line under the composer, an export: the same name.
    assert.equal((await run('rpcWorkers.openEventLogPanel', { workerId: c })).status, 'shown');
    const tabC = ui.eventLog.panelSessions.find((p) => p.workerId === c)!;
    await waitFor(api, 'the tab of the third worker titled', () => tabC.panel?.title.startsWith(`${name} #3`));
    const said: string[] = [];
    const result = ui.eventLog.result.bind(ui.eventLog);
    ui.eventLog.result = (workerId, r, reply) => { if (workerId === b) said.push(r.message); result(workerId, r, reply); };
    try {
      await run('rpcWorkers.compact', { workerId: b });
    } finally {
      ui.eventLog.result = result;
    }
    // With one prompt in its history the demo has nothing to fold, and says so as the log does (minor 5).
    assert.deepEqual(said, [`Nothing to compact in ${name} #2`]);
    assert.equal((await run('rpcWorkers.exportMarkdown', { workerId: b })).status, 'exported');
    assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', new RegExp(`^# ${name} #2\\n`));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');

    // The tab's dropdown switches it to another worker: the tab says whose log it now shows,
    // also when another tab shows that worker already.
    assert.equal((await run('rpcWorkers.openEventLogPanel', { workerId: b })).status, 'shown');
    tabC.setWorker(b);
    await waitFor(api, 'the switched tab retitled', () => tabC.panel?.title.startsWith(`${name} #2`));

    // Resumed, the past session's read-only tab goes on as the resumed worker's log, under its name.
    const resumed = await run('rpcWorkers.history.resume', { sessionId: sessionA });
    assert.equal(resumed.status, 'resumed', JSON.stringify(resumed));
    assert.equal(state(api, resumed.workerId!).name, name, 'a resumed session keeps its name');
    await waitFor(api, 'the read-only tab to follow the resumed worker', () => pastTab.workerId === resumed.workerId && pastTab.panel?.title.startsWith(name) && !pastTab.panel.title.includes('past session'));
    assert.equal(ui.eventLog.lookup(resumed.workerId!)?.note, undefined, 'the tab still says it is read-only');
  });
});
