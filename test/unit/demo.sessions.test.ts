// The demo worker's session (issue 14): kept under --session-dir, resumed by the host's
// switch_session after a restart, and its next reply shows that it remembers the earlier prompts.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import type { Supervisor, WorkerSpec, WorkerState } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { ofType, ROOT, waitFor } from '../helpers/supervisor';

const DEMO = join(__dirname, '..', '..', 'src', 'demo', 'demoWorker.ts');

function spec(dir: string, resume?: WorkerSpec['resume']): WorkerSpec {
  return {
    dialect: 'tau', command: process.execPath, args: ['--import', 'tsx', DEMO, '--session-dir', dir], cwd: ROOT, sessionDir: dir,
    env: { RPC_WORKERS_DEMO_WORD_MS: '0' }, name: 'demo', ...(resume ? { resume } : {}),
  };
}

async function reply(supervisor: Supervisor, workerId: string, text: string): Promise<string> {
  const deltas: string[] = [];
  const off = supervisor.onEvent((id, e) => {
    if (id === workerId && e.type === 'message_update' && typeof (e as AgentEvent & { delta?: unknown }).delta === 'string') deltas.push((e as AgentEvent & { delta: string }).delta);
  });
  const settled = waitFor(supervisor, workerId, ofType('agent_settled'), 20_000, `the end of "${text}"`);
  const r = await supervisor.prompt(workerId, text);
  assert.equal(r.status, 'accepted');
  await settled;
  off();
  return deltas.join('');
}

describe('demo worker sessions', function () {
  this.timeout(60_000);
  let dir: string;
  let supervisor: Supervisor;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rpcw-demo-sess-'));
    supervisor = createSupervisor();
  });
  afterEach(async () => {
    await supervisor.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its conversation in the session folder and remembers it after a resume', async () => {
    const first = await supervisor.start(spec(dir));
    if (first.status !== 'started') return assert.fail(first.error);
    assert.match(await reply(supervisor, first.workerId, 'remember kumquat'), /no earlier prompt/);
    assert.match(await reply(supervisor, first.workerId, 'and fig'), /1 earlier prompt\b/);
    const st = supervisor.state(first.workerId);
    assert.ok(st.status !== 'not_found' && st.state.session?.id && st.state.session.file, `session: ${JSON.stringify(st.status !== 'not_found' && st.state.session)}`);
    const ref = st.state.session;
    assert.ok(readdirSync(dir).includes(`demo-${ref.id}.jsonl`));
    await supervisor.stop(first.workerId);

    const second = await supervisor.start(spec(dir, ref));
    if (second.status !== 'started') return assert.fail(second.error);
    assert.ok(supervisor.events(second.workerId).some((e) => e.type === 'session_resumed'), 'no session_resumed mark');
    assert.match(await reply(supervisor, second.workerId, 'what did I say?'), /2 earlier prompts/);
    const after = supervisor.state(second.workerId);
    assert.equal(after.status !== 'not_found' && after.state.session?.id, ref.id);
    assert.ok(after.status !== 'not_found' && after.state.usage && after.state.usage.contextTokens! > 0, 'no usage from get_session_stats');
  });

  // Issue 28, minor 9: the log of a session stopped mid-turn shows its prompt; the resumed worker
  // must count it too, and the stopped turn is the worker's last end.
  it('a session stopped mid-turn: the turn ends "stopped", and the resumed worker holds its prompt', async () => {
    const first = await supervisor.start(spec(dir));
    if (first.status !== 'started') return assert.fail(first.error);
    assert.match(await reply(supervisor, first.workerId, 'remember kumquat'), /no earlier prompt/);
    const running = waitFor(supervisor, first.workerId, ofType('tool_execution_start'), 20_000, 'the command to start');
    assert.equal((await supervisor.prompt(first.workerId, 'run: sleep 30')).status, 'accepted');
    await running;
    const ref = (() => { const st = supervisor.state(first.workerId); return st.status !== 'not_found' ? st.state.session : null; })();
    assert.ok(ref, 'no session');
    let last: WorkerState | undefined;
    const off = supervisor.onState((state) => { if (state.workerId === first.workerId) last = state; });
    await supervisor.stop(first.workerId);
    off();
    assert.equal(last?.status, 'stopped');
    assert.equal(last.turns.at(-1)?.endReason, 'stopped');
    assert.equal(last.lastEndReason, 'stopped', 'the turn the stop cut short is the last end');
    const second = await supervisor.start(spec(dir, ref));
    if (second.status !== 'started') return assert.fail(second.error);
    assert.match(await reply(supervisor, second.workerId, 'what did I say?'), /2 earlier prompts/);
  });

  it('refuses to resume a session it does not have (the start fails, nothing is kept running)', async () => {
    const r = await supervisor.start(spec(dir, { id: '00000000-0000-4000-8000-000000000000', file: null }));
    assert.equal(r.status, 'error');
    assert.equal(supervisor.list().filter((s) => s.status === 'running').length, 0);
  });
});
