// An answer to one of the host's requests that is over the line cap: the reader drops the line
// and reports it; the request waiting for it fails then, saying why, instead of at its timeout
// with "no answer". Only a line whose first bytes show it answers an open request of the host's
// fails one: an event over the cap, or a request of the worker's with the same id, fails none.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';
import { JsonlMessageReader, type ProtocolError } from '../../src/core/wire/jsonlReader';
import { JsonlMessageWriter } from '../../src/core/wire/jsonlWriter';
import type { WireCodec } from '../../src/core/wire/codec';
import { PiCodec } from '../../src/core/wire/pi';
import { TauCodec } from '../../src/core/wire/tau';
import { AcpCodec } from '../../src/core/wire/acpCodec';
import { request } from '../../src/core/wire/requests';
import { headMembers } from '../../src/core/wire/droppedAnswer';
import { Waits } from '../../src/core/worker/waits';
import type { WorkerProcess } from '../../src/core/worker/workerProcess';
import type { EventBus } from '../../src/core/events/eventBus';
import type { AgentEvent } from '../../src/core/events/agentEvent';

const CAP = 1024;
const HUGE = 'x'.repeat(4 * CAP);
class Refused extends Error {}

/** A connection over a worker that is two streams; `sent` resolves with each request line the host writes. */
function wire(codec: WireCodec) {
  const toHost = new PassThrough();
  const toWorker = new PassThrough();
  const errors: ProtocolError[] = [];
  const writer = new JsonlMessageWriter(toWorker, codec);
  // As the worker's process wires it: a request of the worker's dropped for its size is answered through its writer.
  const reader = new JsonlMessageReader(toHost, { maxLineBytes: CAP, codec, onEvent: () => {}, onProtocolError: (e) => errors.push(e), answerWorker: (m) => void writer.write(m) });
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
  const ask = (method: string) => request(connection, method, {}, (e) => new Refused(e.message ?? ''));
  const say = (value: unknown) => toHost.write(JSON.stringify(value) + '\n');
  const sayRaw = (line: string) => toHost.write(line + '\n');
  return { connection, errors, next, ask, say, sayRaw };
}

/** How `p` stands, read at any moment: 'pending' until it settles. */
function tracked(p: Promise<unknown>): { now: unknown } {
  const t: { now: unknown } = { now: 'pending' };
  p.then(() => (t.now = 'answered'), (e: unknown) => (t.now = e));
  return t;
}

const dialects = [
  {
    name: 'pi', codec: () => new PiCodec(),
    answer: (req: Record<string, unknown>, data: unknown) => ({ id: req.id, type: 'response', command: req.type, success: true, data }),
    event: () => ({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', delta: HUGE } }),
    theirRequest: null,
  },
  {
    name: 'τ', codec: () => new TauCodec(),
    answer: (req: Record<string, unknown>, result: unknown) => ({ jsonrpc: '2.0', id: req.id, result }),
    event: () => ({ jsonrpc: '2.0', method: 'event', params: { type: 'message_update', delta: HUGE } }),
    theirRequest: null,
  },
  {
    name: 'ACP', codec: () => new AcpCodec(),
    answer: (req: Record<string, unknown>, result: unknown) => ({ jsonrpc: '2.0', id: req.id, result }),
    event: () => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: HUGE } } } }),
    // The agent's own request, with an id of its own that the host's open request happens to have.
    theirRequest: (id: unknown) => ({ jsonrpc: '2.0', id, method: 'fs/write_text_file', params: { sessionId: 's1', path: '/tmp/x', content: HUGE } }),
  },
];

describe("a worker's answer over the line cap", () => {
  for (const d of dialects) {
    it(`${d.name}: the request it answered fails at once with the reason; the next request is answered`, async () => {
      const w = wire(d.codec());
      const first = tracked(w.ask('get_messages'));
      const second = w.ask('get_state');
      const [a, b] = [await w.next(), await w.next()];
      w.say(d.answer(a, { messages: HUGE }));
      w.say(d.answer(b, { ok: true }));
      assert.deepEqual(await second, { ok: true });
      // Answers are handled in the order they came: the first request's is settled by now.
      const failed = first.now;
      assert.ok(failed instanceof Error, `the request is ${String(failed)}`);
      assert.ok(!(failed instanceof Refused), 'not the worker\'s refusal');
      assert.equal(failed.message, `the worker's answer was over the ${CAP}-byte line limit and was dropped`);
      assert.equal(w.errors.length, 1, 'the dropped line is still reported');
      w.connection.dispose();
    });

    it(`${d.name}: an event over the cap, or a request of the worker's, fails no request of the host's`, async () => {
      const w = wire(d.codec());
      const asked = w.ask('get_state');
      const req = await w.next();
      w.say(d.event());
      if (d.theirRequest) w.say(d.theirRequest(req.id));
      w.say(d.answer(req, { ok: true }));
      assert.deepEqual(await asked, { ok: true });
      assert.equal(w.errors.length, d.theirRequest ? 2 : 1);
      w.connection.dispose();
    });
  }

  it('a line over the cap whose head is not JSON (a bad escape in a name) is reported, and the reader reads on', async () => {
    const w = wire(new TauCodec());
    const asked = w.ask('get_state');
    const req = await w.next();
    // Its head's reading threw out of the stream's data handler: uncaught in the host, the line half read.
    w.sayRaw(`{"\\x":1,"id":${JSON.stringify(req.id)},"result":"${HUGE}"}`);
    w.say({ jsonrpc: '2.0', id: req.id, result: { ok: true } });
    assert.deepEqual(await asked, { ok: true });
    assert.equal(w.errors.length, 1);
    // The members before the bad one are read; none after it.
    assert.deepEqual([...headMembers('{"a":1,"\\x":2,"id":3')], [['a', 1]]);
    w.connection.dispose();
  });

  it('a verb waiting for it says what waited, then why it failed (as "no answer within N s" does)', async () => {
    const w = wire(new TauCodec());
    // A process that runs on, its output flowing (Waits also follows the loss of its output).
    const alive = { exit: null, outputLost: false, inputLost: false, messagesSent: 0, firstUnsent: null, onceExit: () => () => {}, onceOutputLost: () => () => {}, onceInputLost: () => () => {}, exitDescription: () => 'running' } as unknown as WorkerProcess;
    const waits = new Waits({} as EventBus<AgentEvent>, alive);
    const asked = waits.bounded(w.ask('get_messages'), 60_000, 'reading the messages');
    w.say({ jsonrpc: '2.0', id: (await w.next()).id, result: { messages: HUGE } });
    await assert.rejects(asked, { message: `reading the messages: the worker's answer was over the ${CAP}-byte line limit and was dropped` });
    w.connection.dispose();
  });
});

