// Discard on a worktree whose worker still runs: the menu hid it, with no word why, and a person
// looking for it found nothing. It is offered; chosen, it says why it cannot run now and offers
// "Stop Worker and Discard", which stops the worker and then asks, as ever, in a modal that names
// what would be lost. Real git in a temp folder; the supervisor is a stand-in that stops on ask.
import { vscodeStub } from '../helpers/vscodeStub'; // before the UI modules, which import vscode
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as realCore from '../../src/core/index';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { WorkerWorktrees } from '../../src/ui/worktrees/workerWorktrees';
import { WorktreeActions } from '../../src/ui/worktrees/worktreeActions';
import { created, makeRepo } from '../helpers/gitRepo';

const log = { info() {}, warn() {} } as never;

describe('Discard on a worktree its worker still runs in', function () {
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

  async function setUp(streaming: boolean) {
    const wt = await created(repo, 'Fixer');
    writeFileSync(path.join(wt.path, 'draft.txt'), 'work in progress\n');
    let fixer = { workerId: 'f1', name: 'Fixer', status: 'running', cwd: wt.path, streaming, compacting: false, pendingInput: [] } as unknown as WorkerState;
    const stops: string[] = [];
    const supervisor = {
      list: () => [fixer],
      state: (id: string) => (id === fixer.workerId ? { status: fixer.status, state: fixer } : { status: 'not_found', workerId: id }),
      stop: async (id: string) => {
        stops.push(id);
        fixer = { ...fixer, status: 'stopped', streaming: false };
        return { status: 'stopped', workerId: id, exitCode: 0, signal: null, killed: false, alreadyExited: false, ms: 1 };
      },
      onEvent: () => () => {},
      onState: () => () => {},
    } as unknown as Supervisor;
    worktrees = new WorkerWorktrees(supervisor, () => realCore.worktree);
    worktrees.add('f1', wt, repo);
    await worktrees.refresh('f1');
    const actions = new WorktreeActions({ supervisor, worktrees, core: () => realCore.worktree, worktreesDir: () => '', log });
    return { wt, actions, stops };
  }

  it('says why and offers Stop Worker and Discard; chosen, stops it, then the modal names what is lost', async () => {
    const { wt, actions, stops } = await setUp(true);
    vscodeStub.choices.push('Stop Worker and Discard');
    const asked: string[] = [];
    const first = await actions.discard({ workerId: 'f1' }, async (m) => (asked.push(m), true));
    assert.equal(first.status, 'running', 'answered at once: a caller is not held until the notification is answered');
    const r = await first.followUp!;
    assert.match(vscodeStub.messages[0], /Fixer still runs in this worktree, so it cannot be discarded now/);
    assert.deepEqual(vscodeStub.buttons[0], ['Stop Worker and Discard']);
    assert.deepEqual(stops, ['f1']);
    assert.equal(asked.length, 1, 'the usual confirmation, after the stop');
    assert.match(asked[0], /This deletes 1 uncommitted file \(draft\.txt added\)/);
    assert.equal(r.status, 'discarded', JSON.stringify(r));
    assert.ok(!existsSync(wt.path));
  });

  it('the explanation dismissed, or the modal declined: the worker runs on (or stays stopped) and nothing is deleted', async () => {
    const { wt, actions, stops } = await setUp(false);
    vscodeStub.choices.push(undefined);
    const r = await actions.discard({ workerId: 'f1' }, async () => assert.fail('asked to confirm though the worker was not stopped'));
    assert.equal(r.status, 'running');
    assert.equal((await r.followUp!).status, 'cancelled');
    assert.deepEqual(stops, [], 'stopped without being asked');
    vscodeStub.choices.push('Stop Worker and Discard');
    const declined = await (await actions.discard({ workerId: 'f1' }, async () => false)).followUp!;
    assert.equal(declined.status, 'cancelled');
    assert.ok(existsSync(path.join(wt.path, 'draft.txt')));
  });
});
