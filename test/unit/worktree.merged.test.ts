// A worktree merged back: its branch is in the person's, so against the merge there is nothing
// left to list, and the row said "no changes", which read as if the work was lost. Known from git
// (the worktree's HEAD is an ancestor of the branch it came from, and not the commit it started
// at), so a reload says it too; new changes in the worktree turn the row back into their counts.
import '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as realCore from '../../src/core/index';
import type { Supervisor } from '../../src/core/api';
import { mergeWorktree, workerChanges } from '../../src/core/worktree';
import { WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { worktreeContributor } from '../../src/ui/worktrees/worktreeTree';
import { created, makeRepo, sh } from '../helpers/gitRepo';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub the helper put in vscode's place
const vscode = require('vscode') as Record<string, unknown>;

describe('a worktree merged back', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  const made: WorkerWorktrees[] = [];
  const stubTreeItem = vscode.TreeItem;
  const supervisor = { list: () => [], state: () => ({ status: 'not_found' }), onEvent: () => () => {}, onState: () => () => {} } as unknown as Supervisor;
  before(() => {
    vscode.TreeItem = class { constructor(public label: string) {} };
  });
  after(() => { vscode.TreeItem = stubTreeItem; });
  beforeEach(() => ({ dir, repo } = makeRepo()));
  afterEach(() => {
    for (const w of made.splice(0)) w.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The row's description in a fresh registry (a reload), once listed. */
  async function rowAfterListing(id: string, wt: Awaited<ReturnType<typeof created>>): Promise<string> {
    const worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree);
    made.push(worktrees);
    worktrees.add(id, wt, repo);
    await worktrees.refresh(id);
    const rows = worktreeContributor(worktrees, () => new Set());
    const { description } = rows.item(undefined, { kind: 'ext', workerId: id, key: 'wt' }) as unknown as { description: string };
    // After what it holds, who works in it: here no one (the worker is not running).
    assert.match(description, / · w not running$/);
    return description.replace(/ · w not running$/, '');
  }

  it('says which branch it went into and the merge commit, after a reload too, until new changes come', async () => {
    const wt = await created(repo, 'w');
    assert.equal(await rowAfterListing('w1', wt), 'no changes', 'nothing done yet is not "merged"');
    writeFileSync(path.join(wt.path, 'a.txt'), 'one\nTWO\nthree\n');
    const m = await mergeWorktree(wt, { into: repo });
    assert.equal(m.status, 'merged', JSON.stringify(m));
    const commit = m.status === 'merged' ? m.commit : '';

    const r = await workerChanges(wt);
    assert.equal(r.status, 'ok');
    assert.deepEqual(r.status === 'ok' && [r.counts.total, r.merged], [0, { into: 'main', commit }]);
    assert.equal(await rowAfterListing('w2', wt), `merged into main (${commit.slice(0, 8)})`);

    // The person goes on on main: still merged (its HEAD is still in main).
    writeFileSync(path.join(repo, 'b.txt'), 'bee two\n');
    sh(repo, 'commit', '-q', '-am', 'person goes on');
    assert.equal(await rowAfterListing('w3', wt), `merged into main (${commit.slice(0, 8)})`);

    writeFileSync(path.join(wt.path, 'new.txt'), 'more\n');
    assert.equal(await rowAfterListing('w4', wt), '1 changed: 1 added', 'new changes are listed, not "merged"');
  });

  it('a branch main has not taken is not called merged; one main took by a fast-forward names its own commit', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'a.txt'), 'changed\n');
    sh(wt.path, 'commit', '-q', '-am', 'worker commit');
    const r = await workerChanges(wt);
    assert.deepEqual(r.status === 'ok' && [r.counts.total, r.merged], [1, null]);
    sh(repo, 'merge', '-q', '--ff-only', wt.branch);
    const f = await workerChanges(wt);
    assert.deepEqual(f.status === 'ok' && [f.counts.total, f.merged], [0, { into: 'main', commit: sh(wt.path, 'rev-parse', 'HEAD') }]);
  });
});