// The worker's own request over the cap (an ACP agent's fs/write_text_file of a huge file, its
// session/request_permission with a huge diff, pi's dialog with huge options): dropped, it was
// never answered, and the worker waited for ever (the turn hung). It is answered now as refused,
// nothing done; a request that waits for no answer (pi's notify) is answered with nothing.
describe("a worker's request over the line cap", () => {
  const refusal = `the request was over the ${CAP}-byte line limit and was dropped; nothing was done`;
  // After the huge line, a small request the host does not serve (answered by vscode-jsonrpc, -32601):
  // the first answer the worker reads tells whether the huge one was answered, without a wait.
  const jsonRpc = [
    { name: 'ACP', codec: () => new AcpCodec(), method: 'fs/write_text_file', params: { sessionId: 's1', path: '/tmp/x', content: HUGE } },
    { name: 'ACP', codec: () => new AcpCodec(), method: 'session/request_permission', params: { sessionId: 's1', toolCall: { toolCallId: 't1', content: [{ type: 'diff', path: '/tmp/x', oldText: '', newText: HUGE }] }, options: [] } },
    { name: 'τ', codec: () => new TauCodec(), method: 'ext/ask', params: { text: HUGE } },
  ];
  for (const d of jsonRpc) {
    it(`${d.name}: the worker's ${d.method} is answered with an error saying so, before the next request's answer`, async () => {
      const w = wire(d.codec());
      w.say({ jsonrpc: '2.0', id: 7, method: d.method, params: d.params });
      w.say({ jsonrpc: '2.0', id: 8, method: 'x/unknown', params: {} });
      const first = await w.next();
      assert.equal(first.id, 7, JSON.stringify(first));
      const { code, message, data } = first.error as { code: number; message: string; data: { droppedBytes: number } };
      assert.deepEqual([code, message], [-32600, refusal]);
      assert.ok(data.droppedBytes > CAP);
      assert.equal((await w.next()).id, 8);
      assert.equal(w.errors.length, 1, 'the dropped line is still reported');
      w.connection.dispose();
    });
  }

  it('pi: a dialog (select) over the cap is answered cancelled, as pi reads a dismissed dialog; a notify over the cap is not answered', async () => {
    const w = wire(new PiCodec());
    // pi writes type, id and method first (rpc-mode.js: output({type, id, ...request})).
    w.say({ type: 'extension_ui_request', id: 'u-notify', method: 'notify', message: HUGE });
    w.say({ type: 'extension_ui_request', id: 'u-big', method: 'select', title: 'Pick', options: [HUGE] });
    w.say({ type: 'extension_ui_request', id: 'u-small', method: 'confirm', title: 'Sure?' });
    assert.deepEqual(await w.next(), { type: 'extension_ui_response', id: 'u-big', cancelled: true });
    // The small one reached the host, which has no handler here: answered cancelled too, after.
    assert.deepEqual(await w.next(), { type: 'extension_ui_response', id: 'u-small', cancelled: true });
    assert.equal(w.errors.length, 2);
    w.connection.dispose();
  });

  it('a notification over the cap, or a request whose id comes after the head, is only reported', async () => {
    const w = wire(new AcpCodec());
    w.say({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: HUGE } } } });
    w.sayRaw(`{"jsonrpc":"2.0","method":"fs/write_text_file","params":{"content":"${HUGE}"},"id":5}`);
    w.say({ jsonrpc: '2.0', id: 8, method: 'x/unknown', params: {} });
    assert.equal((await w.next()).id, 8);
    assert.equal(w.errors.length, 2);
    w.connection.dispose();
  });
});
