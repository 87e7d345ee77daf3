// The demo worker answers a queued message as what it was (issue 28): a steer as "Steered: …",
// a follow-up as "Follow-up: …" (it said "Steered" to both).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { ofType, record, ROOT, waitFor } from '../helpers/supervisor';
import { slimEvent } from '../../src/protocol/messages';
import { LogModel } from '../../src/webview/model';

const DEMO = join(__dirname, '..', '..', 'src', 'demo', 'demoWorker.ts');

describe('demo worker queue', function () {
  this.timeout(30_000);
  let supervisor: Supervisor;
  beforeEach(() => { supervisor = createSupervisor(); });
  afterEach(() => supervisor.dispose());

  /** A demo worker in the middle of a turn (its tool runs a second), and what it says from the start. */
  async function midTurn() {
    const r = await supervisor.start({ dialect: 'tau', command: process.execPath, args: ['--import', 'tsx', DEMO], cwd: ROOT, env: { RPC_WORKERS_DEMO_WORD_MS: '0' }, name: 'demo' });
    if (r.status !== 'started') return assert.fail(r.error);
    const events = record(supervisor, () => r.workerId);
    const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'), 20_000, 'the tool');
    assert.equal((await supervisor.prompt(r.workerId, 'run: sleep 1')).status, 'accepted');
    await tool;
    return { workerId: r.workerId, events };
  }

  it('a steer is answered as a steer, a follow-up as a follow-up', async () => {
    const { workerId, events } = await midTurn();
    assert.equal((await supervisor.prompt(workerId, 'go left', { streamingBehavior: 'followUp' })).status, 'accepted');
    assert.equal((await supervisor.prompt(workerId, 'go right', { streamingBehavior: 'steer' })).status, 'accepted');
    await waitFor(supervisor, workerId, ofType('agent_settled'), 20_000, 'the end of the turn');
    const said = events.filter((e) => e.type === 'message_update' && typeof (e as { delta?: unknown }).delta === 'string').map((e) => (e as unknown as { delta: string }).delta).join('');
    assert.match(said, /Steered: You said: go right\./);
    assert.match(said, /Follow-up: You said: go left\./);
  });

  it('says its queue in the model\'s shape, so the core and the Event Log count the same (issue 25)', async () => {
    const { workerId, events } = await midTurn();
    const queued = waitFor(supervisor, workerId, ofType('queue_update'), 20_000, 'the queue');
    assert.equal((await supervisor.prompt(workerId, 'go left', { streamingBehavior: 'followUp' })).status, 'accepted');
    const d = (await queued).data ?? {};
    assert.deepEqual([d.steering, d.followUp], [[], ['go left']]);
    await waitFor(supervisor, workerId, ofType('agent_settled'), 20_000, 'the end of the turn');
    const model = new LogModel();
    model.apply(events.map((e) => slimEvent(e as never)));
    const counts = model.all().flatMap((x) => (x.kind === 'queue' ? [[x.steering, x.followUp, x.items]] : []));
    assert.deepEqual(counts[0], [0, 1, ['go left']]);
  });
});
