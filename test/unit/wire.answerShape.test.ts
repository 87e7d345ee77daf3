// A τ or ACP worker's answer that breaks JSON-RPC's rules for one: an id of another type than the
// request's, neither a result nor an error, or both. vscode-jsonrpc matches an answer by its id as
// it is and reads only the shapes it knows, so the first two left the request waiting out its
// timeout, and the third was read as its error without a word. Each is now a protocol error, and
// the request waiting for it is settled at once.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createMessageConnection, type Message, type MessageConnection, type ResponseMessage } from 'vscode-jsonrpc/node';
import { JsonlMessageReader, type ProtocolError } from '../../src/core/wire/jsonlReader';
import { JsonlMessageWriter } from '../../src/core/wire/jsonlWriter';
import type { WireCodec } from '../../src/core/wire/codec';
import { TauCodec } from '../../src/core/wire/tau';
import { AcpCodec } from '../../src/core/wire/acpCodec';
import { request } from '../../src/core/wire/requests';
import { Waits } from '../../src/core/worker/waits';
import type { WorkerProcess } from '../../src/core/worker/workerProcess';
import type { EventBus } from '../../src/core/events/eventBus';
import type { AgentEvent } from '../../src/core/events/agentEvent';

class Refused extends Error {}

/** A connection over a worker that is two streams; `next` resolves with each request line the host writes. */
function wire(codec: WireCodec) {
  const toHost = new PassThrough();
  const toWorker = new PassThrough();
  const errors: ProtocolError[] = [];
  const writer = new JsonlMessageWriter(toWorker, codec);
  const reader = new JsonlMessageReader(toHost, { maxLineBytes: 1 << 20, codec, onEvent: () => {}, onProtocolError: (e) => errors.push(e) });
  const connection: MessageConnection = createMessageConnection(reader, writer);
  connection.listen();
  const lines: Array<Record<string, unknown>> = [];
  let waiting: ((l: Record<string, unknown>) => void) | null = null;
  let buffered = '';
  toWorker.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let lf;
    while ((lf = buffered.indexOf('\n')) >= 0) {
      const line = JSON.parse(buffered.slice(0, lf)) as Record<string, unknown>;
      buffered = buffered.slice(lf + 1);
      if (waiting) waiting(line);
      else lines.push(line);
    }
  });
  const next = () => new Promise<Record<string, unknown>>((resolve) => (lines.length ? resolve(lines.shift()!) : (waiting = (l) => ((waiting = null), resolve(l)))));
  const ask = (method: string) => request(connection, method, {}, (e) => new Refused(`${e.code} ${e.message ?? ''}`));
  const say = (value: unknown) => toHost.write(JSON.stringify(value) + '\n');
  return { connection, errors, next, ask, say };
}

/** How `p` stands, read at any moment: 'pending' until it settles. */
function tracked(p: Promise<unknown>): { now: unknown } {
  const t: { now: unknown } = { now: 'pending' };
  p.then((v) => (t.now = { answered: v }), (e: unknown) => (t.now = e));
  return t;
}

/**
 * The worker answers the host's first request with `bad(id)`, then its second as it should: by
 * the second's answer the first is settled (answers are handled in the order they came), so no
 * wait stands in for "at once".
 */
async function answeredWith(codec: WireCodec, bad: (id: number) => unknown) {
  const w = wire(codec);
  const first = tracked(w.ask('get_state'));
  const second = w.ask('get_state');
  const [a, b] = [await w.next(), await w.next()];
  w.say(bad(a.id as number));
  w.say({ jsonrpc: '2.0', id: b.id, result: { ok: true } });
  assert.deepEqual(await second, { ok: true });
  w.connection.dispose();
  return { id: a.id as number, outcome: first.now, errors: w.errors.map((e) => e.reason) };
}

for (const [name, make] of [['τ', () => new TauCodec()], ['ACP', () => new AcpCodec()]] as const) {
  describe(`${name}: an answer whose id has another type than the request's`, () => {
    it('is reported as such, and the request fails at once with that reason', async () => {
      const { id, outcome, errors } = await answeredWith(make(), (n) => ({ jsonrpc: '2.0', id: String(n), result: { ok: true } }));
      const reason = `${name} response with id "${id}" (a string), but request ${id} was sent with a number id`;
      assert.deepEqual(errors, [reason]);
      assert.ok(outcome instanceof Error, `the request is ${JSON.stringify(outcome)}`);
      assert.ok(!(outcome instanceof Refused), "not the worker's refusal");
      assert.equal(outcome.message, reason);
    });

    it('a number id for a request sent with a string one is read the same way', () => {
      const codec = make();
      codec.encode({ jsonrpc: '2.0', id: '7', method: 'get_state', params: {} } as Message);
      const decoded = codec.decode({ jsonrpc: '2.0', id: 7, result: {} });
      assert.equal(decoded.kind, 'message');
      const { message, protocolError } = decoded as Extract<typeof decoded, { kind: 'message' }>;
      assert.equal(protocolError, `${name} response with id 7 (a number), but request "7" was sent with a string id`);
      assert.equal((message as ResponseMessage).id, '7');
      assert.ok((message as ResponseMessage).error);
    });

    it('an id no request has in either type is still one no request is waiting for', () => {
      const codec = make();
      codec.encode({ jsonrpc: '2.0', id: 7, method: 'get_state', params: {} } as Message);
      for (const id of ['8', '07', 'x']) {
        const decoded = codec.decode({ jsonrpc: '2.0', id, result: {} });
        assert.deepEqual(decoded, { kind: 'invalid', reason: `${name} response with id ${JSON.stringify(id)}, which no request is waiting for` });
      }
    });
  });
}

