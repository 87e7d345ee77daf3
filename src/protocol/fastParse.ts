// A zod schema's fast path, for the messages that come by the thousand (worker events, the
// event log's batches). It is built once from the schema's own definition, as closures (no eval,
// so it also runs under the webview's CSP), and it decides only what it is sure of: it returns
// what the schema's parse would return, or MISS when the value is outside what it knows (a type,
// a check or a shape it was not built for, or a value the schema may reject). On MISS the caller
// runs the schema itself, which has the last word and the error message: the fast path never
// accepts a value the schema would refuse, and never refuses one.
//
// What it knows: string (min/max length), number (finite; int, safe-int, bounds), boolean,
// literal, enum, null, unknown/any, optional, nullable, custom (its own predicate), array, record
// of string keys, object (strip: a fresh object of the known keys present, in the shape's order;
// loose: the input's keys as they are), and discriminated unions of those. Only objects of
// Object.prototype (JSON's) take the fast path. Arrays, records and loose objects come back as the input itself,
// not the copy zod makes: equal in content, and the input is the caller's to give away.
import type * as core from 'zod/v4/core';

export const MISS: unique symbol = Symbol('fastParse.miss');
type Miss = typeof MISS;
type Fast = (value: unknown) => unknown;

/** The schema's fast path; `null` when the schema's top is outside what it knows. */
export function fastParser<T>(schema: core.$ZodType<T>): ((value: unknown) => T | Miss) | null {
  return (compile(schema, true) as ((value: unknown) => T | Miss) | null);
}

/**
 * The schema's fast check, for a caller that reads the value where it lies and needs no copy
 * (the event path, which copies what it keeps into its own event anyway): `true` when the schema
 * would accept the value, `false` when it is not sure, and the schema must decide. Strip objects
 * are checked, not copied, so a hit allocates nothing.
 */
export function fastChecker(schema: core.$ZodType): (value: unknown) => boolean {
  const check = compile(schema, false);
  return check ? (value) => check(value) !== MISS : () => false;
}

/**
 * `schema.safeParse(value)`, with the fast path first: the same answer, and on a hit no
 * allocation beyond the result (and a strip object's copy).
 */
export function fastSafeParse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: core.$ZodError } }, fast: ((value: unknown) => T | Miss) | null, value: unknown): { success: true; data: T } | { success: false; error: core.$ZodError } {
  if (fast) {
    const out = fast(value);
    if (out !== MISS) return { success: true, data: out };
  }
  return schema.safeParse(value);
}

/**
 * `fastSafeParse` of one schema as a function, its fast path built on the first parse rather
 * than when its module loads (module-level work is the core's start or the page's load).
 */
export function lazySafeParse<T>(schema: core.$ZodType<T> & { safeParse(v: unknown): { success: true; data: T } | { success: false; error: core.$ZodError } }): (value: unknown) => { success: true; data: T } | { success: false; error: core.$ZodError } {
  let fast: ((value: unknown) => T | Miss) | null | undefined;
  return (value) => fastSafeParse(schema, fast === undefined ? (fast = fastParser(schema)) : fast, value);
}

// JSON's objects only: zod copies a record into a plain object, so any other prototype would
// come back different.
export const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

interface Def {
  type: string;
  checks?: Array<{ _zod: { def: Record<string, unknown> } }>;
  innerType?: core.$ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  fn?: (v: unknown) => unknown;
  element?: core.$ZodType;
  keyType?: core.$ZodType;
  valueType?: core.$ZodType;
  shape?: Record<string, core.$ZodType>;
  catchall?: core.$ZodType;
  options?: core.$ZodType[];
  discriminator?: string;
}

