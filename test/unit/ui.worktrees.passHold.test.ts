// Two workers of one window in one worktree (a worker and a session resumed into its folder): when
// the one the hold names stops, the other still works there, so the hold stays and names it.
// Another window is told to stop the worker that runs, not one already stopped. Real git.
import '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as realCore from '../../src/core/index';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { created, makeRepo, sh } from '../helpers/gitRepo';

const holderIn = (repo: string, wtPath: string): { window: string; worker: string } | null => {
  const block = sh(repo, 'worktree', 'list', '--porcelain', '-z').split('\0\0').find((b) => b.startsWith(`worktree ${wtPath}\0`)) ?? '';
  const reason = block.split('\0').find((l) => l.startsWith('locked '))?.slice(7);
  return reason?.startsWith('rpc-workers: ') ? (JSON.parse(reason.slice('rpc-workers: '.length)) as { window: string; worker: string }) : null;
};

describe('UI worktrees: the hold passes to the worker still in the worktree (real git)', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  let worktrees: WorkerWorktrees | undefined;
  beforeEach(() => ({ dir, repo } = makeRepo()));
  afterEach(() => {
    worktrees?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('its own worker stops while a resumed one works there: the hold names the resumed one; when that stops too, it is let go', async () => {
    const wt = await created(repo, 'Demo worker');
    const state = (workerId: string, name: string, status: string) => ({ workerId, name, status, cwd: wt.path, streaming: false, compacting: false, pendingInput: [] }) as unknown as WorkerState;
    let list = [state('w1', 'Demo worker', 'running'), state('r1', 'Fixer', 'running')];
    const onState: ((s: WorkerState) => void)[] = [];
    const supervisor = { list: () => list, state: (id: string) => list.find((s) => s.workerId === id) ?? { status: 'not_found' }, onEvent: () => () => {}, onState: (f: (s: WorkerState) => void) => (onState.push(f), () => {}) } as unknown as Supervisor;
    worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree, 'window-a');
    worktrees.add('w1', wt, repo);
    // The resumed session starts in its folder (the window hears of it as of any worker).
    for (const f of onState) f(list[1]);
    await worktrees.settled('w1');
    assert.deepEqual([holderIn(repo, wt.path)?.window, holderIn(repo, wt.path)?.worker], ['window-a', 'Demo worker']);

    list = [state('w1', 'Demo worker', 'exited'), state('r1', 'Fixer', 'running')];
    for (const f of onState) f(list[0]);
    await worktrees.settled('w1');
    assert.equal(holderIn(repo, wt.path)?.worker, 'Fixer', 'held in the name of the worker that still works there');
    assert.equal(holderIn(repo, wt.path)?.window, 'window-a');
    const another = await realCore.worktree.heldElsewhere(wt, 'window-b');
    assert.equal(another?.worker, 'Fixer', 'another window is told of the one that runs');

    list = [state('w1', 'Demo worker', 'exited'), state('r1', 'Fixer', 'exited')];
    for (const f of onState) f(list[1]);
    await worktrees.settled('w1');
    assert.equal(holderIn(repo, wt.path), null, 'no worker of the window works there: let go');
  });

  it('a lock the person made, or another window\'s, is not passed', async () => {
    const wt = await created(repo, 'Demo worker');
    sh(repo, 'worktree', 'lock', '--reason', 'mine, keep out', wt.path);
    await realCore.worktree.passHold(wt, realCore.worktree.holderHere('window-a', 'Fixer'));
    assert.match(sh(repo, 'worktree', 'list', '--porcelain'), /locked mine, keep out/);
    sh(repo, 'worktree', 'unlock', wt.path);
    await realCore.worktree.holdWorktree(wt, realCore.worktree.holderHere('window-b', 'Theirs'));
    await realCore.worktree.passHold(wt, realCore.worktree.holderHere('window-a', 'Fixer'));
    assert.equal(holderIn(repo, wt.path)?.worker, 'Theirs');
  });
});
