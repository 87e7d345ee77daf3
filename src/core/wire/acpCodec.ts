// ACP's codec: lines to events and messages, messages to lines; a session/prompt answer is the
// turn's end.
import { Message, type NotificationMessage, type ResponseMessage } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import type { AgentEvent } from '../events/agentEvent';
import { wholeError, type Decoded, type WireCodec } from './codec';
import { isHostAnswer, readAnswer } from './answerShape';
import { jsonRpcAnswerId, jsonRpcRequestRefusal, type DroppedLineError, type HeadMembers } from './droppedAnswer';
import { isPlain } from '../../protocol/fastParse';
import { ACP, AUTH_REQUIRED, AUTH_STATUS, CANCEL_REQUEST, cancelRequestSchema, sessionSchema, promptResultSchema, updateSchema, updateParamsSchema } from './acpProtocol';
import { AcpState } from './acpState';
import { authStatusEvent, updateEvent } from './acpEvents';

// ---- the codec: lines to events and messages, messages to lines

/** What the host asked, by request id, so that an answer can be read for what it answers. */
export interface OpenRequest {
  method: string;
  sessionId: string | null;
}

/** The updates that are a session's conversation (what a replay repeats), not its readouts, modes or commands. */
const REPLAYED_UPDATES = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk', 'tool_call', 'tool_call_update', 'plan']);

/** The tail of a chunked command output the host keeps for the call's end (the page keeps 256 KiB). */
const OUTPUT_KEPT = 1024 * 1024;

export class AcpCodec implements WireCodec {
  private readonly open = new Map<number | string, OpenRequest>();
  /** The agent's requests the host has not answered yet, by id: the ones it may withdraw. */
  private readonly asked = new Set<number | string>();
  /** session/load requests not answered yet. */
  private loading = 0;
  /** session/new requests not answered yet: the updates of a session being made may come before its id does. */
  private creating = 0;
  /**
   * A session/load was answered and no prompt sent since: Gemini 0.61.0 answers before most of its
   * replay (docs/acp-agents-findings.md), so the conversation it says until the next prompt is replay.
   */
  private replaying = false;
  /** A command's output said only in chunks (Codex's), by tool call, until the call ends: its end carries the whole. */
  private readonly chunked = new Map<string, string>();

  /** `joins`: chunked command output is joined for the call's end (a reading codec sees no ends: they are kept as events). */
  constructor(readonly state: AcpState = new AcpState(), private readonly joins = true) {}

  decode(value: unknown): Decoded {
    if (!isPlain(value)) return { kind: 'invalid', reason: 'not a JSON-RPC message (expected a JSON object)' };
    if (value.jsonrpc !== '2.0') {
      if (typeof value.type === 'string') return { kind: 'invalid', reason: 'a pi message ({"type": ...}, not JSON-RPC 2.0): this worker speaks pi\'s protocol, not ACP', otherDialect: 'pi' };
      return { kind: 'invalid', reason: 'not a JSON-RPC 2.0 message (no "jsonrpc": "2.0")' };
    }
    if (value.method === ACP.update && value.id === undefined) return this.update(value.params);
    if (value.method === AUTH_STATUS && value.id === undefined) {
      // Typed here, so that the log words it; one of another shape goes on as the notification it is.
      const event = authStatusEvent(value.params);
      if (event) return { kind: 'event', event };
    }
    const answer = readAnswer(value, 'ACP', (id) => this.open.has(id));
    if (answer && 'invalid' in answer) return { kind: 'invalid', reason: answer.invalid };
    if (answer) {
      const decoded = this.response(answer.message);
      if (answer.protocolError && decoded.kind === 'message') decoded.protocolError = answer.protocolError;
      return decoded;
    }
    const message = value as unknown as Message;
    if (Message.isResponse(message)) return this.response(wholeError(message));
    if (Message.isRequest(message) || Message.isNotification(message)) {
      if (typeof message.method !== 'string') return { kind: 'invalid', reason: 'a JSON-RPC message whose method is not a string' };
      if (Message.isRequest(message) && message.id !== null) this.asked.add(message.id);
      if (message.method === CANCEL_REQUEST && Message.isNotification(message)) return { kind: 'message', message: this.withdrawal(message) };
      return { kind: 'message', message };
    }
    return { kind: 'invalid', reason: 'JSON-RPC message that is neither a request, a response nor a notification' };
  }

