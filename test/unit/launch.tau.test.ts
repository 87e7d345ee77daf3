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
