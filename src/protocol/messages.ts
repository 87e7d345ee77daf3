// The messages between the event log's webview and the extension host, as zod schemas: here the
// page's to the host, and what the host sends of an event; the host's to the page are in
// hostMessages.ts (the extension never builds those: activation time). Imported by src/ui (host
// side) and src/webview (bundled into the browser script), so it imports nothing but zod and the
// shared words. Every message is validated where it is received.
// zod/mini: the same checks as zod, tree-shakable, so the webview bundle stays small.
import * as z from 'zod/mini';
import type { PageEvent } from './hostMessages';
import { lazySchema, type LazyInfer } from './lazySchema';

export type { HostMessage, PageEvent, WorkerView } from './hostMessages';

const count = () => z.number().check(z.int(), z.minimum(0));

const text = () => z.string().check(z.maxLength(16 * 1024 * 1024));
const id = () => z.string().check(z.minLength(1), z.maxLength(200));
/** Where the page's inline script (ui/eventLog/html.ts) leaves its VS Code API handle for webview.js: there is one per page. */
export const VSCODE_API_GLOBAL = 'rpcWorkersVscodeApi';

export const webviewMessageSchema = lazySchema(() => z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** The page's document runs (its load guard, html.ts, says so first). */
  z.object({ type: z.literal('loading') }),
  /** A script or stylesheet of the page did not load (html.ts): the host gives it its page again. */
  z.object({ type: z.literal('loadFailed'), what: z.string().check(z.maxLength(2000)) }),
  // The composer's requests: `req` is the page's id for it, which the result's `seq` gives back.
  z.object({ type: z.literal('send'), workerId: id(), text: text(), mode: z.enum(['prompt', 'steer', 'followUp']), req: z.optional(count()) }),
  z.object({ type: z.literal('redirect'), workerId: id(), text: text(), req: z.optional(count()) }),
  z.object({ type: z.literal('abort'), workerId: id(), req: z.optional(count()) }),
  z.object({ type: z.literal('compact'), workerId: id(), req: z.optional(count()) }),
  z.object({ type: z.literal('stop'), workerId: id(), req: z.optional(count()) }),
  z.object({ type: z.literal('selectWorker'), workerId: id() }),
  /**
   * A log read from the history a page at a time (a past session's, a resumed worker's earlier
   * ones): the page before, or the newest again. `req`: the page's number for the ask, which a
   * failure answer names (pastPageFailed's `seq`).
   */
  z.object({ type: z.literal('pastPage'), workerId: id(), to: z.enum(['older', 'newest']), req: z.optional(count()) }),
  /** The agents' questions put aside, on screen again (an open question's Answer…). */
  z.object({ type: z.literal('answerQuestions') }),
  /** A host terminal's output, shown in a VS Code terminal. */
  z.object({ type: z.literal('showTerminal'), workerId: id(), terminalId: z.string().check(z.minLength(1), z.maxLength(200)) }),
  /** A tool call's change, opened in VS Code's diff editor. */
  z.object({ type: z.literal('openChange'), workerId: id(), path: z.string().check(z.maxLength(4096)), oldText: z.nullable(z.string()), newText: z.string() }),
  /** What the webview holds once it has drawn everything it was sent (for tests and diagnostics). */
  z.object({ type: z.literal('rendered'), workerId: z.nullable(z.string()), events: count(), entries: count(), rows: count(), domNodes: count(), frames: z.optional(count()), rafFrames: z.optional(count()),
    validateMs: z.optional(count()), foldMs: z.optional(count()), drawMs: z.optional(count()), receiveSpanMs: z.optional(count()),
    /** The status chip's text, as the person reads it. */
    chip: z.optional(z.string().check(z.maxLength(1000))) }),
]));
export type WebviewMessage = LazyInfer<typeof webviewMessageSchema>;

// ---- what the host sends of an event

/** A field longer than this (as JSON) is cut to a preview: the log shows it, the store keeps it whole. */
export const MAX_FIELD_CHARS = 32 * 1024;
/** Fields the log never shows: whole transcripts that agent_end and turn_end repeat. */
const DROPPED = new Set(['messages', 'tool_results']);

function slimValue(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string') return value.length > MAX_FIELD_CHARS ? `${value.slice(0, MAX_FIELD_CHARS)}… [${value.length - MAX_FIELD_CHARS} more characters not shown]` : value;
  if (typeof value !== 'object') return value;
  return boundOf(value) <= MAX_FIELD_CHARS ? value : slimByJson(value);
}

/** An object field as its JSON decides: kept if short enough, else a preview; what cannot be stringified says so. */
export function slimByJson(value: object): unknown {
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    return '[not serializable]';
  }
  if (json === undefined) return undefined;
  if (json.length <= MAX_FIELD_CHARS) return value;
  return { truncated: true, preview: `${json.slice(0, MAX_FIELD_CHARS)}…`, chars: json.length };
}

/** Deeper than this, jsonBound leaves it to JSON.stringify (which also finds a cycle). */
const BOUND_DEPTH = 32;

/**
 * At least the length of JSON.stringify(value), counted without making the string, and given up
 * (Infinity) once past `limit`: an event's object fields (an id, a usage readout, a tool's
 * arguments) are nearly all far under the cut, and stringifying each one to learn that cost the
 * log about 0.7 µs an event. A string counts 6 per character (the longest escape), a number 25;
 * what is not plain data (a class, a Date, a toJSON, a BigInt) counts as past it, so that
 * JSON.stringify decides it as before.
 */
function jsonBound(value: unknown, limit: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return 2 + 6 * value.length;
    case 'number':
      return 25;
    case 'boolean':
      return 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      // Left out of an object, null in an array.
      return 4;
    case 'object': {
      if (value === null) return 4;
      if (depth >= BOUND_DEPTH) return Infinity;
      const proto = Object.getPrototypeOf(value) as unknown;
      let n = 2;
      if (Array.isArray(value)) {
        if (proto !== Array.prototype) return Infinity;
        for (let i = 0; i < value.length && n <= limit; i++) n += 1 + jsonBound(value[i], limit - n, depth + 1);
        return n;
      }
      if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return Infinity;
      const o = value as Record<string, unknown>;
      for (const key in o) {
        n += 4 + 6 * key.length + jsonBound(o[key], limit - n, depth + 1);
        if (n > limit) return n;
      }
      return n;
    }
    default:
      return Infinity;
  }
}

/** jsonBound of a field; a getter that throws leaves it to JSON.stringify, which says so. */
function boundOf(value: object): number {
  try {
    return jsonBound(value, MAX_FIELD_CHARS, 0);
  } catch {
    return Infinity;
  }
}

/** The event as the webview gets it: transcripts dropped, big fields cut to a preview. */
export function slimEvent(event: { type: string; timestamp: number } & Record<string, unknown>): PageEvent {
  const out: Record<string, unknown> = {};
  for (const key in event) {
    if (DROPPED.has(key)) continue;
    const v = event[key];
    // τ sends every field, mostly null: what is absent says the same in fewer bytes.
    if (v === undefined || v === null || v === false && key !== 'is_error') continue;
    out[key] = key === 'type' || key === 'timestamp' || key === 'turn' ? v : slimValue(v);
  }
  return out as PageEvent;
}
