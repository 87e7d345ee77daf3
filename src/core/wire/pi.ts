// pi's RPC mode (`pi --mode rpc`), which is not JSON-RPC, translated at the edge so that
// vscode-jsonrpc can own correlation: a JSON-RPC request becomes `{id, type, ...params}`, pi's
// `{type:"response"}` becomes a JSON-RPC response by id, pi's events go to the event path, and
// `extension_ui_request` becomes a request from the worker that the host answers.
import { ErrorCodes, Message, type NotificationMessage, type RequestMessage, type ResponseMessage } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import type { AgentEvent } from '../events/agentEvent';
import { GUARD_NAME, parseGuardVeto } from '../guard/veto';
import type { Decoded, WireCodec } from './codec';
import { UI_REQUEST_PREFIX, WorkerRefusal, type CompactAck, type Dialect, type ProbeInfo, type PromptRequest } from './dialect';
import { fastChecker } from '../../protocol/fastParse';
import { explainLoadFailure, piPreflight, piTraits } from './piVersion';
import type { SessionVerbs } from './sessionVerbs';
import { methodCaller, modelName } from './requests';
import type { DroppedLineError, HeadMembers } from './droppedAnswer';
import { compactResultSchema, PI_METHODS } from './piMethods';

/** Methods of pi's extension UI that wait for an answer; the rest are fire-and-forget. */
const UI_DIALOGS = new Set(['select', 'confirm', 'input', 'editor']);
const UI_ID_PREFIX = 'ui:';

const responseSchema = z.looseObject({
  type: z.literal('response'),
  id: z.union([z.string(), z.number()]).optional(),
  command: z.string(),
  success: z.boolean(),
  data: z.unknown().optional(),
  error: z.string().optional(),
});

const uiRequestSchema = z.looseObject({ type: z.literal('extension_ui_request'), id: z.string(), method: z.string() });

// Only what the host reads is checked; pi adds fields freely and the rest is carried in `data`.
// The event is checked where it lies (fastChecker: no copy), and what the schema does not type
// is gathered from the wire object in one pass over its keys; nested objects are checked for
// being objects without being copied.
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const anObject = z.custom<Record<string, unknown>>(isObject, { message: 'expected an object' });
const eventShape = {
  type: z.string().min(1),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  isError: z.boolean().optional(),
  willRetry: z.boolean().optional(),
  message: anObject.optional(),
  messages: z.array(anObject).optional(),
  assistantMessageEvent: z.object({ type: z.string(), delta: z.string().optional(), contentIndex: z.number().optional() }).optional(),
};
export const eventSchema = z.object(eventShape);
const checkEvent = fastChecker(eventSchema);
const EVENT_FIELDS = new Set(Object.keys(eventShape));
type PiEvent = z.infer<typeof eventSchema>;
// Text deltas are the volume of the stream: a small schema that reads only what the host uses;
// the partial message snapshot pi repeats on each update is not kept.
export const deltaSchema = z.object({
  type: z.literal('message_update'),
  assistantMessageEvent: z.object({ type: z.string(), delta: z.string().optional(), contentIndex: z.number().optional() }),
});
const checkDelta = fastChecker(deltaSchema);

export class PiCodec implements WireCodec {
  /** Open requests by pi id, so an id-less failure can be matched to its command. */
  private readonly open = new Map<string, string>();

