// A worker's worktree at the edges a real repository has: branch names in the way, a worktree
// whose HEAD left its branch, a folder removed by hand, a submodule, a staged index, ignored
// files. Real git in a temp folder; each answer must be true and name git's own failure.
import { vscodeStub } from '../helpers/vscodeStub'; // before the UI module, which imports vscode
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { created, makeRepo, sh } from '../helpers/gitRepo';
import * as realCore from '../../src/core/index';
import { hookSources } from '../../src/core/worktree/hookSources';
import { discardMessage, WorktreeActions } from '../../src/ui/worktrees/worktreeActions';
import { createWorktree, detectRepository, discardWorktree, finishMerge, listWorkerWorktrees, mergeWorktree, previewDiscard, workerChanges } from '../../src/core/worktree';

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

  it('merging a worktree whose HEAD left its branch (detached, or another branch) is refused, not reported merged', async () => {
    const wt = await created(repo, 'w');
    sh(wt.path, 'checkout', '-q', '--detach');
    writeFileSync(path.join(wt.path, 'new.txt'), 'detached work\n');
    sh(wt.path, 'add', '-A');
    sh(wt.path, 'commit', '-q', '-m', 'made while detached');
    writeFileSync(path.join(wt.path, 'more.txt'), 'not committed\n');
    writeFileSync(path.join(repo, 'b.txt'), 'person\n');
    sh(repo, 'commit', '-q', '-am', 'person commit');
    const head = sh(repo, 'rev-parse', 'HEAD');
    const wtHead = sh(wt.path, 'rev-parse', 'HEAD');
    const m = await mergeWorktree(wt, { into: repo });
    assert.equal(m.status, 'error', JSON.stringify(m));
    assert.match((m as { reason: string }).reason, /not on its branch worker\/w \(its HEAD is detached\)/);
    assert.equal(sh(repo, 'rev-parse', 'HEAD'), head, 'the person\'s branch moved');
    assert.equal(sh(wt.path, 'rev-parse', 'HEAD'), wtHead, 'something was committed in the worktree');

    sh(wt.path, 'checkout', '-q', '-b', 'agent-own');
    const other = await mergeWorktree(wt, { into: repo });
    assert.match((other as { reason: string }).reason, /it has agent-own checked out/);
    // Back on its branch (with the commit), it merges, and everything is in.
    sh(wt.path, 'checkout', '-q', 'worker/w');
    sh(wt.path, 'merge', '-q', '--ff-only', 'agent-own');
    const ok = await mergeWorktree(wt, { into: repo });
    assert.equal(ok.status, 'merged', JSON.stringify(ok));
    assert.deepEqual(ok.status === 'merged' && ok.files.sort(), ['more.txt', 'new.txt']);
  });

  it('a worktree folder deleted by hand is said to be gone in its listing, not "git is not installed"', async () => {
    const wt = await created(repo, 'w');
    rmSync(wt.path, { recursive: true, force: true });
    const changes = await workerChanges(wt);
    assert.equal(changes.status, 'error');
    const reason = (changes as { reason: string }).reason;
    assert.ok(reason.includes(`the folder ${wt.path} does not exist`), reason);
    assert.doesNotMatch(reason, /not installed/);
  });

  it('a worktree whose folder was deleted by hand can still be discarded: its branch\'s own commits are named first', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'b.txt'), 'bee\nagent\n');
    sh(wt.path, 'commit', '-q', '-am', 'agent did this');
    rmSync(wt.path, { recursive: true, force: true });
    const p = await previewDiscard(wt);
    if (p.status !== 'ok') return assert.fail(p.reason);
    assert.deepEqual([p.folderGone, p.uncommitted, p.unmergedCommits.map((c) => c.subject), p.nothingLost], [true, [], ['agent did this'], false]);
    assert.match(discardMessage({ worktree: wt }, p), /\(.*, its folder deleted already\) and its branch worker\/w\? This deletes 1 commit no other branch holds \([0-9a-f]{8} agent did this\)/);
    const d = await discardWorktree(wt, p.fingerprint);
    assert.equal(d.status, 'discarded', JSON.stringify(d));
    assert.equal(sh(repo, 'branch', '--list', 'worker/w'), '');
    assert.doesNotMatch(sh(repo, 'worktree', 'list'), /proj\.worktrees/);
  });

  it('a workspace that is a submodule: its worktrees go beside the submodule\'s folder, not into the superproject\'s .git', async () => {
    const lib = makeRepo({ 'lib.txt': 'lib\n' });
    try {
      execFileSync('git', ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib.repo, 'sub'], { cwd: repo, stdio: 'ignore' });
      sh(repo, 'commit', '-q', '-m', 'add sub');
      const sub = path.join(repo, 'sub');
      const found = await detectRepository(sub);
      assert.equal(found.status === 'repository' && found.mainRoot, sub);
      const wt = await created(sub, 'w');
      assert.equal(wt.path, path.join(repo, 'sub.worktrees', 'w'));
      assert.equal(wt.mainRoot, sub);
      assert.deepEqual((await listWorkerWorktrees(sub)).map((w) => w.path), [wt.path]);
      const p = await previewDiscard(wt);
      assert.equal((await discardWorktree(wt, p.status === 'ok' ? p.fingerprint : '')).status, 'discarded');
    } finally {
      rmSync(lib.dir, { recursive: true, force: true });
    }
  });

  it('a change the person staged (in a file the worker did not touch) refuses the merge before the worker\'s work is committed', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'new.txt'), 'worker\n');
    writeFileSync(path.join(repo, 'b.txt'), 'staged by the person\n');
    sh(repo, 'add', 'b.txt');
    const wtHead = sh(wt.path, 'rev-parse', 'HEAD');
    const m = await mergeWorktree(wt, { into: repo });
    assert.equal(m.status, 'dirty', JSON.stringify(m));
    assert.deepEqual(m.status === 'dirty' && m.files, ['b.txt']);
    assert.match((m as { reason: string }).reason, /staged changes in b\.txt, and git merges only when nothing is staged/);
    assert.equal(sh(wt.path, 'rev-parse', 'HEAD'), wtHead, 'the worker\'s work was committed on its branch all the same');
    assert.equal(sh(wt.path, 'status', '--porcelain'), '?? new.txt');
    // Unstaged (the edit kept in the file), it merges.
    sh(repo, 'reset', '-q');
    assert.equal((await mergeWorktree(wt, { into: repo })).status, 'merged');
    assert.equal(readFileSync(path.join(repo, 'b.txt'), 'utf8'), 'staged by the person\n');
  });

  // A worker's `git clone` or `git init` under its worktree: `git add -A` takes such a folder as a
  // pointer to its commit (a gitlink), none of its files.
  const nestedRepository = (wt: { path: string }): void => {
    const lib = path.join(wt.path, 'vendor', 'lib');
    mkdirSync(lib, { recursive: true });
    sh(lib, 'init', '-q');
    writeFileSync(path.join(lib, 'lib.c'), 'int the_workers_patch;\n');
    sh(lib, '-c', 'user.name=a', '-c', 'user.email=a@b', 'add', '-A');
    sh(lib, '-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '-q', '-m', 'lib');
  };

  it('a repository nested in the worktree that .gitmodules does not list refuses the merge, named, with nothing changed', async () => {
    const wt = await created(repo, 'w');
    nestedRepository(wt);
    writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    const head = sh(repo, 'rev-parse', 'HEAD');
    const r = await mergeWorktree(wt, { into: repo });
    assert.equal(r.status, 'error');
    assert.match((r as { reason: string }).reason, /vendor\/lib is a repository of its own .*not listed in \.gitmodules.*nothing was changed/);
    assert.equal(sh(repo, 'rev-parse', 'HEAD'), head);
    assert.equal(sh(wt.path, 'status', '--porcelain'), '?? new.txt\n?? vendor/', 'nothing was committed');
    // Listed in .gitmodules it is a submodule, which the person merges as one.
    writeFileSync(path.join(wt.path, '.gitmodules'), '[submodule "lib"]\n\tpath = vendor/lib\n\turl = ./lib\n');
    assert.equal((await mergeWorktree(wt, { into: repo })).status, 'merged');
  });

  it('discard names a nested repository as lost, though its pointer is committed and merged', async () => {
    const wt = await created(repo, 'w');
    nestedRepository(wt);
    sh(wt.path, 'add', '-A');
    sh(wt.path, 'commit', '-q', '-m', 'the worker committed it');
    sh(repo, 'merge', '-q', '--no-ff', '--no-edit', wt.branch);
    const p = await previewDiscard(wt);
    if (p.status !== 'ok') return assert.fail(p.reason);
    assert.deepEqual([p.uncommitted, p.unmergedCommits, p.nested, p.nothingLost], [[], [], ['vendor/lib'], false]);
    assert.match(discardMessage({ worktree: wt }, p), /This deletes 1 repository of its own \(vendor\/lib\), whose files and commits no branch here holds\. It cannot be undone\./);
  });

  it('discard names the ignored files it would delete with the folder (no branch holds them)', async () => {
    const wt = await created(repo, 'w');
    mkdirSync(path.join(wt.path, 'ignored'));
    writeFileSync(path.join(wt.path, 'ignored', 'notes.log'), 'the worker\'s notes\n');
    const p = await previewDiscard(wt);
    if (p.status !== 'ok') return assert.fail(p.reason);
    assert.deepEqual(p.ignored, ['ignored/']);
    assert.equal(p.nothingLost, true, 'nothing tracked is lost');
    assert.match(discardMessage({ worktree: wt }, p), /Every change git tracks is in another branch\. The files git ignores there go too: ignored\/\./);
    writeFileSync(path.join(wt.path, 'draft.txt'), 'x\n');
    const q = await previewDiscard(wt);
    assert.match(discardMessage({ worktree: wt }, q as never), /This deletes 1 uncommitted file \(draft\.txt added\)\. The files git ignores there go too: ignored\/\. It cannot be undone\./);
    rmSync(path.join(wt.path, 'ignored'), { recursive: true });
    rmSync(path.join(wt.path, 'draft.txt'));
    const r = await previewDiscard(wt);
    assert.equal(discardMessage({ worktree: wt }, r as never), `Discard w's worktree (${wt.path}) and its branch worker/w? Nothing would be lost: every change is in another branch.`);
  });

  it('a worktree made while the checkout has uncommitted changes says they are not in it (it starts from the last commit)', async () => {
    writeFileSync(path.join(repo, 'a.txt'), 'the person\'s unfinished edit\n');
    writeFileSync(path.join(repo, 'idea.txt'), 'untracked\n');
    const r = await createWorktree({ folder: repo, workerName: 'w' });
    if (r.status !== 'created') return assert.fail(JSON.stringify(r));
    assert.deepEqual(r.leftOut.sort(), ['a.txt', 'idea.txt']);
    assert.equal(readFileSync(path.join(r.worktree.path, 'a.txt'), 'utf8'), 'one\ntwo\nthree\n');

    vscodeStub.reset();
    const actions = new WorktreeActions({ supervisor: {} as never, worktrees: {} as never, core: () => realCore.worktree, worktreesDir: () => '', log: { info() {}, warn() {} } as never });
    const placed = await actions.place({ dialect: 'tau', command: 'tau', cwd: repo, name: 'Fixer' });
    assert.ok(!('status' in placed), JSON.stringify(placed));
    assert.equal(vscodeStub.messages.length, 1);
    assert.match(vscodeStub.messages[0], /Fixer's worktree starts from your last commit \(main at [0-9a-f]{8}\): your uncommitted changes are not in it \((a\.txt, idea\.txt|idea\.txt, a\.txt)\)/);
    sh(repo, 'checkout', '-q', '--', 'a.txt');
    rmSync(path.join(repo, 'idea.txt'));
    vscodeStub.reset();
    await actions.place({ dialect: 'tau', command: 'tau', cwd: repo, name: 'Clean' });
    assert.deepEqual(vscodeStub.messages, [], 'a clean checkout: nothing to say');
  });

  it('worktrees kept inside the repository (rpcWorkers.worktreesDir relative): a clean checkout has nothing left out, the other workers\' folders are not the person\'s changes', async () => {
    const first = await createWorktree({ folder: repo, workerName: 'one', worktreesDir: path.join(repo, 'wts') });
    if (first.status !== 'created') return assert.fail(JSON.stringify(first));
    assert.deepEqual(first.leftOut, [], 'the new worktree\'s own folder said as an uncommitted change of the person\'s');
    const second = await createWorktree({ folder: repo, workerName: 'two', worktreesDir: path.join(repo, 'wts') });
    if (second.status !== 'created') return assert.fail(JSON.stringify(second));
    assert.deepEqual(second.leftOut, []);
    writeFileSync(path.join(repo, 'idea.txt'), 'untracked\n');
    const third = await createWorktree({ folder: repo, workerName: 'three', worktreesDir: path.join(repo, 'wts') });
    assert.deepEqual(third.status === 'created' && third.leftOut, ['idea.txt'], 'the person\'s own file is still said');
  });

  it('a binary file both changed: Complete Merge does not commit the person\'s side as the resolution, since git wrote no markers and left the worker\'s side out', async () => {
    writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0, 0, 1]));
    sh(repo, 'add', 'logo.png');
    sh(repo, 'commit', '-q', '-m', 'logo');
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'logo.png'), Buffer.from([0x89, 0x50, 0, 0, 2, 2]));
    writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0, 0, 3]));
    sh(repo, 'commit', '-q', '-am', 'person\'s logo');
    const m = await mergeWorktree(wt);
    assert.equal(m.status, 'conflicts', JSON.stringify(m));
    const f = await finishMerge(repo);
    assert.equal(f.status, 'conflicts', `the merge was completed with the person's logo alone: ${JSON.stringify(f)}`);
    assert.deepEqual(f.status === 'conflicts' && f.conflicts.map((c) => [c.path, c.binary]), [['logo.png', true]]);
    assert.ok(sh(repo, 'rev-parse', '-q', '--verify', 'MERGE_HEAD'), 'the merge is still in progress');
    vscodeStub.reset();
    const actions = new WorktreeActions({ supervisor: {} as never, worktrees: { all: () => [] } as never, core: () => realCore.worktree, worktreesDir: () => '', log: { info() {}, warn() {} } as never });
    assert.equal((await actions.finish(repo, false)).status, 'conflicts');
    assert.equal(vscodeStub.messages[0], 'RPC Workers: not completed: logo.png is binary, and git left your side in it and the worker\'s out: take one (git checkout --theirs -- logo.png for the worker\'s, --ours for yours) and stage it (git add), then Complete Merge.');
    // The person takes a side and stages it: that is a resolution, and the merge completes.
    sh(repo, 'checkout', '--theirs', '--', 'logo.png');
    sh(repo, 'add', 'logo.png');
    const done = await finishMerge(repo);
    assert.equal(done.status, 'merged', JSON.stringify(done));
    assert.deepEqual([...readFileSync(path.join(repo, 'logo.png'))], [0x89, 0x50, 0, 0, 2, 2]);
  });

  it('a binary file both changed, replaced by the person with another version: that is their resolution, and Complete Merge completes', async () => {
    writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0, 0, 1]));
    sh(repo, 'add', 'logo.png');
    sh(repo, 'commit', '-q', '-m', 'logo');
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'logo.png'), Buffer.from([0x89, 0x50, 0, 0, 2]));
    writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0, 0, 3]));
    sh(repo, 'commit', '-q', '-am', 'person\'s logo');
    assert.equal((await mergeWorktree(wt)).status, 'conflicts');
    writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0, 0, 4]));
    const done = await finishMerge(repo);
    assert.equal(done.status, 'merged', JSON.stringify(done));
  });

  it('a text file with a tab in its name counts its lines (it was called binary), renamed or not', async () => {
    writeFileSync(path.join(repo, 'notes\tdraft.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\n');
    sh(repo, 'add', '-A');
    sh(repo, 'commit', '-q', '-m', 'notes');
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'notes\tdraft.txt'), 'one\ntwo\nTHREE\nfour\nfive\nsix\nseven\n');
    writeFileSync(path.join(wt.path, 'a\tb.txt'), 'x\n');
    const r = await workerChanges(wt);
    if (r.status !== 'ok') return assert.fail(r.reason);
    const by = Object.fromEntries(r.files.map((f) => [f.path, [f.kind, f.linesAdded, f.linesRemoved]]));
    assert.deepEqual(by, { 'notes\tdraft.txt': ['modified', 2, 1], 'a\tb.txt': ['added', 1, 0] });
  });

  it('a pre-merge-commit hook that refuses leaves the merge in progress, said so with git\'s words and the way out', async () => {
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    const hook = path.join(repo, '.git', 'hooks', 'pre-merge-commit');
    writeFileSync(hook, '#!/bin/sh\necho "lint failed: fix it" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const m = await mergeWorktree(wt, { into: repo });
    assert.equal(m.status, 'merge_in_progress', JSON.stringify(m));
    assert.match((m as { reason: string }).reason, /lint failed: fix it[^]*the merge is left in progress in .*: complete it .* or abort it/);

    vscodeStub.reset();
    const actions = new WorktreeActions({ supervisor: { state: () => ({ status: 'not_found' }), list: () => [] } as never, worktrees: { get: () => ({ workerId: 'w', worktree: wt, checkout: repo, files: [], counts: null, error: null }), refresh: async () => {}, all: () => [] } as never, core: () => realCore.worktree, worktreesDir: () => '', log: { info() {}, warn() {} } as never });
    const again = await actions.merge({ workerId: 'w' });
    assert.equal(again.status, 'error');
    assert.match(vscodeStub.messages[0], /^RPC Workers: not merged: a merge is already in progress/);
    assert.deepEqual(vscodeStub.buttons[0], ['Complete Merge', 'Abort Merge']);
    rmSync(hook);
    assert.equal((await actions.finish(repo, false)).status, 'merged');
    assert.equal(readFileSync(path.join(repo, 'new.txt'), 'utf8'), 'x\n');
  });

  it('a start from a folder git does not track (so not in a new worktree) is refused naming it, and the fresh worktree goes', async () => {
    const scratch = path.join(repo, 'ignored', 'scratch');
    mkdirSync(scratch, { recursive: true });
    vscodeStub.reset();
    const actions = new WorktreeActions({ supervisor: {} as never, worktrees: { all: () => [] } as never, core: () => realCore.worktree, worktreesDir: () => '', log: { info() {}, warn() {} } as never });
    const placed = await actions.place({ dialect: 'tau', command: 'tau', cwd: scratch, name: 'w' });
    assert.equal('status' in placed && placed.status, 'error', JSON.stringify(placed));
    assert.ok(vscodeStub.messages[0]?.includes(`its folder ${scratch} holds no file git tracks`), vscodeStub.messages[0]);
    assert.deepEqual(await listWorkerWorktrees(repo), [], 'the fresh worktree was left behind');
    assert.equal(sh(repo, 'branch', '--list', 'worker/*'), '');
  });

  it('Merge runs no hook from inside the worker\'s worktree (husky\'s relative core.hooksPath): the worker could write it, guard or not', async () => {
    sh(repo, 'config', 'core.hooksPath', '.husky/_');
    const wt = await created(repo, 'w');
    // What a guarded worker may write: files in its worktree. husky's own folder ignores itself
    // (`*`), so the hooks are in no list of the worker's changes, and no merge brings them over.
    const own = path.join(wt.path, '.husky', '_');
    mkdirSync(own, { recursive: true });
    writeFileSync(path.join(own, '.gitignore'), '*\n');
    const marker = path.join(dir, 'WORKER-HOOK-RAN');
    for (const hook of ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit']) {
      writeFileSync(path.join(own, hook), `#!/bin/sh\ntouch '${marker}'\n`);
      chmodSync(path.join(own, hook), 0o755);
    }
    writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    const m = await mergeWorktree(wt, { into: repo });
    assert.equal(m.status, 'merged', JSON.stringify(m));
    assert.equal(existsSync(marker), false, 'a hook the worker wrote ran when the person merged');

    // The person's own hooks (in .git/hooks, out of the worker's reach) still run.
    sh(repo, 'config', '--unset', 'core.hooksPath');
    const mine = path.join(dir, 'PERSON-HOOK-RAN');
    writeFileSync(path.join(repo, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch '${mine}'\n`);
    chmodSync(path.join(repo, '.git', 'hooks', 'pre-commit'), 0o755);
    writeFileSync(path.join(wt.path, 'later.txt'), 'y\n');
    assert.equal((await mergeWorktree(wt, { into: repo })).status, 'merged');
    assert.equal(existsSync(mine), true);
  });

  it('Merge runs none of the person\'s hooks when the worker changed what they run (husky\'s .husky/post-merge), and says so', async () => {
    // husky's layout in the person's checkout: core.hooksPath .husky/_ holds generated wrappers
    // (ignored) that run the tracked scripts beside them, .husky/<hook>, when there is one.
    sh(repo, 'config', 'core.hooksPath', '.husky/_');
    const wrappers = path.join(repo, '.husky', '_');
    mkdirSync(wrappers, { recursive: true });
    writeFileSync(path.join(wrappers, '.gitignore'), '*\n');
    for (const hook of ['pre-merge-commit', 'post-merge']) {
      writeFileSync(path.join(wrappers, hook), `#!/bin/sh\nf="$(git rev-parse --show-toplevel)/.husky/${hook}"\n[ -f "$f" ] && sh "$f"\nexit 0\n`);
      chmodSync(path.join(wrappers, hook), 0o755);
    }
    const wt = await created(repo, 'w');
    const marker = path.join(dir, 'WORKER-SCRIPT-RAN');
    mkdirSync(path.join(wt.path, '.husky'), { recursive: true });
    writeFileSync(path.join(wt.path, '.husky', 'post-merge'), `touch '${marker}'\n`);
    writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    const m = await mergeWorktree(wt, { into: repo });
    assert.equal(m.status, 'merged', JSON.stringify(m));
    assert.equal(readFileSync(path.join(repo, '.husky', 'post-merge'), 'utf8'), `touch '${marker}'\n`, 'the worker\'s script is merged, as any file');
    assert.equal(existsSync(marker), false, 'the script the worker wrote ran, with the person\'s rights, when the person merged');
    assert.deepEqual(m.status === 'merged' && m.hooksSkipped, ['.husky/post-merge']);

    // A merge that leaves what hooks run alone runs them (the person's post-merge, as before).
    const mine = path.join(dir, 'PERSON-SCRIPT-RAN');
    writeFileSync(path.join(repo, '.husky', 'post-merge'), `touch '${mine}'\n`);
    sh(repo, 'commit', '-qam', 'my post-merge');
    sh(wt.path, 'merge', '-q', 'main');
    writeFileSync(path.join(wt.path, 'later.txt'), 'y\n');
    const again = await mergeWorktree(wt, { into: repo });
    assert.equal(again.status, 'merged', JSON.stringify(again));
    assert.equal(existsSync(mine), true, 'the person\'s own hook did not run');
    assert.equal(again.status === 'merged' && again.hooksSkipped, undefined);
    sh(repo, 'config', '--unset', 'core.hooksPath');
  });

  it('the files that count as what hooks run: the in-repository hooks folder, husky\'s scripts beside its _, hook managers\' configs', async () => {
    const changed = ['.githooks/post-merge', '.githooks/lib/x.sh', '.husky/pre-commit', '.husky/sub/notes.md', 'lefthook.yml', '.lefthook/a.yml', '.pre-commit-config.yaml', 'src/lefthook.yml', 'a.txt'];
    const common = ['lefthook.yml', '.lefthook/a.yml', '.pre-commit-config.yaml'];
    assert.deepEqual(await hookSources(repo, changed), common, 'hooks in .git/hooks');
    sh(repo, 'config', 'core.hooksPath', '.githooks');
    assert.deepEqual(await hookSources(repo, changed), ['.githooks/post-merge', '.githooks/lib/x.sh', ...common]);
    sh(repo, 'config', 'core.hooksPath', '.husky/_');
    assert.deepEqual(await hookSources(repo, changed), ['.husky/pre-commit', ...common]);
    sh(repo, 'config', '--unset', 'core.hooksPath');
    assert.deepEqual(await hookSources(path.join(dir, 'not-a-repo'), ['a.txt']), ['a.txt'], 'git cannot say where the hooks are: every file counts');
  });

  it('Complete Merge of a conflicted merge runs no hook when the worker changed a hook manager\'s config (lefthook.yml), and both steps say so', async () => {
    // lefthook's hooks live in .git/hooks, out of the worker's reach, and read lefthook.yml from the checkout.
    const marker = path.join(dir, 'WORKER-CONFIG-RAN');
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'pre-merge-commit', 'post-merge']) {
      writeFileSync(path.join(repo, '.git', 'hooks', hook), `#!/bin/sh\ngrep -q run-me "$(git rev-parse --show-toplevel)/lefthook.yml" 2>/dev/null && touch '${marker}'\nexit 0\n`);
      chmodSync(path.join(repo, '.git', 'hooks', hook), 0o755);
    }
    const wt = await created(repo, 'w');
    writeFileSync(path.join(wt.path, 'lefthook.yml'), 'post-commit:\n  commands:\n    x:\n      run: run-me\n');
    writeFileSync(path.join(wt.path, 'b.txt'), 'worker\n');
    writeFileSync(path.join(repo, 'b.txt'), 'person\n');
    sh(repo, 'commit', '-qam', 'mine');
    assert.equal(existsSync(marker), false);

    vscodeStub.reset();
    const actions = new WorktreeActions({ supervisor: { state: () => ({ status: 'not_found' }), list: () => [] } as never, worktrees: { get: () => ({ workerId: 'w', worktree: wt, checkout: repo, files: [], counts: null, error: null }), refresh: async () => {}, all: () => [] } as never, core: () => realCore.worktree, worktreesDir: () => '', log: { info() {}, warn() {} } as never });
    assert.equal((await actions.merge({ workerId: 'w' })).status, 'conflicts');
    assert.match(vscodeStub.messages[0], /Your git hooks were not run, nor will Complete Merge run them: the worker changed lefthook\.yml, which they run or read\.$/);
    writeFileSync(path.join(repo, 'b.txt'), 'both\n');
    assert.equal((await actions.finish(repo, false)).status, 'merged');
    assert.equal(existsSync(marker), false, 'the config the worker wrote was run by the person\'s hooks at Complete Merge');
    assert.equal(vscodeStub.messages.at(-1), `RPC Workers: merge completed without running your git hooks: the worker changed lefthook.yml, which they run or read. Commit ${sh(repo, 'rev-parse', 'HEAD').trim().slice(0, 8)}.`);
  });
});

