// A worker's worktree at the edges a real repository has: branch names in the way, a worktree
// whose HEAD left its branch, a folder removed by hand, a submodule, a staged index. Real git in
// a temp folder; each answer must be true and name git's own failure.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { created, makeRepo, sh } from '../helpers/gitRepo';
import { createWorktree } from '../../src/core/worktree';

describe('worktree per worker: edges (real git)', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  beforeEach(() => ({ dir, repo } = makeRepo()));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a branch named "worker" (the prefix\'s folder) is named in a refusal; the search for a free name does not run forever', async () => {
    sh(repo, 'branch', 'worker');
    const r = await createWorktree({ folder: repo, workerName: 'w' });
    assert.equal(r.status, 'error', JSON.stringify(r));
    assert.match((r as { reason: string }).reason, /a branch named "worker", so git cannot make branches under "worker\/"/);
    // Another prefix still works, and a branch below the prefix only takes its own name.
    sh(repo, 'branch', '-m', 'worker', 'old-worker');
    sh(repo, 'branch', 'worker/w');
    assert.equal((await created(repo, 'w')).branch, 'worker/w-2');
  });
});
