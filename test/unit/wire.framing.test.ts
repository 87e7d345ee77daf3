import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { Message } from 'vscode-jsonrpc/node';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { JsonlMessageReader, type ProtocolError } from '../../src/core/wire/jsonlReader';
import { LineFramer, type FramedLine } from '../../src/core/wire/lineFramer';
import { PiCodec } from '../../src/core/wire/pi';
import { TauCodec } from '../../src/core/wire/tau';

function frame(chunks: Buffer[], max = 1024): FramedLine[] {
  const framer = new LineFramer(max);
  const out: FramedLine[] = [];
  for (const c of chunks) framer.push(c, (l) => (out.push(l), true));
  framer.end((l) => out.push(l));
  return out;
}

const texts = (lines: FramedLine[]) => lines.map((l) => (l.kind === 'line' ? l.text : `<${l.kind}>`));

describe('LineFramer', () => {
  it('splits on LF only, strips one CR, skips blank lines, keeps U+2028/U+2029', () => {
    const input = Buffer.from('{"a":"x\u2028y\u2029z"}\r\n\n   \r\n{"b":1}\r\r\n{"c":2}');
    assert.deepEqual(texts(frame([input])), ['{"a":"x\u2028y\u2029z"}', '{"b":1}\r', '{"c":2}']);
  });

  it('reassembles a line split at every byte, including inside multi-byte characters', () => {
    const line = '{"t":"héllo → 𝄞 世界"}\n';
    const bytes = Buffer.from(line + line);
    const chunks = [...bytes].map((b) => Buffer.from([b]));
    assert.deepEqual(texts(frame(chunks)), [line.trim(), line.trim()]);
  });

  it('reports invalid UTF-8 but accepts a real U+FFFD', () => {
    const bad = Buffer.concat([Buffer.from('{"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]);
    const good = Buffer.from('{"x":"\uFFFD"}\n');
    const lines = frame([bad, good]);
    assert.equal(lines[0].kind, 'invalid_utf8');
    assert.deepEqual(lines[1], { kind: 'line', text: '{"x":"\uFFFD"}', bytes: Buffer.from('{"x":"\uFFFD"}') });
  });

  it('refuses a line over the cap once, skips it through its LF, and goes on', () => {
    const big = Buffer.alloc(5000, 'a');
    const lines = frame([Buffer.from('{"before":1}\n'), big.subarray(0, 2000), big.subarray(2000), Buffer.from('\n{"after":1}\n')], 1024);
    assert.deepEqual(texts(lines), ['{"before":1}', '<oversized>', '{"after":1}']);
    const over = lines[1] as Extract<FramedLine, { kind: 'oversized' }>;
    assert.equal(over.complete, false);
    assert.ok(over.preview.startsWith('aaaa'));
  });

  it('takes a line of exactly the cap, CRLF or LF, whether it comes in one chunk or split before its end', () => {
    const line = `{"t":"${'a'.repeat(1024 - 8)}"}`;
    assert.equal(Buffer.byteLength(line), 1024);
    for (const eol of ['\n', '\r\n']) {
      const whole = Buffer.from(line + eol);
      assert.deepEqual(texts(frame([whole], 1024)), [line], `one chunk, ${JSON.stringify(eol)}`);
      assert.deepEqual(texts(frame([whole.subarray(0, 1024), whole.subarray(1024)], 1024)), [line], `split at the cap, ${JSON.stringify(eol)}`);
      assert.deepEqual(texts(frame([whole.subarray(0, whole.length - 1), whole.subarray(whole.length - 1)], 1024)), [line], `split before the LF, ${JSON.stringify(eol)}`);
    }
    assert.deepEqual(texts(frame([Buffer.from(line + 'b'), Buffer.from('\n')], 1024)), ['<oversized>'], 'one byte more is over it');
  });

  it('gives each line\'s own bytes as they came (no CR, no LF), whole or reassembled, ASCII or not', () => {
    const input = '{"a":"héllo → 𝄞"}\r\n\n{"b":"\u2028"}\n{"c":1}\r\n{"d":"世界"}';
    const expected = ['{"a":"héllo → 𝄞"}', '{"b":"\u2028"}', '{"c":1}', '{"d":"世界"}'];
    const bytesOf = (lines: FramedLine[]) => lines.map((l) => (l.kind === 'line' ? l.bytes.toString('utf8') : `<${l.kind}>`));
    assert.deepEqual(bytesOf(frame([Buffer.from(input)])), expected, 'one chunk (the region path)');
    assert.deepEqual(bytesOf(frame([...Buffer.from(input)].map((b) => Buffer.from([b])))), expected, 'a byte a chunk (the reassembly path)');
    assert.deepEqual(bytesOf(frame([Buffer.from('{"a":1}\r\n\n{"bb":2}\n{"c":3}')])), ['{"a":1}', '{"bb":2}', '{"c":3}'], 'ASCII only');
    const withBad = frame([Buffer.from('{"x":"\uFFFD"}\n{"y":"é"}\r\n')]);
    assert.deepEqual(bytesOf(withBad), ['{"x":"\uFFFD"}', '{"y":"é"}'], 'a region with U+FFFD (the line-by-line path)');
  });

  it('frames a read of many pieces (lines across their seams, a line longer than a piece, bad bytes in one) as line by line, and again after stopping anywhere', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const parts: Buffer[] = [];
    for (let i = 0; i < 1200; i++) {
      const kind = rand(20);
      if (kind === 0) parts.push(Buffer.from('\n'));
      else if (kind === 1) parts.push(Buffer.concat([Buffer.from(`{"bad":${i},"t":"`), Buffer.from([0xc3, 0x28]), Buffer.from('"}\r\n')]));
      else if (kind === 2) parts.push(Buffer.from(`{"i":${i},"t":"${'é→𝄞'.repeat(rand(40))}\uFFFD"}\n`));
      else if (kind === 3 && i % 300 === 3) parts.push(Buffer.from(`{"i":${i},"long":"${'x'.repeat(20_000)}"}\n`));
      else parts.push(Buffer.from(`{"i":${i},"t":"${'abcdefgh'.repeat(rand(30))}"}${rand(2) ? '\r' : ''}\n`));
    }
    const read = Buffer.concat(parts);
    const show = (l: FramedLine) => (l.kind === 'line' ? `${l.text}|${l.bytes.toString('hex')}` : `<${l.kind}>`);
    const expected = frame(parts, 64 * 1024).map(show);
    assert.ok(read.length > 100_000 && expected.length > 900, `${read.length} bytes, ${expected.length} lines`);
    assert.deepEqual(frame([read], 64 * 1024).map(show), expected, 'the read at once');
    for (const every of [1, 7, 50, 333]) {
      const framer = new LineFramer(64 * 1024);
      const out: string[] = [];
      let rest: Buffer | undefined = read;
      let n = 0;
      while (rest) rest = framer.push(rest, (l) => (out.push(show(l)), ++n % every !== 0));
      framer.end((l) => out.push(show(l)));
      assert.deepEqual(out, expected, `stopped every ${every} lines and framed on from the rest`);
    }
  });

  it('measures a complete over-cap line in one chunk exactly', () => {
    const lines = frame([Buffer.from('x'.repeat(1025) + '\n' + 'y'.repeat(1024) + '\n')], 1024);
    assert.equal(lines[0].kind, 'oversized');
    assert.deepEqual(lines[1], { kind: 'line', text: 'y'.repeat(1024), bytes: Buffer.from('y'.repeat(1024)) });
  });
});

function reader(codec: TauCodec | PiCodec, onEvent: (e: AgentEvent) => void | Promise<void> = () => {}, sliceMs?: number) {
  const stream = new PassThrough();
  const errors: ProtocolError[] = [];
  const messages: Message[] = [];
  const r = new JsonlMessageReader(stream, { maxLineBytes: 1 << 20, codec, onEvent, onProtocolError: (e) => errors.push(e), sliceMs });
  r.listen((m) => messages.push(m));
  return { stream, errors, messages, r };
}

describe('JsonlMessageReader', () => {
  it('sends τ events to the event path and responses to the connection, and reports garbage once each', async () => {
    const events: AgentEvent[] = [];
    const codec = new TauCodec();
    const { stream, errors, messages } = reader(codec, (e) => void events.push(e));
    codec.encode({ jsonrpc: '2.0', id: 1, method: 'get_state', params: {} } as Message); // the request id 1 answers
    stream.write('banner: starting up\n');
    stream.write('42\n[1,2]\n');
    stream.write(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { type: 'agent_start', timestamp: 1, future_field: 'kept' } }) + '\n');
    stream.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { method: 'get_state' } }) + '\n');
    stream.write(JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { type: 'mystery', timestamp: 2 } }) + '\n');
    stream.end();
    await new Promise((r) => stream.on('end', r));
    assert.deepEqual(events.map((e) => e.type), ['agent_start', 'mystery']);
    assert.deepEqual(events[0].data, { future_field: 'kept' });
    assert.equal(messages.length, 1);
    assert.deepEqual(errors.map((e) => e.reason), ['line is not JSON', 'not a JSON-RPC message (expected a JSON object)', 'not a JSON-RPC message (expected a JSON object)']);
    assert.equal(errors[0].preview, 'banner: starting up');
  });

  it('reads a first line that begins with a byte order mark, and says why a later one is refused', async () => {
    const codec = new PiCodec();
    const events: AgentEvent[] = [];
    const { stream, errors, messages } = reader(codec, (e) => void events.push(e));
    codec.encode({ jsonrpc: '2.0', id: 1, method: 'get_state', params: {} } as Message);
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const answer = Buffer.from(JSON.stringify({ id: '1', type: 'response', command: 'get_state', success: true, data: {} }) + '\n');
    // The mark cut across reads, as a pipe may split it.
    stream.write(bom.subarray(0, 1));
    stream.write(Buffer.concat([bom.subarray(1), answer]));
    stream.write(Buffer.concat([bom, Buffer.from('{"type":"agent_start"}\n')]));
    stream.end();
    await new Promise((r) => stream.on('end', r));
    assert.equal(messages.length, 1, 'the answer the mark began is read');
    assert.deepEqual(events, []);
    assert.deepEqual(errors.map((e) => e.reason), ['line begins with a byte order mark (U+FEFF), which is allowed only at the start of the output']);
    assert.equal(errors[0].preview, String.raw`\ufeff{\"type\":\"agent_start\"}`);
  });

  it('pauses the stream while an event handler is busy and keeps order', async () => {
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { stream } = reader(new TauCodec(), (e) => {
      seen.push(e.type);
      if (e.type === 'slow') return gate;
    });
    const ev = (type: string) => JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { type } }) + '\n';
    stream.write(ev('a') + ev('slow') + ev('b'));
    stream.write(ev('c'));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ['a', 'slow']);
    release();
    await gate;
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ['a', 'slow', 'b', 'c']);
  });

  it('reads a long chunk in slices, pausing the stream between them, in order and losing nothing', async () => {
    const total = 1000;
    const seen: number[] = [];
    // Events delivered in one callback (a run ends at the next microtask checkpoint).
    const runs: number[] = [];
    const pausedBetween: boolean[] = [];
    let run = 0;
    const { stream, r } = reader(new TauCodec(), (e) => {
      seen.push((e.data as { n: number }).n);
      if (run++ === 0) {
        queueMicrotask(() => {
          runs.push(run);
          run = 0;
          if (seen.length < total) pausedBetween.push(stream.isPaused());
        });
      }
    }, 0);
    const closed = new Promise<number>((resolve) => r.onClose(() => resolve(seen.length)));
    const ev = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { type: 'tick', n } }) + '\n';
    stream.end(Array.from({ length: total }, (_, i) => ev(i)).join(''));
    assert.equal(await closed, total, 'the close comes after every event');
    assert.deepEqual(seen, Array.from({ length: total }, (_, i) => i));
    assert.ok(runs.length > 1 && Math.max(...runs) < total, `one callback handled ${Math.max(...runs)} of ${total} events`);
    assert.ok(pausedBetween.length > 0 && pausedBetween.every(Boolean), 'the stream is paused while lines wait');
  });
});

