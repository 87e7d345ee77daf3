// A τ or ACP worker's answer that breaks JSON-RPC's rules for one. vscode-jsonrpc matches an
// answer by its id as it is, and reads as one only a message with a result or an error, so an
// answer whose id has another type than the request's, or that has neither, would be dropped
// without a word and the request would wait out its timeout. Such an answer is a protocol error,
// and the request it meant is failed at once, with the reason, as an error answer the host makes
// (never accepted as if it were right: the worker broke the protocol). One with both is a
// protocol error too, and its request gets the error.
import type { ResponseMessage } from 'vscode-jsonrpc/node';
import { isPlain } from '../../protocol/fastParse';
import { wholeError } from './codec';
import { isDroppedAnswer } from './droppedAnswer';

/** The error code of the host's answer for a worker's answer it would not take: never read as the worker's refusal. */
export const ANSWER_MALFORMED = -32091;

/** Whether an error answer is one the host made for a malformed answer (not the worker's own). */
function isMalformedAnswer(e: { code?: unknown; data?: unknown }): boolean {
  return e.code === ANSWER_MALFORMED && isPlain(e.data) && e.data.malformedAnswer === true;
}

/** Whether an error answer is the host's, made in the worker's place (its answer dropped for size, or malformed), not the worker's refusal. */
export function isHostAnswer(e: { code?: unknown; data?: unknown }): boolean {
  return isDroppedAnswer(e) || isMalformedAnswer(e);
}

function malformedAnswer(id: number | string, reason: string): ResponseMessage {
  return { jsonrpc: '2.0', id, error: { code: ANSWER_MALFORMED, message: reason, data: { malformedAnswer: true } } };
}

/** What a worker's answer is to the host: one for an open request (maybe with the protocol error it made), or none. */
export type AnswerRead = { message: ResponseMessage; protocolError?: string } | { invalid: string };

/**
 * A message with an id and without a method, read for the open request it answers (`isOpen` says
 * which ids still wait). Undefined for anything else (a request, a notification, an id of null),
 * which the codec reads as before.
 */
export function readAnswer(value: Record<string, unknown>, whose: string, isOpen: (id: number | string) => boolean): AnswerRead | undefined {
  const { id } = value;
  if (value.method !== undefined || (typeof id !== 'number' && typeof id !== 'string')) return undefined;
  // A null error is none, as vscode-jsonrpc reads it.
  const empty = value.result === undefined && !value.error;
  const said = `${whose} response with id ${JSON.stringify(id)}`;
  if (isOpen(id)) {
    // A null beside the other member is JSON-RPC 1.0's "none": nothing is lost, no protocol error.
    if (value.result !== undefined && value.result !== null && value.error) {
      // vscode-jsonrpc would take the error and drop the result without a word. The error is the
      // safer reading: a request the worker also said failed is not taken as done.
      const reason = `${said} has both a result and an error, which a response must not; read as the error, so that the request is not taken as done`;
      return { message: wholeError({ jsonrpc: '2.0', id, error: value.error as ResponseMessage['error'] }), protocolError: reason };
    }
    if (!empty) return { message: wholeError(value as unknown as ResponseMessage) };
    // vscode-jsonrpc would not read it as an answer at all, and the request would wait out its timeout.
    const reason = `${said} has neither a result nor an error`;
    return { message: malformedAnswer(id, reason), protocolError: reason };
  }
  const twin = typeof id === 'number' ? String(id) : String(Number(id)) === id ? Number(id) : undefined;
  if (twin === undefined || !isOpen(twin)) return { invalid: empty ? `${said} has neither a result nor an error, and no request is waiting for it` : `${said}, which no request is waiting for` };
  // JSON-RPC: the id "MUST be the same as the value of the id member in the Request Object".
  const reason = `${said} (a ${typeof id}), but request ${JSON.stringify(twin)} was sent with a ${typeof twin} id`;
  return { message: malformedAnswer(twin, reason), protocolError: reason };
}