  decode(value: unknown): Decoded {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { kind: 'invalid', reason: 'not a pi message (expected a JSON object)' };
    }
    const type = (value as { type?: unknown }).type;
    if ((value as { jsonrpc?: unknown }).jsonrpc === '2.0' && type === undefined) {
      // ACP's methods are paths (session/update, fs/read_text_file); τ's are words (event). An
      // answer alone cannot tell them apart: τ, the JSON-RPC worker most often set up as pi, is named.
      const method = (value as { method?: unknown }).method;
      if (typeof method === 'string' && method.includes('/') && !method.startsWith('$/')) {
        return { kind: 'invalid', reason: 'a JSON-RPC 2.0 message of ACP (the Agent Client Protocol): this worker speaks ACP, not pi\'s protocol', otherDialect: 'acp' };
      }
      return { kind: 'invalid', reason: 'a JSON-RPC 2.0 message: this worker speaks τ\'s protocol, not pi\'s', otherDialect: 'tau' };
    }
    if (type === 'response') return this.decodeResponse(value);
    if (type === 'extension_ui_request') return this.decodeUiRequest(value);
    // Checked where it lies (the schema decides whatever the fast check is not sure of), then
    // copied once into the host's event.
    const raw = value as PiEvent & Record<string, unknown>;
    if (type === 'message_update' && checkDelta(raw)) return { kind: 'event', event: normalizeDelta(raw.assistantMessageEvent!) };
    if (!checkEvent(raw)) {
      const parsed = eventSchema.safeParse(raw);
      if (!parsed.success) return { kind: 'invalid', reason: `malformed pi event: ${z.prettifyError(parsed.error)}` };
    }
    return { kind: 'event', event: normalizePiEvent(raw) };
  }

  encode(message: Message): unknown {
    if (Message.isRequest(message)) {
      if (message.method.startsWith(UI_REQUEST_PREFIX)) return undefined;
      const id = String(message.id);
      this.open.set(id, message.method);
      return { ...(message.params as object | undefined), id, type: message.method };
    }
    if (Message.isResponse(message)) {
      const id = typeof message.id === 'string' && message.id.startsWith(UI_ID_PREFIX) ? message.id.slice(UI_ID_PREFIX.length) : null;
      if (id === null) return undefined;
      const answer = (message.result ?? { cancelled: true }) as object;
      return { type: 'extension_ui_response', id, ...answer };
    }
    // Cancellation and other notifications have no pi equivalent.
    return undefined;
  }

  private decodeResponse(value: object): Decoded {
    const parsed = responseSchema.safeParse(value);
    if (!parsed.success) return { kind: 'invalid', reason: `malformed pi response: ${z.prettifyError(parsed.error)}` };
    const r = parsed.data;
    let id = r.id === undefined ? undefined : String(r.id);
    if (id === undefined) {
      // pi answers an unknown command, and a line it could not parse, without the id.
      if (r.command === 'parse') return { kind: 'invalid', reason: `pi could not parse a line the host sent: ${r.error ?? ''}` };
      id = this.oldestOpen(r.command);
      if (id === undefined) return { kind: 'invalid', reason: `pi response for ${r.command} that no request is waiting for: ${r.error ?? ''}` };
    }
    if (!this.open.delete(id)) return { kind: 'invalid', reason: `pi response with id ${id}, which no request is waiting for` };
    const jsonrpcId = jsonrpcIdOf(id);
    const response: ResponseMessage = r.success
      ? { jsonrpc: '2.0', id: jsonrpcId, result: r.data ?? null }
      : { jsonrpc: '2.0', id: jsonrpcId, error: { code: ErrorCodes.UnknownErrorCode, message: r.error ?? `${r.command} failed`, data: { command: r.command } } };
    return { kind: 'message', message: response };
  }

  /** pi writes a response's id first: `{"id":"5","type":"response",...}`. */
  answerDropped(head: HeadMembers, error: DroppedLineError): Decoded | undefined {
    const id = head.get('type') === 'response' ? head.get('id') : undefined;
    if ((typeof id !== 'string' && typeof id !== 'number') || !this.open.delete(String(id))) return undefined;
    const message: ResponseMessage = { jsonrpc: '2.0', id: jsonrpcIdOf(String(id)), error };
    return { kind: 'message', message };
  }

  /**
   * A dialog whose request was over the cap (a select of huge options): answered cancelled, as a
   * dismissed dialog is (encode), since pi's UI answers have no error. pi writes type, id and
   * method first (rpc-mode.js); the fire-and-forget methods wait for nothing and get nothing.
   */
  requestDropped(head: HeadMembers, error: DroppedLineError): ResponseMessage | undefined {
    const id = head.get('type') === 'extension_ui_request' ? head.get('id') : undefined;
    const method = head.get('method');
    if (typeof id !== 'string' || typeof method !== 'string' || !UI_DIALOGS.has(method)) return undefined;
    return { jsonrpc: '2.0', id: UI_ID_PREFIX + id, error };
  }

  private decodeUiRequest(value: object): Decoded {
    const parsed = uiRequestSchema.safeParse(value);
    if (!parsed.success) return { kind: 'invalid', reason: `malformed extension_ui_request: ${z.prettifyError(parsed.error)}` };
    const { id, method, type: _type, ...params } = parsed.data;
    if (UI_DIALOGS.has(method)) {
      const request: RequestMessage = { jsonrpc: '2.0', id: UI_ID_PREFIX + id, method: UI_REQUEST_PREFIX + method, params: { id, ...params } };
      return { kind: 'message', message: request };
    }
    const notification: NotificationMessage = { jsonrpc: '2.0', method: UI_REQUEST_PREFIX + method, params };
    return { kind: 'message', message: notification };
  }

  private oldestOpen(command: string): string | undefined {
    for (const [id, method] of this.open) if (method === command) return id;
    return undefined;
  }
}

