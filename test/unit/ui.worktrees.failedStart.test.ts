// A start in a new worktree that fails: git's files change as the worktree is made, so the window
// may list it as a leftover while the worker still starts (connectWorktrees' adoptLeftovers). The
// failed start removes the empty worktree: its row must go with it (issue: a row "could not list
// changes: the folder does not exist" stayed until a reload, and Discard only said nothing was left
// to discard). One that is kept (the worker wrote there) is listed, so it can be reviewed or discarded.
import { vscodeStub } from '../helpers/vscodeStub'; // before the UI modules, which import vscode
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as realCore from '../../src/core/index';
import type { StartResult, Supervisor } from '../../src/core/api';
import { leftoverId, WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { WorktreeActions } from '../../src/ui/worktrees/worktreeActions';
import { makeRepo } from '../helpers/gitRepo';

const log = { info() {}, warn() {} } as never;
const failed = { status: 'error', error: 'spawn tau ENOENT' } as unknown as StartResult;

describe('UI: a worktree start that fails', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  let worktrees: WorkerWorktrees;
  let actions: WorktreeActions;
  beforeEach(() => {
    ({ dir, repo } = makeRepo());
    vscodeStub.reset();
    const supervisor = { list: () => [], state: () => ({ status: 'not_found' }), onEvent: () => () => {}, onState: () => () => {} } as unknown as Supervisor;
    worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree);
    actions = new WorktreeActions({ supervisor, worktrees, core: () => realCore.worktree, worktreesDir: () => '', log });
  });
  afterEach(() => {
    worktrees.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  async function place() {
    const placed = await actions.place({ dialect: 'tau', command: 'tau', cwd: repo, name: 'Fixer' });
    if ('status' in placed) return assert.fail(JSON.stringify(placed));
    const [wt] = await realCore.worktree.listWorkerWorktrees(repo);
    return { placed, wt };
  }

  it('the empty worktree it removes leaves no row, though it was listed as a leftover meanwhile', async () => {
    const { placed, wt } = await place();
    worktrees.add(leftoverId(wt.branch), wt, repo);
    await placed.started(failed);
    assert.deepEqual(await realCore.worktree.listWorkerWorktrees(repo), [], 'the empty worktree goes');
    assert.deepEqual(
      worktrees.all().map((e) => e.worktree.branch),
      [],
      'its row went with it',
    );
  });

  it('a worktree kept because the worker wrote there is listed, to review or discard', async () => {
    const { placed, wt } = await place();
    writeFileSync(path.join(wt.path, 'half.txt'), 'written before it died\n');
    await placed.started(failed);
    assert.deepEqual(
      worktrees.all().map((e) => e.worktree.branch),
      [wt.branch],
    );
  });
});
