// Open Worktree in New Window on a worktree whose folder was deleted by hand: VS Code opened a
// window on the missing folder, with no word why it was empty. It says the folder is gone and
// offers Discard, which removes what git keeps of it. Real git in a temp folder.
import { vscodeStub } from '../helpers/vscodeStub'; // before the UI modules, which import vscode
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as realCore from '../../src/core/index';
import type { Supervisor } from '../../src/core/api';
import { WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { WorktreeActions } from '../../src/ui/worktrees/worktreeActions';
import { created, makeRepo, sh } from '../helpers/gitRepo';

const log = { info() {}, warn() {} } as never;
const supervisor = { list: () => [], state: (id: string) => ({ status: 'not_found', workerId: id }), onEvent: () => () => {}, onState: () => () => {} } as unknown as Supervisor;

describe('Open Worktree in New Window on a folder deleted by hand', function () {
  this.timeout(30_000);
  let dir: string;
  let repo: string;
  let worktrees: WorkerWorktrees | undefined;
  beforeEach(() => {
    ({ dir, repo } = makeRepo());
    vscodeStub.reset();
  });
  afterEach(() => {
    worktrees?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens no window, says the folder is gone, and offers Discard, which discards it', async () => {
    const wt = await created(repo, 'w');
    worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree);
    worktrees.add('w1', wt, repo);
    await worktrees.settled('w1');
    rmSync(wt.path, { recursive: true, force: true });
    const actions = new WorktreeActions({ supervisor, worktrees, core: () => realCore.worktree, worktreesDir: () => '', log });
    vscodeStub.choices.push('Discard Worktree…', 'Discard');
    const r = await actions.openInNewWindow({ workerId: 'w1' });
    assert.ok(!vscodeStub.executed.some((c) => c[0] === 'vscode.openFolder'), 'no window opened on a missing folder');
    assert.equal(r.status, 'missing', JSON.stringify(r));
    assert.equal(vscodeStub.messages[0], `RPC Workers: cannot open w's worktree in a new window: its folder ${wt.path} does not exist (deleted or moved). Discard it to remove what git keeps of it, and its branch worker/w.`);
    assert.deepEqual(vscodeStub.buttons[0], ['Discard Worktree…']);
    const d = await r.followUp!;
    assert.match(vscodeStub.messages[1], /its folder deleted already/, 'the usual confirmation');
    assert.equal(d.status, 'discarded', JSON.stringify(d));
    assert.equal(sh(repo, 'branch', '--list', wt.branch), '');
    assert.equal(worktrees.get('w1'), undefined);
  });

  it('a folder that is there opens as ever', async () => {
    const wt = await created(repo, 'w');
    worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree);
    worktrees.add('w1', wt, repo);
    await worktrees.settled('w1');
    const actions = new WorktreeActions({ supervisor, worktrees, core: () => realCore.worktree, worktreesDir: () => '', log });
    assert.equal((await actions.openInNewWindow({ workerId: 'w1' })).status, 'opened');
    assert.ok(vscodeStub.executed.some((c) => c[0] === 'vscode.openFolder'));
    assert.deepEqual(vscodeStub.messages, []);
  });
});