/** The host's request ids are numbers; pi's wire carries them as strings. */
function jsonrpcIdOf(id: string): number | string {
  return Number.isInteger(Number(id)) ? Number(id) : id;
}

function text(result: unknown): string | null {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return typeof result === 'string' ? result : null;
  return content.map((c) => (c && typeof c === 'object' && 'text' in c ? String((c as { text: unknown }).text) : '')).join('');
}

function lastAssistant(messages: Array<Record<string, unknown>> | undefined): Record<string, unknown> | undefined {
  if (!messages) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'assistant') return messages[i];
  return undefined;
}

function normalizeDelta(ame: z.infer<typeof deltaSchema>['assistantMessageEvent']): AgentEvent {
  const event: AgentEvent = { type: 'message_update', timestamp: Date.now(), data: { assistantMessageEvent: { type: ame.type, contentIndex: ame.contentIndex } } };
  if (ame.type === 'text_delta' || ame.type === 'thinking_delta') {
    event.delta = ame.delta ?? '';
    event.block_type = ame.type === 'text_delta' ? 'text' : 'thinking';
    event.replace = false;
  }
  return event;
}

const TAKEN = new Map([
  ['turn_end', new Set(['toolResults'])],
  ['tool_execution_start', new Set(['args'])],
  ['tool_execution_update', new Set(['args', 'partialResult'])],
  ['tool_execution_end', new Set(['args', 'result'])],
]);

/** The fields of a pi event the host does not read itself, carried in `data` (how many). */
function restOf(raw: PiEvent & Record<string, unknown>): { rest: Record<string, unknown>; count: number } {
  // What the model names itself is not repeated in `data`.
  const taken = TAKEN.get(raw.type);
  const rest: Record<string, unknown> = {};
  let count = 0;
  for (const key in raw) {
    if (EVENT_FIELDS.has(key) || taken?.has(key)) continue;
    rest[key] = raw[key];
    count++;
  }
  return { rest, count };
}

/** agent_end: how the turn ended, read from its last assistant message. */
function agentEnd(event: AgentEvent, messages: PiEvent['messages'], willRetry: unknown): void {
  event.messages = messages ?? null;
  const last = lastAssistant(messages);
  const stop = last?.stopReason;
  // A reply cut off at the model's length limit ("length") ends as ACP's max_tokens does, not done.
  event.end_reason = stop === 'aborted' ? 'aborted' : stop === 'error' ? 'error' : stop === 'length' ? 'max_tokens' : 'done';
  if (stop === 'error') {
    event.is_error = true;
    event.error = typeof last?.errorMessage === 'string' ? last.errorMessage : 'the model call failed';
  }
  event.will_retry = willRetry === true;
}

/** tool_execution_start, _update and _end: the call, its arguments, its result, a guard's veto. */
function toolExecution(event: AgentEvent, raw: PiEvent & Record<string, unknown>): void {
  const { type, toolCallId, toolName, isError } = raw;
  event.tool_call_id = toolCallId ?? null;
  event.tool_name = toolName ?? null;
  if (raw.args && typeof raw.args === 'object') event.args = raw.args as Record<string, unknown>;
  if (type === 'tool_execution_update') {
    // pi's partial result is the output so far (its tail, when long), not a chunk to add.
    event.result = raw.partialResult;
    event.replace = true;
  }
  if (type === 'tool_execution_end') {
    event.result = raw.result;
    event.is_error = isError === true;
    // A label for the host's own veto, recognised by the guard's marker; not a proof, since
    // any failing tool could print the marker.
    const veto = event.is_error ? parseGuardVeto(text(event.result)) : null;
    if (veto) {
      event.blocked = true;
      event.blocked_by = GUARD_NAME;
      event.error = veto.rule;
    }
  }
}

