// Two windows on one repository: a worker runs in its worktree in window A; window B lists that
// worktree from git's records (a leftover, as after a reload) and knows nothing of the worker.
// B must not discard the folder the worker works in, nor merge (commit its half-done work) from
// under it; once the worker stops in A, or A's process is gone, B may. Real git in a temp folder.
import { vscodeStub } from '../helpers/vscodeStub'; // before the UI modules, which import vscode
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as realCore from '../../src/core/index';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { leftoverId, WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { WorktreeActions } from '../../src/ui/worktrees/worktreeActions';
import { connectWorktrees } from '../../src/ui/worktrees/connectWorktrees';
import { worktreeContributor } from '../../src/ui/worktrees/worktreeTree';
import { startStamp } from '../../src/core/worker/processTree';
import { pidSpace } from '../../src/core/worktree/hold';
import { created, makeRepo, sh } from '../helpers/gitRepo';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub the helper put in vscode's place
const vscode = require('vscode') as Record<string, unknown>;
const log = { info() {}, warn() {} } as never;

/** Resolves once `ok()` holds, asked again at each change the registry announces (no timer). */
function until(worktrees: WorkerWorktrees, ok: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (ok()) return resolve();
    const d = worktrees.onDidChange(() => { if (ok()) { d.dispose(); resolve(); } });
  });
}

/** The worktree row a window's Sessions view shows for an entry (no worker of its own runs it). */
function rowOf(worktrees: WorkerWorktrees, workerId: string) {
  const rows = worktreeContributor(worktrees, () => new Set());
  return () => rows.item(undefined, { kind: 'ext', workerId, key: 'wt' }) as unknown as { label: string; description: string; contextValue: string; tooltip: { value: string } };
}

/** git's lock reason on the worktree, as `git worktree list --porcelain` says it; null when unlocked. */
function lockReason(repo: string, wtPath: string): string | null {
  const block = sh(repo, 'worktree', 'list', '--porcelain', '-z').split('\0\0').find((b) => b.startsWith(`worktree ${wtPath}\0`)) ?? '';
  const line = block.split('\0').find((l) => l === 'locked' || l.startsWith('locked '));
  return line === undefined ? null : line.slice(7);
}

