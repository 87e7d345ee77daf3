// The demo worker answers a queued message as what it was (issue 28): a steer as "Steered: …",
// a follow-up as "Follow-up: …" (it said "Steered" to both).
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { WorkerHost } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { ofType, record, ROOT, waitFor } from '../helpers/host';

const DEMO = join(__dirname, '..', '..', 'src', 'demo', 'demoWorker.ts');

describe('demo worker queue', function () {
  this.timeout(30_000);
  let host: WorkerHost;
  beforeEach(() => { host = createSupervisor(); });
  afterEach(() => host.dispose());

  it('a steer is answered as a steer, a follow-up as a follow-up', async () => {
    const r = await host.start({ dialect: 'tau', command: process.execPath, args: ['--import', 'tsx', DEMO], cwd: ROOT, env: { RPC_WORKERS_DEMO_WORD_MS: '0' }, name: 'demo' });
    if (r.status !== 'started') return assert.fail(r.error);
    const events = record(host, () => r.workerId);
    const tool = waitFor(host, r.workerId, ofType('tool_execution_start'), 20_000, 'the tool');
    assert.equal((await host.prompt(r.workerId, 'run: sleep 1')).status, 'accepted');
    await tool;
    assert.equal((await host.prompt(r.workerId, 'go left', { streamingBehavior: 'followUp' })).status, 'accepted');
    assert.equal((await host.prompt(r.workerId, 'go right', { streamingBehavior: 'steer' })).status, 'accepted');
    await waitFor(host, r.workerId, ofType('agent_settled'), 20_000, 'the end of the turn');
    const said = events.filter((e) => e.type === 'message_update' && typeof (e as { delta?: unknown }).delta === 'string').map((e) => (e as unknown as { delta: string }).delta).join('');
    assert.match(said, /Steered: You said: go right\./);
    assert.match(said, /Follow-up: You said: go left\./);
  });
});
