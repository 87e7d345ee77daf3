// Two windows take over the same dead hold at once (a worktree a crashed window held, a session
// resumed there in each of two windows): the one that replaced it first must keep it. The second
// read the dead hold before the first replaced it; acting on that stale read, it must not take
// away the first one's live hold. Real git; a git on the PATH holds the second window's read of
// the worktree list until the first has replaced the hold (named pipes, no timer).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { holdWorktree, unlockIfOurs } from '../../src/core/worktree/hold';
import type { WorkerWorktree } from '../../src/core/worktree';
import { created, makeRepo, sh } from '../helpers/gitRepo';

const dead = { pid: 2 ** 22 + 17, start: 'gone', window: 'window-x', worker: 'w' };
const reasonOf = (repo: string, wtPath: string) => {
  const block = sh(repo, 'worktree', 'list', '--porcelain', '-z').split('\0\0').find((b) => b.startsWith(`worktree ${wtPath}\0`)) ?? '';
  return block.split('\0').find((l) => l.startsWith('locked '))?.slice(7) ?? null;
};

describe('worktrees: two windows replace the same dead hold at once (real git)', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  let bin: string;
  const savedPath = process.env.PATH;
  beforeEach(() => ({ dir, repo } = makeRepo()));
  /** Lets a held list answer: a test that failed before it did leaves no git waiting. */
  let release = (): Promise<void> => Promise.resolve();
  afterEach(async () => {
    await release();
    release = () => Promise.resolve();
    process.env.PATH = savedPath;
    rmSync(dir, { recursive: true, force: true });
    if (bin) rmSync(bin, { recursive: true, force: true });
  });

  /**
   * A worktree under a dead hold, and a git whose next `worktree list` (window B's read of the hold)
   * answers only at `go()`; `read()` resolves once that list is read and held.
   */
  async function gated(): Promise<{ wt: WorkerWorktree; read: () => Promise<void>; go: () => Promise<void> }> {
    const wt = await created(repo, 'w');
    sh(repo, 'worktree', 'lock', '--reason', `rpc-workers: ${JSON.stringify(dead)}`, wt.path);
    bin = mkdtempSync(path.join(tmpdir(), 'rpcw-gate-'));
    const ready = path.join(bin, 'ready');
    const go = path.join(bin, 'go');
    execFileSync('mkfifo', [ready, go]);
    const real = path.join(sh(repo, '--exec-path'), 'git');
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nif [ "$1 $2" = "worktree list" ] && mkdir "${bin}/first" 2>/dev/null; then "${real}" "$@" > "${bin}/out" || exit; echo > "${ready}"; cat "${go}" > /dev/null; exec cat "${bin}/out"; fi\nexec "${real}" "$@"\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
    // Armed once the list is held (its git then waits on `go`), fired once.
    let held = false;
    release = async () => {
      if (!held) return;
      held = false;
      await writeFile(go, 'go\n');
    };
    const read = async () => {
      await readFile(ready);
      held = true;
    };
    return { wt, read, go: release };
  }

  it("the second, acting on its read of the dead hold, leaves the first one's hold in place and says it is held", async () => {
    const { wt, read, go } = await gated();
    const b = holdWorktree(wt, { pid: process.pid, start: null, window: 'window-b', worker: 'B' });
    await read();
    const a = await holdWorktree(wt, { pid: process.pid, start: null, window: 'window-a', worker: 'A' });
    assert.deepEqual(a, { ok: true });
    await go();
    const second = await b;
    assert.match(reasonOf(repo, wt.path) ?? 'not locked', /"window":"window-a"/, "window B took away window A's live hold");
    assert.equal(second.ok, false, 'window B says it holds a worktree window A holds');
  });

  it("a Discard in the second window that read the dead hold does not unlock the first one's hold (git then refuses to remove the folder its worker works in)", async () => {
    const { wt, read, go } = await gated();
    const discarding = unlockIfOurs(wt, 'window-b');
    await read();
    assert.deepEqual(await holdWorktree(wt, { pid: process.pid, start: null, window: 'window-a', worker: 'A' }), { ok: true });
    await go();
    await discarding;
    assert.match(reasonOf(repo, wt.path) ?? 'not locked', /"window":"window-a"/, "window B's Discard took away window A's live hold");
  });
});
