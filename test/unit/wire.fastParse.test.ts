// The fast path of a zod schema (src/protocol/fastParse.ts) against the schema itself: on the
// real programs' recorded events (bench/recordings) and on thousands of their mutations, it
// either answers exactly what the schema's parse answers, or steps aside (MISS); it never
// accepts what the schema refuses. And it does take the real events, or it would be no use.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { MISS, fastChecker, fastParser } from '../../src/protocol/fastParse';
import { deltaSchema as piDeltaSchema, eventSchema as piEventSchema } from '../../src/core/wire/pi';
import { TauCodec, wireEventSchema as tauEventSchema } from '../../src/core/wire/tau';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { hostMessageSchema } from '../../src/protocol/hostMessages';
import { ROOT } from '../helpers/supervisor';

function recorded(name: string): Array<Record<string, unknown>> {
  const file = path.join(ROOT, 'bench/recordings', `${name}.wire`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = gunzipSync(readFileSync(`${file}.gz`)).toString('utf8');
  }
  return text.split('\n').filter((l) => l.startsWith('< ')).map((l) => JSON.parse(l.slice(2)));
}

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
const ODD: unknown[] = [null, undefined, 0, -1, 1.5, NaN, Infinity, 2 ** 60, '', 'x', 'text', 'thinking', true, false, {}, [], [1], { a: 1 }, new Date(0), Object.create(null)];

function mutate(value: unknown, next: () => number, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((v) => (next() < 0.2 ? ODD[Math.floor(next() * ODD.length)] : mutate(v, next, depth + 1)));
  if (typeof value !== 'object' || value === null) return next() < 0.3 ? ODD[Math.floor(next() * ODD.length)] : value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const r = next();
    if (r < 0.05) continue; // dropped
    out[k] = r < 0.15 ? ODD[Math.floor(next() * ODD.length)] : depth < 3 && r < 0.3 ? mutate(v, next, depth + 1) : v;
  }
  if (next() < 0.05) out.extra_field = ODD[Math.floor(next() * ODD.length)];
  return out;
}

type Schema = { safeParse(v: unknown): { success: boolean; data?: unknown } };

/**
 * Every answer of the fast path is the schema's, and the fast check (no copy) says yes exactly
 * where the fast path answers; returns how many values it answered.
 */
function agrees(schema: Schema, values: unknown[]): number {
  const fast = fastParser(schema as never);
  const check = fastChecker(schema as never);
  assert.ok(fast, 'the schema is within what the fast path knows');
  let hits = 0;
  for (const v of values) {
    const out = fast(v);
    assert.equal(check(v), out !== MISS, `the check and the fast path disagree on ${JSON.stringify(v)}`);
    if (out === MISS) continue;
    hits++;
    const ref = schema.safeParse(v);
    assert.ok(ref.success, `the fast path accepted what the schema refuses: ${JSON.stringify(v)}`);
    assert.deepStrictEqual(out, ref.data, `a different result for ${JSON.stringify(v)}`);
  }
  return hits;
}

