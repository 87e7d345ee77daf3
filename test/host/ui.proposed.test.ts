// A question whose call changes several files (Codex's patch across files) shows each file's
// proposed change in the diff editor beside it, and every one of those tabs goes when the
// question is answered or moot. In a real workbench, where a preview editor gives its place to
// the next one opened in its group.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ProposedChanges } from '../../src/ui/host/permissions';

const proposedTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label.endsWith('(proposed)'));

/** Resolves once `ok()` holds, asked again at each change of the tabs (no timer). */
function untilTabs(ok: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (ok()) return resolve();
    const d = vscode.window.tabGroups.onDidChangeTabs(() => { if (ok()) { d.dispose(); resolve(); } });
  });
}

describe('UI: the proposed changes of a question', function () {
  this.timeout(60_000);
  let changes: ProposedChanges;
  before(() => { changes = new ProposedChanges('rpcWorkers.test.openProposedChange'); });
  after(async () => {
    changes.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows each file of a change to several files in a tab of its own, and closes them all once the question is done', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const question = new AbortController();
    // As showQuestion shows a question's changes, one after another.
    await changes.show({ path: '/w/a.txt', oldText: 'a\n', newText: 'A\n' }, 'W: Edit a.txt, b.txt (proposed)', question.signal);
    await changes.show({ path: '/w/b.txt', oldText: 'b\n', newText: 'B\n' }, 'W: Edit a.txt, b.txt (proposed)', question.signal);
    assert.equal(proposedTabs().length, 2, `the person sees one file's change of two: ${proposedTabs().map((t) => t.label).join(', ')}`);
    question.abort();
    await untilTabs(() => proposedTabs().length === 0);
  });

  it('closes the tab of a question that was done before its diff had opened (moot as it was asked: an Abort as the agent asked)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const question = new AbortController();
    const shown = changes.show({ path: '/w/c.txt', oldText: 'c\n', newText: 'C\n' }, 'W: Edit c.txt (proposed)', question.signal);
    question.abort();
    await shown;
    await untilTabs(() => proposedTabs().length === 0);
  });
});
