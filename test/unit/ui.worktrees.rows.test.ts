// A worktree's row when its own worker is gone but another works in it (a resumed session keeps
// its folder under a new worker id; after a reload the worktree is a leftover): the row says who
// works there, not "(not running)", and its menus follow that worker as Merge and Discard do.
import { vscodeStub } from '../helpers/vscodeStub'; // before the UI modules, which import vscode
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as realCore from '../../src/core/index';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { leftoverId, WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { worktreeContributor } from '../../src/ui/worktrees/worktreeTree';
import { workerIn } from '../../src/ui/worktrees/workerWorktrees';
import { WorktreeActions } from '../../src/ui/worktrees/worktreeActions';
import { created, makeRepo } from '../helpers/gitRepo';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub the helper put in vscode's place
const vscode = require('vscode') as Record<string, unknown>;

describe('UI worktree rows and the workers in them', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  let worktrees: WorkerWorktrees;
  const stubTreeItem = vscode.TreeItem;
  const supervisor = { list: () => [], state: () => ({ status: 'not_found' }), onEvent: () => () => {}, onState: () => () => {} } as unknown as Supervisor;
  before(() => {
    // A TreeItem that keeps what it is given (the bench stub forgets its label).
    vscode.TreeItem = class { constructor(public label: string) {} };
  });
  after(() => { vscode.TreeItem = stubTreeItem; });
  beforeEach(() => {
    ({ dir, repo } = makeRepo());
    worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree);
  });
  afterEach(() => {
    worktrees.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a leftover worktree a resumed worker streams in: named as worked in, Merge and Discard not offered', async () => {
    const wt = await created(repo, 'w');
    const id = leftoverId(wt.branch);
    worktrees.add(id, wt, repo);
    const resumed = { workerId: 'r1', name: 'w (resumed)', status: 'running', cwd: wt.path, streaming: true, compacting: false, pendingInput: [] } as unknown as WorkerState;
    let working: WorkerState | undefined = resumed;
    const rows = worktreeContributor(worktrees, () => new Set(['r1']), (folder) => (working && folder === wt.path ? working : undefined));
    const row = () => rows.item(undefined, { kind: 'ext', workerId: id, key: 'wt' }) as unknown as { label: string; description: string; contextValue: string };
    assert.deepEqual([row().label, row().description.replace(/^.* · /, '')], ['Worktree worker/w', 'w (resumed) works in it']);
    assert.equal(row().contextValue, 'rpcWorkerWorktree.busy.live');
    working = { ...resumed, streaming: false };
    assert.equal(row().contextValue, 'rpcWorkerWorktree.live', 'idle: Merge offered; Discard too, which says it runs there and offers to stop it');
    working = undefined;
    assert.deepEqual([row().label, row().description.replace(/^.* · /, ''), row().contextValue], ['Worktree worker/w', 'w not running', 'rpcWorkerWorktree']);
  });

  it('a worker still starting in its worktree: Merge is not offered, and asked anyway says it is starting (it has no turn to wait for)', async () => {
    const wt = await created(repo, 'w');
    worktrees.add('w1', wt, repo);
    const starting = { workerId: 'w1', name: 'w', status: 'starting', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const rows = worktreeContributor(worktrees, () => new Set(['w1']));
    const row = rows.item(starting, { kind: 'ext', workerId: 'w1', key: 'wt' }) as unknown as { contextValue: string };
    assert.equal(row.contextValue, 'rpcWorkerWorktree.busy.live', 'as a busy one: Discard (which offers to stop it) and not Merge');
    vscodeStub.reset();
    const withIt = { ...supervisor, list: () => [starting], state: () => ({ status: 'starting', state: starting }) } as unknown as Supervisor;
    const actions = new WorktreeActions({ supervisor: withIt, worktrees, core: () => realCore.worktree, worktreesDir: () => '', log: { info() {}, warn() {} } as never });
    assert.equal((await actions.merge({ workerId: 'w1' })).status, 'error');
    assert.match(vscodeStub.messages.at(-1)!, /^RPC Workers: not merged: w is still starting; merge once it has started\.$/);
  });

  it('the worker working in a worktree, as the row and Merge and Discard ask it: a live one whose folder is in it', () => {
    const w = (workerId: string, status: string, cwd: string) => ({ workerId, name: workerId, status, cwd }) as unknown as WorkerState;
    const list = [w('ended', 'exited', '/wt/a'), w('beside', 'running', '/wt/a-2'), w('starting', 'starting', '/wt/a/src')];
    assert.equal(workerIn({ list: () => list }, '/wt/a')?.workerId, 'starting', 'a subfolder counts, a sibling of a longer name does not, an ended worker does not');
    assert.equal(workerIn({ list: () => list.slice(0, 2) }, '/wt/a'), undefined);
  });
});
