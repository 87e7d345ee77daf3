// The worktree commands in the Sessions view's menus (package.json), against the contextValues
// the rows carry (worktreeTree.ts): what acts on the whole worktree is on the worktree's row,
// gated by busy and live as that row says, and not on each changed file's row, where "Merge
// into My Branch" and "Discard Worktree…" would read as acting on that file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WORKTREE_COMMANDS } from '../../src/ui/worktrees/worktreeIds';

const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { menus: Record<string, Array<{ command: string; when?: string; group?: string }>> };
};

/** Whether a `when` clause's viewItem test holds for `value` (the rest of the clause is taken as true). */
function viewItemHolds(when: string, value: string): boolean {
  const re = /viewItem =~ \/((?:\\\/|[^/])+)\//.exec(when);
  if (re) return new RegExp(re[1]).test(value);
  const eq = /viewItem == ([\w.]+)/.exec(when);
  return eq ? eq[1] === value : true;
}

const ROWS = ['rpcWorkerWorktree', 'rpcWorkerWorktree.live', 'rpcWorkerWorktree.busy.live', 'rpcWorkerWorktreeFile'];

describe('worktree menus in the Sessions view', () => {
  const items = pkg.contributes.menus['view/item/context'];
  const offered = (command: string) => ROWS.filter((row) => items.some((m) => m.command === command && viewItemHolds(m.when ?? '', row)));

  it('whole-worktree commands on the worktree row only, Merge not while busy, Discard while live too (it explains and offers to stop the worker); Open Changes on file rows', () => {
    assert.deepEqual(offered(WORKTREE_COMMANDS.merge), ['rpcWorkerWorktree', 'rpcWorkerWorktree.live']);
    assert.deepEqual(offered(WORKTREE_COMMANDS.discard), ['rpcWorkerWorktree', 'rpcWorkerWorktree.live', 'rpcWorkerWorktree.busy.live']);
    assert.ok(!items.some((m) => m.command === WORKTREE_COMMANDS.discard && viewItemHolds(m.when ?? '', 'rpcWorkerWorktree.elsewhere')), 'not while another window\'s worker works in it: this window cannot stop it');
    assert.deepEqual(offered(WORKTREE_COMMANDS.openWindow), ['rpcWorkerWorktree', 'rpcWorkerWorktree.live', 'rpcWorkerWorktree.busy.live']);
    assert.deepEqual(offered(WORKTREE_COMMANDS.refresh), ['rpcWorkerWorktree', 'rpcWorkerWorktree.live', 'rpcWorkerWorktree.busy.live']);
    assert.deepEqual(offered(WORKTREE_COMMANDS.openDiff), ['rpcWorkerWorktreeFile']);
  });
});
