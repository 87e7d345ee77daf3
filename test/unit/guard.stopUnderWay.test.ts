// A violation on a worker that no longer reads its input, found while a Stop is already under way
// (the person's: Stop on a deaf worker ends its terminals first, and its tool calls go on being
// audited meanwhile). The guard stops such a worker only because its abort cannot reach it; one
// being stopped already needs no second Stop, and its row must not say the guard stopped it, nor
// its action be "stop" (WorkerAttention notifies that as an error the person did not cause).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveGuard, type ResolvedPolicy } from '../../src/core/guard/policy';
import type { AgentEvent, Untimed } from '../../src/core/events/agentEvent';
import { auditToolCallOf, type AuditPort } from '../../src/core/worker/toolAudit';

describe('guard: a deaf worker whose Stop is already under way', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-stopping-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  function port(stopping: boolean) {
    const reports: Untimed[] = [];
    const calls = { stop: 0, abort: 0 };
    const p = {
      cwd: ws, dialect: {}, connection: {}, turns: { streaming: true },
      request: <T>(x: Promise<T>) => x,
      report: (e: Untimed) => reports.push(e),
      abort: async () => void calls.abort++,
      stop: async () => void calls.stop++,
      inputLost: () => true,
      stopping: () => stopping,
    } as unknown as AuditPort;
    return { p, reports, calls };
  }

  const write: AgentEvent = { type: 'tool_execution_start', timestamp: 0, tool_call_id: 'c1', tool_name: 'write', args: { path: '/etc/outside.txt', content: 'x' } };

  it('is not stopped again, nor said stopped by the guard: the violation is said as found', async () => {
    const { p, reports, calls } = port(true);
    await auditToolCallOf(p, { policy, onViolation: 'abort' }, write);
    assert.equal(calls.stop, 0, 'a second Stop');
    assert.equal(reports.length, 1);
    assert.notEqual(reports[0]?.data?.action, 'stop');
    assert.doesNotMatch(reports[0]?.error ?? '', /so it was stopped/);
    assert.match(reports[0]?.error ?? '', /being stopped/);
  });

  it('one not being stopped is still stopped by the guard', async () => {
    const { p, reports, calls } = port(false);
    await auditToolCallOf(p, { policy, onViolation: 'abort' }, write);
    assert.equal(calls.stop, 1);
    assert.equal(reports[0]?.data?.action, 'stop');
  });
});