describe('worktrees: two windows on one repository (real git)', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  const made: WorkerWorktrees[] = [];
  const stub = { TreeItem: vscode.TreeItem, MarkdownString: vscode.MarkdownString };
  before(() => {
    // A TreeItem and a MarkdownString that keep what they are given (the bench stub forgets them).
    vscode.TreeItem = class { constructor(public label: string) {} };
    vscode.MarkdownString = class {
      value = '';
      appendText(t: string) { this.value += t; return this; }
      appendMarkdown(t: string) { this.value += t; return this; }
    };
  });
  after(() => Object.assign(vscode, stub));
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
    return { worktrees, actions, stop: (s: WorkerState) => stateListener(s), state: (s: WorkerState) => stateListener(s) };
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

  it('on git before 2.36 (its worktree list takes no -z): another window lists the worktree and sees the hold on it', async () => {
    // git as before 2.36: `worktree list` refuses -z as an unknown switch.
    const bin = mkdtempSync(path.join(tmpdir(), 'rpcw-oldgit-'));
    const real = path.join(sh(repo, '--exec-path'), 'git');
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nif [ "$1 $2" = "worktree list" ]; then for a in "$@"; do if [ "$a" = "-z" ]; then echo "error: unknown switch \\\`z'" >&2; exit 129; fi; done; fi\nexec "${real}" "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
    try {
      // A name git quotes on its line: a double quote, an accented letter, an emoji.
      const name = 'Öld "fix" 🚀';
      const wt = await created(repo, name);
      const old = { workerId: 'a4', name, status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
      const a = window('window-a', [old]);
      a.worktrees.add('a4', wt, repo);
      await a.worktrees.refresh('a4');
      const listed = await realCore.worktree.listWorkerWorktrees(repo);
      assert.deepEqual(listed.map((w) => w.path), [wt.path], 'the worktree another window\'s worker runs in is not listed: no row to see, merge or discard it by');
      const b = window('window-b');
      const id = leftoverId(listed[0].branch);
      b.worktrees.add(id, listed[0], repo);
      await b.worktrees.refresh(id);
      assert.equal(rowOf(b.worktrees, id)().contextValue, 'rpcWorkerWorktree.elsewhere');
      assert.equal(b.worktrees.get(id)?.heldBy?.worker, name);
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

  it('a hold written by a window on another machine or in another container is not judged by this process table: kept, and its row says why', async () => {
    const wt = await created(repo, 'w');
    // A window elsewhere sharing the repository's folder: its pid means nothing here (none runs here).
    const afar = { pid: 2 ** 22 + 17, start: '123', window: 'window-x', worker: 'w', space: 'another-host pid:[1]' };
    sh(repo, 'worktree', 'lock', '--reason', `rpc-workers: ${JSON.stringify(afar)}`, wt.path);
    const b = window('window-b');
    const id = leftoverId(wt.branch);
    b.worktrees.add(id, wt, repo);
    await b.worktrees.refresh(id);
    vscodeStub.reset();
    const r = await b.actions.discard({ workerId: id }, async () => true);
    assert.notEqual(r.status, 'discarded', 'window B deleted the folder a window elsewhere may be working in');
    assert.ok(existsSync(wt.path));
    assert.match(vscodeStub.messages.join('\n'), /w works in it in a window on another machine or container \(process 4194321 there, which cannot be checked from here; if it no longer runs, git worktree unlock frees the worktree\)/);
    assert.match(rowOf(b.worktrees, id)().tooltip.value, /another machine or container/);
    assert.match(lockReason(repo, wt.path) ?? 'not locked', /another-host/, 'the hold was taken away');
  });

  it('a hold written in this process\'s own pid space whose window is gone is still a dead hold: discarded', async () => {
    const wt = await created(repo, 'w');
    const here = { pid: 2 ** 22 + 17, start: 'gone', window: 'window-x', worker: 'w', space: pidSpace() };
    sh(repo, 'worktree', 'lock', '--reason', `rpc-workers: ${JSON.stringify(here)}`, wt.path);
    const b = window('window-b');
    b.worktrees.add(leftoverId(wt.branch), wt, repo);
    const r = await b.actions.discard({ workerId: leftoverId(wt.branch) }, async () => true);
    assert.equal(r.status, 'discarded', JSON.stringify(r));
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

  it('window B\'s row of a worktree a worker of window A runs in says so, Merge and Discard not offered; when the worker stops there, the row catches up by itself', async () => {
    const wt = await created(repo, 'Fixer');
    const fixer = { workerId: 'a1', name: 'Fixer', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const a = window('window-a', [fixer]);
    a.worktrees.add('a1', wt, repo);
    await a.worktrees.refresh('a1');

    const b = window('window-b');
    const id = leftoverId(wt.branch);
    b.worktrees.add(id, wt, repo);
    await b.worktrees.refresh(id);
    const row = rowOf(b.worktrees, id);
    assert.deepEqual([row().label, row().description], ['Worktree worker/fixer', 'no changes · Fixer works in it in another window'], 'read as abandoned: "not running"');
    assert.equal(row().contextValue, 'rpcWorkerWorktree.elsewhere', 'Merge and Discard offered for a worktree a worker works in');
    assert.match(row().tooltip.value, new RegExp(`process ${process.pid}\\b`));

    // Stopped in A: nothing is asked of B, which learns it from git's lock going.
    const freed = until(b.worktrees, () => row().contextValue === 'rpcWorkerWorktree');
    a.stop({ ...fixer, status: 'exited' });
    await freed;
    assert.deepEqual([row().label, row().description], ['Worktree worker/fixer', 'no changes · Fixer not running']);
  });

  it('the row of a worker that exited (still listed in its window) says another window\'s resumed worker works in it, Merge and Discard not offered', async () => {
    const wt = await created(repo, 'Fixer');
    const fixer = { workerId: 'a1', name: 'Fixer', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const a = window('window-a', [fixer]);
    a.worktrees.add('a1', wt, repo);
    await a.worktrees.refresh('a1');
    const exited = { ...fixer, status: 'exited' } as WorkerState;
    a.stop(exited);
    await a.worktrees.refresh('a1');
    // Window B resumes its session in the worktree: its worker holds it now.
    const id = leftoverId(wt.branch);
    const resumed = { workerId: 'r1', name: 'Fixer (resumed)', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const b = window('window-b', [resumed]);
    b.worktrees.add(id, wt, repo);
    await b.worktrees.refresh(id);
    await until(a.worktrees, () => a.worktrees.get('a1')?.heldBy !== null);
    // A's row sits under its exited worker, which A still lists.
    const rows = worktreeContributor(a.worktrees, () => new Set(['a1']));
    const row = rows.item(exited, { kind: 'ext', workerId: 'a1', key: 'wt' }) as unknown as { label: string; description: string; contextValue: string };
    assert.match(row.description, /· Fixer \(resumed\) works in it in another window$/);
    assert.equal(row.contextValue, 'rpcWorkerWorktree.elsewhere', 'Merge and Discard offered for a worktree a worker works in');
  });

  it('a row held by a window whose process then dies (a crash: its lock stays) is free again when the window gets the focus', async () => {
    const wt = await created(repo, 'w');
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' });
    const disposables: Array<{ dispose(): void }> = [];
    try {
      const start = startStamp(other.pid!);
      sh(repo, 'worktree', 'lock', '--reason', `rpc-workers: ${JSON.stringify({ pid: other.pid, start: start ?? null, window: 'window-x', worker: 'w' })}`, wt.path);
      vscodeStub.reset();
      vscodeStub.folder = repo;
      const supervisor = { list: () => [], state: () => ({ status: 'not_found' }), onEvent: () => () => {}, onState: () => () => {} } as unknown as Supervisor;
      const parts = connectWorktrees({
        supervisor, worktree: () => realCore.worktree, settings: () => ({ worktreesDir: '' }) as never, tree: { contributors: [], invalidate() {} } as never,
        commands: () => ({}) as never, log: { info() {}, warn() {}, error() {} } as never, register: (d) => (disposables.push(d), d),
      });
      await parts.checked;
      const id = leftoverId(wt.branch);
      await parts.worktrees.refresh(id);
      const row = rowOf(parts.worktrees, id);
      assert.equal(row().contextValue, 'rpcWorkerWorktree.elsewhere');
      const gone = new Promise((resolve) => other.once('exit', resolve));
      other.kill('SIGKILL');
      await gone;
      // No file changed: the window learns it when the person comes back to it.
      const freed = until(parts.worktrees, () => row().contextValue === 'rpcWorkerWorktree');
      vscodeStub.focusWindow();
      await freed;
      assert.match(row().description, / · w not running$/);
    } finally {
      other.kill('SIGKILL');
      for (const d of disposables) d.dispose();
    }
  });

  it('a worker resumed into a worktree (its folder, a new worker id) holds it as a worker started there does, and lets go when it stops', async () => {
    const wt = await created(repo, 'w');
    const workers: WorkerState[] = [];
    const a = window('window-a', workers);
    const id = leftoverId(wt.branch);
    // After a reload the worktree is listed from git's records; the session is resumed in its folder.
    a.worktrees.add(id, wt, repo);
    await a.worktrees.refresh(id);
    const resumed = { workerId: 'r1', name: 'w (resumed)', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    workers.push(resumed);
    a.state(resumed);
    await a.worktrees.refresh(id);
    assert.match(lockReason(repo, wt.path) ?? 'not locked', /^rpc-workers: .*"worker":"w \(resumed\)"/);

    const b = window('window-b');
    b.worktrees.add(id, wt, repo);
    vscodeStub.reset();
    const refused = await b.actions.discard({ workerId: id }, async () => true);
    assert.notEqual(refused.status, 'discarded', 'window B deleted the folder the resumed worker works in');
    assert.match(vscodeStub.messages.join('\n'), /w \(resumed\) works in it in another window/);

    workers[0] = { ...resumed, status: 'stopped' } as WorkerState;
    a.state(workers[0]);
    await a.worktrees.refresh(id);
    assert.equal(lockReason(repo, wt.path), null, 'still held after the resumed worker stopped');
    const later = await b.actions.discard({ workerId: id }, async () => true);
    assert.equal(later.status, 'discarded', JSON.stringify(later));
  });

  it('a worker resumed into a worktree whose window crashed holding it (its lock stays) holds it: another window does not discard it from under the worker', async () => {
    const wt = await created(repo, 'w');
    // What the crashed window left: git's lock, naming a process that no longer runs.
    sh(repo, 'worktree', 'lock', '--reason', `rpc-workers: ${JSON.stringify({ pid: 2 ** 22 + 17, start: 'gone', window: 'window-x', worker: 'w' })}`, wt.path);
    const workers: WorkerState[] = [];
    const a = window('window-a', workers);
    const id = leftoverId(wt.branch);
    a.worktrees.add(id, wt, repo);
    await a.worktrees.refresh(id);
    const resumed = { workerId: 'r1', name: 'w (resumed)', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    workers.push(resumed);
    a.state(resumed);
    await a.worktrees.refresh(id);
    assert.match(lockReason(repo, wt.path) ?? 'not locked', /"worker":"w \(resumed\)"/, 'the dead window\'s lock stayed in place of the resumed worker\'s hold');

    const b = window('window-b');
    b.worktrees.add(id, wt, repo);
    const refused = await b.actions.discard({ workerId: id }, async () => true);
    assert.notEqual(refused.status, 'discarded', 'window B deleted the folder the resumed worker works in');
    assert.ok(existsSync(wt.path));
  });

  it('a worktree listed after a resumed worker already runs in it (a resume at reload, before the listing) is held too', async () => {
    const wt = await created(repo, 'w');
    const resumed = { workerId: 'r1', name: 'w (resumed)', status: 'running', cwd: path.join(wt.path, 'sub'), streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const a = window('window-a', [resumed]);
    const id = leftoverId(wt.branch);
    a.worktrees.add(id, wt, repo);
    await a.worktrees.refresh(id);
    assert.match(lockReason(repo, wt.path) ?? 'not locked', /"worker":"w \(resumed\)"/);
  });

  it('a listing of the worktree that failed (no room for its scratch index) does not keep the hold after the worker stops', async () => {
    const wt = await created(repo, 'w');
    const own = { workerId: 'a1', name: 'w', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const workers = [own];
    let stateListener: (s: WorkerState) => void = () => {};
    const supervisor = {
      list: () => workers,
      state: (id: string) => ({ status: workers[0].status, state: workers.find((x) => x.workerId === id) }),
      onEvent: () => () => {},
      onState: (fn: (s: WorkerState) => void) => ((stateListener = fn), () => {}),
    } as unknown as Supervisor;
    // The listing at the turn's end fails as the worker stops: its Stop comes while it runs.
    let fail: (e: Error) => void = () => {};
    let failing = false;
    let resolveListing: () => void = () => {};
    const listed = new Promise<void>((resolve) => { resolveListing = resolve; });
    const core = { ...realCore.worktree, workerChanges: (x: Parameters<typeof realCore.worktree.workerChanges>[0]) => {
      if (!failing) return realCore.worktree.workerChanges(x);
      failing = false;
      resolveListing();
      return new Promise<never>((_, reject) => { fail = reject; });
    } };
    const worktrees = new WorkerWorktrees(supervisor, () => core, 'window-a');
    made.push(worktrees);
    worktrees.add('a1', wt, repo);
    await worktrees.refresh('a1');
    assert.notEqual(lockReason(repo, wt.path), null);
    failing = true;
    const listing = worktrees.refresh('a1').catch(() => undefined);
    await listed;
    workers[0] = { ...own, status: 'exited' } as WorkerState;
    stateListener(workers[0]);
    fail(new Error('ENOSPC: no space left on device, mkdtemp'));
    await listing;
    await worktrees.refresh('a1');
    assert.equal(lockReason(repo, wt.path), null, 'held for good: another window refuses Merge and Discard of a worktree no worker runs in');
  });

  it('a worker that stops leaves the worktree held while another worker of its window still works there', async () => {
    const wt = await created(repo, 'w');
    const own = { workerId: 'a1', name: 'w', status: 'running', cwd: wt.path, streaming: false, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const second = { ...own, workerId: 'a2', name: 'second' } as WorkerState;
    const workers = [own, second];
    const a = window('window-a', workers);
    a.worktrees.add('a1', wt, repo);
    a.state(second);
    await a.worktrees.refresh('a1');
    workers[0] = { ...own, status: 'exited' } as WorkerState;
    a.state(workers[0]);
    await a.worktrees.refresh('a1');
    assert.notEqual(lockReason(repo, wt.path), null, 'let go while second still works in it');
    workers[1] = { ...second, status: 'stopped' } as WorkerState;
    a.state(workers[1]);
    await a.worktrees.refresh('a1');
    assert.equal(lockReason(repo, wt.path), null);
  });
});
