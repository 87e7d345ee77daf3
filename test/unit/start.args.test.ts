// `npm start`'s options as a person types them. npm reads an option before `--` as its own
// config: `npm start --port=9000` reaches the script as npm_config_port=9000 and no argument,
// `npm start --port 9000` as npm_config_port=true and a bare "9000", `npm start --no-build` as
// npm_config_build="". Each must do what it says, not start on 8080 (or build) in silence.
import * as assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { parseStartArgs } from '../../scripts/lib/start-args.mjs';

describe('npm start: its options, written with or without npm\'s --', () => {
  it('--port N and --port=N after --, and RPC_WORKERS_PORT', () => {
    assert.equal(parseStartArgs(['--port', '9000'], {}).port, 9000);
    assert.equal(parseStartArgs(['--port=9001'], {}).port, 9001);
    assert.equal(parseStartArgs([], { RPC_WORKERS_PORT: '9002' }).port, 9002);
    assert.equal(parseStartArgs([], {}).port, null, 'no port: 8080 or a free one');
  });

  it('npm start --port=9000 (npm\'s config, no --) starts on 9000', () => {
    assert.equal(parseStartArgs([], { npm_config_port: '9000' }).port, 9000);
  });

  it('npm start --port 9000 (npm took --port, the number came through alone) starts on 9000', () => {
    assert.equal(parseStartArgs(['9000'], { npm_config_port: 'true' }).port, 9000);
  });

  it('npm start --no-build (npm\'s config) does not build', () => {
    assert.equal(parseStartArgs([], { npm_config_build: '' }).build, false);
    assert.equal(parseStartArgs([], {}).build, true);
  });

  it('an argument it does not know: the error gives the options as npm passes them, after --', () => {
    assert.throws(() => parseStartArgs(['nine'], {}), /unknown argument: nine.*npm start -- --port N/);
    assert.equal(parseStartArgs(['--workspace', tmpdir()], {}).workspace, tmpdir());
  });

  it('a port that is no number, or an option left without its value, is said as typed', () => {
    assert.throws(() => parseStartArgs(['--port', 'abc'], {}), (e: Error) => /not a port: abc \(/.test(e.message) && !/NaN/.test(e.message));
    assert.throws(() => parseStartArgs([], { RPC_WORKERS_PORT: 'eighty' }), /not a port: eighty \(RPC_WORKERS_PORT/);
    assert.throws(() => parseStartArgs(['--port'], {}), /--port needs a value/);
    assert.throws(() => parseStartArgs(['--workspace'], {}), /--workspace needs a value/);
  });
});