/** The host's event from the checked wire object: its typed fields read, the others carried. */
export function normalizePiEvent(raw: PiEvent & Record<string, unknown>): AgentEvent {
  const { isError, willRetry, message, messages, assistantMessageEvent } = raw;
  // pi 0.58 and older named its compactions auto_compaction_*: one name from here on.
  const type = raw.type === 'auto_compaction_start' ? 'compaction_start' : raw.type === 'auto_compaction_end' ? 'compaction_end' : raw.type;
  const { rest, count } = restOf(raw);
  const event: AgentEvent = { type, timestamp: Date.now() };
  switch (type) {
    case 'message_update':
      if (assistantMessageEvent) return normalizeDelta(assistantMessageEvent as z.infer<typeof deltaSchema>['assistantMessageEvent']);
      break;
    case 'message_start':
    case 'message_end':
      event.message = message ?? null;
      event.stop_reason = typeof message?.stopReason === 'string' ? message.stopReason : null;
      break;
    case 'turn_end':
      event.message = message ?? null;
      event.tool_results = (raw.toolResults as Array<Record<string, unknown>> | undefined) ?? null;
      break;
    case 'agent_end':
      agentEnd(event, messages, willRetry);
      break;
    case 'tool_execution_start':
    case 'tool_execution_update':
    case 'tool_execution_end':
      toolExecution(event, raw);
      break;
    default:
      if (message) event.message = message;
      if (messages) event.messages = messages;
  }
  if (isError !== undefined && event.is_error === undefined) event.is_error = isError;
  if (count > 0) event.data = rest;
  if (type === 'compaction_end') compactionOutcome(event, rest);
  else if (type === 'auto_retry_start' || type === 'auto_retry_end' || type === 'extension_error') inModelNames(event, rest);
  return event;
}

/**
 * auto_retry_start/_end and extension_error in the model's names (`max_attempts`, `delay_ms`,
 * `extension_path`; the failure's text as `error`) beside pi's own, so no reader learns pi's.
 */
function inModelNames(event: AgentEvent, data: Record<string, unknown>): void {
  if (typeof data.maxAttempts === 'number') data.max_attempts ??= data.maxAttempts;
  if (typeof data.delayMs === 'number') data.delay_ms ??= data.delayMs;
  if (typeof data.extensionPath === 'string') data.extension_path ??= data.extensionPath;
  const text = data.errorMessage ?? data.finalError ?? data.error;
  if (typeof text === 'string') event.error ??= text;
  if (Object.keys(data).length) event.data = data;
}

/** pi 1.x refuses a manual compact with nothing to fold: the host says so as a compaction not performed. */
const NOTHING_TO_COMPACT = /Nothing to compact|Already compacted/;

/**
 * compaction_end (auto_compaction_end before pi 0.59): its outcome said in the model's names
 * (τ's: `summary`, `tokens_before`, `cancelled`; a failure's text as `error`) beside pi's own
 * fields, so that no reader learns pi's `result`, `aborted` and `errorMessage`.
 */
function compactionOutcome(event: AgentEvent, data: Record<string, unknown>): void {
  const r = isObject(data.result) ? data.result : undefined;
  if (typeof r?.summary === 'string') data.summary ??= r.summary;
  if (typeof r?.tokensBefore === 'number') data.tokens_before ??= r.tokensBefore;
  if (data.aborted === true) data.cancelled ??= true;
  // pi 1.x refuses a compaction with nothing to fold in the same words as a failure ("Compaction
  // failed: Nothing to compact (session too small)"): a compaction not performed, as the verb says.
  if (typeof data.errorMessage === 'string' && data.aborted !== true && NOTHING_TO_COMPACT.test(data.errorMessage)) {
    data.performed ??= false;
    if (Object.keys(data).length) event.data = data;
    return;
  }
  // pi says a failed compaction only in errorMessage ("Auto-compaction failed: …", "Compaction
  // failed: …"; none when it was aborted), never with isError: without this it read as done.
  if (typeof data.errorMessage === 'string' && data.aborted !== true) event.is_error = true;
  if (event.is_error && typeof data.errorMessage === 'string') event.error ??= data.errorMessage;
  if (Object.keys(data).length) event.data = data;
}

const pi = methodCaller(PI_METHODS, {
  whose: 'pi',
  refusal: (_method, e) => new WorkerRefusal(`pi refused: ${e.message}`, e.code, e.data),
  // A pi too old (or a program too different) to know the verb says so: "Unknown command: X".
  unknownVerb: (r) => /Unknown command/.test(r.message),
  unsupported: (command) => `this pi does not know ${command}`,
});

