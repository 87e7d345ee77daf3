// The demo worker answers a queued message as what it was (issue 28): a steer as "Steered: …",
// a follow-up as "Follow-up: …" (it said "Steered" to both).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { ofType, record, ROOT, waitFor } from '../helpers/supervisor';

const DEMO = join(__dirname, '..', '..', 'src', 'demo', 'demoWorker.ts');

describe('demo worker queue', function () {
  this.timeout(30_000);
  let supervisor: Supervisor;
  beforeEach(() => { supervisor = createSupervisor(); });
  afterEach(() => supervisor.dispose());

  it('a steer is answered as a steer, a follow-up as a follow-up', async () => {
    const r = await supervisor.start({ dialect: 'tau', command: process.execPath, args: ['--import', 'tsx', DEMO], cwd: ROOT, env: { RPC_WORKERS_DEMO_WORD_MS: '0' }, name: 'demo' });
    if (r.status !== 'started') return assert.fail(r.error);
    const events = record(supervisor, () => r.workerId);
    const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'), 20_000, 'the tool');
    assert.equal((await supervisor.prompt(r.workerId, 'run: sleep 1')).status, 'accepted');
    await tool;
    assert.equal((await supervisor.prompt(r.workerId, 'go left', { streamingBehavior: 'followUp' })).status, 'accepted');
    assert.equal((await supervisor.prompt(r.workerId, 'go right', { streamingBehavior: 'steer' })).status, 'accepted');
    await waitFor(supervisor, r.workerId, ofType('agent_settled'), 20_000, 'the end of the turn');
    const said = events.filter((e) => e.type === 'message_update' && typeof (e as { delta?: unknown }).delta === 'string').map((e) => (e as unknown as { delta: string }).delta).join('');
    assert.match(said, /Steered: You said: go right\./);
    assert.match(said, /Follow-up: You said: go left\./);
  });
});