for (const [name, make] of [['τ', () => new TauCodec()], ['ACP', () => new AcpCodec()]] as const) {
  describe(`${name}: an answer with neither a result nor an error`, () => {
    for (const [what, bad] of [['no error member', (n: number) => ({ jsonrpc: '2.0', id: n })], ['an error of null', (n: number) => ({ jsonrpc: '2.0', id: n, error: null })]] as const) {
      it(`(${what}) is reported as such, naming its id, and the request fails at once with that reason`, async () => {
        const { id, outcome, errors } = await answeredWith(make(), bad);
        const reason = `${name} response with id ${id} has neither a result nor an error`;
        assert.deepEqual(errors, [reason]);
        assert.ok(outcome instanceof Error, `the request is ${JSON.stringify(outcome)}`);
        assert.ok(!(outcome instanceof Refused), "not the worker's refusal");
        assert.equal(outcome.message, reason);
      });
    }

    it('for an id no request is waiting for, says both', () => {
      const decoded = make().decode({ jsonrpc: '2.0', id: 7 });
      assert.deepEqual(decoded, { kind: 'invalid', reason: `${name} response with id 7 has neither a result nor an error, and no request is waiting for it` });
    });

    it('without an id, is still neither a request, a response nor a notification', () => {
      for (const value of [{ jsonrpc: '2.0', id: null }, { jsonrpc: '2.0' }]) {
        assert.deepEqual(make().decode(value), { kind: 'invalid', reason: 'JSON-RPC message that is neither a request, a response nor a notification' });
      }
    });
  });
}

for (const [name, make] of [['τ', () => new TauCodec()], ['ACP', () => new AcpCodec()]] as const) {
  describe(`${name}: an answer with both a result and an error`, () => {
    it('is reported as such, and the request gets the error (the safer reading)', async () => {
      const { id, outcome, errors } = await answeredWith(make(), (n) => ({ jsonrpc: '2.0', id: n, result: { ok: true }, error: { code: -32000, message: 'busy' } }));
      assert.deepEqual(errors, [`${name} response with id ${id} has both a result and an error, which a response must not; read as the error, so that the request is not taken as done`]);
      assert.ok(outcome instanceof Refused, `the request is ${JSON.stringify(outcome)}`);
      assert.equal(outcome.message, '-32000 busy');
    });

    it('the message passed on carries the error alone', () => {
      const codec = make();
      codec.encode({ jsonrpc: '2.0', id: 7, method: 'get_state', params: {} } as Message);
      const decoded = codec.decode({ jsonrpc: '2.0', id: 7, result: { ok: true }, error: 'busy' });
      assert.deepEqual((decoded as { message: Message }).message, { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'busy (sent without an error code)' } });
    });

    it('a null beside the other (JSON-RPC 1.0\'s "none") is no protocol error', () => {
      for (const value of [{ result: null, error: { code: 1, message: 'no' } }, { result: { ok: true }, error: null }]) {
        const codec = make();
        codec.encode({ jsonrpc: '2.0', id: 7, method: 'get_state', params: {} } as Message);
        const decoded = codec.decode({ jsonrpc: '2.0', id: 7, ...value });
        assert.equal(decoded.kind, 'message');
        assert.equal((decoded as { protocolError?: string }).protocolError, undefined);
      }
    });
  });
}

describe('ACP: a session/prompt answered with an id of another type', () => {
  it("ends the turn saying its end is not known, not that the agent answered with an error", () => {
    const codec = new AcpCodec();
    codec.encode({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params: { sessionId: 's', prompt: [] } } as Message);
    const decoded = codec.decode({ jsonrpc: '2.0', id: '3', result: { stopReason: 'end_turn' } });
    assert.equal(decoded.kind, 'message');
    const { event } = decoded as Extract<typeof decoded, { kind: 'message' }>;
    assert.equal(event?.error, `the prompt's end is not known: ACP response with id "3" (a string), but request 3 was sent with a number id`);
  });
});

describe('a verb waiting for a malformed answer', () => {
  it('says what waited, then why it failed (as "no answer within N s" does)', async () => {
    const w = wire(new TauCodec());
    const alive = { exit: null, outputLost: false, inputLost: false, messagesSent: 0, firstUnsent: null, onceExit: () => () => {}, onceOutputLost: () => () => {}, onceInputLost: () => () => {}, exitDescription: () => 'running' } as unknown as WorkerProcess;
    const waits = new Waits({} as EventBus<AgentEvent>, alive);
    const asked = waits.bounded(w.ask('get_state'), 60_000, 'reading the state');
    const id = (await w.next()).id as number;
    w.say({ jsonrpc: '2.0', id: String(id), result: {} });
    await assert.rejects(asked, { message: `reading the state: τ response with id "${id}" (a string), but request ${id} was sent with a number id` });
    w.connection.dispose();
  });
});
