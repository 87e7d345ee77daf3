// Discard of a worktree whose branch the person checked out in another worktree (git checkout
// --ignore-other-worktrees): git removes the worktree, then refuses to delete the branch. The row
// stayed, and each Discard after failed with "… is not a working tree". The worktree is gone, so
// the row goes, and the message says the branch was kept and git's reason. Real git in a temp folder.
import { vscodeStub } from '../helpers/vscodeStub'; // before the UI modules, which import vscode
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as realCore from '../../src/core/index';
import type { Supervisor } from '../../src/core/api';
import { discardWorktree, previewDiscard } from '../../src/core/worktree';
import { leftoverId, WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { WorktreeActions } from '../../src/ui/worktrees/worktreeActions';
import { created, makeRepo, sh } from '../helpers/gitRepo';

const log = { info() {}, warn() {} } as never;
const supervisor = { list: () => [], state: (id: string) => ({ status: 'not_found', workerId: id }), onEvent: () => () => {}, onState: () => () => {} } as unknown as Supervisor;

describe('Discard of a worktree whose branch is checked out elsewhere', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  let worktrees: WorkerWorktrees | undefined;
  beforeEach(() => {
    ({ dir, repo } = makeRepo());
    vscodeStub.reset();
  });
  afterEach(() => {
    worktrees?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes the worktree and its row, and says the branch was kept and why', async () => {
    const wt = await created(repo, 'w');
    const other = path.join(dir, 'other');
    sh(repo, 'worktree', 'add', '-q', '--detach', other);
    sh(other, 'checkout', '-q', '--ignore-other-worktrees', wt.branch);
    worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree);
    worktrees.add('w1', wt, repo);
    await worktrees.settled('w1');
    const actions = new WorktreeActions({ supervisor, worktrees, core: () => realCore.worktree, worktreesDir: () => '', log });
    const r = await actions.discard({ workerId: 'w1' }, async () => true);
    assert.ok(!existsSync(wt.path), 'the worktree folder is gone');
    assert.equal(worktrees.get('w1'), undefined, 'no row is left whose Discard cannot work');
    assert.equal(r.status, 'branch_kept', JSON.stringify(r));
    const said = vscodeStub.messages.at(-1)!;
    assert.match(said, /discarded w's worktree, but its branch worker\/w is kept, as git would not delete it \(/);
    assert.match(said, new RegExp(`${other.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), `git's reason names where the branch is checked out: ${said}`);
    assert.doesNotMatch(said, /not a working tree/);
    assert.equal(sh(repo, 'branch', '--list', wt.branch).replace(/^[*+ ]+/, ''), wt.branch);
  });

  it('a row another window still lists for it: its Discard tries the branch again, not the worktree git no longer has', async () => {
    const wt = await created(repo, 'w');
    const other = path.join(dir, 'other');
    sh(repo, 'worktree', 'add', '-q', '--detach', other);
    sh(other, 'checkout', '-q', '--ignore-other-worktrees', wt.branch);
    const p = await previewDiscard(wt);
    assert.equal((await discardWorktree(wt, p.status === 'ok' ? p.fingerprint : '')).status, 'branch_kept');
    const again = await previewDiscard(wt);
    assert.equal(again.status, 'ok', JSON.stringify(again));
    const d = await discardWorktree(wt, again.status === 'ok' ? again.fingerprint : '');
    assert.equal(d.status, 'branch_kept', JSON.stringify(d));
    assert.doesNotMatch(JSON.stringify(d), /not a working tree/);
    // Once the other worktree leaves the branch, Discard deletes it.
    sh(other, 'checkout', '-q', '--detach');
    worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree);
    worktrees.add(leftoverId(wt.branch), wt, repo);
    await worktrees.settled(leftoverId(wt.branch));
    const actions = new WorktreeActions({ supervisor, worktrees, core: () => realCore.worktree, worktreesDir: () => '', log });
    const r = await actions.discard({ workerId: leftoverId(wt.branch) }, async () => true);
    assert.equal(r.status, 'discarded', JSON.stringify(r));
    assert.equal(sh(repo, 'branch', '--list', wt.branch), '');
    assert.equal(worktrees.get(leftoverId(wt.branch)), undefined);
  });
});
