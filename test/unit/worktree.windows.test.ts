// Two windows on one repository: a worker runs in its worktree in window A; window B lists that
// worktree from git's records (a leftover, as after a reload) and knows nothing of the worker.
// B must not discard the folder the worker works in, nor merge (commit its half-done work) from
// under it; once the worker stops in A, or A's process is gone, B may. Real git in a temp folder.
import { vscodeStub } from '../helpers/vscodeStub'; // before the UI modules, which import vscode
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as realCore from '../../src/core/index';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { leftoverId, WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { WorktreeActions } from '../../src/ui/worktrees/worktreeActions';
import { created, makeRepo, sh } from '../helpers/gitRepo';

const log = { info() {}, warn() {} } as never;

describe('worktrees: two windows on one repository (real git)', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  const made: WorkerWorktrees[] = [];
  beforeEach(() => ({ dir, repo } = makeRepo()));
  afterEach(() => {
    for (const w of made.splice(0)) w.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A window: its supervisor (with the workers given), its worktree registry and actions. */
  function window(id: string, workers: WorkerState[] = []) {
    let stateListener: (s: WorkerState) => void = () => {};
    const supervisor = {
      list: () => workers,
      state: (workerId: string) => {
        const s = workers.find((w) => w.workerId === workerId);
        return s ? { status: s.status, state: s } : { status: 'not_found', workerId };
      },
      onEvent: () => () => {},
      onState: (fn: (s: WorkerState) => void) => {
        stateListener = fn;
        return () => {};
      },
    } as unknown as Supervisor;
    const worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree, id);
    made.push(worktrees);
    const actions = new WorktreeActions({ supervisor, worktrees, core: () => realCore.worktree, worktreesDir: () => '', log, window: id });
    return { worktrees, actions, stop: (s: WorkerState) => stateListener(s) };
  }

  it('window B neither discards nor merges the worktree a worker of window A runs in; once it stops there, B can', async () => {
    const wt = await created(repo, 'Fixer');
    const fixer = { workerId: 'a1', name: 'Fixer', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const a = window('window-a', [fixer]);
    a.worktrees.add('a1', wt, repo);
    await a.worktrees.refresh('a1');
    writeFileSync(path.join(wt.path, 'half.txt'), 'the worker is writing this\n');

    const b = window('window-b');
    const [listed] = await realCore.worktree.listWorkerWorktrees(repo);
    b.worktrees.add(leftoverId(listed.branch), listed, repo);
    const row = { workerId: leftoverId(listed.branch) };
    vscodeStub.reset();
    const asked: string[] = [];
    const discarded = await b.actions.discard(row, async (m) => (asked.push(m), true));
    assert.notEqual(discarded.status, 'discarded', 'window B deleted the folder a worker of window A works in');
    assert.ok(existsSync(path.join(wt.path, 'half.txt')));
    assert.deepEqual(asked, [], 'not even asked: it is not B\'s to discard while the worker runs');
    assert.match(vscodeStub.messages.join('\n'), /Fixer works in it in another window/);
    const head = sh(repo, 'rev-parse', 'HEAD');
    const merged = await b.actions.merge(row);
    assert.equal(merged.status, 'error', JSON.stringify(merged));
    assert.equal(sh(repo, 'rev-parse', 'HEAD'), head, 'merged from under the worker');
    assert.equal(sh(wt.path, 'status', '--porcelain'), '?? half.txt', 'its half-done work committed from the other window');

    // In its own window the worker stops: the worktree is free for any window.
    a.stop({ ...fixer, status: 'exited' });
    await a.worktrees.refresh('a1');
    const later = await b.actions.discard(row, async () => true);
    assert.equal(later.status, 'discarded', JSON.stringify(later));
    assert.ok(!existsSync(wt.path));
  });

  it('a worker that ended before its worktree was added (it exited at once after its start) holds nothing: window B can discard', async () => {
    const wt = await created(repo, 'Quick');
    // Its exit came before the start's answer reached the registry: no state change follows.
    const quick = { workerId: 'a2', name: 'Quick', status: 'exited', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const a = window('window-a', [quick]);
    a.worktrees.add('a2', wt, repo);
    await a.worktrees.refresh('a2');
    const b = window('window-b');
    const [listed] = await realCore.worktree.listWorkerWorktrees(repo);
    b.worktrees.add(leftoverId(listed.branch), listed, repo);
    vscodeStub.reset();
    const r = await b.actions.discard({ workerId: leftoverId(listed.branch) }, async () => true);
    assert.equal(r.status, 'discarded', `${JSON.stringify(r)} ${vscodeStub.messages.join('\n')}`);
  });

  it('on git before 2.31 (its worktree list says no lock): a worker that stopped leaves its worktree free, and its own window can discard it', async () => {
    // git as before 2.31: the same records, but `worktree list --porcelain` names no lock.
    const bin = mkdtempSync(path.join(tmpdir(), 'rpcw-oldgit-'));
    const real = path.join(sh(repo, '--exec-path'), 'git');
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nif [ "$1 $2" = "worktree list" ]; then "${real}" "$@" | tr '\\0' '\\n' | grep -v '^locked' | tr '\\n' '\\0'; else exec "${real}" "$@"; fi\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
    try {
      const wt = await created(repo, 'Old');
      const old = { workerId: 'a3', name: 'Old', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
      const workers = [old];
      const a = window('window-a', workers);
      a.worktrees.add('a3', wt, repo);
      await a.worktrees.refresh('a3');
      workers[0] = { ...old, status: 'exited' } as WorkerState;
      a.stop(workers[0]);
      await a.worktrees.refresh('a3');
      vscodeStub.reset();
      const r = await a.actions.discard({ workerId: 'a3' }, async () => true);
      assert.equal(r.status, 'discarded', `${JSON.stringify(r)} ${vscodeStub.messages.join('\n')}`);
    } finally {
      process.env.PATH = savedPath;
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('a worktree held by a window whose process is gone (a crash, a reload) is not held: its leftover can be discarded', async () => {
    const wt = await created(repo, 'w');
    // What a window that crashed left: git's lock, naming a process that no longer runs.
    sh(repo, 'worktree', 'lock', '--reason', `rpc-workers: ${JSON.stringify({ pid: 2 ** 22 + 17, start: 'gone', window: 'window-x', worker: 'w' })}`, wt.path);
    const b = window('window-b');
    b.worktrees.add(leftoverId(wt.branch), wt, repo);
    const r = await b.actions.discard({ workerId: leftoverId(wt.branch) }, async () => true);
    assert.equal(r.status, 'discarded', JSON.stringify(r));
    assert.ok(!existsSync(wt.path));
  });

  it('a worktree the person locked themselves (git worktree lock) is not unlocked by Discard: git\'s refusal is said', async () => {
    const wt = await created(repo, 'w');
    sh(repo, 'worktree', 'lock', '--reason', 'on a USB disk', wt.path);
    const b = window('window-b');
    b.worktrees.add(leftoverId(wt.branch), wt, repo);
    vscodeStub.reset();
    const r = await b.actions.discard({ workerId: leftoverId(wt.branch) }, async () => true);
    assert.equal(r.status, 'error', JSON.stringify(r));
    assert.ok(existsSync(wt.path));
    assert.match(vscodeStub.messages.join('\n'), /locked working tree, lock reason: on a USB disk/);
  });
});
