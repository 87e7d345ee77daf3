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
import { fakeSpec, ofType, waitFor } from '../helpers/supervisor';
import { killAll } from '../fixtures/faults-helpers';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CUT_LINE_CHARS } from '../../src/core/events/cutEvent';
import { startMockLlm } from '../fixtures/mock-llm.mjs';
import { makePiAgentDir, PI_VERSIONS, piEnv, removePiAgentDir } from '../fixtures/pi-env.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MIB = 1024 * 1024;
const mb = (n: number) => `${(n / MIB).toFixed(0)} MiB`;

describe('faults: a worker sends huge event lines', function () {
  this.timeout(300_000);
  let supervisor: Supervisor;
  const pids: number[] = [];
  beforeEach(() => {
    supervisor = createSupervisor();
  });
  afterEach(async () => {
    await supervisor.dispose();
    killAll(pids.splice(0));
  });

  it('30 tool updates of 40 MB: the heap stays bounded, and each event says what was cut', async () => {
    const r = await supervisor.start(fakeSpec('pi'));
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
    supervisor.onEvent((id, e) => {
      if (id === r.workerId && e.type === 'tool_execution_update') cuts.push(e.cut);
    });
    const said: string[] = [];
    supervisor.onOutput((id, kind, text) => {
      if (id === r.workerId && kind === 'protocol') said.push(text);
    });
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'), 240_000, 'the end of the turn');
    assert.equal((await supervisor.prompt(r.workerId, 'bigupdate 40000000 30')).status, 'accepted');
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
    // And the worker's output (its log) says each cut.
    assert.equal(said.length, 30);
    assert.match(said[0], /^kept a preview only: tool_execution_update: a 38\.1 MiB line; kept as a preview \(first and last characters\): result\.content\[0\]\.text \(40,000,000\)$/);
    // What the store keeps: the previews, their head and tail.
    const kept = supervisor.events(r.workerId).filter(ofType('tool_execution_update'));
    assert.equal(kept.length, 30);
    for (const e of kept) {
      const text = (e.result as { content: Array<{ text: string }> }).content[0].text;
      assert.ok(text.length < 20_000, `kept ${text.length} characters`);
      assert.match(text, /^update \d+ y+…\[cut: \d+ of 40000000 characters\]…y+$/);
    }
    assert.ok(grown < 64 * MIB, `the heap grew by ${mb(grown)} and stayed so`);
  });

  // Real pi on the mock model, its bash printing 20 MB: what its lines are, and what is kept. pi
  // writes the whole output to a log in its temporary directory (os.tmpdir()), 20 MB a run: the
  // agent's folder, removed after, rather than the machine's /tmp.
  for (const pi of PI_VERSIONS) {
    it(`real pi ${pi.version}, a bash command printing 20 lines of 1 MB: every line over the cut is kept as a preview, the heap does not grow`, async () => {
      const llm = await startMockLlm();
      const dir = await makePiAgentDir({ baseUrl: llm.baseUrl });
      const ws = mkdtempSync(path.join(tmpdir(), 'rpcw-heap-pi-'));
      const lines: number[] = [];
      const traced = createSupervisor({
        trace: (_id, direction, m) => {
          const t = (m as { type?: string }).type;
          if (direction === 'receive' && typeof t === 'string' && t.startsWith('tool_execution')) lines.push(JSON.stringify(m).length);
        },
      });
      try {
        const r = await traced.start({ dialect: 'pi', command: pi.command(), cwd: ws, model: 'mock/mock-1', env: { ...piEnv(dir), TMPDIR: dir } as Record<string, string> });
        if (r.status !== 'started') throw new Error(r.error);
        pids.push(r.pid);
        gc();
        gc();
        const before = process.memoryUsage().heapUsed;
        llm.script([{ toolCalls: [{ name: 'bash', arguments: { command: 'for i in $(seq 1 20); do head -c 1000000 /dev/zero | tr "\\0" y; echo; done' } }] }, { text: 'done' }]);
        const ended = waitFor(traced, r.workerId, ofType('agent_end'), 120_000, 'the end of the turn');
        assert.equal((await traced.prompt(r.workerId, 'print a lot')).status, 'accepted');
        await ended;
        gc();
        gc();
        const grown = process.memoryUsage().heapUsed - before;
        const kept = traced.events(r.workerId).filter((e) => e.type.startsWith('tool_execution'));
        const over = lines.filter((n) => n > CUT_LINE_CHARS).length;
        console.log(`      pi ${pi.version}: ${lines.length} tool lines, the longest ${lines.length ? Math.max(...lines).toLocaleString('en-US') : 0} characters, ${over} over the cut; heap +${mb(grown)}`);
        assert.ok(lines.length > 0);
        assert.equal(kept.filter((e) => e.cut).length, over, 'each line over the cut, and only those, is kept as a preview');
        for (const e of kept) assert.ok(JSON.stringify(e).length < 2 * CUT_LINE_CHARS, `${e.type} kept ${JSON.stringify(e).length} characters`);
        assert.ok(grown < 16 * MIB, `the heap grew by ${mb(grown)}`);
      } finally {
        await traced.dispose();
        await llm.close();
        await removePiAgentDir(dir);
        rmSync(ws, { recursive: true, force: true });
      }
    });
  }
});
