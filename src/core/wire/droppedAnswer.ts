// A line over the host's cap is dropped (lineFramer.ts); if it was the answer to one of the host's
// requests, that request would wait out its timeout and say only "no answer". Its first bytes tell
// whether it was: pi, τ and the ACP agents all write the id before the answer's body. Read here as
// far as they go, in the reader's over-cap branch alone (a line within the cap never pays for it),
// and the request it answered is failed with the reason, as an error answer the host makes. A
// request of the worker's is answered as refused, so that the worker does not wait for ever.
import type { ResponseMessage } from 'vscode-jsonrpc/node';

/** The error code of that answer: made by the host, never read as the worker's refusal. */
export const ANSWER_DROPPED = -32090;

/** The error the host makes for a line it dropped for its size: the answer it stood for, or the refusal of the request it was. */
export type DroppedLineError = { code: number; message: string; data: { droppedBytes: number } };

/**
 * A request the host failed for an answer it could not take (dropped for its size, or one that
 * broke JSON-RPC's rules: answerShape.ts): the reader failed it, the worker refused nothing.
 */
export class AnswerDropped extends Error {}

export function droppedAnswerError(maxLineBytes: number, bytes: number): DroppedLineError {
  return { code: ANSWER_DROPPED, message: `the worker's answer was over the ${maxLineBytes}-byte line limit and was dropped`, data: { droppedBytes: bytes } };
}

/** Whether an error answer is one the host made for a dropped answer (not the worker's own). */
export function isDroppedAnswer(e: { code?: unknown; data?: unknown }): boolean {
  return e.code === ANSWER_DROPPED && typeof (e.data as { droppedBytes?: unknown } | undefined)?.droppedBytes === 'number';
}

/**
 * The answer to a request of the worker's that was over the cap (an ACP agent's fs/write_text_file
 * of a huge file): without one the worker waits for ever. -32600: the request, as it came, could
 * not be taken; the host did nothing of what it asked.
 */
export function droppedRequestError(maxLineBytes: number, bytes: number): DroppedLineError {
  return { code: -32600, message: `the request was over the ${maxLineBytes}-byte line limit and was dropped; nothing was done`, data: { droppedBytes: bytes } };
}

/** A member whose value is an object or an array, or runs past the head's end. */
export const NOT_SCALAR = Symbol('not a scalar');
export type HeadMembers = ReadonlyMap<string, unknown>;

/** The top-level members of a JSON object's first characters, as far as they go (scalars read, the rest NOT_SCALAR). */
export function headMembers(head: string): HeadMembers {
  const members = new Map<string, unknown>();
  let i = skipSpace(head, 0);
  if (head[i] !== '{') return members;
  for (i++; ; i++) {
    i = skipSpace(head, i);
    const keyEnd = head[i] === '"' ? stringEnd(head, i) : -1;
    if (keyEnd < 0) return members;
    // The worker's bytes, not known to be JSON: a bad escape ends the reading (a throw here would
    // leave the reader's stream handler, uncaught, the line half read).
    const key = scalar(head.slice(i, keyEnd));
    if (typeof key !== 'string') return members;
    i = skipSpace(head, keyEnd);
    if (head[i] !== ':') return members;
    i = skipSpace(head, i + 1);
    const end = valueEnd(head, i);
    members.set(key, end < 0 || head[i] === '{' || head[i] === '[' ? NOT_SCALAR : scalar(head.slice(i, end)));
    if (end < 0) return members;
    i = skipSpace(head, end);
    if (head[i] !== ',') return members;
  }
}

/** The id of a JSON-RPC answer (a `result` or an `error`, no `method`) its head shows, if any. */
export function jsonRpcAnswerId(head: HeadMembers): number | string | undefined {
  const id = head.get('id');
  if (head.has('method') || !(head.has('result') || head.has('error'))) return undefined;
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

/** The error answer to a JSON-RPC request (a `method` and an `id`) its head shows, if any (a notification waits for none). */
export function jsonRpcRequestRefusal(head: HeadMembers, error: DroppedLineError): ResponseMessage | undefined {
  const id = head.get('id');
  if (typeof head.get('method') !== 'string' || (typeof id !== 'number' && typeof id !== 'string')) return undefined;
  return { jsonrpc: '2.0', id, error };
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++;
  return i;
}

/** Just past the string that opens at `i`, or -1 where the head ends inside it. */
function stringEnd(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '"') return j + 1;
  }
  return -1;
}

/** Just past the value that starts at `i`, or -1 where the head ends inside it (a number may go on). */
function valueEnd(s: string, i: number): number {
  if (s[i] === '"') return stringEnd(s, i);
  if (s[i] === '{' || s[i] === '[') {
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const c = s[j];
      if (c === '"') {
        j = stringEnd(s, j) - 1;
        if (j < 0) return -1;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (--depth === 0) return j + 1;
      }
    }
    return -1;
  }
  for (let j = i; j < s.length; j++) if (',}] \t\r\n'.includes(s[j]!)) return j;
  return -1;
}

function scalar(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return NOT_SCALAR;
  }
}
