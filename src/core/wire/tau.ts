// τ's RPC mode (`tau --mode rpc`): JSON-RPC 2.0 already, so the codec only routes. `event`
// notifications and the separate `compaction_end` notification take the event path; responses
// and any request τ may one day originate go to vscode-jsonrpc (which answers an unhandled
// request with -32601, as τ's protocol asks of a host).
import { Message, type MessageConnection, type ResponseMessage } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import { wholeError, type Decoded, type WireCodec } from './codec';
import { readAnswer } from './answerShape';
import { jsonRpcAnswerId, jsonRpcRequestRefusal, type DroppedLineError, type HeadMembers } from './droppedAnswer';
import { WorkerRefusal, type CompactAck, type Dialect, type ExtensionRequest, type ProbeInfo } from './dialect';
import { currentNames, tauProtocol, type TauProtocol } from './tauProtocols';
import { nullableString, tauEvent, wireEventSchema } from './tauEvent';

export { wireEventSchema };
import { tauPreflight } from './tauVersion';
import { Unsupported, type SessionVerbs } from './sessionVerbs';
import { methodCaller, modelName } from './requests';
import { requestSchema, TAU_METHODS, type TauPromptParams } from './tauMethods';

const compactionEndSchema = z.looseObject({
  compaction_id: z.string(),
  request_id: z.number().nullable().optional(),
  is_error: z.boolean(),
  cancelled: z.boolean(),
  error: nullableString,
  performed: z.boolean().optional(),
  summary: nullableString,
  tokens_before: z.number().nullable().optional(),
});

const envelopeSchema = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.number(), z.string(), z.null()]).optional(),
  method: z.string().optional(),
});

export class TauCodec implements WireCodec {
  /**
   * Ids of the host's requests still waiting for an answer. vscode-jsonrpc drops a response for
   * an id it does not know without a word, so such a response is told apart here.
   */
  private readonly open = new Set<number | string>();

  decode(value: unknown): Decoded {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { kind: 'invalid', reason: 'not a JSON-RPC message (expected a JSON object)' };
    }
    const v = value as { method?: unknown; id?: unknown; params?: unknown };
    if (v.method === 'event' && v.id === undefined) {
      // Checked and copied in one pass; the schema decides whatever that pass is not sure of.
      const event = tauEvent(v.params, false);
      if (event) return { kind: 'event', event };
      const parsed = wireEventSchema.safeParse(v.params);
      if (!parsed.success) return { kind: 'invalid', reason: `malformed τ event: ${z.prettifyError(parsed.error)}` };
      return { kind: 'event', event: tauEvent(v.params, true)! };
    }
    if (v.method === 'compaction_end' && v.id === undefined) {
      if (typeof v.params === 'object' && v.params !== null) currentNames(v.params as Record<string, unknown>);
      const parsed = compactionEndSchema.safeParse(v.params);
      if (!parsed.success) return { kind: 'invalid', reason: `malformed compaction_end: ${z.prettifyError(parsed.error)}` };
      const d = parsed.data;
      return { kind: 'event', event: { type: 'compaction_end', timestamp: Date.now(), is_error: d.is_error, error: d.error ?? null, data: d } };
    }
    if ((value as { jsonrpc?: unknown }).jsonrpc === undefined && typeof (value as { type?: unknown }).type === 'string') {
      return { kind: 'invalid', reason: 'a pi message ({"type": ...}, not JSON-RPC 2.0): this worker speaks pi\'s protocol, not τ\'s', otherDialect: 'pi' };
    }
    const envelope = envelopeSchema.safeParse(value);
    if (!envelope.success) return { kind: 'invalid', reason: `not a JSON-RPC 2.0 message: ${z.prettifyError(envelope.error)}` };
    const answer = readAnswer(value as Record<string, unknown>, 'τ', (id) => this.open.has(id));
    if (answer && 'invalid' in answer) return { kind: 'invalid', reason: answer.invalid };
    if (answer) {
      this.open.delete(answer.message.id!);
      return { kind: 'message', message: answer.message, ...(answer.protocolError ? { protocolError: answer.protocolError } : {}) };
    }
    const message = value as Message;
    if (Message.isResponse(message)) return { kind: 'invalid', reason: `τ error without a request id: ${describeError(wholeError(message).error)}` };
    if (Message.isRequest(message) || Message.isNotification(message)) return { kind: 'message', message };
    return { kind: 'invalid', reason: 'JSON-RPC message that is neither a request, a response nor a notification' };
  }

  answerDropped(head: HeadMembers, error: DroppedLineError): Decoded | undefined {
    const id = jsonRpcAnswerId(head);
    if (id === undefined || !this.open.delete(id)) return undefined;
    const message: ResponseMessage = { jsonrpc: '2.0', id, error };
    return { kind: 'message', message };
  }

  /** τ originates no request today, but its protocol asks a host to answer any it does. */
  requestDropped(head: HeadMembers, error: DroppedLineError): ResponseMessage | undefined {
    return jsonRpcRequestRefusal(head, error);
  }

  encode(message: Message): unknown {
    // τ would answer a `$/cancelRequest` notification with an id:null error; it has no
    // cancellation, so the notification is not sent.
    if (Message.isNotification(message) && message.method.startsWith('$/')) return undefined;
    if (Message.isRequest(message) && message.id !== null) this.open.add(message.id);
    return message;
  }
}

