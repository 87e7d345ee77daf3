// A worker's stderr as the person reads it (the output channel, an exit's description): a
// character whose bytes came in two reads is that character, and the last words of a worker that
// exits without a final newline are shown like any other line.
import assert from 'node:assert/strict';
import { WorkerProcess, type Exit } from '../../src/core/worker/workerProcess';
import { PiCodec } from '../../src/core/wire/pi';

/**
 * A worker that writes `go` and the first byte of "é", waits for SIGUSR2 (sent once the host has
 * read `go`, so the two halves come in two reads), then the rest of the line, `last` and its exit.
 */
function run(last: string): Promise<{ lines: string[]; description: string }> {
  const script = `
    const fs = require('node:fs');
    const e = Buffer.from('\u00e9');
    process.on('SIGUSR2', () => {
      fs.writeSync(2, Buffer.concat([e.subarray(1), Buffer.from('t\\n' + ${JSON.stringify(last)})]));
      process.exit(3);
    });
    fs.writeSync(2, Buffer.concat([Buffer.from('go\\ncaf'), e.subarray(0, 1)]));
    setInterval(() => {}, 1000);
  `;
  const launch = { command: process.execPath, args: ['-e', script], env: {}, guarded: false, tools: null, agent: null, audit: null };
  const lines: string[] = [];
  const none = () => {};
  return new Promise((resolve) => {
    const worker: WorkerProcess = new WorkerProcess(launch, { cwd: process.cwd(), codec: new PiCodec(), maxLineBytes: 1 << 20, ringLines: 10, killGraceMs: 2_000, inputProbeMs: 60_000 }, {
      onEvent: none, onProtocolError: none, onRequest: () => Promise.resolve(null), onNotification: none, onConnectionError: none, onOutputLost: none, onInputLost: none,
      onStderr: (line) => {
        lines.push(line);
        if (line === 'go') process.kill(worker.pid!, 'SIGUSR2');
      },
      onExit: (_: Exit) => resolve({ lines, description: worker.exitDescription() }),
    });
  });
}

describe('a worker\'s stderr', () => {
  it('keeps a character whose bytes came in two reads whole', async () => {
    const { lines, description } = await run('bye\n');
    assert.deepEqual(lines.slice(0, 2), ['go', 'caf\u00e9t']);
    assert.match(description, /caf\u00e9t/);
  });

  it('shows a last line with no newline, as the exit\'s description does', async () => {
    const { lines, description } = await run('fatal: out of memory');
    assert.equal(lines.at(-1), 'fatal: out of memory');
    assert.match(description, /fatal: out of memory$/);
  });
});
