// τ's launch shape: τ itself gets the host's hermetic flags; any other program that speaks τ's
// protocol runs with its command and args as given (a `node -e` script would take --mode as its
// own option and die).
import assert from 'node:assert/strict';
import { buildLaunch } from '../../src/core/worker/launch';
import { isTauProgram } from '../../src/core/wire/tau';

const argsOf = (spec: Parameters<typeof buildLaunch>[0]) => {
  const b = buildLaunch(spec, {});
  if (!b.ok) throw new Error(b.error);
  return b.launch.args;
};

describe('τ launch shape', () => {
  it('knows τ by its console scripts, with or without a path or a Windows extension', () => {
    for (const c of ['ffwf-tau', 'tau', '/home/me/.venvs/tau/bin/ffwf-tau', 'C:\\\\tau\\\\Scripts\\\\ffwf-tau.exe', 'TAU.CMD']) assert.equal(isTauProgram(c), true, c);
    for (const c of ['node', '/usr/bin/python3', 'tau-helper', 'my-tau', '/opt/tau/bin/run']) assert.equal(isTauProgram(c), false, c);
  });

  it('τ gets --mode rpc, -ne -nc, its session dir and model, each only where the caller did not say it', () => {
    assert.deepEqual(argsOf({ dialect: 'tau', command: '/v/bin/ffwf-tau', cwd: '/ws', sessionDir: '/s', model: 'mock' }),
      ['--mode', 'rpc', '-ne', '-nc', '--session-dir', '/s', '--model', 'mock']);
    assert.deepEqual(argsOf({ dialect: 'tau', command: 'tau', cwd: '/ws', args: ['--mode', 'rpc', '--no-session'], sessionDir: '/s', discovery: true }),
      ['--mode', 'rpc', '--no-session']);
    assert.deepEqual(argsOf({ dialect: 'tau', command: 'ffwf-tau', cwd: '/ws', args: ['-e', '/x/ext.py', '-nc'] }),
      ['-e', '/x/ext.py', '-nc', '--mode', 'rpc', '-ne']);
  });

  it('another program speaking τ\'s protocol runs as given', () => {
    assert.deepEqual(argsOf({ dialect: 'tau', command: process.execPath, cwd: '/ws', args: ['demo-worker.js'], sessionDir: '/s', model: 'scripted' }), ['demo-worker.js']);
  });
});

describe('τ version', () => {
  it('is read from the venv beside τ\'s console script, without running it', async () => {
    const { tauPreflight } = await import('../../src/core/wire/tauVersion');
    const { tauCommand } = await import('../fixtures/tau-env.mjs');
    const r = await tauPreflight(tauCommand(), true, process.env, '/');
    assert.deepEqual(r, { ok: true, version: '0.15.0' });
    assert.deepEqual(await tauPreflight(process.execPath, false, process.env, '/'), { ok: true, version: null });
  });

  it('outside a venv, τ is asked with --version while it starts', async () => {
    const { tauPreflight } = await import('../../src/core/wire/tauVersion');
    const { mkdtempSync, writeFileSync, chmodSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'tau-version-'));
    try {
      const script = join(dir, 'tau');
      writeFileSync(script, '#!/bin/sh\necho "tau 9.8.7"\n');
      chmodSync(script, 0o755);
      const r = await tauPreflight(script, true, process.env, dir);
      assert.equal(r.ok && r.version, null);
      assert.equal(await (r.ok ? r.later : undefined), '9.8.7');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