function describeError(error: unknown): string {
  const e = error as { code?: number; message?: string } | undefined;
  return e ? `${e.code ?? ''} ${e.message ?? ''}`.trim() : 'no detail';
}


/** τ's error codes, said so that a person knows what happened. */
const TAU_ERRORS: Record<number, string> = {
  [-32700]: 'the worker could not parse the request',
  [-32600]: 'the request was not valid JSON-RPC',
  [-32601]: 'the worker does not offer this method',
  [-32602]: 'the worker rejected the parameters',
  [-32603]: 'the worker failed internally',
  [-32000]: 'the worker refused the submission',
  [-32001]: 'the command must be called through its own method',
  [-32002]: 'a turn is still running (or a compaction already is)',
  [-32003]: 'the request line was too large',
  [-32004]: 'the session is not persisted',
};

/** What the host learned from a worker's `get_capabilities`, per connection. */
interface Negotiated {
  protocol: TauProtocol;
  version: string;
  commands: Set<string>;
  events: Set<string>;
  maxRequestLineBytes: number | null;
}
const negotiated = new WeakMap<MessageConnection, Negotiated>();

/** The id is counted at its widest, so a request is never let through that would not fit. */
const ID_ALLOWANCE = String(Number.MAX_SAFE_INTEGER).length;

/** A request the worker said it would not take is refused here, before it is sent. */
function admissible(connection: MessageConnection, method: string, params: object): void {
  const n = negotiated.get(connection);
  if (!n) return;
  if (n.commands.size > 0 && !n.commands.has(method)) {
    throw new WorkerRefusal(`this τ (protocol ${n.version}) does not offer ${method}: its get_capabilities does not list it`, null);
  }
  if (n.maxRequestLineBytes !== null) {
    const bytes = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 0, method, params })) + ID_ALLOWANCE;
    if (bytes > n.maxRequestLineBytes) {
      throw new WorkerRefusal(`the ${method} request would be ${bytes} bytes on the wire; this τ reads at most ${n.maxRequestLineBytes} bytes a line (limits.max_request_line_bytes), so it was not sent`, null);
    }
  }
}

const tau = methodCaller(TAU_METHODS, {
  whose: 'τ',
  refusal(method, e) {
    const meaning = TAU_ERRORS[e.code];
    return new WorkerRefusal(`τ refused ${method} (${e.code}${meaning ? `: ${meaning}` : ''}): ${e.message}`, e.code, e.data);
  },
  admit: admissible,
  // A verb this τ's get_capabilities does not list is not sent; one it answers -32601 to is not offered either.
  unknownVerb: (r) => r.code === -32601,
  unsupported: (method) => `this worker does not offer ${method}`,
  unsupportedBefore(connection, method) {
    const n = negotiated.get(connection);
    return n && n.commands.size > 0 && !n.commands.has(method) ? `this τ (protocol ${n.version}) does not offer ${method}` : null;
  },
  // τ answers some verbs with null; read as an empty object.
  emptyAnswer: {},
});

