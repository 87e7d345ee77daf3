// The worktree room's workspace folders. In a multi-root workspace a start runs in the active
// editor's folder, which need not be the first, so the room looks at every folder: worktrees are
// available when any is a git repository, and each repository's leftover worker worktrees are
// listed after a reload. A worker's worktree opened as the workspace is not a leftover there.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as realCore from '../../src/core/index';
import type { Supervisor } from '../../src/core/api';
import { connectWorktrees } from '../../src/ui/worktrees/connectWorktrees';
import { WORKTREE_COMMANDS } from '../../src/ui/worktrees/worktreeIds';
import { created, makeRepo } from '../helpers/gitRepo';

const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { viewsWelcome: Array<{ view: string; contents: string; when?: string }> };
};

/** The Sessions view's welcome contents for these context keys (`a && b`, `!a`, `key`, `key != n`). */
function welcome(ctx: Record<string, unknown>): string {
  const holds = (when = '') => when.split('&&').every((raw) => {
    const term = raw.trim();
    const cmp = /^(\S+) (==|!=) (\S+)$/.exec(term);
    if (cmp) return (String(ctx[cmp[1]]) === cmp[3]) === (cmp[2] === '==');
    if (term.startsWith('!')) return !ctx[term.slice(1)];
    assert.ok(/^[\w.]+$/.test(term), `a when term this test does not read: ${term}`);
    return ctx[term] === true;
  });
  return pkg.contributes.viewsWelcome.filter((w) => w.view === 'rpcWorkers.sessions' && holds(w.when)).map((w) => w.contents).join('\n');
}

/** The context keys a trusted window with one folder holds: VS Code's, and those set since the stub's reset. */
function windowKeys(): Record<string, unknown> {
  const ctx: Record<string, unknown> = { isWorkspaceTrusted: true, workspaceFolderCount: 1 };
  for (const [id, key, value] of vscodeStub.executed) if (id === 'setContext') ctx[key as string] = value;
  return ctx;
}

