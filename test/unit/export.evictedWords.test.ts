// What a live worker's export says it leaves out, counted in words: one event is "the first
// event", not "the first 1 events". The host keeps so many events in memory (eventStoreSize);
// the count of what it let go is whatever a turn sent beyond that.
import assert from 'node:assert/strict';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, waitFor } from '../helpers/supervisor';

/** The export of a fake pi worker's one turn ('hello') kept in a store of `size` events, and how many it let go. */
async function exported(size: number): Promise<{ markdown: string; dropped: number; kept: number }> {
  const supervisor = createSupervisor({ limits: { eventStoreSize: size } });
  try {
    const r = await supervisor.start(fakeSpec('pi'));
    if (r.status !== 'started') return assert.fail(JSON.stringify(r));
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    assert.equal((await supervisor.prompt(r.workerId, 'hello')).status, 'accepted');
    await settled;
    const st = supervisor.state(r.workerId);
    const md = await supervisor.exportMarkdown(r.workerId);
    return { markdown: md.status === 'exported' ? md.markdown : '', dropped: st.status === 'not_found' ? -1 : st.state.eventsDropped, kept: supervisor.events(r.workerId).length };
  } finally {
    await supervisor.dispose();
  }
}

describe('export: a live worker\'s events the host no longer keeps, counted in words', function () {
  this.timeout(60_000);

  it('one event let go is "the first event", one kept "its newest event"', async () => {
    // The same turn, all of it kept: how many events it makes; then a store one smaller.
    const whole = await exported(10_000);
    assert.equal(whole.dropped, 0);
    const one = await exported(whole.kept - 1);
    assert.equal(one.dropped, 1);
    assert.match(one.markdown, new RegExp(`\\*\\*Not in this export:\\*\\* the first event of this worker: the host keeps its newest ${whole.kept - 1} events in memory`));
    const many = await exported(1);
    assert.match(many.markdown, new RegExp(`\\*\\*Not in this export:\\*\\* the first ${whole.kept - 1} events of this worker: the host keeps its newest event in memory`));
  });
});
