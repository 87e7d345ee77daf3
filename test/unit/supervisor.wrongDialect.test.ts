// A profile with the wrong dialect, run against the real programs: the worker answers the probe
// in the other protocol within milliseconds, and the start fails at once saying which dialect to
// use, instead of waiting out the command timeout and reporting "no answer".
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { ROOT } from '../helpers/supervisor';
import { makePiAgentDir, piCommand, piEnv, removePiAgentDir } from '../fixtures/pi-env.mjs';
import { makeTauHome, removeTauHome, requireTau, tauEnv } from '../fixtures/tau-env.mjs';

describe('a worker started with the wrong dialect (real pi 0.73.1 and real τ 0.15.0)', function () {
  // Far below the host's command timeout below: only an early failure passes.
  this.timeout(20_000);
  let supervisor: Supervisor;
  let piDir: string;
  let tauHome: string;
  before(async () => {
    piDir = await makePiAgentDir({ baseUrl: 'http://127.0.0.1:9/v1' });
    tauHome = await makeTauHome({ baseUrl: 'http://127.0.0.1:9/v1' });
  });
  after(async () => {
    await removePiAgentDir(piDir);
    await removeTauHome(tauHome);
  });
  beforeEach(() => (supervisor = createSupervisor({ limits: { commandTimeoutMs: 60_000 } })));
  afterEach(() => supervisor.dispose());

  it('τ run as pi: the start fails at once and says to use "tau"; the worker ends failed, not stopped (its past session says so)', async () => {
    const exits: Array<{ data?: Record<string, unknown>; error?: string | null }> = [];
    supervisor.onEvent((_, e) => { if (e.type === 'worker_exit') exits.push(e); });
    const r = await supervisor.start({ dialect: 'pi', command: requireTau(), args: ['--mode', 'rpc'], cwd: ROOT, env: tauEnv(tauHome) });
    assert.equal(r.status, 'error');
    assert.match(r.status === 'error' ? r.error : '', /answered in τ's protocol \(JSON-RPC 2\.0\), not pi's: set the profile's dialect to "tau"/);
    assert.equal(supervisor.list().length, 0);
    assert.equal(exits.length, 1);
    assert.equal(exits[0].data?.status, 'failed');
    assert.match(exits[0].error ?? '', /did not become ready: the worker answered in τ's protocol/);
  });

  it('pi run as τ: the start fails at once and says to use "pi"', async () => {
    // A profile that names pi's program and its rpc flags, with τ's dialect: the host adds nothing
    // to a program that is not τ, so pi runs exactly as the profile says.
    const r = await supervisor.start({ dialect: 'tau', command: piCommand(), args: ['--mode', 'rpc', '--no-session', '--no-extensions'], cwd: ROOT, env: piEnv(piDir) as Record<string, string> });
    assert.equal(r.status, 'error');
    assert.match(r.status === 'error' ? r.error : '', /answered in pi's protocol .*, not τ's: set the profile's dialect to "pi"/);
    assert.equal(supervisor.list().length, 0);
  });
});
