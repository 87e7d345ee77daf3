// A page's ask for another page of a log read from the history (src/ui/eventLog/pastPages.ts):
// each is answered, with the page moved or with why it was not.
import assert from 'node:assert/strict';
import type { StateResult, WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { LogArchive } from '../../src/ui/eventLog/logArchive';
import { PastLog, type OlderSource } from '../../src/ui/eventLog/pastLog';
import { NOT_HELD, readPastPage } from '../../src/ui/eventLog/pastPages';

const ev = (n: number): AgentEvent => ({ type: 'message_update', timestamp: n, delta: `e${n}` });
const noLive = { state: (id: string) => ({ status: 'not_found', workerId: id }) as StateResult, events: () => [] };
const stopped = (workerId: string) => ({ workerId, name: workerId, status: 'stopped' }) as WorkerState;

/** Older events that come, then a read that fails (the history's file went away). */
function source(fail: () => Error | null): OlderSource {
  let left = 5000;
  return {
    get notLoaded() { return left; },
    get done() { return left === 0; },
    async older(max: number) {
      const e = fail();
      if (e) throw e;
      const n = Math.min(max, left);
      left -= n;
      return Array.from({ length: n }, (_, i) => ev(left + i));
    },
  };
}

describe('ui event log past pages (every ask answered)', () => {
  it('a log no longer held is said so, and not to be asked again (issue: the host said nothing and the page said "Loading…" for ever)', async () => {
    const archive = new LogArchive(noLive);
    assert.deepEqual(await readPastPage(archive, 'past:gone', 'older'), { read: false, message: NOT_HELD, held: false });
    assert.deepEqual(await readPastPage(archive, 'past:gone', 'newest'), { read: false, message: NOT_HELD, held: false });
  });

  it('a page that could not be read says why, and may be asked again; the next read moves the window', async () => {
    const archive = new LogArchive(noLive);
    let error: Error | null = null;
    archive.addPast('past:1', stopped('past:1'), await PastLog.open(source(() => error)), 'a past session');
    const before = () => archive.lookup('past:1')!.past!.before;
    const was = before();
    error = new Error('ENOENT: the session file is gone');
    assert.deepEqual(await readPastPage(archive, 'past:1', 'older'), { read: false, message: 'could not read the older events: ENOENT: the session file is gone', held: true });
    assert.equal(before(), was, 'the window did not move');
    error = null;
    assert.deepEqual(await readPastPage(archive, 'past:1', 'older'), { read: true });
    assert.ok(before() < was, 'the window moved a page back');
  });

  it("a resumed worker's earlier sessions are read a page further back", async () => {
    const archive = new LogArchive(noLive);
    archive.setEarlier('w1', await PastLog.open(source(() => null)));
    const loaded = () => archive.pastLogOf('w1')!.log.loaded.length;
    const was = loaded();
    assert.deepEqual(await readPastPage(archive, 'w1', 'older'), { read: true });
    assert.ok(loaded() > was);
  });
});
