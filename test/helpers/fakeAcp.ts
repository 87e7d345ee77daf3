// A worker of the fake ACP agent (test/fixtures/fake-acp-agent.mjs) in a host the test owns: start
// it, run one turn to its settling, and read its state.
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Supervisor, WorkerSpec, WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { ofType, record, ROOT, stateOf as liveState, text, waitFor } from './supervisor';

export const FAKE_ACP = path.join(ROOT, 'test/fixtures/fake-acp-agent.mjs');

/** `host()` and `cwd()` are read at each call: tests make a new host per test. */
export function fakeAcpWorkers(host: () => Supervisor, cwd: () => string) {
  async function start(extra: Partial<WorkerSpec> = {}): Promise<string> {
    const r = await host().start({ dialect: 'acp', command: process.execPath, args: [FAKE_ACP], cwd: cwd(), name: 'Fake agent', ...extra });
    if (r.status !== 'started') throw new Error(`start failed: ${r.error}`);
    return r.workerId;
  }
  /** One turn; what the agent said and every event of it. */
  async function turn(id: string, prompt: string): Promise<{ said: string; events: AgentEvent[] }> {
    const events = record(host(), () => id);
    const settled = waitFor(host(), id, ofType('agent_settled'));
    const p = await host().prompt(id, prompt);
    assert.equal(p.status, 'accepted', p.status === 'error' ? p.error : '');
    await settled;
    return { said: text(events), events };
  }
  const stateOf = (id: string): WorkerState => liveState(host(), id);
  return { start, turn, stateOf };
}
