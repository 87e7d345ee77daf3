// τ's event, read from its `event` notification's params: the fields the host reads, checked
// where they lie in one pass, and the host's event built from them.
import { z } from 'zod';
import type { AgentEvent } from '../events/agentEvent';
import { fastChecker, isPlain } from '../../protocol/fastParse';
import { currentKey } from './tauProtocols';

export const nullableString = z.string().nullable().optional();
// The fields of τ's event the host reads, with their types. Unknown fields are tolerated, as τ
// requires of clients, and kept in `data`. The schemas are strip objects, which zod compiles to
// a fast path (a loose object is several times slower); what they strip is gathered from the
// wire object itself, in one pass over its keys.
const wireEventShape = {
  type: z.string().min(1),
  timestamp: z.number().optional(),
  turn_index: z.number().nullable().optional(),
  tool_call_id: nullableString,
  tool_name: nullableString,
  is_error: z.boolean().optional(),
  error: nullableString,
  end_reason: nullableString,
  blocked: z.boolean().optional(),
  blocked_by: nullableString,
  submission_id: nullableString,
  source: nullableString,
  submitter: nullableString,
  correlation: z.record(z.string(), z.unknown()).nullable().optional(),
  delta: nullableString,
  block_type: z.enum(['text', 'thinking']).nullable().optional(),
  replace: z.boolean().optional(),
  stop_reason: nullableString,
};
export const wireEventSchema = z.object(wireEventShape);

// The model's own names are τ's. The typed fields are checked and kept when they carry a
// value: τ sends every field of its event, null when unused, and a null says nothing an absent
// field does not. The payloads are carried as they came, unchecked. Whatever else τ sends (newer
// fields, extra types' payloads) is kept in `data` when not null, under its current name (τ 1.x's
// older names are brought to today's as they are copied: currentKey).
/** How each field of τ's event is taken: not a known field (kept in `data` when not null), a payload (kept as it came), a typed field that may be null, or one that may not. */
const enum Kind { Other, Payload, Nullable, Strict }
/**
 * `check`: the field's schema's fast check (fastChecker); `value`: the same for a value that is
 * neither null nor undefined; `prim`: that check is only `typeof`, done inline (most of τ's
 * typed fields are plain strings, and a call per field cost more than the test).
 */
interface FieldRule { kind: Kind; check?: (value: unknown) => boolean; value?: (value: unknown) => boolean; prim?: 'string' | 'boolean' }
const OTHER: FieldRule = { kind: Kind.Other };
/** Each known field: its checks, and whether null passes them. */
const FIELDS = new Map<string, FieldRule>([
  ...Object.entries(wireEventShape).map(([k, schema]): [string, FieldRule] => {
    const check = fastChecker(schema);
    const inner = unwrapped(schema);
    return [k, { kind: check(null) ? Kind.Nullable : Kind.Strict, check, value: fastChecker(inner), prim: primitive(inner) }];
  }),
  ...['args', 'result', 'details', 'message', 'messages', 'tool_results'].map((k): [string, FieldRule] => [k, { kind: Kind.Payload }]),
]);

/** The schema inside its optional and nullable wrappers: they decide only for undefined and null. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema;
  for (let def = inner.def; def.type === 'optional' || def.type === 'nullable'; def = inner.def) inner = (def as unknown as { innerType: z.ZodType }).innerType;
  return inner;
}

/** 'string' or 'boolean' for a schema that checks nothing but the type. */
function primitive(schema: z.ZodType): FieldRule['prim'] {
  const def = schema.def as { type: string; checks?: unknown[] };
  return (def.type === 'string' || def.type === 'boolean') && !def.checks?.length ? def.type : undefined;
}

/**
 * The rule of each key position, for the order of keys last seen. τ sends every field of every
 * event in one order, so the keys of one event are the keys of the next: a position compared is
 * cheaper than a key looked up (about forty a line), and a key that differs is looked up again.
 */
const seenKeys: string[] = [];
/** Positions remembered: τ sends about forty fields; an event with thousands keeps no thousands here. */
const POSITIONS = 128;
const seenRules: FieldRule[] = [];

/**
 * The host's event from τ's params, checked and copied in one pass over its fields: each typed
 * field by its schema's fast check, as the strip object `wireEventSchema` would check it.
 * `undefined` when the pass is not sure, and the schema must decide; `checked`: it already did.
 */
export function tauEvent(params: unknown, checked: boolean): AgentEvent | undefined {
  // Checked, the schema has said it is an object; else only a JSON object with a type is taken.
  if (!checked && !(isPlain(params) && typeof params.type === 'string' && params.type.length > 0)) return undefined;
  const raw = params as Record<string, unknown>;
  const event: Record<string, unknown> = {};
  let data: Record<string, unknown> | undefined;
  let at = 0;
  for (const key in raw) {
    const value = raw[key];
    let rule: FieldRule;
    if (at >= POSITIONS) rule = FIELDS.get(key) ?? OTHER;
    else {
      if (seenKeys[at] !== key) {
        seenKeys[at] = key;
        seenRules[at] = FIELDS.get(key) ?? OTHER;
      }
      rule = seenRules[at];
    }
    at++;
    if (rule.kind === Kind.Payload) event[key] = value;
    else if (rule.kind === Kind.Other) {
      if (value !== null && value !== undefined) (data ??= {})[currentKey(raw, key)] = value;
    } else if (value === null || value === undefined) {
      if (!checked && rule.kind === Kind.Strict && !rule.check!(value)) return undefined;
    } else if (checked || (rule.prim !== undefined ? typeof value === rule.prim : rule.value!(value))) event[key] = value;
    else return undefined;
  }
  event.timestamp ??= Date.now();
  if (data) event.data = data;
  return event as unknown as AgentEvent;
}
