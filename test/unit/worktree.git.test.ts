// A worktree per worker, on real git repositories made here in a temp folder: create, change,
// list, diff sides, merge (clean, conflicting, refused for a dirty tree), discard, not-a-repo.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { created, makeRepo, sh } from '../helpers/gitRepo';
import {
  abortMerge, contentAt, createWorktree, defaultWorktreesDir, detectRepository, discardWorktree, finishMerge,
  listWorkerWorktrees, mergeWorktree, openWorktree, previewDiscard, slugFor, specInWorktree, workerChanges,
} from '../../src/core/worktree';

describe('worktree per worker (real git)', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  beforeEach(() => ({ dir, repo } = makeRepo()));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('says why a folder is not usable: not a repository, no commit yet, missing', async () => {
    const plain = path.join(dir, 'plain');
    mkdirSync(plain);
    const r = await detectRepository(plain);
    assert.equal(r.status, 'not_a_repository');
    assert.match((r as { reason: string }).reason, /not in a git repository/);
    const c = await createWorktree({ folder: plain, workerName: 'w' });
    assert.equal(c.status, 'not_a_repository');

    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    sh(empty, 'init', '-q');
    assert.equal((await detectRepository(empty)).status, 'no_commits');
    assert.equal((await detectRepository(path.join(dir, 'nope'))).status, 'not_found');

    const ok = await detectRepository(path.join(repo));
    assert.equal(ok.status, 'repository');
    assert.equal(ok.status === 'repository' && ok.branch, 'main');
  });

  it('creates a worktree on a new branch named after the worker, beside the repository, unique', async () => {
    const wt = await created(repo, 'Fix the Tests!');
    assert.equal(wt.branch, 'worker/fix-the-tests');
    assert.equal(wt.path, path.join(dir, 'proj.worktrees', 'fix-the-tests'));
    assert.equal(defaultWorktreesDir(repo), path.join(dir, 'proj.worktrees'));
    assert.equal(wt.target, 'main');
    assert.equal(wt.baseCommit, sh(repo, 'rev-parse', 'HEAD'));
    assert.equal(sh(wt.path, 'symbolic-ref', '--short', 'HEAD'), 'worker/fix-the-tests');
    assert.equal(readFileSync(path.join(wt.path, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');

    const again = await created(repo, 'fix the tests');
    assert.equal(again.branch, 'worker/fix-the-tests-2');
    assert.equal(path.basename(again.path), 'fix-the-tests-2');
    // A folder already there (not a worktree) is not taken over.
    mkdirSync(path.join(dir, 'proj.worktrees', 'fix-the-tests-3'));
    assert.equal((await created(repo, 'fix the tests')).branch, 'worker/fix-the-tests-4');

    const elsewhere = path.join(dir, 'mine');
    assert.equal(path.dirname((await created(repo, 'τ', { worktreesDir: elsewhere })).path), elsewhere);

    // Read back from git alone, as after a reload.
    const listed = await listWorkerWorktrees(repo);
    assert.deepEqual(listed.map((w) => w.branch).sort(), ['worker/fix-the-tests', 'worker/fix-the-tests-2', 'worker/fix-the-tests-4', 'worker/worker']);
    const opened = await openWorktree(wt.path);
    assert.deepEqual(opened.status === 'ok' && opened.worktree, wt);
    assert.equal((await openWorktree(repo)).status, 'not_managed');
  });

  it('two starts at once with the same name get two branches', async () => {
    const both = await Promise.all([createWorktree({ folder: repo, workerName: 'twin' }), createWorktree({ folder: repo, workerName: 'twin' })]);
    assert.deepEqual(both.map((r) => r.status), ['created', 'created'], JSON.stringify(both));
    const branches = both.map((r) => (r.status === 'created' ? r.worktree.branch : '')).sort();
    assert.deepEqual(branches, ['worker/twin', 'worker/twin-2']);
  });

  it('many starts at once with the same name (Start Demo Worker in New Worktree clicked on and on) each get a branch', async () => {
    const all = await Promise.all(Array.from({ length: 8 }, () => createWorktree({ folder: repo, workerName: 'Demo worker' })));
    assert.deepEqual(all.map((r) => r.status), Array(8).fill('created'), JSON.stringify(all.filter((r) => r.status !== 'created')));
    assert.equal(new Set(all.map((r) => (r.status === 'created' ? r.worktree.branch : ''))).size, 8);
  });

  it('moves a worker\'s spec into its worktree: cwd, workspace folder, the guard\'s paths', async () => {
    const wt = await created(repo, 'w');
    const spec = specInWorktree({
      dialect: 'pi', command: 'pi', cwd: path.join(repo, 'sub'), workspaceFolder: repo,
      guard: { allowedPaths: [repo, '/tmp/scratch'], forbiddenPaths: [path.join(repo, 'secrets')] },
    }, wt, repo);
    assert.equal(spec.cwd, path.join(wt.path, 'sub'));
    assert.equal(spec.workspaceFolder, wt.path);
    assert.deepEqual(spec.guard, { allowedPaths: [wt.path, '/tmp/scratch'], forbiddenPaths: [path.join(wt.path, 'secrets')] });
    assert.equal(specInWorktree({ dialect: 'tau', command: 'tau', cwd: repo, guard: true }, wt, repo).guard, true);
    assert.equal(specInWorktree({ dialect: 'tau', command: 'tau', cwd: '/elsewhere' }, wt, repo).cwd, wt.path);
  });

  it('moves the guard\'s paths when the workspace folder is opened through a symlink and git names the real one', async () => {
    const link = path.join(dir, 'link-proj');
    symlinkSync(repo, link);
    const found = await detectRepository(link);
    assert.equal(found.status === 'repository' && found.root, repo);
    const wt = await created(repo, 'w');
    const spec = specInWorktree({
      dialect: 'pi', command: 'pi', cwd: path.join(link, 'sub'), workspaceFolder: link,
      guard: { allowedPaths: [path.join(link, 'src'), '/tmp/scratch'], forbiddenPaths: [path.join(link, 'secrets/**')] },
    }, wt, repo);
    assert.equal(spec.cwd, path.join(wt.path, 'sub'));
    assert.deepEqual(spec.guard, { allowedPaths: [path.join(wt.path, 'src'), '/tmp/scratch'], forbiddenPaths: [path.join(wt.path, 'secrets/**')] });
  });

  it('names branches safely', () => {
    assert.equal(slugFor('  ../..evil name.lock '), 'evil-name');
    assert.equal(slugFor('Café Worker #2'), 'cafe-worker-2');
    assert.equal(slugFor('τ'), 'worker');
    assert.equal(slugFor('a'.repeat(100)).length, 40);
  });

  it('lists added / modified / deleted / renamed files, committed or not, untracked included, ignored not', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'a.txt'), 'one\nTWO\nthree\nfour\n');
    writeFileSync(path.join(wt.path, 'new.txt'), 'fresh\n');
    writeFileSync(path.join(wt.path, 'pic.bin'), Buffer.from([0, 1, 2, 0, 255]));
    unlinkSync(path.join(wt.path, 'gone.txt'));
    renameSync(path.join(wt.path, 'old.txt'), path.join(wt.path, 'moved.txt'));
    mkdirSync(path.join(wt.path, 'ignored'));
    writeFileSync(path.join(wt.path, 'ignored/x.log'), 'noise\n');
    // One change committed by the agent itself.
    writeFileSync(path.join(wt.path, 'b.txt'), 'bee\nsting\n');
    sh(wt.path, 'commit', '-q', '-am', 'agent commit');
    const indexBefore = sh(wt.path, 'diff', '--cached', '--name-only');

    const r = await workerChanges(wt);
    if (r.status !== 'ok') return assert.fail(r.reason);
    assert.equal(r.base, wt.baseCommit);
    const by = Object.fromEntries(r.files.map((f) => [f.path, f]));
    assert.deepEqual(Object.keys(by).sort(), ['a.txt', 'b.txt', 'gone.txt', 'moved.txt', 'new.txt', 'pic.bin']);
    assert.deepEqual([by['pic.bin'].kind, by['pic.bin'].linesAdded], ['added', null], 'binary: no line counts');
    assert.equal(by['a.txt'].kind, 'modified');
    assert.deepEqual([by['a.txt'].linesAdded, by['a.txt'].linesRemoved], [2, 1]);
    assert.equal(by['b.txt'].kind, 'modified');
    assert.equal(by['new.txt'].kind, 'added');
    assert.equal(by['new.txt'].left, null);
    assert.equal(by['gone.txt'].kind, 'deleted');
    assert.equal(by['gone.txt'].right, null);
    assert.equal(by['moved.txt'].kind, 'renamed');
    assert.equal(by['moved.txt'].oldPath, 'old.txt');
    assert.deepEqual(r.counts, { added: 2, modified: 2, deleted: 1, renamed: 1, total: 6 });
    // The worktree's own index is untouched (the agent's staging stays the agent's).
    assert.equal(sh(wt.path, 'diff', '--cached', '--name-only'), indexBefore);

    // What the diff editor needs: the base content and the worktree file.
    const left = by['moved.txt'].left!;
    const base = await contentAt(repo, left.commit, left.path);
    assert.equal(base.status === 'ok' && base.content.toString(), 'a file long enough\nto be seen as renamed\nwhen it moves\n');
    assert.equal(by['a.txt'].right, path.join(wt.path, 'a.txt'));
    assert.equal((await contentAt(repo, r.base, 'new.txt')).status, 'missing');
  });

  it('merges clean: commits the worker\'s changes on its branch, then a real --no-ff merge; later changes count from there', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'new.txt'), 'from the worker\n');
    writeFileSync(path.join(wt.path, 'a.txt'), 'one\ntwo\nthree\nfour\n');
    // The person works on too: an unrelated committed change and an unrelated uncommitted one.
    writeFileSync(path.join(repo, 'b.txt'), 'bee\nby the person\n');
    sh(repo, 'commit', '-q', '-am', 'person');
    writeFileSync(path.join(repo, 'gone.txt'), 'edited, not committed\n');

    const m = await mergeWorktree(wt, { into: repo });
    if (m.status !== 'merged') return assert.fail(JSON.stringify(m));
    assert.ok(m.committed, 'the uncommitted work was committed on the branch');
    assert.equal(sh(wt.path, 'log', '-1', '--format=%s'), 'w: its uncommitted work, committed to merge into main');
    assert.equal(sh(repo, 'rev-list', '--count', '--merges', 'HEAD'), '1');
    assert.equal(sh(repo, 'log', '-1', '--format=%s'), 'Merge w (worker/w) into main');
    assert.deepEqual(m.files.sort(), ['a.txt', 'new.txt']);
    assert.equal(readFileSync(path.join(repo, 'new.txt'), 'utf8'), 'from the worker\n');
    assert.equal(readFileSync(path.join(repo, 'gone.txt'), 'utf8'), 'edited, not committed\n', 'the person\'s own edit is kept');

    const after = await workerChanges(wt);
    assert.equal(after.status === 'ok' && after.files.length, 0, 'nothing left to review after the merge');
    writeFileSync(path.join(wt.path, 'later.txt'), 'more\n');
    const more = await workerChanges(wt);
    assert.deepEqual(more.status === 'ok' && more.files.map((f) => f.path), ['later.txt']);
    const again = await mergeWorktree(wt);
    assert.equal(again.status, 'merged', JSON.stringify(again));
    assert.equal((await mergeWorktree(wt)).status, 'up_to_date');
  });

  it('refuses, changing nothing, when the person has uncommitted changes in files the merge would write', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'a.txt'), 'worker\n');
    writeFileSync(path.join(wt.path, 'new.txt'), 'worker\n');
    writeFileSync(path.join(repo, 'a.txt'), 'person, unsaved work\n');
    writeFileSync(path.join(repo, 'new.txt'), 'person, untracked\n');
    const head = sh(repo, 'rev-parse', 'HEAD');
    const wtHead = sh(wt.path, 'rev-parse', 'HEAD');
    const m = await mergeWorktree(wt, { into: repo });
    assert.equal(m.status, 'dirty', JSON.stringify(m));
    assert.deepEqual(m.status === 'dirty' && m.files.sort(), ['a.txt', 'new.txt']);
    assert.equal(sh(repo, 'rev-parse', 'HEAD'), head);
    assert.equal(sh(wt.path, 'rev-parse', 'HEAD'), wtHead, 'nothing was committed on the worker\'s branch either');
    assert.equal(readFileSync(path.join(repo, 'a.txt'), 'utf8'), 'person, unsaved work\n');
  });

  it('leaves a conflicting merge in progress and returns the conflicted files; resolve and finish, or abort', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'a.txt'), 'one\nWORKER\nthree\n');
    writeFileSync(path.join(repo, 'a.txt'), 'one\nPERSON\nthree\n');
    sh(repo, 'commit', '-q', '-am', 'person edits line two');
    const m = await mergeWorktree(wt);
    if (m.status !== 'conflicts') return assert.fail(JSON.stringify(m));
    assert.equal(m.into, repo);
    assert.deepEqual(m.conflicts, [{ path: 'a.txt', absPath: path.join(repo, 'a.txt'), stages: [1, 2, 3] }]);
    assert.match(readFileSync(path.join(repo, 'a.txt'), 'utf8'), /<<<<<<< HEAD\nPERSON\n=======\nWORKER\n>>>>>>> worker\/w/);
    const theirs = await contentAt(repo, ':3', 'a.txt');
    assert.equal(theirs.status === 'ok' && theirs.content.toString(), 'one\nWORKER\nthree\n');
    assert.equal((await mergeWorktree(wt)).status, 'merge_in_progress');
    assert.equal((await finishMerge(repo)).status, 'conflicts', 'markers still in the file');

    assert.equal((await abortMerge(repo)).status, 'aborted');
    assert.equal(readFileSync(path.join(repo, 'a.txt'), 'utf8'), 'one\nPERSON\nthree\n');

    const again = await mergeWorktree(wt);
    assert.equal(again.status, 'conflicts');
    writeFileSync(path.join(repo, 'a.txt'), 'one\nBOTH\nthree\n');
    const done = await finishMerge(repo);
    assert.equal(done.status, 'merged', JSON.stringify(done));
    assert.equal(sh(repo, 'show', 'HEAD:a.txt'), 'one\nBOTH\nthree');
    assert.equal(sh(repo, 'rev-list', '--count', '--merges', 'HEAD'), '1');
  });

  it('discard: says what would be lost, refuses if the worktree changed since, then removes worktree and branch', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'b.txt'), 'bee\nagent\n');
    sh(wt.path, 'commit', '-q', '-am', 'agent did this');
    writeFileSync(path.join(wt.path, 'draft.txt'), 'unsaved idea\n');
    const p = await previewDiscard(wt);
    if (p.status !== 'ok') return assert.fail(p.reason);
    assert.deepEqual(p.uncommitted.map((f) => [f.kind, f.path]), [['added', 'draft.txt']]);
    assert.deepEqual(p.unmergedCommits.map((c) => c.subject), ['agent did this']);
    assert.equal(p.nothingLost, false);

    writeFileSync(path.join(wt.path, 'draft.txt'), 'the agent wrote more after the question\n');
    const refused = await discardWorktree(wt, p.fingerprint);
    assert.equal(refused.status, 'changed_since_preview');
    assert.ok(existsSync(wt.path));

    const p2 = await previewDiscard(wt);
    const d = await discardWorktree(wt, p2.status === 'ok' ? p2.fingerprint : '');
    assert.equal(d.status, 'discarded', JSON.stringify(d));
    assert.ok(!existsSync(wt.path));
    assert.equal(sh(repo, 'branch', '--list', 'worker/w'), '');
    assert.doesNotMatch(sh(repo, 'config', '--list'), /rpcworkers/i, 'the branch\'s records went with it');
    assert.deepEqual(await listWorkerWorktrees(repo), []);
  });

  it('refuses to merge into a detached HEAD, or when the branch it came from is checked out nowhere', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    sh(repo, 'checkout', '-q', '--detach');
    assert.equal((await mergeWorktree(wt, { into: repo })).status, 'detached_head');
    const nowhere = await mergeWorktree(wt);
    assert.equal(nowhere.status, 'not_found');
    assert.match((nowhere as { reason: string }).reason, /main the worker came from is not checked out/);
    assert.equal(sh(wt.path, 'status', '--porcelain'), '?? new.txt', 'nothing was committed');
    assert.equal((await mergeWorktree(wt, { into: wt.path })).status, 'error');
  });

  it('discard counts the commits an agent made on a detached HEAD in its worktree (no branch holds them)', async () => {
    const wt = await created(repo, 'w');
    sh(wt.path, 'checkout', '-q', '--detach');
    writeFileSync(path.join(wt.path, 'b.txt'), 'bee\ndetached\n');
    sh(wt.path, 'commit', '-q', '-am', 'made while detached');
    const p = await previewDiscard(wt);
    if (p.status !== 'ok') return assert.fail(p.reason);
    assert.deepEqual(p.unmergedCommits.map((c) => c.subject), ['made while detached']);
    assert.equal(p.nothingLost, false);
  });

  it('a merged worker loses nothing on discard', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    assert.equal((await mergeWorktree(wt)).status, 'merged');
    const p = await previewDiscard(wt);
    assert.equal(p.status === 'ok' && p.nothingLost, true);
  });
});