describe('UI worktrees: the workspace folders', function () {
  this.timeout(30_000);
  const dirs: string[] = [];
  const disposables: Array<{ dispose(): void }> = [];
  let starts: number;
  const supervisor = { list: () => [], state: () => ({ status: 'not_found' }), onEvent: () => () => {}, onState: () => () => {} } as unknown as Supervisor;
  const connect = () => connectWorktrees({
    supervisor, worktree: () => realCore.worktree, settings: () => ({ worktreesDir: '' }) as never,
    tree: { contributors: [], invalidate() {} } as never,
    commands: () => ({ startWorker: async () => ({ status: 'started', workerId: 'w' }), startDemoWorker: async () => (starts++, { status: 'started', workerId: 'w' }) }) as never,
    log: { info() {}, warn() {}, error() {} } as never,
    register: (d) => (disposables.push(d), d),
  });

  beforeEach(() => {
    vscodeStub.reset();
    starts = 0;
  });
  afterEach(() => {
    for (const d of disposables.splice(0)) d.dispose();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('a repository in the second folder: available, its leftover worktree listed, Start in New Worktree not refused', async () => {
    const { dir, repo } = makeRepo();
    dirs.push(dir);
    const wt = await created(repo, 'second');
    const notes = path.join(dir, 'notes');
    mkdirSync(notes);
    vscodeStub.folder = notes;
    vscodeStub.moreFolders = [repo];
    const parts = connect();
    assert.deepEqual(await parts.checked, { available: true, reason: null });
    assert.deepEqual(parts.worktrees.all().map((e) => [e.workerId, e.worktree.path, e.checkout]), [['worktree:worker/second', wt.path, repo]]);
    await (vscodeStub.commands.get(WORKTREE_COMMANDS.startDemoInWorktree)!({}) as Promise<unknown>);
    assert.equal(starts, 1, 'the start was refused for the first folder');
    assert.deepEqual(vscodeStub.messages, []);
  });

  it('no folder a repository: unavailable, each folder\'s reason said', async () => {
    const { dir } = makeRepo();
    dirs.push(dir);
    const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
    mkdirSync(a);
    mkdirSync(b);
    vscodeStub.folder = a;
    vscodeStub.moreFolders = [b];
    const r = await connect().checked;
    assert.equal(r.available, false);
    assert.match(r.reason ?? '', /\/a is not in a git repository.*; .*\/b is not in a git repository/);
  });

  it('a worker\'s worktree opened as the workspace (Open Worktree in New Window) is not listed as a leftover of itself', async () => {
    const { dir, repo } = makeRepo();
    dirs.push(dir);
    const opened = await created(repo, 'opened');
    const other = await created(repo, 'other');
    vscodeStub.folder = opened.path;
    const parts = connect();
    assert.deepEqual(await parts.checked, { available: true, reason: null });
    assert.deepEqual(parts.worktrees.all().map((e) => [e.worktree.path, e.checkout]), [[other.path, opened.path]]);
  });

  it('a leftover another window discarded (or git worktree remove) leaves the list at the next check; one whose folder alone was deleted stays', async () => {
    const { dir, repo } = makeRepo();
    dirs.push(dir);
    const gone = await created(repo, 'gone');
    const folderless = await created(repo, 'folderless');
    vscodeStub.folder = repo;
    const parts = connect();
    await parts.checked;
    assert.deepEqual(parts.worktrees.all().map((e) => e.worktree.branch).sort(), ['worker/folderless', 'worker/gone']);
    const preview = await realCore.worktree.previewDiscard(gone);
    assert.equal((await realCore.worktree.discardWorktree(gone, (preview as { fingerprint: string }).fingerprint)).status, 'discarded');
    rmSync(folderless.path, { recursive: true, force: true });
    await parts.recheck();
    assert.deepEqual(parts.worktrees.all().map((e) => e.worktree.branch), ['worker/folderless'], 'git no longer has the discarded one: its row said "the folder does not exist", and Discard "nothing is left"');
  });

  it('Refresh Worktree Changes from the palette with no worker worktree says there is none, rather than nothing at all', async () => {
    const { dir, repo } = makeRepo();
    dirs.push(dir);
    vscodeStub.folder = repo;
    const parts = connect();
    assert.equal((await parts.checked).available, true);
    const r = await (vscodeStub.commands.get(WORKTREE_COMMANDS.refresh)!(undefined) as Promise<{ status: string }>);
    assert.equal(r.status, 'none');
    assert.deepEqual(vscodeStub.messages, ['RPC Workers: no worker has a worktree to refresh. Start Worker in New Worktree starts one in a worktree of its own.']);
  });

  it('Refresh Worktree Changes with a worker worktree listed refreshes it and says nothing (its rows show it)', async () => {
    const { dir, repo } = makeRepo();
    dirs.push(dir);
    await created(repo, 'w1');
    vscodeStub.folder = repo;
    const parts = connect();
    await parts.checked;
    assert.equal(parts.worktrees.all().length, 1);
    const r = await (vscodeStub.commands.get(WORKTREE_COMMANDS.refresh)!(undefined) as Promise<{ status: string }>);
    assert.equal(r.status, 'refreshed');
    assert.deepEqual(vscodeStub.messages, []);
  });

  it('the Sessions view says a folder is no git repository only once the check has found so, and then offers no Start Worker in New Worktree', async () => {
    const NOT_A_REPO = /needs this folder to be a git repository/;
    const START_IN_WORKTREE = /command:rpcWorkers\.startWorkerInWorktree\)/;
    // A new window: no key set yet, the check not answered (it waits for activation, then git).
    assert.doesNotMatch(welcome(windowKeys()), NOT_A_REPO);
    const { dir, repo } = makeRepo();
    dirs.push(dir);
    vscodeStub.folder = repo;
    await connect().checked;
    assert.doesNotMatch(welcome(windowKeys()), NOT_A_REPO, 'said of a repository');
    assert.match(welcome(windowKeys()), START_IN_WORKTREE, 'not offered in a repository');
    vscodeStub.reset();
    const notes = path.join(dir, 'notes');
    mkdirSync(notes);
    vscodeStub.folder = notes;
    await connect().checked;
    assert.match(welcome(windowKeys()), NOT_A_REPO);
    // Its button could only explain why it cannot run: the line above says so already.
    assert.doesNotMatch(welcome(windowKeys()), START_IN_WORKTREE, 'offered in a folder that is no repository');
    assert.match(welcome(windowKeys()), /command:rpcWorkers\.startDemoWorker\)/, 'the other starts are still offered');
  });
});