describe('PiCodec', () => {
  it('turns requests into pi commands and correlates responses by id', () => {
    const codec = new PiCodec();
    assert.deepEqual(codec.encode({ jsonrpc: '2.0', id: 7, method: 'prompt', params: { message: 'hi' } } as Message), { message: 'hi', id: '7', type: 'prompt' });
    const decoded = codec.decode({ type: 'response', id: '7', command: 'prompt', success: true });
    assert.deepEqual(decoded, { kind: 'message', message: { jsonrpc: '2.0', id: 7, result: null } });
    // Answered once: a second response for the same id is nobody's.
    assert.equal(codec.decode({ type: 'response', id: '7', command: 'prompt', success: true }).kind, 'invalid');
  });

  it('matches an id-less failure (unknown command) to the oldest open request of that command', () => {
    const codec = new PiCodec();
    codec.encode({ jsonrpc: '2.0', id: 1, method: 'frobnicate', params: {} } as Message);
    const decoded = codec.decode({ type: 'response', command: 'frobnicate', success: false, error: 'Unknown command: frobnicate' });
    assert.equal(decoded.kind, 'message');
    const m = (decoded as unknown as { message: { id: number; error: { message: string } } }).message;
    assert.equal(m.id, 1);
    assert.equal(m.error.message, 'Unknown command: frobnicate');
  });

  it('reports a parse failure from pi as a protocol error, not a response', () => {
    const decoded = new PiCodec().decode({ type: 'response', command: 'parse', success: false, error: 'Failed to parse command: x' });
    assert.equal(decoded.kind, 'invalid');
  });

  it('surfaces extension UI dialogs as requests and answers them in pi\'s shape', () => {
    const codec = new PiCodec();
    const decoded = codec.decode({ type: 'extension_ui_request', id: 'u1', method: 'confirm', title: 'Sure?' });
    assert.equal(decoded.kind, 'message');
    const req = (decoded as unknown as { message: { id: string; method: string; params: { title: string } } }).message;
    assert.deepEqual([req.id, req.method, req.params.title], ['ui:u1', 'ui/confirm', 'Sure?']);
    assert.deepEqual(codec.encode({ jsonrpc: '2.0', id: 'ui:u1', result: { confirmed: true } } as Message), { type: 'extension_ui_response', id: 'u1', confirmed: true });
    const notify = codec.decode({ type: 'extension_ui_request', id: 'u2', method: 'notify', message: 'hello' });
    assert.equal((notify as unknown as { message: { method: string; id?: unknown } }).message.method, 'ui/notify');
    assert.equal((notify as unknown as { message: { id?: unknown } }).message.id, undefined);
  });

  it('normalizes text deltas, agent_end reasons and guard vetoes', () => {
    const codec = new PiCodec();
    const upd = codec.decode({ type: 'message_update', message: { role: 'assistant' }, assistantMessageEvent: { type: 'text_delta', delta: 'Hel', contentIndex: 0 } });
    assert.deepEqual([(upd as { event: AgentEvent }).event.delta, (upd as { event: AgentEvent }).event.block_type], ['Hel', 'text']);
    const end = codec.decode({ type: 'agent_end', messages: [{ role: 'user' }, { role: 'assistant', stopReason: 'aborted' }] });
    assert.equal((end as { event: AgentEvent }).event.end_reason, 'aborted');
    // A reply the model's length limit cut off (pi's stopReason "length") did not end "done": it
    // ends as ACP's max_tokens does, which the log says as "Turn ended: max tokens".
    const cut = codec.decode({ type: 'agent_end', messages: [{ role: 'user' }, { role: 'assistant', stopReason: 'length' }] });
    assert.equal((cut as { event: AgentEvent }).event.end_reason, 'max_tokens');
    const veto = codec.decode({ type: 'tool_execution_end', toolCallId: 't', toolName: 'write', isError: true, result: { content: [{ type: 'text', text: '[rpc-workers guard] outside the workspace' }] } });
    assert.equal((veto as { event: AgentEvent }).event.blocked, true);
    const plain = codec.decode({ type: 'tool_execution_end', toolCallId: 't', toolName: 'write', isError: true, result: { content: [{ type: 'text', text: 'EACCES' }] } });
    assert.equal((plain as { event: AgentEvent }).event.blocked, undefined);
  });

  it('reads a failed compaction as an error (pi says it only in errorMessage), an aborted one as cancelled, under both names', () => {
    const ev = (raw: Record<string, unknown>) => (new PiCodec().decode(raw) as { event: AgentEvent }).event;
    for (const type of ['compaction_end', 'auto_compaction_end']) {
      const failed = ev({ type, aborted: false, willRetry: false, errorMessage: 'Compaction failed: 500 from the model' });
      assert.deepEqual([failed.type, failed.is_error, failed.error], ['compaction_end', true, 'Compaction failed: 500 from the model'], type);
      const aborted = ev({ type, aborted: true, willRetry: false, errorMessage: 'Compaction aborted' });
      assert.deepEqual([aborted.is_error ?? false, aborted.data?.cancelled], [false, true], type);
      const done = ev({ type, result: { summary: 'pi summary', tokensBefore: 99 }, aborted: false, willRetry: false });
      assert.deepEqual([done.is_error ?? false, done.data?.summary, done.data?.tokens_before], [false, 'pi summary', 99], type);
    }
  });

  it('keeps unknown event types with their data', () => {
    const d = new PiCodec().decode({ type: 'mystery_event', foo: 1 });
    assert.deepEqual(d, { kind: 'event', event: { type: 'mystery_event', timestamp: (d as { event: AgentEvent }).event.timestamp, data: { foo: 1 } } });
  });
});

