// Hostile workers, the heap: a worker sends event lines under the 64 MiB line cap but far longer
// than anything the host should keep (30 tool updates of 40 MB each, the way pi repeats a tool's
// whole output so far). The host keeps each such event with its long fields cut to a preview,
// says so in the event, and its heap does not grow with what went through. Figures printed.
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Supervisor } from '../../src/core/api';
import type { EventCut } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, waitFor } from '../helpers/host';
import { killAll } from '../fixtures/faults-helpers';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MIB = 1024 * 1024;
const mb = (n: number) => `${(n / MIB).toFixed(0)} MiB`;

describe('faults: a worker sends huge event lines', function () {
  this.timeout(300_000);
  let host: Supervisor;
  const pids: number[] = [];
  beforeEach(() => {
    host = createSupervisor();
  });
  afterEach(async () => {
    await host.dispose();
    killAll(pids.splice(0));
  });

  it('30 tool updates of 40 MB: the heap stays bounded, and each event says what was cut', async () => {
    const r = await host.start(fakeSpec('pi'));
    if (r.status !== 'started') throw new Error(r.error);
    pids.push(r.pid);
    gc();
    gc();
    const before = process.memoryUsage();
    let peak = before.heapUsed;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 20);
    const cuts: Array<EventCut | undefined> = [];
    host.onEvent((id, e) => {
      if (id === r.workerId && e.type === 'tool_execution_update') cuts.push(e.cut);
    });
    const settled = waitFor(host, r.workerId, ofType('agent_settled'), 240_000, 'the end of the turn');
    assert.equal((await host.prompt(r.workerId, 'bigupdate 40000000 30')).status, 'accepted');
    await settled;
    clearInterval(sampler);
    gc();
    gc();
    const after = process.memoryUsage();
    const grown = after.heapUsed - before.heapUsed;
    console.log(`      heap before ${mb(before.heapUsed)}, after ${mb(after.heapUsed)} (+${mb(grown)}), peak while it ran ${mb(peak)}; external ${mb(before.external)} → ${mb(after.external)}`);
    assert.equal(cuts.length, 30);
    for (const cut of cuts) {
      assert.ok(cut, 'every update says it was cut');
      assert.ok(cut.lineChars > 40_000_000);
      assert.deepEqual(cut.fields, [{ path: 'result.content[0].text', chars: 40_000_000 }]);
    }
    // What the store keeps: the previews, their head and tail.
    const kept = host.events(r.workerId).filter(ofType('tool_execution_update'));
    assert.equal(kept.length, 30);
    for (const e of kept) {
      const text = (e.result as { content: Array<{ text: string }> }).content[0].text;
      assert.ok(text.length < 20_000, `kept ${text.length} characters`);
      assert.match(text, /^update \d+ y+…\[cut: \d+ of 40000000 characters\]…y+$/);
    }
    assert.ok(grown < 64 * MIB, `the heap grew by ${mb(grown)} and stayed so`);
  });
});