const defOf = (s: core.$ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

function compile(schema: core.$ZodType, copy: boolean): Fast | null {
  const def = defOf(schema);
  switch (def.type) {
    case 'string': return withChecks(def, (v) => typeof v === 'string');
    case 'number': return withChecks(def, (v) => typeof v === 'number' && Number.isFinite(v));
    case 'boolean': return def.checks?.length ? null : (v) => (typeof v === 'boolean' ? v : MISS);
    case 'null': return (v) => (v === null ? v : MISS);
    case 'unknown':
    case 'any': return (v) => v;
    case 'literal': {
      const values = def.values ?? [];
      return (v) => (values.includes(v) ? v : MISS);
    }
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => (values.has(v) ? v : MISS);
    }
    case 'optional': {
      const inner = compile(def.innerType!, copy);
      return inner && ((v) => (v === undefined ? v : inner(v)));
    }
    case 'nullable': {
      const inner = compile(def.innerType!, copy);
      return inner && ((v) => (v === null ? v : inner(v)));
    }
    case 'custom': {
      const fn = def.fn;
      if (!fn || def.checks?.length) return null;
      return (v) => (fn(v) ? v : MISS);
    }
    case 'array': {
      const element = compile(def.element!, copy);
      if (!element || def.checks?.length) return null;
      return (v) => {
        if (!Array.isArray(v)) return MISS;
        for (let i = 0; i < v.length; i++) if (element(v[i]) !== v[i]) return MISS;
        return v;
      };
    }
    case 'record': {
      const value = compile(def.valueType!, copy);
      if (!value || defOf(def.keyType!).type !== 'string' || defOf(def.keyType!).checks?.length) return null;
      return (v) => {
        if (!isPlain(v)) return MISS;
        for (const k in v) if (value(v[k]) !== v[k]) return MISS;
        return v;
      };
    }
    case 'object': return compileObject(def, copy);
    case 'union': {
      if (!def.discriminator) return null;
      const key = def.discriminator;
      const byTag = new Map<unknown, Fast>();
      for (const option of def.options ?? []) {
        const tag = defOf(option).shape?.[key];
        const tagDef = tag && defOf(tag);
        const fast = compile(option, copy);
        if (!fast || tagDef?.type !== 'literal') return null;
        for (const t of tagDef.values ?? []) byTag.set(t, fast);
      }
      return (v) => {
        if (!isPlain(v)) return MISS;
        const fast = byTag.get(v[key]);
        return fast ? fast(v) : MISS;
      };
    }
    default: return null;
  }
}

/**
 * A strip object builds the copy zod builds (unless only checking); a loose one (catchall
 * unknown) passes the input on.
 */
function compileObject(def: Def, copy: boolean): Fast | null {
  if (def.checks?.length) return null;
  const keys = Object.keys(def.shape ?? {});
  const fields: Fast[] = [];
  for (const k of keys) {
    const f = compile(def.shape![k], copy);
    if (!f) return null;
    fields.push(f);
  }
  const loose = def.catchall !== undefined;
  if (loose && defOf(def.catchall!).type !== 'unknown') return null;
  // A field whose schema returns something other than its input (a nested strip object) is set
  // from what it returned.
  return (v) => {
    if (!isPlain(v)) return MISS;
    if (loose || !copy) {
      for (let i = 0; i < keys.length; i++) {
        const x = v[keys[i]];
        if (fields[i](x) !== x) return MISS;
      }
      return v;
    }
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const x = v[k];
      const r = fields[i](x);
      if (r === MISS) return MISS;
      if (x !== undefined || k in v) out[k] = r;
    }
    return out;
  };
}

/** Length and bound checks the fast path knows; any other check sends the value to the schema. */
function withChecks(def: Def, base: (v: unknown) => boolean): Fast | null {
  const tests: Array<(v: never) => boolean> = [];
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    switch (d.check) {
      case 'min_length': tests.push((v: string) => v.length >= (d.minimum as number)); break;
      case 'max_length': tests.push((v: string) => v.length <= (d.maximum as number)); break;
      case 'number_format':
        if (d.format === 'safeint') tests.push((v: number) => Number.isSafeInteger(v));
        else if (d.format === 'int32') tests.push((v: number) => Number.isInteger(v) && v >= -2147483648 && v <= 2147483647);
        else return null;
        break;
      case 'greater_than': tests.push(d.inclusive ? (v: number) => v >= (d.value as number) : (v: number) => v > (d.value as number)); break;
      case 'less_than': tests.push(d.inclusive ? (v: number) => v <= (d.value as number) : (v: number) => v < (d.value as number)); break;
      default: return null;
    }
  }
  if (tests.length === 0) return (v) => (base(v) ? v : MISS);
  return (v) => {
    if (!base(v)) return MISS;
    for (const t of tests) if (!t(v as never)) return MISS;
    return v;
  };
}
