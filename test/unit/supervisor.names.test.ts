// One display name per worker (issue 28): given by the host when the worker starts, unique among
// the host's workers (stopped ones too) and the history's past sessions, kept in the worker's
// state and its history record, and never handed to a second worker.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Supervisor, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { uniqueWorkerName } from '../../src/core/worker/names';
import { ROOT } from '../helpers/supervisor';

const DEMO = join(__dirname, '..', '..', 'src', 'demo', 'demoWorker.ts');

const spec = (name: string | undefined, sessions: string, extra: Partial<WorkerSpec> = {}): WorkerSpec => ({
  dialect: 'tau', command: process.execPath, args: ['--import', 'tsx', DEMO, '--session-dir', sessions], cwd: ROOT, sessionDir: sessions,
  env: { RPC_WORKERS_DEMO_WORD_MS: '0' }, ...(name !== undefined ? { name } : {}), ...extra,
});

async function started(supervisor: Supervisor, s: WorkerSpec): Promise<{ workerId: string; name: string }> {
  const r = await supervisor.start(s);
  if (r.status !== 'started') return assert.fail(r.error);
  return { workerId: r.workerId, name: r.state.name };
}

describe('worker names', function () {
  this.timeout(60_000);
  let dir: string;
  let supervisors: Supervisor[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rpcw-names-'));
    supervisors = [];
  });
  afterEach(async () => {
    await Promise.all(supervisors.map((h) => h.dispose()));
    rmSync(dir, { recursive: true, force: true });
  });
  const host = () => {
    const h = createSupervisor({ historyDir: join(dir, 'history') });
    supervisors.push(h);
    return h;
  };

  it('numbers a name on from the highest one given, and leaves a free name as it is', () => {
    assert.equal(uniqueWorkerName('Demo worker', new Set()), 'Demo worker');
    assert.equal(uniqueWorkerName('Demo worker', new Set(['Demo worker'])), 'Demo worker #2');
    assert.equal(uniqueWorkerName('Demo worker', new Set(['Demo worker', 'Demo worker #3'])), 'Demo worker #4');
    assert.equal(uniqueWorkerName('Demo worker #3', new Set(['Demo worker', 'Demo worker #3'])), 'Demo worker #4');
    assert.equal(uniqueWorkerName('Demo worker #7', new Set(['Demo worker'])), 'Demo worker #7');
    assert.equal(uniqueWorkerName('pi', new Set(['Demo worker', 'pi #2'])), 'pi');
  });

  it('an empty or blank name asked for is no name: the worker gets the default, not a blank row', async () => {
    const h = host();
    const sessions = join(dir, 'sessions');
    const a = await started(h, spec('', sessions));
    const b = await started(h, spec('  ', sessions));
    assert.deepEqual([a.name, b.name], ['tau worker', 'tau worker #2']);
  });

  it('stop one, start two: three names, the stopped one\'s never given again, kept in the history', async () => {
    const h = host();
    const sessions = join(dir, 'sessions');
    const a = await started(h, spec('Demo worker', sessions));
    await h.stop(a.workerId);
    const b = await started(h, spec('Demo worker', sessions));
    const c = await started(h, spec('Demo worker', sessions));
    assert.deepEqual([a.name, b.name, c.name], ['Demo worker', 'Demo worker #2', 'Demo worker #3']);
    assert.deepEqual(h.list().map((s) => s.name), ['Demo worker #2', 'Demo worker #3']);
    await h.history!.store.flush();
    const listed = await h.history!.store.list();
    const byWorker = new Map(listed.sessions.map((s) => [s.workerId, s.name]));
    assert.deepEqual([a, b, c].map((w) => byWorker.get(w.workerId)), ['Demo worker', 'Demo worker #2', 'Demo worker #3']);
  });

  it('a host that starts after a reload numbers on from the past sessions, and a resumed session keeps its name', async () => {
    const sessions = join(dir, 'sessions');
    const first = host();
    const a = await started(first, spec(undefined, sessions));
    const b = await started(first, spec(undefined, sessions));
    assert.deepEqual([a.name, b.name], ['tau worker', 'tau worker #2']);
    const ref = first.list().find((s) => s.workerId === b.workerId)!.session;
    await first.dispose();

    const second = host();
    // Two starts racing each other still get two names.
    const [c, d] = await Promise.all([started(second, spec(undefined, sessions)), started(second, spec(undefined, sessions))]);
    assert.deepEqual([c.name, d.name].sort(), ['tau worker #3', 'tau worker #4']);
    const resumed = await started(second, spec('tau worker #2', sessions, { resume: ref ?? undefined }));
    assert.equal(resumed.name, 'tau worker #2');
    await second.stop(resumed.workerId);
    // A session from before names were unique may share its name with a live worker: then it is numbered on.
    const again = await started(second, spec('tau worker #3', sessions, { resume: ref ?? undefined }));
    assert.equal(again.name, 'tau worker #5');
  });

  it('a resumed session does not take the name of a worker that ended on its own and is still listed', async () => {
    const sessions = join(dir, 'sessions');
    const h = host();
    const a = await started(h, spec(undefined, sessions));
    const state = h.list().find((s) => s.workerId === a.workerId)!;
    const ended = new Promise<void>((resolve) => h.onState((s) => { if (s.workerId === a.workerId && s.status !== 'running') resolve(); }));
    process.kill(state.pid!, 'SIGKILL');
    await ended;
    assert.deepEqual(h.list().map((s) => [s.name, s.status === 'running']), [['tau worker', false]], 'the ended worker keeps its row');
    // Resumed, as from the history (under the session's name), while the ended one is listed.
    const resumed = await started(h, spec('tau worker', sessions, { resume: state.session ?? undefined }));
    assert.equal(resumed.name, 'tau worker #2');
    assert.equal(new Set(h.list().map((s) => s.name)).size, 2, 'two rows of one name');
  });
});