describe('TauCodec', () => {
  it('delivers a response to the request waiting for it once, and reports one nobody waits for', () => {
    const codec = new TauCodec();
    codec.encode({ jsonrpc: '2.0', id: 3, method: 'get_state', params: {} } as Message);
    const answer = { jsonrpc: '2.0', id: 3, result: { ok: true } };
    assert.deepEqual(codec.decode(answer), { kind: 'message', message: answer });
    // vscode-jsonrpc would drop these without a word: the codec is where they are told apart.
    const again = codec.decode(answer);
    assert.equal(again.kind, 'invalid', 'answered once: a second response for the same id is nobody\'s');
    assert.match((again as { reason: string }).reason, /id 3, which no request is waiting for/);
    assert.equal(codec.decode({ jsonrpc: '2.0', id: 99, result: null }).kind, 'invalid', 'an id never sent');
  });

  it('reads compaction_end\'s outcome: a failed compaction is an error, a cancelled one is not', () => {
    const codec = new TauCodec();
    const end = (params: Record<string, unknown>) => {
      const d = codec.decode({ jsonrpc: '2.0', method: 'compaction_end', params: { compaction_id: 'c1', summary: null, ...params } });
      assert.equal(d.kind, 'event');
      return (d as { event: AgentEvent }).event;
    };
    const failed = end({ is_error: true, cancelled: false, error: 'model overloaded' });
    assert.deepEqual([failed.type, failed.is_error, failed.error], ['compaction_end', true, 'model overloaded']);
    const cancelled = end({ is_error: false, cancelled: true, error: null });
    assert.deepEqual([cancelled.is_error, cancelled.error, cancelled.data?.cancelled], [false, null, true]);
    assert.equal(codec.decode({ jsonrpc: '2.0', method: 'compaction_end', params: { compaction_id: 'c1', is_error: 'no' } }).kind, 'invalid', 'a malformed one is refused');
  });
});
