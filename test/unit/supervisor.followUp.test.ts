// A follow-up's answer, against the fake τ: τ admits an enqueued prompt (and answers it) only when
// it can start its turn, which may be long after the turn it was queued behind has ended.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, record, text, waitFor } from '../helpers/supervisor';

describe('a follow-up to τ', () => {
  let supervisor: Supervisor;
  beforeEach(() => (supervisor = createSupervisor({ limits: { commandTimeoutMs: 1000 } })));
  afterEach(() => supervisor.dispose());

  it('held by τ through its own compaction after the turn, longer than the command timeout: accepted once τ takes it, not error meanwhile', async () => {
    const r = await supervisor.start(fakeSpec('tau', ['--auto-compact', 'after', '--compact-ms', '2500']));
    if (r.status !== 'started') return assert.fail(r.error);
    const id = r.workerId;
    const events = record(supervisor, () => id);
    const tool = waitFor(supervisor, id, ofType('tool_execution_start'));
    assert.equal((await supervisor.prompt(id, 'bash sleep 0.2')).status, 'accepted');
    await tool;
    const later = waitFor(supervisor, id, (e) => e.type === 'agent_settled' && text(events).includes('later'), 15_000, "the follow-up's turn");
    const f = await supervisor.prompt(id, 'say later', { streamingBehavior: 'followUp' });
    assert.equal(f.status, 'accepted', JSON.stringify(f));
    await later;
    // It waited out the compaction τ ran on its own, and was answered when its turn began.
    const compacted = events.findIndex((e) => e.type === 'compaction_end');
    const opened = events.findIndex((e) => e.turn?.opens === true && e.turn.index === 2);
    assert.ok(compacted >= 0 && compacted < opened, events.map((e) => e.type).join(' '));
  });
});
