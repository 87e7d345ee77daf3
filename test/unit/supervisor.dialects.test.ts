// What each dialect does differently, through the host: τ's compaction can be cancelled by
// abort and pi's cannot; τ refuses a different protocol MAJOR; follow-ups run after the turn;
// pi's extension UI dialogs are answered by the host (headless: cancelled).
import assert from 'node:assert/strict';
import type { UiRequest, Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, record, text, waitFor } from '../helpers/supervisor';

describe('dialect differences through the host', () => {
  let supervisor: Supervisor;
  afterEach(() => supervisor?.dispose());

  async function started(h: Supervisor, spec: ReturnType<typeof fakeSpec>) {
    const r = await h.start(spec);
    if (r.status !== 'started') throw new Error(r.error);
    return r.workerId;
  }

  it('τ: abort cancels a running compaction, and both verbs say so', async () => {
    supervisor = createSupervisor();
    const id = await started(supervisor, fakeSpec('tau', ['--compact-ms', '5000']));
    const first = waitFor(supervisor, id, ofType('agent_end'));
    await supervisor.prompt(id, 'say a few words to compact');
    await first;
    // compact's request is written before abort's, so τ has the compaction when abort arrives.
    const compacting = supervisor.compact(id);
    const aborted = await supervisor.abort(id);
    assert.equal(aborted.status, 'aborted', JSON.stringify(aborted));
    assert.equal(aborted.status === 'aborted' && aborted.compactionCancelled, true);
    assert.equal((await compacting).status, 'aborted');
  });

  it('pi: abort does not reach a running compaction, and the host does not pretend it does', async () => {
    supervisor = createSupervisor();
    const id = await started(supervisor, fakeSpec('pi', ['--compact-ms', '1500']));
    const first = waitFor(supervisor, id, ofType('agent_end'));
    await supervisor.prompt(id, 'say a few words to compact');
    await first;
    const began = waitFor(supervisor, id, ofType('compaction_start'));
    const compacting = supervisor.compact(id);
    await began;
    const aborted = await supervisor.abort(id);
    assert.equal(aborted.status, 'error');
    assert.match(aborted.status === 'error' ? aborted.error : '', /does not reach a running compaction/);
    const r = await compacting;
    assert.equal(r.status, 'compacted', JSON.stringify(r));
  });

  it('τ: an unknown protocol MAJOR is refused, naming what the worker speaks and what the host knows, and the worker is not kept', async () => {
    supervisor = createSupervisor();
    const r = await supervisor.start(fakeSpec('tau', ['--protocol-version', '4.0']));
    assert.equal(r.status, 'error');
    assert.match(r.status === 'error' ? r.error : '', /protocol 4\.0; this host knows 1\.x, 2\.x, 3\.x/);
    assert.equal(supervisor.list().length, 0);
  });

  for (const version of ['1.5', '2.1', '3.1']) {
    it(`τ: protocol ${version} starts, and its entry id reaches listeners as \`leaf\` whatever the worker called it`, async () => {
      supervisor = createSupervisor();
      const id = await started(supervisor, fakeSpec('tau', ['--protocol-version', version]));
      const end = waitFor(supervisor, id, ofType('agent_end'));
      assert.equal((await supervisor.prompt(id, 'say hi')).status, 'accepted');
      const e = await end;
      assert.match(String(e.data?.leaf), /^e-\d+$/);
      assert.equal(e.data?.cursor, undefined);
    });
  }

  for (const dialect of ['pi', 'tau'] as const) {
    it(`${dialect}: a follow-up sent while streaming runs after the current work`, async () => {
      supervisor = createSupervisor();
      const id = await started(supervisor, fakeSpec(dialect));
      const events = record(supervisor, () => id);
      const began = waitFor(supervisor, id, ofType('agent_start'));
      await supervisor.prompt(id, 'wait 300\nsay first part');
      await began;
      const followed = supervisor.prompt(id, 'say the follow-up', { streamingBehavior: 'followUp' });
      const done = waitFor(supervisor, id, () => text(events).includes('the follow-up'), 10_000, 'the follow-up text');
      assert.equal((await followed).status, 'accepted');
      await done;
      assert.ok(text(events).indexOf('first part') < text(events).indexOf('the follow-up'));
    });
  }

  it('pi: an extension UI dialog is answered by the host\'s handler; headless answers cancelled', async () => {
    const asked: UiRequest[] = [];
    supervisor = createSupervisor({ onUiRequest: async (req) => (asked.push(req), { confirmed: true }) });
    const id = await started(supervisor, fakeSpec('pi', ['--ui']));
    const notices: string[] = [];
    const settled = waitFor(supervisor, id, ofType('agent_end'));
    await supervisor.prompt(id, 'say hi');
    await settled;
    assert.equal(asked.length, 1);
    assert.equal(asked[0].method, 'confirm');
    await supervisor.dispose();

    supervisor = createSupervisor({ onUiNotice: (n) => void notices.push(String(n.params.message)) });
    const id2 = await started(supervisor, fakeSpec('pi', ['--ui']));
    const settled2 = waitFor(supervisor, id2, ofType('agent_end'));
    await supervisor.prompt(id2, 'say hi');
    await settled2;
    assert.ok(notices.some((m) => /confirmed: false/.test(m)), JSON.stringify(notices));
  });
});
