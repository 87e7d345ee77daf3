// The writer's probe of a worker's stdin (JsonlMessageWriter.probe): a write of no bytes. A worker
// that still reads takes it and reads nothing of it (no blank line for pi, τ or an ACP agent to
// choke on); one that closed its stdin while it runs on refuses it at once (EPIPE), though Node
// says nothing of the closed reader until something is written (docs/real-workers.md). Driven
// against the fake worker, a real process on the socketpair Node gives a child's stdin.
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Message } from 'vscode-jsonrpc/node';
import { JsonlMessageWriter } from '../../src/core/wire/jsonlWriter';
import type { WireCodec } from '../../src/core/wire/codec';
import { StdioPeer } from '../fixtures/fake-worker/peer.mjs';

const FAKE = path.resolve(__dirname, '../fixtures/fake-worker.mjs');
// The messages here are the worker's own wire objects already.
const asIs: WireCodec = { encode: (m) => m, decode: () => ({ kind: 'invalid', reason: 'not read here' }) };

const peers: StdioPeer[] = [];
function fake(dialect: 'pi' | 'tau', ...flags: string[]): { peer: StdioPeer; writer: JsonlMessageWriter } {
  const peer = StdioPeer.spawn(process.execPath, [FAKE, '--dialect', dialect, ...flags]);
  peers.push(peer);
  return { peer, writer: new JsonlMessageWriter(peer.child.stdin!, asIs) };
}

afterEach(async () => {
  for (const p of peers) if (!p.exit) p.child.kill('SIGCONT');
  await Promise.all(peers.splice(0).map((p) => p.stop()));
});

const getState = (dialect: 'pi' | 'tau', id: string) => (dialect === 'pi' ? { id, type: 'get_state' } : { jsonrpc: '2.0', id, method: 'get_state', params: {} });

for (const dialect of ['pi', 'tau'] as const) {
  describe(`wire: a probe of the worker's stdin (${dialect})`, () => {
    it('a worker that reads takes probe after probe, reads none of it, and answers the next message as before', async () => {
      const { peer, writer } = fake(dialect, '--on-sigusr2', 'report-stdin');
      const results = new Set<string>();
      for (let i = 0; i < 200; i++) results.add(await writer.probe());
      assert.deepEqual([...results], ['taken']);
      await writer.write(getState(dialect, 's1') as unknown as Message);
      const answer = await peer.waitFor((l: { id?: unknown }) => l.id === 's1');
      assert.notEqual(answer.success ?? answer.result, undefined, JSON.stringify(answer));
      peer.child.kill('SIGUSR2');
      await peer.waitForStderr(/stdin: /);
      const line = JSON.stringify(getState(dialect, 's1')) + '\n';
      assert.match(peer.stderr, new RegExp(`stdin: ${Buffer.byteLength(line)} bytes, 1 lines, 0 blank`));
      assert.equal(peer.exit, null);
    });

    it('a worker that closed its stdin and runs on refuses the probe: the next message is the first it did not take', async () => {
      const { peer, writer } = fake(dialect, '--on-sigusr2', 'close-stdin');
      await writer.write(getState(dialect, 's1') as unknown as Message);
      await peer.waitFor((l: { id?: unknown }) => l.id === 's1');
      assert.equal(await writer.probe(), 'taken');
      peer.child.kill('SIGUSR2');
      await peer.waitForStderr(/closed stdin/);
      assert.equal(await writer.probe(), 'broken');
      assert.equal(writer.firstFailed, 2);
      // Known broken: not asked again.
      assert.equal(await writer.probe(), 'skipped');
      assert.equal(peer.exit, null, 'the worker runs on');
    });

    it('is not made while a write is pending: that write says how it went', async () => {
      const { peer, writer } = fake(dialect);
      await peer.waitForStderr(/started/);
      // Stopped, it reads nothing: the big line waits in the host's stream, past the pipe's buffer.
      peer.child.kill('SIGSTOP');
      const big = { ...getState(dialect, 'big'), pad: 'x'.repeat(16 * 1024 * 1024) };
      const written = writer.write(big as unknown as Message);
      assert.ok(peer.child.stdin!.writableLength > 0, 'the write is pending');
      assert.equal(await writer.probe(), 'skipped');
      peer.child.kill('SIGCONT');
      await written;
      assert.equal(await writer.probe(), 'taken');
    });
  });
}