  /**
   * The agent withdraws a request still unanswered: in vscode-jsonrpc's words (`$/cancelRequest`
   * {id}), which cancel the token its handler holds, so that the handler answers it (once) as
   * withdrawn. One for a request already answered (it crossed the answer) or never sent changes
   * nothing, and goes on as the notification it is, kept in the log.
   */
  private withdrawal(message: NotificationMessage): NotificationMessage {
    const parsed = cancelRequestSchema.safeParse(message.params);
    if (!parsed.success || !this.asked.has(parsed.data.requestId)) return message;
    return { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: parsed.data.requestId } };
  }

  private update(params: unknown): Decoded {
    // The volume of a turn is text chunks: checked where they lie, without a schema's copy.
    let sessionId: string;
    let update: z.infer<typeof updateSchema>;
    if (isPlain(params) && typeof params.sessionId === 'string' && params.sessionId.length > 0 && isPlain(params.update) && typeof params.update.sessionUpdate === 'string' && params.update.sessionUpdate.length > 0) {
      sessionId = params.sessionId;
      update = params.update as z.infer<typeof updateSchema>;
    } else {
      const parsed = updateParamsSchema.safeParse(params);
      if (!parsed.success) return { kind: 'invalid', reason: `malformed session/update: ${z.prettifyError(parsed.error)}` };
      ({ sessionId, update } = parsed.data);
    }
    // Before the session/new answer its session is not known: such updates (Copilot's and
    // Codex's commands) are the new session's, and are kept, for the first session and for
    // New Session alike.
    if (this.creating === 0 && this.state.sessions.size > 0 && !this.state.sessions.has(sessionId)) {
      return { kind: 'invalid', reason: `session/update for session ${sessionId}, which is not this worker's (${[...this.state.sessions].join(', ')})` };
    }
    const event = updateEvent(update);
    if ('invalid' in event) return { kind: 'invalid', reason: event.invalid };
    // A session this worker left (New Session) may still say something late (Claude's usage after
    // its turn): kept as the event it is, but its usage, mode or commands are not the current one's.
    if (this.state.sessions.has(sessionId) && sessionId !== this.state.sessionId) return { kind: 'event', event };
    if (this.repeatsMode(event)) {
      // Kept (nothing received is dropped), marked so that the log and the export say the change
      // once; stored as the event, which a codec reading the line alone could not mark.
      this.state.observe(event);
      event.data = { ...event.data, repeated: true };
      return { kind: 'event', event, lineStands: false };
    }
    const modeBefore = event.type === 'config_changed' ? this.state.modeOptionValue : null;
    const joined = (this.joins && event.tool_call_id !== undefined && (event.data?.outputDelta === true || this.chunked.size > 0) && this.joinChunks(event)) || this.nameMode(event);
    // While session/load is answered, the agent replays the conversation so far (and after, till a prompt).
    if (this.loading > 0 || (this.replaying && REPLAYED_UPDATES.has(update.sessionUpdate))) event.replayed = true;
    else this.state.observe(event);
    const then = modeBefore !== null && this.loading === 0 ? this.modeMoved(modeBefore) : undefined;
    const decoded: Decoded = joined ? { kind: 'event', event, lineStands: false } : { kind: 'event', event };
    if (then) decoded.then = then;
    if ((event.type === 'mode_changed' && this.loading === 0) || then) this.state.modeSaid++;
    return decoded;
  }

  /**
   * An agent that changes its mode by itself and says so only in its options' update (a
   * config_changed, which the page hides): a mode_changed too, so that the log says it. None at
   * a session's start (no mode was known before), none when a current_mode_update said it first
   * (it moved the option), none for Switch Mode's own change (it makes its own event).
   */
  private modeMoved(before: string): AgentEvent | undefined {
    const now = this.state.modeOptionValue;
    if (now === null || now === before || this.creating > 0) return undefined;
    if ([...this.open.values()].some((r) => r.method === ACP.setConfigOption || r.method === ACP.setMode)) return undefined;
    return { type: 'mode_changed', timestamp: Date.now(), data: { mode: now, name: this.state.modeName(now) } };
  }

  /**
   * A current_mode_update naming the mode the session is already in changes nothing: an agent
   * that says a change in its options' update and then again so, or says Switch Mode's change
   * after answering it (the mode already moved). The log says a change once. Not while a session
   * is loaded (its replay) or made (its mode is not known yet), nor while no mode is known.
   */
  private repeatsMode(event: AgentEvent): boolean {
    if (event.type !== 'mode_changed' || this.loading > 0 || this.creating > 0) return false;
    // New Session setting the profile's mode: the session's opening, said after its mark if it differs.
    if (this.state.opening) return true;
    const now = this.state.mode;
    return now !== null && event.data?.mode === now;
  }

  /**
   * A mode change carries the mode's name from what the session said it offers, so that the page
   * (which knows no dialect) says "Manual", "Plan", not "default" or Copilot's URL. True when the
   * name is known: a codec reading the line back alone would not know it.
   */
  private nameMode(event: AgentEvent): boolean {
    if (event.type !== 'mode_changed' || typeof event.data?.mode !== 'string') return false;
    const name = this.state.modeName(event.data.mode);
    event.data.name = name;
    return name !== null;
  }

  /**
   * A chunk is added to what its call said so far (kept to its last OUTPUT_KEPT characters); the
   * call's end then carries the whole output as its result, as every other tool's end does, so
   * the log, the history and the export need not know that it came in pieces. True when it made
   * the end so: its line alone no longer gives it.
   */
  private joinChunks(event: AgentEvent): boolean {
    const id = event.tool_call_id!;
    let sofar = this.chunked.get(id);
    if (event.data?.outputDelta === true) {
      const chunk = typeof event.result === 'object' && event.result !== null && 'output' in event.result ? String(event.result.output) : '';
      sofar = (sofar ?? '') + chunk;
      if (sofar.length > OUTPUT_KEPT) sofar = sofar.slice(-OUTPUT_KEPT);
      this.chunked.set(id, sofar);
    }
    if (event.type !== 'tool_execution_end' || sofar === undefined) return false;
    this.chunked.delete(id);
    event.result = { output: sofar };
    if (event.data) delete event.data.outputDelta;
    return true;
  }

  private response(message: ResponseMessage): Decoded {
    if (message.id === null) return { kind: 'invalid', reason: `ACP error without a request id: ${describeError(message.error)}` };
    const asked = this.open.get(message.id);
    if (!asked) return { kind: 'invalid', reason: `ACP response with id ${JSON.stringify(message.id)}, which no request is waiting for` };
    this.open.delete(message.id);
    if (asked.method === ACP.loadSession) {
      this.loading--;
      if (!message.error) this.replaying = true;
    }
    if (asked.method === ACP.newSession) this.creating--;
    if (asked.method === ACP.prompt) {
      // A call the turn left unended (an abort) keeps no output.
      this.chunked.clear();
      return { kind: 'message', message, event: turnEnd(message, this.state) };
    }
    if (!message.error && (asked.method === ACP.newSession || asked.method === ACP.loadSession || asked.method === ACP.resumeSession)) {
      const result = sessionSchema.safeParse(message.result ?? {});
      const id = asked.method === ACP.newSession ? (result.success ? result.data.sessionId : undefined) : asked.sessionId;
      // The session the worker is on from now: the updates that follow the answer are its own.
      if (id) {
        this.state.sessions.add(id);
        this.state.sessionId = id;
      }
    }
    return { kind: 'message', message };
  }

  /** Through `response`, so what the request meant is undone as for any error answer (a prompt's turn ends). */
  answerDropped(head: HeadMembers, error: DroppedLineError): Decoded | undefined {
    const id = jsonRpcAnswerId(head);
    if (id === undefined || !this.open.has(id)) return undefined;
    return this.response({ jsonrpc: '2.0', id, error });
  }

  /** The agent's fs/write_text_file of a huge file, its permission request with a huge diff: refused, so its turn goes on. */
  requestDropped(head: HeadMembers, error: DroppedLineError): ResponseMessage | undefined {
    return jsonRpcRequestRefusal(head, error);
  }

  encode(message: Message): unknown {
    // ACP's cancellation of a request is `$/cancel_request`, and only some agents take it; the
    // host ends a turn with session/cancel instead, so vscode-jsonrpc's is not sent. (The
    // agent's withdrawal of its own requests is read in decode: see withdrawal.)
    if (Message.isNotification(message) && message.method.startsWith('$/')) return undefined;
    if (Message.isResponse(message) && message.id !== null) this.asked.delete(message.id);
    if (Message.isRequest(message) && message.id !== null) {
      const params = (message.params ?? {}) as { sessionId?: unknown };
      this.open.set(message.id, { method: message.method, sessionId: typeof params.sessionId === 'string' ? params.sessionId : null });
      if (message.method === ACP.loadSession) this.loading++;
      if (message.method === ACP.prompt) this.replaying = false;
      if (message.method === ACP.newSession) this.creating++;
    }
    return message;
  }

  /** A prompt sent is the turn's start: the agent says nothing until its first update. */
  announce(message: Message): AgentEvent | undefined {
    if (!Message.isRequest(message) || message.method !== ACP.prompt) return undefined;
    return { type: 'agent_start', timestamp: Date.now() };
  }
}