describe('fastParse: a zod schema\'s fast path answers as the schema does, or steps aside', () => {
  const tau = recorded('tau').filter((v) => v.method === 'event').map((v) => v.params as Record<string, unknown>);
  const pi = [...recorded('pi-0.73'), ...recorded('pi-1.x')].filter((v) => v.type !== 'response');

  it('takes every real τ and pi event the schemas take, with the schemas\' own result', () => {
    assert.ok(tau.length > 40 && pi.length > 100);
    assert.equal(agrees(tauEventSchema, tau), tau.length, 'τ events');
    assert.equal(agrees(piEventSchema, pi), pi.length, 'pi events');
    const piDeltas = pi.filter((e) => e.type === 'message_update');
    assert.equal(agrees(piDeltaSchema, piDeltas), piDeltas.length, 'pi deltas');
  });

  it('never differs from the schema on 20,000 mutations of them', () => {
    const next = rng(16);
    const cases: Array<[Schema, unknown[]]> = [[tauEventSchema, tau], [piEventSchema, pi], [piDeltaSchema, pi]];
    let misses = 0;
    for (const [schema, base] of cases) {
      const values = Array.from({ length: 5000 }, () => mutate(base[Math.floor(next() * base.length)], next));
      const hits = agrees(schema, values);
      misses += values.length - hits;
    }
    assert.ok(misses > 1000, `the mutations reach the refusals too (${misses} steps aside)`);
  });

  it('τ\'s one-pass event decode takes exactly what the schema takes, and reads the same event either way', () => {
    const next = rng(7);
    const codec = new TauCodec();
    let refused = 0;
    for (let i = 0; i < 5000; i++) {
      const params = mutate(tau[Math.floor(next() * tau.length)], next);
      const decoded = codec.decode({ jsonrpc: '2.0', method: 'event', params });
      const schema = tauEventSchema.safeParse(params);
      assert.equal(decoded.kind, schema.success ? 'event' : 'invalid', `decode and schema disagree on ${JSON.stringify(params)}`);
      if (!schema.success) refused++;
      else if (decoded.kind === 'event') {
        // The typed fields the event kept are the schema's, with their values (as JSON: zod
        // copies a record into a plain object, the event keeps the one it was given).
        const kept = decoded.event as unknown as Record<string, unknown>;
        for (const [k, v] of Object.entries(schema.data)) if (v !== null && v !== undefined && k !== 'timestamp') assert.equal(JSON.stringify(kept[k]), JSON.stringify(v), k);
      }
    }
    assert.ok(refused > 500 && refused < 4500, `some mutations refused, some taken (${refused} refused)`);
  });

  it('τ\'s one-pass event decode checks a field however far down a long event it comes', () => {
    const codec = new TauCodec();
    const event = (delta: unknown) => {
      const params: Record<string, unknown> = { type: 'message_update', timestamp: 5 };
      for (let i = 0; i < 300; i++) params[`extra_${i}`] = i % 2 ? null : i;
      params.delta = delta;
      return codec.decode({ jsonrpc: '2.0', method: 'event', params });
    };
    const taken = event('text');
    assert.equal(taken.kind, 'event');
    const e = (taken as { event: AgentEvent }).event;
    assert.equal(e.delta, 'text');
    assert.equal(Object.keys(e.data ?? {}).length, 150, 'the other fields that are not null, in data');
    assert.equal(event(7).kind, 'invalid', 'a delta that is not a string is refused');
  });

  it('knows the checks it was built for, and steps aside on any other', () => {
    const s = z.object({ n: z.number().int().min(0).max(10), s: z.string().min(1).max(3), e: z.enum(['a', 'b']), l: z.literal(7), o: z.object({ k: z.boolean() }).optional() });
    const values = [
      { n: 3, s: 'ab', e: 'a', l: 7 }, { n: 3.5, s: 'ab', e: 'a', l: 7 }, { n: -1, s: 'ab', e: 'a', l: 7 }, { n: 11, s: 'ab', e: 'a', l: 7 },
      { n: 3, s: '', e: 'a', l: 7 }, { n: 3, s: 'abcd', e: 'a', l: 7 }, { n: 3, s: 'ab', e: 'c', l: 7 }, { n: 3, s: 'ab', e: 'a', l: 8 },
      { n: 3, s: 'ab', e: 'a', l: 7, o: { k: true, drop: 1 } }, { n: 3, s: 'ab', e: 'a', l: 7, o: { k: 1 } }, { n: 3, s: 'ab', e: 'a', l: 7, o: undefined },
    ];
    assert.equal(agrees(s, values), 3, 'the first, the stripped nested object and the undefined optional');
    assert.equal(fastParser(z.string().email() as never), null, 'a check it does not know: the schema decides');
    assert.equal(fastParser(z.object({ a: z.string().transform((x) => x.length) }) as never), null, 'a transform: the schema decides');
  });

  it('reads zod/mini schemas too: the event log\'s batches of 1,000 events', () => {
    const events = [...tau, ...pi].map((e, i) => ({ ...e, type: String(e.type), timestamp: i }));
    const batch = { type: 'events', workerId: 'w1', events };
    const fast = fastParser(hostMessageSchema as never)!;
    const out = fast(batch);
    assert.notEqual(out, MISS);
    assert.deepStrictEqual(out, hostMessageSchema.parse(batch));
    const next = rng(4);
    let hits = 0;
    for (let i = 0; i < 2000; i++) hits += agrees(hostMessageSchema, [{ type: 'events', workerId: 'w1', events: [mutate(events[i % events.length], next)] }]);
    assert.ok(hits > 100 && hits < 2000, `some mutations accepted, some refused (${hits})`);
    assert.ok(agrees(zm.object({ a: zm.optional(zm.nullable(zm.string())) }), [{ a: null }, { a: 'x' }, {}, { a: 1 }]) === 3);
  });
});
