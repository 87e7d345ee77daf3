// What a dialect's edge translation does: one parsed line from the worker becomes a JSON-RPC
// message for vscode-jsonrpc (responses, requests the host answers), an event for the lean
// event path, or a protocol error; and a JSON-RPC message from the host becomes the worker's
// wire object. Correlation, timeouts and dispatch then belong to vscode-jsonrpc for both
// dialects; events skip its one-macrotask-per-message queue because they are the volume.
import type { Message, ResponseMessage } from 'vscode-jsonrpc/node';
import { isPlain } from '../../protocol/fastParse';
import type { DialectName } from '../api';
import type { AgentEvent } from '../events/agentEvent';
import type { DroppedLineError, HeadMembers } from './droppedAnswer';

export type Decoded =
  // `event`: what the message means for the turn, delivered before it (ACP's session/prompt
  // answer is the turn's end); such an event has no line of its own to stand for it.
  // `protocolError`: the message broke the protocol and is passed on as the host reads it (a
  // malformed answer fails the request it meant); the reason is reported as a bad line's is.
  | { kind: 'message'; message: Message; event?: AgentEvent; protocolError?: string }
  // `lineStands: false`: the event carries more than its line (ACP's command output joined from
  // earlier lines), so the store and the history keep the event, not the line.
  // `then`: an event the line also means, delivered after `event`, with no line of its own (ACP: a
  // mode change an agent says only in its options' update, which is itself hidden).
  | { kind: 'event'; event: AgentEvent; lineStands?: false; then?: AgentEvent }
  | { kind: 'invalid'; reason: string; otherDialect?: DialectName };

export interface WireCodec {
  decode(value: unknown): Decoded;
  /** `undefined` means the message has no equivalent on this wire and is not sent. */
  encode(message: Message): unknown;
  /** What a message the host sends means for the turn (ACP: a prompt sent is the turn's start). */
  announce?(message: Message): AgentEvent | undefined;
  /**
   * A line dropped for its size whose head shows it answered an open request of the host's: that
   * request answered with `error`, decoded as this dialect decodes an error answer (no longer
   * open). Undefined when the head shows no answer to an open request.
   */
  answerDropped?(head: HeadMembers, error: DroppedLineError): Decoded | undefined;
  /**
   * A line dropped for its size whose head shows a request of the worker's that waits for an
   * answer: the host's answer refusing it (a message for the writer, which encodes it as this
   * dialect answers), so that the worker does not wait for ever. Undefined for anything else.
   */
  requestDropped?(head: HeadMembers, error: DroppedLineError): ResponseMessage | undefined;
}

/**
 * A worker's line kept for its event (the event store, the history), read back by a reading codec
 * of its dialect (createCodec('reading')): a line is kept only where decoding it alone gives its
 * event back, so the reading codec keeps nothing from line to line.
 */
export function readBack(codec: WireCodec, value: unknown): { ok: true; event: AgentEvent } | { ok: false; error: string } {
  const decoded = codec.decode(value);
  if (decoded.kind === 'event') return { ok: true, event: decoded.event };
  return { ok: false, error: decoded.kind === 'invalid' ? decoded.reason : 'a message, not an event' };
}

/** A stored line back into its event, by a codec of the worker's dialect of its own. */
export function redecode(codec: WireCodec, line: string): AgentEvent {
  const read = readBack(codec, JSON.parse(line));
  // The line was an event when it came; a codec that changed its mind is the host's bug, said so.
  return read.ok ? read.event : { type: 'protocol_error', timestamp: 0, is_error: true, error: `a stored event could not be read again (${read.error})` };
}

/** JSON-RPC's code for an error of the worker's own; said for an error that came without a code. */
const INTERNAL_ERROR = -32603;

/**
 * An error answer that is not JSON-RPC's {code, message} (a bare string, an object without them),
 * made whole: vscode-jsonrpc would reject the request with a code of its own (-32001, which τ
 * uses for another refusal) and no words, and what the worker said would be lost.
 */
export function wholeError(message: ResponseMessage): ResponseMessage {
  const error: unknown = message.error;
  if (!error) return message;
  const e = isPlain(error) ? error : {};
  const code = Number.isInteger(e.code) ? (e.code as number) : INTERNAL_ERROR;
  if (code === e.code && typeof e.message === 'string') return message;
  const said = typeof error === 'string' ? error : `the error is not JSON-RPC's {code, message}: ${JSON.stringify(error).slice(0, 200)}`;
  // Without a code of the worker's, the code is ours: the words say so, lest it be read as the worker's.
  const words = code === e.code ? said : `${said} (sent without an error code)`;
  return { ...message, error: { code, message: words, ...(e.data !== undefined ? { data: e.data } : {}) } };
}