function asExtensionRequest(r: z.infer<typeof requestSchema>): ExtensionRequest {
  return {
    id: r.entry_id, extension: r.extension, sentence: r.sentence, label: r.label, lock: r.lock, release: r.release ?? null,
    ask: r.ask && {
      title: r.ask.title,
      // A list or table body is shown as its JSON; a text body as its text.
      body: r.ask.body ? r.ask.body.text ?? JSON.stringify(r.ask.body) : null,
      fields: (r.ask.fields ?? []).map((f) => ({ name: f.name, kind: f.kind, label: f.label ?? null, options: f.options ?? null, required: f.required === true })),
      actions: r.ask.actions.map((a) => a.label),
    },
  };
}

/** τ's console scripts, by name (`ffwf-tau`, or `tau`, with Windows' extensions). */
export function isTauProgram(command: string): boolean {
  const base = command.split(/[\\/]/).pop()!.toLowerCase().replace(/\.(exe|cmd|bat)$/, '');
  return base === 'ffwf-tau' || base === 'tau';
}

/** τ's `source` is a closed set; the host's own origins are said in τ's words, and kept as `correlation.origin`. */
const TAU_SOURCES = new Set(['interactive', 'rpc', 'extension', 'bus', 'timer', 'webhook', 'voice', 'agent']);
const HUMAN_ORIGINS = new Set(['palette', 'editor', 'event-log', 'tree', 'keybinding']);

function tauSource(origin: string): string {
  if (TAU_SOURCES.has(origin)) return origin;
  if (HUMAN_ORIGINS.has(origin)) return 'interactive';
  return origin === 'api' ? 'extension' : 'rpc';
}

export const tauSessions: SessionVerbs = {
  async current(connection) {
    const state = await tau.call(connection, 'get_state');
    // τ names no file in its state; list_sessions' ref is the file store's path. An
    // unpersisted session (--no-session) is not listed.
    let file: string | null = null;
    if (state.session_id && state.addressable !== false && negotiated.get(connection)?.commands.has('list_sessions')) {
      const { sessions } = await tau.call(connection, 'list_sessions');
      file = sessions.find((row) => row.session_id === state.session_id)?.ref ?? null;
    }
    return { id: state.session_id ?? null, file };
  },
  // Under --mode rpc τ refuses --session at startup and points at switch_session instead.
  async resume(connection, ref) {
    if (!ref.id) throw new Unsupported('τ resumes a session by its id, and this reference names only a file');
    return await tau.sessionCall(connection, 'switch_session', { session_id: ref.id });
  },
  async newSession(connection) {
    return await tau.sessionCall(connection, 'new_session', {});
  },
  async fork(connection, entryId) {
    if (entryId) throw new Unsupported('τ\'s fork copies the whole conversation; it takes no entry to fork from');
    return await tau.sessionCall(connection, 'fork', {});
  },
  async setModel(connection, model) {
    const r = await tau.sessionCall(connection, 'set_model', { name: model });
    return { model: modelName(r.model) };
  },
  exportHtml() {
    return Promise.reject(new Unsupported('τ declines export_html (its get_capabilities lists it as declined: rendering belongs in the host); export the session as Markdown instead'));
  },
  async messages(connection) {
    return (await tau.sessionCall(connection, 'get_messages')).messages;
  },
  async usage(connection) {
    const s = await tau.sessionCall(connection, 'get_session_stats');
    const u = s.usage;
    // "Not set by any τ provider" (its Usage schema): a cost is shown only where one came.
    const cost = u?.cost && typeof u.cost.total === 'number' ? u.cost.total : null;
    return {
      scope: 'last_call', input: u?.input_tokens ?? null, output: u?.output_tokens ?? null,
      cacheRead: u?.cache_reported ? u.cache_read_tokens ?? null : null, cacheWrite: u?.cache_reported ? u.cache_write_tokens ?? null : null,
      contextTokens: s.context.tokens, contextWindow: s.context_window, cost, at: Date.now(),
    };
  },
};

