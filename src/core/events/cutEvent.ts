// What the host keeps of an event that came in a very long line: its long fields cut to a
// preview, and the cut said in the event (`cut`). A line under the line cap (64 MiB) was kept
// whole, and everything downstream (the store, the turn fold, the history, the log) kept its
// event: 30 lines of 40 MB left 1.2 GB on the extension host's heap. Real workers come near it:
// pi's tool_execution_update repeats the tool's whole output so far. So an event decoded from a
// line longer than CUT_LINE_CHARS is rebuilt with every string longer than the preview cut to
// its head and tail, long arrays and wide objects cut too, within a budget for the whole event.
import type { AgentEvent, EventCut } from './agentEvent';

/** Lines longer than this (in characters) are looked into; shorter ones keep their event whole. */
export const CUT_LINE_CHARS = 256 * 1024;
/** A cut string keeps this much: its head and its (usually more telling) tail. */
export const PREVIEW_HEAD_CHARS = 4 * 1024;
export const PREVIEW_TAIL_CHARS = 12 * 1024;
/** What one cut event keeps of its strings in all, at most. */
export const EVENT_BUDGET_CHARS = 128 * 1024;
/** Strings this short are kept whole (names, ids, numbers as text) while the node budget lasts. */
const SHORT_CHARS = 256;
const MAX_ITEMS = 1_000;
const MAX_NODES = 2_000;
const MAX_DEPTH = 32;
/** How many cut fields the event names; the rest are counted. */
const MAX_NAMED = 20;

/** About how many characters an event's strings hold (keys included); stops counting at `cap`. */
export function approxChars(value: unknown, cap: number): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && n <= cap) {
    const v = stack.pop();
    if (typeof v === 'string') n += v.length;
    else if (v !== null && typeof v === 'object') {
      n += 16;
      if (Array.isArray(v)) for (const item of v) stack.push(item);
      else for (const k in v) {
        n += k.length;
        stack.push((v as Record<string, unknown>)[k]);
      }
    } else n += 8;
  }
  return n;
}

interface Walk {
  budget: number;
  nodes: number;
  fields: EventCut['fields'];
  more: number;
}

function note(w: Walk, path: string, chars: number): void {
  if (w.fields.length < MAX_NAMED) w.fields.push({ path, chars });
  else w.more++;
}

function cutString(s: string, w: Walk, path: string): string {
  const preview = PREVIEW_HEAD_CHARS + PREVIEW_TAIL_CHARS;
  if (s.length <= SHORT_CHARS || (s.length <= preview && s.length <= w.budget)) {
    w.budget -= Math.min(s.length, w.budget);
    return s;
  }
  const room = Math.max(0, Math.min(preview, w.budget));
  const head = Math.floor(room / 4);
  const tail = room - head;
  w.budget -= room;
  note(w, path, s.length);
  // Slices are copied (a slice of a flat string may keep the whole 40 MB alive in V8).
  const keep = (t: string) => Buffer.from(t, 'utf16le').toString('utf16le');
  return `${keep(s.slice(0, head))}…[cut: ${s.length - room} of ${s.length} characters]…${keep(tail > 0 ? s.slice(s.length - tail) : '')}`;
}

function walk(value: unknown, w: Walk, path: string, depth: number): unknown {
  if (typeof value === 'string') return cutString(value, w, path);
  if (value === null || typeof value !== 'object') return value;
  if (++w.nodes > MAX_NODES || depth > MAX_DEPTH) {
    note(w, path, approxChars(value, 64 * 1024 * 1024));
    return '[cut: nested too deep or too many values]';
  }
  if (Array.isArray(value)) {
    const out = value.slice(0, MAX_ITEMS).map((v, i) => walk(v, w, `${path}[${i}]`, depth + 1));
    if (value.length > MAX_ITEMS) note(w, `${path}[${MAX_ITEMS}…]`, value.length - MAX_ITEMS);
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const k of keys.slice(0, MAX_ITEMS)) {
    // defineProperty: a key "__proto__" stays a field instead of setting the prototype.
    Object.defineProperty(out, k, { value: walk((value as Record<string, unknown>)[k], w, path ? `${path}.${k}` : k, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  if (keys.length > MAX_ITEMS) note(w, `${path}{${MAX_ITEMS}…}`, keys.length - MAX_ITEMS);
  return out;
}

/**
 * The event as the host keeps it, given the length of the line it came in. Null `cut` when
 * nothing had to go (the event is then returned as it is).
 */
export function cutEvent(event: AgentEvent, lineChars: number): { event: AgentEvent; cut: EventCut | null } {
  if (lineChars <= CUT_LINE_CHARS) return { event, cut: null };
  const w: Walk = { budget: EVENT_BUDGET_CHARS, nodes: 0, fields: [], more: 0 };
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(event)) {
    const v = (event as unknown as Record<string, unknown>)[key];
    const kept = key === 'type' || key === 'timestamp' || key === 'turn' ? v : walk(v, w, key, 0);
    Object.defineProperty(out, key, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  if (w.fields.length === 0) return { event, cut: null };
  const cut: EventCut = { lineChars, fields: w.fields, ...(w.more ? { more: w.more } : {}) };
  (out as unknown as AgentEvent).cut = cut;
  return { event: out as unknown as AgentEvent, cut };
}

/** The cut in words, for the log: what came, and what was kept of which fields. */
export function describeCut(type: string, cut: EventCut): string {
  const mib = (cut.lineChars / (1024 * 1024)).toFixed(1);
  const fields = cut.fields.map((f) => `${f.path} (${f.chars.toLocaleString('en-US')})`).join(', ');
  return `${type}: a ${mib} MiB line; kept as a preview (first and last characters): ${fields}${cut.more ? ` and ${cut.more} more` : ''}`;
}