export const piSessions: SessionVerbs = {
  async current(connection) {
    const s = await pi.sessionCall(connection, 'get_state');
    return { id: s.sessionId ?? null, file: s.sessionFile ?? null };
  },
  async newSession(connection) {
    return await pi.sessionCall(connection, 'new_session');
  },
  // pi's `fork` starts from before an earlier user message; `clone` copies the whole path,
  // which is what τ's `fork` does.
  async fork(connection, entryId) {
    return entryId
      ? await pi.sessionCall(connection, 'fork', { entryId })
      : await pi.sessionCall(connection, 'clone');
  },
  async setModel(connection, model) {
    const slash = model.indexOf('/');
    if (slash <= 0 || slash === model.length - 1) throw new WorkerRefusal(`pi names a model as "provider/id"; "${model}" is not one`, null);
    const m = await pi.sessionCall(connection, 'set_model', { provider: model.slice(0, slash), modelId: model.slice(slash + 1) });
    return { model: modelName(m) };
  },
  async exportHtml(connection, outputPath) {
    return await pi.sessionCall(connection, 'export_html', outputPath ? { outputPath } : {});
  },
  async messages(connection) {
    return (await pi.sessionCall(connection, 'get_messages')).messages;
  },
  async usage(connection) {
    const s = await pi.sessionCall(connection, 'get_session_stats');
    return {
      scope: 'session', input: s.tokens.input, output: s.tokens.output, cacheRead: s.tokens.cacheRead, cacheWrite: s.tokens.cacheWrite,
      contextTokens: s.contextUsage?.tokens ?? null, contextWindow: s.contextUsage?.contextWindow ?? null,
      cost: s.cost ?? null, at: Date.now(),
    };
  },
};

export const piDialect: Dialect = {
  name: 'pi',
  // A pi of unknown version is not promised to stop its compaction; `traits` says by version.
  announcesCompaction: true,
  abortCancelsCompaction: false,
  traits: piTraits,
  preflight: ({ command, callerArgs, env, cwd }) => piPreflight(command, callerArgs, env, cwd),
  explainStartFailure: explainLoadFailure,
  sessions: piSessions,
  createCodec: () => new PiCodec(),
  launchArgs({ model, sessionDir, resumeFile }) {
    // Hermetic: no discovered extensions (which would make the worker load packages such as a
    // mesh peer; an explicit `-e` still loads), and no session file unless the caller gives a
    // folder for it. `--session-dir` overrides $PI_CODING_AGENT_SESSION_DIR and the person's
    // ~/.pi/agent/sessions; `--session` takes a path (an id would be looked up in every
    // project's sessions, the person's too). pi 0.73.1 and 1.6.0 alike: a path that does not
    // exist yet starts a new session kept at that path.
    const session = sessionDir ? ['--session-dir', sessionDir, ...(resumeFile ? ['--session', resumeFile] : [])] : ['--no-session'];
    const args = ['--mode', 'rpc', ...session, '--no-extensions'];
    if (model) args.push('--model', model);
    return args;
  },
  async probe(connection): Promise<ProbeInfo> {
    const s = await pi.call(connection, 'get_state');
    return { model: modelName(s.model), sessionId: s.sessionId ?? null, sessionFile: s.sessionFile ?? null, streaming: s.isStreaming === true, protocolVersion: null };
  },
  async prompt(connection, request: PromptRequest) {
    const params: { message: string; streamingBehavior?: 'steer' | 'followUp' } = { message: request.text };
    if (request.streamingBehavior) params.streamingBehavior = request.streamingBehavior;
    const answer = await pi.call(connection, 'prompt', params);
    // pi 1.x says what became of the prompt: started, queued, or handled (an extension command
    // or input handler consumed it, and no run starts for it).
    const disposition = (answer as { disposition?: unknown } | null)?.disposition;
    // pi's events carry no submission id; the host records provenance itself.
    return { submissionId: request.submissionId ?? null, handled: disposition === 'handled' };
  },
  async abort(connection) {
    await pi.call(connection, 'abort');
    return { compactionId: null };
  },
  async compact(connection, instructions): Promise<CompactAck> {
    let result: unknown;
    try {
      result = await pi.call(connection, 'compact', instructions ? { customInstructions: instructions } : {});
    } catch (error) {
      // pi 1.x: "Nothing to compact (session too small)", "Already compacted". Not a failure.
      if (error instanceof WorkerRefusal && NOTHING_TO_COMPACT.test(error.message)) {
        return { compactionId: null, result: { summary: null, tokensBefore: null, performed: false, note: error.message.replace(/^pi refused: /, '') } };
      }
      throw error;
    }
    const parsed = compactResultSchema.safeParse(result ?? {});
    const r = parsed.success ? parsed.data : {};
    return { compactionId: null, result: { summary: r.summary ?? null, tokensBefore: r.tokensBefore ?? null, performed: true } };
  },
};