export const tauDialect: Dialect = {
  name: 'tau',
  announcesCompaction: false,
  abortCancelsCompaction: true,
  traits: () => ({ stampsTurns: true }),
  sessions: tauSessions,
  createCodec: () => new TauCodec(),
  preflight: ({ command, env, cwd }) => tauPreflight(command, isTauProgram(command), env, cwd),
  launchArgs({ command, model, args, sessionDir, discovery }) {
    // τ's own flags go to τ itself; another program that speaks τ's protocol (the demo worker, a
    // script) runs with its command and args as given.
    if (!isTauProgram(command)) return [];
    // What the caller already said is not said twice (a profile may carry `--mode rpc` itself).
    const has = (...flags: string[]) => flags.some((f) => args.includes(f));
    const out: string[] = [];
    if (!has('--mode')) out.push('--mode', 'rpc');
    // Hermetic by default: no drop-in extensions from ~/.tau/extensions and no AGENTS.md-style
    // context files from the cwd up to /; a profile's `discovery: true` lets τ find them.
    if (!discovery) {
      if (!has('-ne', '--no-extensions')) out.push('-ne');
      if (!has('-nc', '--no-context-files')) out.push('-nc');
    }
    // A persisted session, in the host's storage: under --no-session τ refuses compact.
    if (sessionDir && !has('--session-dir', '--no-session')) out.push('--session-dir', sessionDir);
    if (model && !has('--model', '-m')) out.push('--model', model);
    return out;
  },
  async probe(connection): Promise<ProbeInfo> {
    const caps = await tau.call(connection, 'get_capabilities');
    const protocol = tauProtocol(caps.protocol_version);
    if ('error' in protocol) throw new Error(protocol.error);
    negotiated.set(connection, {
      protocol,
      version: caps.protocol_version,
      commands: new Set((caps.commands ?? []).map((c) => c.name)),
      events: new Set(caps.events ?? []),
      maxRequestLineBytes: caps.limits?.max_request_line_bytes ?? null,
    });
    const state = await tau.call(connection, 'get_state');
    return { model: modelName(state.model), sessionId: state.session_id ?? null, streaming: state.is_streaming === true, protocolVersion: caps.protocol_version };
  },
  async prompt(connection, request) {
    const params: TauPromptParams = { text: request.text };
    if (request.source) params.source = tauSource(request.source);
    if (request.submitter) params.submitter = request.submitter;
    if (request.submissionId) params.submission_id = request.submissionId;
    const origin = request.source && !TAU_SOURCES.has(request.source) ? { origin: request.source } : undefined;
    if (request.correlation || origin) params.correlation = { ...request.correlation, ...origin };
    if (request.streamingBehavior) params.multitask_strategy = request.streamingBehavior === 'steer' ? 'steer' : 'enqueue';
    const ack = await tau.call(connection, 'prompt', params);
    if (!ack.accepted) throw new WorkerRefusal(`τ did not accept the prompt: ${ack.rejection_reason ?? 'no reason given'}`, null);
    return { submissionId: ack.submission_id ?? null };
  },
  async abort(connection) {
    const r = await tau.call(connection, 'abort');
    return { compactionId: r.compaction_id ?? null };
  },
  async toolCallArgs(connection, toolCallId) {
    const { messages } = await tau.call(connection, 'get_messages');
    for (let i = messages.length - 1; i >= 0; i--) {
      const content = messages[i].content;
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        const b = block as Record<string, unknown>;
        if (b?.type === 'toolCall' && b.id === toolCallId) return b.arguments ?? b.args ?? b.input ?? {};
      }
    }
    throw new Error(`no tool call ${toolCallId} among the worker's messages`);
  },
  async pendingRequest(connection) {
    // A τ without the verb (before 0.10.1) has no requests to read.
    if (!negotiated.get(connection)?.commands.has('get_pending_request')) return null;
    const { request } = await tau.call(connection, 'get_pending_request');
    return request ? asExtensionRequest(request) : null;
  },
  async answerRequest(connection, id, action, values) {
    const r = await tau.call(connection, 'answer_request', { request_id: id, action, values });
    return { handled: r.handled, output: r.output ?? null };
  },
  async compact(connection, instructions): Promise<CompactAck> {
    const ack = await tau.call(connection, 'compact', instructions ? { custom_instructions: instructions } : {});
    return { compactionId: ack.compaction_id };
  },
};

