// The host against real pi 0.73.1 (a devDependency), driven offline by the mock LLM.
import assert from 'node:assert/strict';
import type { WorkerHost, WorkerSpec } from '../../src/core/api';
import { createWorkerHost } from '../../src/core/host';
import { groupMembers, isAlive, ofType, ROOT, waitFor } from '../helpers/host';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import { makePiAgentDir, piCommand, piEnv, removePiAgentDir } from '../fixtures/pi-env.mjs';

const sleepCall = { toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] };
const said = (m: { content: unknown }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));

describe('the host driving real pi', function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let dir: string;
  let host: WorkerHost;
  let spec: WorkerSpec;

  before(async () => {
    llm = await startMockLlm();
    dir = await makePiAgentDir({ baseUrl: llm.baseUrl });
    spec = { dialect: 'pi', command: piCommand(), cwd: ROOT, model: 'mock/mock-1', env: piEnv(dir) as Record<string, string>, name: 'real pi' };
  });
  after(async () => {
    await llm.close();
    await removePiAgentDir(dir);
  });
  beforeEach(() => (host = createWorkerHost()));
  afterEach(() => host.dispose());

  it('start → prompt → redirect → abort → stop, with a mid-tool abort that keeps history', async () => {
    const started = await host.start(spec);
    assert.equal(started.status, 'started', started.status === 'error' ? started.error : '');
    if (started.status !== 'started') return;
    const id = started.workerId;
    assert.equal(started.state.model, 'mock/mock-1');

    llm.script([{ text: 'Hello from the mock model.' }]);
    const first = waitFor(host, id, ofType('agent_end'), 30_000);
    assert.equal((await host.prompt(id, 'say hello')).status, 'accepted');
    assert.equal((await first).end_reason, 'done');

    // A real bash tool call, aborted while `sleep 30` runs.
    llm.script([sleepCall]);
    const tool = waitFor(host, id, ofType('tool_execution_start'), 30_000);
    assert.equal((await host.prompt(id, 'run the long command')).status, 'accepted');
    await tool;
    const aborted = await host.abort(id);
    assert.equal(aborted.status, 'aborted', JSON.stringify(aborted));
    assert.ok(isAlive(started.pid), 'pi must survive the abort');

    // Redirect while idle: nothing to abort, and the prompt carries the earlier turns.
    llm.script([{ text: 'Changing plan.' }]);
    const redirected = waitFor(host, id, ofType('agent_end'), 30_000);
    const r = await host.redirect(id, 'use the cache instead');
    assert.equal(r.status, 'redirected', JSON.stringify(r));
    assert.equal(r.status === 'redirected' && r.aborted, false);
    await redirected;
    const last = llm.requests[llm.requests.length - 1];
    const history = last.messages.map(said).join('\n');
    assert.match(history, /say hello/);
    assert.match(history, /run the long command/);
    assert.match(history, /use the cache instead/);

    // Redirect mid-tool: abort lands, then the new instruction.
    llm.script([sleepCall, { text: 'Redirected.' }]);
    const tool2 = waitFor(host, id, ofType('tool_execution_start'), 30_000);
    await host.prompt(id, 'run it again');
    await tool2;
    const done = waitFor(host, id, (e) => e.type === 'agent_end' && e.end_reason === 'done', 30_000);
    const mid = await host.redirect(id, 'stop that, do something else');
    assert.equal(mid.status, 'redirected', JSON.stringify(mid));
    assert.equal(mid.status === 'redirected' && mid.aborted, true);
    await done;

    const stopped = await host.stop(id);
    assert.equal(stopped.status, 'stopped');
    assert.deepEqual(groupMembers(started.pid), []);
  });

  it('refuses a plain prompt while pi streams, as pi itself does', async () => {
    const started = await host.start(spec);
    if (started.status !== 'started') return assert.fail(started.error);
    llm.script([sleepCall]);
    const tool = waitFor(host, started.workerId, ofType('tool_execution_start'), 30_000);
    await host.prompt(started.workerId, 'run the long command');
    await tool;
    const plain = await host.prompt(started.workerId, 'and another');
    assert.equal(plain.status, 'error');
    assert.equal((await host.abort(started.workerId)).status, 'aborted');
  });
});
