// Two real pi workers, each in its own worktree with the write guard on (allowed path: its
// worktree), edit the same file at the same time: each edit lands in its own worktree only, a
// write into the other's worktree or into the person's checkout is vetoed, both diffs show,
// and merging both into the person's branch gives one clean merge and one conflict. Stopping
// them removes nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Supervisor, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { mergeWorktree, specInWorktree, workerChanges, type WorkerWorktree } from '../../src/core/worktree';
import { created, makeRepo } from '../helpers/gitRepo';
import { ofType, ROOT, waitFor } from '../helpers/supervisor';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import { makePiAgentDir, PI_VERSIONS, piEnv, removePiAgentDir } from '../fixtures/pi-env.mjs';

const GUARD_BUNDLE = path.join(ROOT, 'dist/pi-guard.js');
const ORIGINAL = 'one\ntwo\nthree\n';

for (const pi of PI_VERSIONS) describe(`two guarded pi ${pi.version} workers in two worktrees`, function () {
  this.timeout(90_000);
  // One mock model per worker, so that neither can be handed the other's reply.
  const llms: MockLlm[] = [];
  const dirs: string[] = [];
  let supervisor: Supervisor;
  let dir: string;
  let repo: string;
  before(async () => {
    if (!existsSync(GUARD_BUNDLE)) execFileSync(process.execPath, ['esbuild.mjs', '--no-typecheck'], { cwd: ROOT, stdio: 'inherit' });
    for (let i = 0; i < 2; i++) {
      llms.push(await startMockLlm());
      dirs.push(await makePiAgentDir({ baseUrl: llms[i].baseUrl }));
    }
  });
  after(async () => {
    for (const l of llms.splice(0)) await l.close();
    for (const d of dirs.splice(0)) await removePiAgentDir(d);
  });
  beforeEach(() => {
    ({ dir, repo } = makeRepo({ 'a.txt': ORIGINAL }));
    supervisor = createSupervisor({ piGuardPath: GUARD_BUNDLE });
  });
  afterEach(async () => {
    await supervisor.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  // The spec as the person would have it for their checkout, moved into the worktree.
  const specFor = (wt: WorkerWorktree, i: number): WorkerSpec => specInWorktree({
    dialect: 'pi', command: pi.command(), cwd: repo, workspaceFolder: repo, guard: true,
    model: 'mock/mock-1', env: piEnv(dirs[i]) as Record<string, string>, name: wt.workerName,
  }, wt, repo);

  it('no interference, both diffs, one clean merge and one conflict', async () => {
    const wts = [await created(repo, 'Alpha'), await created(repo, 'Beta')];
    const [a, b] = wts;
    llms[0].script([
      { toolCalls: [{ name: 'write', arguments: { path: 'a.txt', content: 'one\nALPHA\nthree\n' } }] },
      // Into the other worker's worktree, and into the person's checkout: both outside its guard.
      { toolCalls: [{ name: 'write', arguments: { path: path.join(b.path, 'a.txt'), content: 'alpha was here\n' } }] },
      { toolCalls: [{ name: 'write', arguments: { path: path.join(repo, 'a.txt'), content: 'alpha was here\n' } }] },
      { text: 'Alpha done.' },
    ]);
    llms[1].script([
      { toolCalls: [{ name: 'write', arguments: { path: 'a.txt', content: 'one\nBETA\nthree\n' } }] },
      { toolCalls: [{ name: 'write', arguments: { path: 'notes.md', content: 'beta notes\n' } }] },
      { text: 'Beta done.' },
    ]);
    const ids: string[] = [];
    for (const [i, wt] of wts.entries()) {
      const s = await supervisor.start(specFor(wt, i));
      if (s.status !== 'started') return assert.fail(s.error);
      assert.equal(s.state.guarded, true);
      assert.equal(s.state.cwd, wt.path);
      ids.push(s.workerId);
    }
    const blocked: Record<string, string[]> = { [ids[0]]: [], [ids[1]]: [] };
    supervisor.onEvent((id, e) => {
      if (e.type === 'tool_execution_end' && e.blocked) blocked[id].push(e.blocked_by ?? '?');
    });
    const settled = ids.map((id) => waitFor(supervisor, id, ofType('agent_settled'), 60_000));
    const prompts = await Promise.all(ids.map((id) => supervisor.prompt(id, 'edit a.txt')));
    assert.deepEqual(prompts.map((p) => p.status), ['accepted', 'accepted']);
    await Promise.all(settled);

    assert.equal(readFileSync(path.join(a.path, 'a.txt'), 'utf8'), 'one\nALPHA\nthree\n');
    assert.equal(readFileSync(path.join(b.path, 'a.txt'), 'utf8'), 'one\nBETA\nthree\n');
    assert.equal(readFileSync(path.join(repo, 'a.txt'), 'utf8'), ORIGINAL, 'the person\'s checkout is untouched');
    assert.deepEqual(blocked[ids[0]], ['rpc-workers-guard', 'rpc-workers-guard']);
    assert.deepEqual(blocked[ids[1]], []);

    const [ca, cb] = await Promise.all(wts.map(workerChanges));
    if (ca.status !== 'ok' || cb.status !== 'ok') return assert.fail('changes could not be listed');
    assert.deepEqual(ca.files.map((f) => [f.kind, f.path, f.linesAdded, f.linesRemoved]), [['modified', 'a.txt', 1, 1]]);
    assert.deepEqual(cb.files.map((f) => [f.kind, f.path]), [['modified', 'a.txt'], ['added', 'notes.md']]);
    assert.deepEqual(cb.counts, { added: 1, modified: 1, deleted: 0, renamed: 0, total: 2 });

    const first = await mergeWorktree(a, { into: repo });
    assert.equal(first.status, 'merged', JSON.stringify(first));
    const second = await mergeWorktree(b, { into: repo });
    assert.equal(second.status, 'conflicts', JSON.stringify(second));
    assert.deepEqual(second.status === 'conflicts' && second.conflicts.map((c) => c.path), ['a.txt']);
    assert.equal(readFileSync(path.join(repo, 'notes.md'), 'utf8'), 'beta notes\n', 'the part that merged cleanly is there, staged');

    // Stopping a worker leaves its worktree, branch and work for the person.
    await supervisor.stopAll();
    assert.equal(readFileSync(path.join(b.path, 'notes.md'), 'utf8'), 'beta notes\n');
    assert.match(execFileSync('git', ['for-each-ref', '--format=%(refname)', `refs/heads/${b.branch}`], { cwd: repo, encoding: 'utf8' }), /refs\/heads\/worker\/beta/);
  });
});