export function describeError(error: unknown): string {
  const e = error as { code?: number; message?: string } | undefined;
  return e ? `${e.code ?? ''} ${e.message ?? ''}`.trim() : 'no detail';
}

/** ACP's stop reasons in the host's words for how a turn ended. */
export const END_REASONS: Record<string, string> = {
  end_turn: 'done',
  cancelled: 'aborted',
  max_turn_requests: 'max_turns',
  max_tokens: 'max_tokens',
  refusal: 'refusal',
};

/** The `session/prompt` answer: the turn's end, with how it ended and what it used. */
export function turnEnd(message: ResponseMessage, state: AcpState): AgentEvent {
  const timestamp = Date.now();
  if (message.error) {
    // Codex answers a key its model refused (401) with -32000, and names its logins only in
    // initialize; Claude starts without a key and answers its first prompt so. Flagged, so that
    // the UI adds how the agent takes a key, as it does for a start refused for want of one.
    if (message.error.code === AUTH_REQUIRED) {
      const error = state.loginAdvice(`it answered the prompt with ${describeError(message.error)}`, 'answer');
      // The command a refused start would offer to run, for the turn's notification to offer too.
      const login = state.loginCommand();
      return { type: 'agent_end', timestamp, end_reason: 'error', is_error: true, error, data: { error: message.error, needsLogin: true, ...(login ? { login } : {}) } };
    }
    const error = isHostAnswer(message.error) ? `the prompt's end is not known: ${message.error.message}`
      : `the agent answered the prompt with an error (${describeError(message.error)})`;
    return { type: 'agent_end', timestamp, end_reason: 'error', is_error: true, error, data: { error: message.error } };
  }
  const parsed = promptResultSchema.safeParse(message.result);
  if (!parsed.success) return { type: 'agent_end', timestamp, end_reason: 'error', is_error: true, error: `malformed session/prompt answer: ${z.prettifyError(parsed.error)}` };
  const { stopReason, usage } = parsed.data;
  const event: AgentEvent = { type: 'agent_end', timestamp, end_reason: END_REASONS[stopReason] ?? stopReason, stop_reason: stopReason };
  if (stopReason === 'refusal') {
    event.is_error = true;
    event.error = 'the agent refused to go on';
  }
  if (usage) event.data = { usage };
  return event;
}
