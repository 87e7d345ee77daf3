// Workspace trust and the worktree room: git runs programs the repository names itself (its
// core.fsmonitor on `git add -A`, its hooks on a merge), so in an untrusted workspace the room
// runs no git at all. The check after activation (which lists leftover worker worktrees and
// their changes) waits for trust and runs once it is granted; the worktree commands refuse,
// saying how to trust the workspace.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as realCore from '../../src/core/index';
import type { Supervisor } from '../../src/core/api';
import { connectWorktrees, type WorktreeParts } from '../../src/ui/worktrees/connectWorktrees';
import { BaseContentProvider } from '../../src/ui/worktrees/baseContent';
import { UNTRUSTED_REFUSAL, UNTRUSTED_WORKTREE_REFUSAL } from '../../src/ui/settings/trust';
import { WORKTREE_COMMANDS } from '../../src/ui/worktrees/worktreeIds';
import { created, makeRepo, sh } from '../helpers/gitRepo';

/** An executable that leaves `marker` behind when git runs it. */
function program(file: string, marker: string): string {
  writeFileSync(file, `#!/bin/sh\ntouch '${marker}'\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('UI worktrees in an untrusted workspace', () => {
  const dirs: string[] = [];
  const disposables: Array<{ dispose(): void }> = [];
  /**
   * What the room asked of the worktree module (the extension passes dist/extension-later.js's
   * copy, once loaded): each time it was reached for, and the repository checks.
   */
  let loads: number;
  let detects: number;
  const core = () => {
    loads++;
    const worktree = { ...realCore.worktree, detectRepository: (folder: string) => (detects++, realCore.worktree.detectRepository(folder)) };
    return { ...realCore, worktree } as typeof realCore;
  };
  const supervisor = { list: () => [], state: () => ({ status: 'not_found' }), onEvent: () => () => {}, onState: () => () => {} } as unknown as Supervisor;
  let started: number;
  const connect = (): WorktreeParts => connectWorktrees({
    supervisor, worktree: () => core().worktree, settings: () => ({ worktreesDir: '' }) as never,
    tree: { contributors: [], invalidate() {} } as never,
    commands: () => ({ startWorker: async () => ({ status: 'started', workerId: 'w' }), startDemoWorker: async () => (started++, { status: 'started', workerId: 'w' }) }) as never,
    log: { info() {}, warn() {}, error() {} } as never,
    register: (d) => (disposables.push(d), d),
  });
  const run = (id: string, arg?: unknown) => vscodeStub.commands.get(id)!(arg) as Promise<{ status: string; error?: string }>;
  /** A repository with a leftover worker worktree (an earlier window's, or one shipped with the folder). */
  async function repoWithLeftover(name: string) {
    const { dir, repo } = makeRepo();
    dirs.push(dir);
    const wt = await created(repo, name);
    vscodeStub.folder = repo;
    return { dir, repo, wt };
  }

  beforeEach(() => {
    vscodeStub.reset();
    loads = 0;
    detects = 0;
    started = 0;
  });
  afterEach(() => {
    // Trust is the stub's, shared by every file a mocha worker runs after this one: left off, a
    // later file's worktree listing ran nothing (worktree.merged failed, in parallel runs only).
    vscodeStub.trusted = true;
    for (const d of disposables.splice(0)) d.dispose();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('activation runs no git (so not the repository\'s core.fsmonitor) and lists nothing while untrusted', async () => {
    const { dir, repo } = await repoWithLeftover('w1');
    const marker = path.join(dir, 'FSMONITOR-RAN');
    sh(repo, 'config', 'core.fsmonitor', program(path.join(dir, 'fsmonitor.sh'), marker));
    vscodeStub.trusted = false;
    const parts = connect();
    assert.deepEqual(await parts.checked, { available: false, reason: 'the workspace is not trusted' });
    assert.deepEqual(await parts.recheck(), { available: false, reason: 'the workspace is not trusted' });
    assert.deepEqual(parts.worktrees.all(), [], 'a leftover worktree was listed');
    assert.equal(loads, 0, 'the worktree core (git) was used in an untrusted workspace');
    assert.equal(existsSync(marker), false, "the workspace's core.fsmonitor ran in an untrusted workspace");
  });

  it('once trust is granted, the check runs (once) and lists the leftover worktree', async () => {
    const { wt } = await repoWithLeftover('w2');
    vscodeStub.trusted = false;
    const parts = connect();
    await parts.checked;
    assert.equal(detects, 0);
    vscodeStub.grantTrust();
    assert.deepEqual(await parts.checked, { available: true, reason: null });
    assert.deepEqual(parts.worktrees.all().map((e) => [e.workerId, e.worktree.path]), [['worktree:worker/w2', wt.path]]);
    await parts.worktrees.refresh('worktree:worker/w2');
    assert.equal(parts.worktrees.get('worktree:worker/w2')?.error, null);
    vscodeStub.grantTrust();
    assert.equal(detects, 1, 'the grant listener was not disposed after its check');
  });

  it('Merge into My Branch, Discard, Refresh, Open Changes and Open in New Window refuse untrusted, saying how to trust; no hook runs', async () => {
    const { dir, repo, wt } = await repoWithLeftover('w3');
    const parts = connect();
    await parts.checked; // trusted: the leftover row is there, as in a window trusted before
    const id = 'worktree:worker/w3';
    await parts.worktrees.refresh(id);
    writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    sh(wt.path, 'add', '-A');
    sh(wt.path, 'commit', '-q', '-m', 'work');
    const marker = path.join(dir, 'HOOK-RAN');
    program(path.join(repo, '.git', 'hooks', 'post-merge'), marker);
    const head = sh(repo, 'rev-parse', 'HEAD');
    vscodeStub.trusted = false;
    const before = loads;
    for (const command of [WORKTREE_COMMANDS.merge, WORKTREE_COMMANDS.discard, WORKTREE_COMMANDS.refresh, WORKTREE_COMMANDS.openDiff, WORKTREE_COMMANDS.openWindow]) {
      const r = await run(command, { workerId: id, file: 'new.txt' });
      assert.deepEqual([r.status, r.error], ['error', UNTRUSTED_WORKTREE_REFUSAL], command);
    }
    assert.match(UNTRUSTED_WORKTREE_REFUSAL, /Manage Workspace Trust/);
    assert.equal(vscodeStub.messages.filter((m) => m === UNTRUSTED_WORKTREE_REFUSAL).length, 5);
    assert.equal(existsSync(marker), false, "the workspace's post-merge hook ran in an untrusted workspace");
    assert.equal(sh(repo, 'rev-parse', 'HEAD'), head, 'merged in an untrusted workspace');
    assert.ok(existsSync(wt.path), 'discarded in an untrusted workspace');
    // Complete Merge and Abort Merge come from the merge's notification, not a command.
    assert.equal((await parts.actions.finish(repo, false)).status, 'error');
    assert.equal(loads, before, 'the worktree core (git) was used in an untrusted workspace');
  });

  it('Start in New Worktree refuses as every start does, before checking the repository', async () => {
    await repoWithLeftover('w4');
    vscodeStub.trusted = false;
    const parts = connect();
    await parts.checked;
    const r = await run(WORKTREE_COMMANDS.startDemoInWorktree, {});
    assert.deepEqual([r.status, r.error], ['error', UNTRUSTED_REFUSAL]);
    assert.deepEqual([started, detects, loads], [0, 0, 0]);
  });

  it("a base-file address (any link can name one) is not read with git while untrusted", async () => {
    const { repo } = await repoWithLeftover('w5');
    vscodeStub.trusted = false;
    const provider = new BaseContentProvider(() => core().worktree);
    // What baseUri() makes; the provider reads only its query.
    const uri = { query: JSON.stringify({ repo, commit: sh(repo, 'rev-parse', 'HEAD'), path: 'a.txt' }) };
    await assert.rejects(provider.provideTextDocumentContent(uri as never), { message: UNTRUSTED_WORKTREE_REFUSAL });
    assert.equal(loads, 0);
  });
});
