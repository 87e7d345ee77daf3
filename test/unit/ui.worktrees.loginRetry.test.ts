// A start in a new worktree that the agent refused for want of a login: the fresh worktree is
// removed as the start fails, so the login's terminal and Start Again must go by the person's
// own folder, not by the worktree's (issue: the terminal opened in a folder that was gone, and
// Start Again refused, the worktree "does not exist").
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type { StartResult, Supervisor, WorkerSpec } from '../../src/core/api';
import { Commands, type CommandServices, type WorktreePlacer } from '../../src/ui/commands/commands';
import { LaunchConfigGate } from '../../src/ui/settings/launchConfigGate';
import type { Settings } from '../../src/ui/settings/settings';

describe('UI: a worktree start refused for a login', () => {
  beforeEach(() => vscodeStub.reset());

  it("runs the login in the person's folder and Start Again places the worker in a new worktree from there", async () => {
    vscodeStub.folder = '/repo';
    const refused = { status: 'error', error: 'Authentication required', needsLogin: true, login: { label: 'Fake Login', line: 'fake login' } } as unknown as StartResult;
    const supervisor = {
      list: () => [],
      limits: { maxPromptBytes: 32 * 1024 },
      state: () => ({ status: 'not_found' }),
      onState: () => () => {},
      onRemoved: () => () => {},
      onEvent: () => () => {},
      start: async () => refused,
    } as unknown as Supervisor;
    const placedFrom: string[] = [];
    let placedAgain: () => void = () => {};
    const again = new Promise<void>((resolve) => (placedAgain = resolve));
    // As WorktreeActions.place does: the spec moved into a worktree, which a failed start removes.
    const placer: WorktreePlacer = async (spec: WorkerSpec) => {
      placedFrom.push(spec.cwd);
      if (placedFrom.length === 2) placedAgain();
      return { spec: { ...spec, cwd: '/repo.worktrees/demo', workspaceFolder: '/repo.worktrees/demo' }, started: async () => {} };
    };
    const settings = () => ({}) as Settings;
    const commands = new Commands({
      supervisor,
      settings,
      extensionPath: '/ext',
      tauSessionDir: '/tmp/tau',
      worktreePlacer: placer,
      eventLog: {},
      outputs: { has: () => false },
      tree: { reveal: async () => {} },
      selection: { set() {} },
      launchConfig: new LaunchConfigGate(supervisor, settings),
    } as unknown as CommandServices);
    try {
      vscodeStub.choices.push('Run "fake login"', 'Start Again');
      await commands.startDemoWorker(undefined, { inWorktree: true });
      await again;
      assert.equal(vscodeStub.terminals[0]?.cwd, '/repo', 'the worktree was removed with the failed start');
      assert.deepEqual(placedFrom, ['/repo', '/repo'], "a new worktree of the person's checkout, not one of the removed worktree");
    } finally {
      commands.dispose();
    }
  });
});
