// Hostile workers, process trees: a worker whose tool forks grandchildren (`sleep 600` in a
// subshell, also one in a session of its own that no group signal reaches). Stop leaves none.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, groupMembers, ofType, waitFor } from '../helpers/supervisor';
import { alive, describePids, killAll, treeOf, until, within } from '../fixtures/faults-helpers';

// What the fake's `grandchild` directive runs, and the same with the background sleep in a new session.
const SCRIPTS = {
  'a subshell\'s sleep 600 (the grandchild directive)': 'grandchild',
  'a sleep 600 in a session of its own (setsid)': 'bash setsid sleep 600 & echo "grandchild $!"; sleep 600',
};

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: process trees (${dialect})`, () => {
    let supervisor: Supervisor;
    const leftovers = new Set<number>();
    beforeEach(() => {
      supervisor = createSupervisor();
    });
    afterEach(async () => {
      await supervisor.dispose();
      killAll(leftovers);
      leftovers.clear();
    });

    /** Starts a worker running `script` and returns its whole tree once sh has forked both sleeps. */
    async function treeWith(script: string, flags: string[] = []) {
      const r = await supervisor.start(fakeSpec(dialect, flags));
      if (r.status !== 'started') throw new Error(`start failed: ${r.error}`);
      leftovers.add(r.pid);
      const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
      assert.equal((await supervisor.prompt(r.workerId, script)).status, 'accepted');
      await tool;
      // worker → sh → (sleep 600 &, sleep 600). τ's tool updates carry no output, so the
      // grandchildren are read from the process table.
      // (Both sleeps exec'd: right after the fork a child is still called sh.)
      await until(() => treeOf(r.pid).filter((p) => p.comm === 'sleep').length >= 2, 5_000, () => `tree of ${r.pid}: ${describePids(treeOf(r.pid).map((p) => p.pid))}`);
      const tree = treeOf(r.pid);
      for (const p of tree) leftovers.add(p.pid);
      const sh = tree.find((p) => p.ppid === r.pid && p.comm === 'sh');
      assert.ok(sh, `the tool's sh is in ${describePids(tree.map((p) => p.pid))}`);
      const grandchildren = tree.filter((p) => p.ppid === sh.pid);
      assert.deepEqual(grandchildren.map((p) => p.comm), ['sleep', 'sleep']);
      return { r, tree: tree.map((p) => p.pid), sh, grandchildren };
    }

    for (const [what, script] of Object.entries(SCRIPTS)) {
      it(`stop leaves nothing of a tool that forked ${what}`, async () => {
        const { r, tree, sh, grandchildren } = await treeWith(script);
        const groups = new Set(grandchildren.map((p) => p.pgid));
        if (script.startsWith('bash setsid')) assert.equal(groups.size, 2, 'the setsid grandchild has a group of its own');
        assert.ok(!groups.has(r.pid) && sh.pgid !== r.pid, 'the tool runs in a group of its own, as pi\'s bash does');
        const s = await within(supervisor.stop(r.workerId), 10_000, 'stop');
        assert.equal(s.status, 'stopped');
        assert.equal(s.status === 'stopped' && s.killed, false, 'SIGTERM was enough for the worker itself');
        const left = tree.filter(alive);
        assert.deepEqual(left, [], `left after stop: ${describePids(left)}`);
        assert.deepEqual(groupMembers(r.pid), []);
        for (const g of groups) assert.deepEqual(groupMembers(g), []);
      });
    }

    if (dialect === 'tau') {
      it('the SIGKILL escalation reaches a grandchild in another session (worker ignores SIGTERM, never settles)', async () => {
        const { r, tree } = await treeWith(SCRIPTS['a sleep 600 in a session of its own (setsid)'], ['--ignore-sigterm', '--no-settle']);
        const s = await within(supervisor.stop(r.workerId), 10_000, 'stop');
        assert.equal(s.status, 'stopped');
        assert.equal(s.status === 'stopped' && s.killed, true);
        assert.ok(s.status === 'stopped' && s.ms >= 2_000, `SIGKILL before the 2 s grace: ${JSON.stringify(s)}`);
        const left = tree.filter(alive);
        assert.deepEqual(left, [], `left after stop: ${describePids(left)}`);
      });
    }
  });
}
