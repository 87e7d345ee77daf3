// ACP, the Agent Client Protocol (v1): JSON-RPC 2.0 over the agent's stdio, one message a line,
// spoken by Claude (claude-agent-acp), Codex (codex-acp), GitHub Copilot CLI, Gemini CLI and
// OpenCode. Everything this host knows of ACP is in this file: its methods, the translation of
// each `session/update` into the one event model, the turn (a `session/prompt` request is the
// turn's start, its answer the turn's end), and the verbs. The page never sees an ACP name.
import { Message, type MessageConnection, type ResponseMessage } from 'vscode-jsonrpc';
import { z } from 'zod';
import type { AgentEvent, PermissionOption, ToolDiff, ToolLocation } from '../events/agentEvent';
import type { Decoded, WireCodec } from './codec';
import { WorkerRefusal, type AgentRequest, type CompactAck, type Dialect, type ProbeContext, type ProbeInfo } from './dialect';
import { isPlain } from '../../protocol/fastParse';
import { Unsupported, type SessionVerbs } from './sessionVerbs';

export const ACP_PROTOCOL_VERSION = 1;

/** The methods of ACP v1 this host sends or answers, in one table. */
export const ACP = {
  initialize: 'initialize',
  newSession: 'session/new',
  loadSession: 'session/load',
  resumeSession: 'session/resume',
  prompt: 'session/prompt',
  cancel: 'session/cancel',
  setMode: 'session/set_mode',
  setConfigOption: 'session/set_config_option',
  /** Older agents (codex-acp) list `models` and take this instead of a config option. */
  setModel: 'session/set_model',
  update: 'session/update',
  requestPermission: 'session/request_permission',
  readTextFile: 'fs/read_text_file',
  writeTextFile: 'fs/write_text_file',
  terminalCreate: 'terminal/create',
  terminalOutput: 'terminal/output',
  terminalWait: 'terminal/wait_for_exit',
  terminalKill: 'terminal/kill',
  terminalRelease: 'terminal/release',
} as const;

/**
 * What the host really implements of the client's side: files through the editor (an open
 * file's text, unsaved edits included; a write to an open file as an edit of it), confined to
 * the worker's folder and, for a guarded worker, refused before anything is written; and
 * terminals the host owns, ended whole on kill, release, abort and stop.
 */
export const CLIENT_CAPABILITIES = { fs: { readTextFile: true, writeTextFile: true }, terminal: true } as const;

/** Claude's and Codex's adapters' steer into a running turn (not in ACP v1). */
const STEER = '_session/steering';

/** JSON-RPC error codes ACP gives a meaning. */
const AUTH_REQUIRED = -32000;

// ---- the agent's answers, checked where the host reads them; every object is loose, as ACP
// asks of a client (fields and `_meta` may be added by any agent).

const authMethodSchema = z.looseObject({ id: z.string(), name: z.string(), description: z.string().nullable().optional() });
const initializeSchema = z.looseObject({
  protocolVersion: z.number().int(),
  agentCapabilities: z.looseObject({
    loadSession: z.boolean().optional(),
    sessionCapabilities: z.looseObject({ resume: z.unknown().optional(), fork: z.unknown().optional() }).nullable().optional(),
  }).optional(),
  authMethods: z.array(authMethodSchema).optional(),
  agentInfo: z.looseObject({ name: z.string(), title: z.string().nullable().optional(), version: z.string().optional() }).nullable().optional(),
  _meta: z.looseObject({ steering: z.looseObject({ supported: z.boolean().optional() }).optional() }).nullable().optional(),
});
const modeSchema = z.looseObject({ id: z.string(), name: z.string() });
const modesSchema = z.looseObject({ currentModeId: z.string().nullable().optional(), availableModes: z.array(modeSchema) }).nullable().optional();
const configOptionSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  category: z.string().nullable().optional(),
  currentValue: z.unknown().optional(),
  options: z.array(z.unknown()).optional(),
});
const modelsSchema = z.looseObject({
  currentModelId: z.string().nullable().optional(),
  availableModels: z.array(z.looseObject({ modelId: z.string(), name: z.string().optional() })).optional(),
}).nullable().optional();
const sessionSchema = z.looseObject({
  sessionId: z.string().min(1).optional(),
  modes: modesSchema,
  configOptions: z.array(configOptionSchema).nullable().optional(),
  models: modelsSchema,
});
const stopReasonSchema = z.string();
const promptResultSchema = z.looseObject({ stopReason: stopReasonSchema, usage: z.record(z.string(), z.unknown()).nullable().optional() });
const contentBlockSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const toolContentSchema = z.looseObject({
  type: z.string(),
  content: contentBlockSchema.optional(),
  path: z.string().optional(),
  oldText: z.string().nullable().optional(),
  newText: z.string().optional(),
  terminalId: z.string().optional(),
});
const toolFields = {
  toolCallId: z.string().min(1),
  title: z.string().nullable().optional(),
  kind: z.string().nullable().optional(),
  status: z.string().nullable().optional(),
  content: z.array(toolContentSchema).nullable().optional(),
  locations: z.array(z.looseObject({ path: z.string(), line: z.number().nullable().optional() })).nullable().optional(),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
};
const toolCallSchema = z.looseObject(toolFields);
const updateSchema = z.looseObject({ sessionUpdate: z.string().min(1) });
const updateParamsSchema = z.looseObject({ sessionId: z.string().min(1), update: updateSchema });
const chunkSchema = z.looseObject({ content: contentBlockSchema, messageId: z.string().nullable().optional() });
const planSchema = z.looseObject({ entries: z.array(z.looseObject({ content: z.string(), status: z.string().optional(), priority: z.string().optional() })) });
const usageSchema = z.looseObject({ used: z.number(), size: z.number(), cost: z.looseObject({ amount: z.number(), currency: z.string() }).nullable().optional() });
const commandsSchema = z.looseObject({ availableCommands: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })) });
const permissionSchema = z.looseObject({
  sessionId: z.string(),
  toolCall: z.looseObject({ ...toolFields, toolCallId: z.string() }),
  options: z.array(z.looseObject({ optionId: z.string(), name: z.string(), kind: z.string() })).min(1),
});

const readFileSchema = z.looseObject({
  sessionId: z.string().min(1),
  path: z.string().min(1),
  line: z.number().int().min(1).nullable().optional(),
  limit: z.number().int().min(0).nullable().optional(),
});
const terminalCreateSchema = z.looseObject({
  sessionId: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()).nullable().optional(),
  env: z.array(z.looseObject({ name: z.string().min(1), value: z.string() })).nullable().optional(),
  cwd: z.string().min(1).nullable().optional(),
  outputByteLimit: z.number().int().min(0).nullable().optional(),
});
const terminalIdSchema = z.looseObject({ sessionId: z.string().min(1), terminalId: z.string().min(1) });
const TERMINAL_OPS: Record<string, 'output' | 'wait' | 'kill' | 'release'> = {
  [ACP.terminalOutput]: 'output', [ACP.terminalWait]: 'wait', [ACP.terminalKill]: 'kill', [ACP.terminalRelease]: 'release',
};
const writeFileSchema = z.looseObject({ sessionId: z.string().min(1), path: z.string().min(1), content: z.string() });

// ---- what the host knows of one agent connection, shared by its codec and its verbs

/** One connection's session and what the agent said about it. */
export class AcpState {
  sessionId: string | null = null;
  /** The session's folder, for a new session asked for later. */
  cwd: string | null = null;
  /** Sessions this connection opened; an update for another is refused. */
  readonly sessions = new Set<string>();
  loadSession = false;
  canResume = false;
  agentName: string | null = null;
  agentVersion: string | null = null;
  commands: string[] = [];
  modes: { current: string | null; available: Array<{ id: string; name: string }> } | null = null;
  configOptions: Array<z.infer<typeof configOptionSchema>> = [];
  models: z.infer<typeof modelsSchema> = null;
  usage: { used: number; size: number; cost: number | null } | null = null;
  /** The running turn's `session/prompt`, settled when it is answered (either way). */
  turn: Promise<void> | null = null;
  /** The agent takes `_session/steering` into a running turn (its initialize `_meta.steering`). */
  steers = false;
  /** Counts aborts, so that a follow-up the host queued knows the turn it waited for was aborted. */
  aborts = 0;

  /** Takes what a session/new, load or resume answer says about the session. */
  learnSession(result: z.infer<typeof sessionSchema>): void {
    if (result.modes) this.modes = { current: result.modes.currentModeId ?? null, available: result.modes.availableModes.map((m) => ({ id: m.id, name: m.name })) };
    if (result.configOptions) this.configOptions = result.configOptions;
    if (result.models) this.models = result.models;
  }

  get model(): string | null {
    const option = this.configOptions.find((o) => o.category === 'model');
    if (option && typeof option.currentValue === 'string') return option.currentValue;
    return this.models?.currentModelId ?? null;
  }

  get mode(): string | null {
    const option = this.configOptions.find((o) => o.category === 'mode');
    if (option && typeof option.currentValue === 'string') return option.currentValue;
    return this.modes?.current ?? null;
  }

  /** What an update tells the host about the session itself (usage, commands, mode, options). */
  observe(event: AgentEvent): void {
    const d = event.data ?? {};
    switch (event.type) {
      case 'usage_update':
        this.usage = { used: d.used as number, size: d.size as number, cost: typeof d.cost === 'number' ? d.cost : null };
        return;
      case 'commands_changed':
        this.commands = (d.commands as string[] | undefined) ?? [];
        return;
      case 'mode_changed':
        if (this.modes) this.modes.current = typeof d.mode === 'string' ? d.mode : null;
        return;
      case 'config_changed':
        if (Array.isArray(d.options)) this.configOptions = (d.options as unknown[]).map((o) => configOptionSchema.safeParse(o)).filter((r) => r.success).map((r) => r.data);
        return;
    }
  }
}

const states = new WeakMap<MessageConnection, AcpState>();

function stateOf(connection: MessageConnection): AcpState {
  const s = states.get(connection);
  if (!s) throw new Error('this connection is not an ACP agent\'s');
  return s;
}

// ---- the codec: lines to events and messages, messages to lines

/** What the host asked, by request id, so that an answer can be read for what it answers. */
interface OpenRequest {
  method: string;
  sessionId: string | null;
}

export class AcpCodec implements WireCodec {
  private readonly open = new Map<number | string, OpenRequest>();
  /** session/load requests not answered yet. */
  private loading = 0;

  constructor(readonly state: AcpState = new AcpState()) {}

  decode(value: unknown): Decoded {
    if (!isPlain(value)) return { kind: 'invalid', reason: 'not a JSON-RPC message (expected a JSON object)' };
    if (value.jsonrpc !== '2.0') {
      if (typeof value.type === 'string') return { kind: 'invalid', reason: 'a pi message ({"type": ...}, not JSON-RPC 2.0): this worker speaks pi\'s protocol, not ACP', otherDialect: 'pi' };
      return { kind: 'invalid', reason: 'not a JSON-RPC 2.0 message (no "jsonrpc": "2.0")' };
    }
    if (value.method === ACP.update && value.id === undefined) return this.update(value.params);
    const message = value as unknown as Message;
    if (Message.isResponse(message)) return this.response(message);
    if (Message.isRequest(message) || Message.isNotification(message)) {
      if (typeof message.method !== 'string') return { kind: 'invalid', reason: 'a JSON-RPC message whose method is not a string' };
      return { kind: 'message', message };
    }
    return { kind: 'invalid', reason: 'JSON-RPC message that is neither a request, a response nor a notification' };
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
    // Before the session/new answer no session is known: such updates (Copilot's and Codex's
    // commands) are the new session's, and are kept.
    if (this.state.sessions.size > 0 && !this.state.sessions.has(sessionId)) {
      return { kind: 'invalid', reason: `session/update for session ${sessionId}, which is not this worker's (${[...this.state.sessions].join(', ')})` };
    }
    const event = updateEvent(update);
    if ('invalid' in event) return { kind: 'invalid', reason: event.invalid };
    // While session/load is answered, the agent replays the conversation so far.
    if (this.loading > 0) {
      event.replayed = true;
      return { kind: 'event', event };
    }
    this.state.observe(event);
    return { kind: 'event', event };
  }

  private response(message: ResponseMessage): Decoded {
    if (message.id === null) return { kind: 'invalid', reason: `ACP error without a request id: ${describeError(message.error)}` };
    const asked = this.open.get(message.id);
    if (!asked) return { kind: 'invalid', reason: `ACP response with id ${message.id}, which no request is waiting for` };
    this.open.delete(message.id);
    if (asked.method === ACP.loadSession) this.loading--;
    if (asked.method === ACP.prompt) return { kind: 'message', message, event: turnEnd(message) };
    if (!message.error && (asked.method === ACP.newSession || asked.method === ACP.loadSession || asked.method === ACP.resumeSession)) {
      const result = sessionSchema.safeParse(message.result ?? {});
      const id = asked.method === ACP.newSession ? (result.success ? result.data.sessionId : undefined) : asked.sessionId;
      if (id) this.state.sessions.add(id);
    }
    return { kind: 'message', message };
  }

  encode(message: Message): unknown {
    // ACP's cancellation of a request is `$/cancel_request`, and only some agents take it; the
    // host ends a turn with session/cancel instead, so vscode-jsonrpc's is not sent.
    if (Message.isNotification(message) && message.method.startsWith('$/')) return undefined;
    if (Message.isRequest(message) && message.id !== null) {
      const params = (message.params ?? {}) as { sessionId?: unknown };
      this.open.set(message.id, { method: message.method, sessionId: typeof params.sessionId === 'string' ? params.sessionId : null });
      if (message.method === ACP.loadSession) this.loading++;
    }
    return message;
  }

  /** A prompt sent is the turn's start: the agent says nothing until its first update. */
  announce(message: Message): AgentEvent | undefined {
    if (!Message.isRequest(message) || message.method !== ACP.prompt) return undefined;
    return { type: 'agent_start', timestamp: Date.now() };
  }
}

function describeError(error: unknown): string {
  const e = error as { code?: number; message?: string } | undefined;
  return e ? `${e.code ?? ''} ${e.message ?? ''}`.trim() : 'no detail';
}

/** ACP's stop reasons in the host's words for how a turn ended. */
const END_REASONS: Record<string, string> = {
  end_turn: 'done',
  cancelled: 'aborted',
  max_turn_requests: 'max_turns',
  max_tokens: 'max_tokens',
  refusal: 'refusal',
};

/** The `session/prompt` answer: the turn's end, with how it ended and what it used. */
function turnEnd(message: ResponseMessage): AgentEvent {
  const timestamp = Date.now();
  if (message.error) {
    return { type: 'agent_end', timestamp, end_reason: 'error', is_error: true, error: `the agent answered the prompt with an error (${describeError(message.error)})`, data: { error: message.error } };
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

function textOf(block: z.infer<typeof contentBlockSchema> | undefined): string {
  if (!block) return '';
  if (block.type === 'text') return block.text ?? '';
  // An image, audio or resource block is named, not lost.
  return `[${block.type}]`;
}

/** A tool call's content in the one model: its text as output, its diffs, its terminals. */
function toolContent(content: Array<z.infer<typeof toolContentSchema>> | null | undefined) {
  const texts: string[] = [];
  const diffs: ToolDiff[] = [];
  const terminals: string[] = [];
  for (const c of content ?? []) {
    if (c.type === 'diff' && typeof c.path === 'string' && typeof c.newText === 'string') diffs.push({ path: c.path, oldText: c.oldText ?? null, newText: c.newText });
    else if (c.type === 'terminal' && c.terminalId) terminals.push(c.terminalId);
    else if (c.type === 'content') texts.push(textOf(c.content));
  }
  return { text: texts.join('\n'), diffs, terminals };
}

/** The fields a tool_call and a tool_call_update share, in the one model. */
function toolEvent(type: string, t: z.infer<typeof toolCallSchema>): AgentEvent {
  const { text, diffs, terminals } = toolContent(t.content);
  const event: AgentEvent = { type, timestamp: Date.now(), tool_call_id: t.toolCallId };
  if (t.kind) {
    event.tool_kind = t.kind;
    event.tool_name = t.kind;
  }
  if (t.title) event.title = t.title;
  if (isPlain(t.rawInput)) event.args = t.rawInput;
  if (t.locations?.length) event.locations = t.locations.map((l): ToolLocation => ({ path: l.path, line: l.line ?? null }));
  if (diffs.length) event.diffs = diffs;
  if (text || t.rawOutput !== undefined) event.result = { output: text || (typeof t.rawOutput === 'string' ? t.rawOutput : ''), ...(t.rawOutput !== undefined ? { raw: t.rawOutput } : {}) };
  const data: Record<string, unknown> = {};
  if (t.status) data.status = t.status;
  if (terminals.length) data.terminals = terminals;
  if (Object.keys(data).length) event.data = data;
  return event;
}

const DONE = new Set(['completed', 'failed']);

/** A text chunk as the event, when it is plainly one; undefined: the schema decides. */
function textChunk(update: Record<string, unknown>, timestamp: number): AgentEvent | undefined {
  const content = update.content;
  if (!isPlain(content) || content.type !== 'text' || typeof content.text !== 'string') return undefined;
  const messageId = update.messageId;
  if (messageId !== undefined && messageId !== null && typeof messageId !== 'string') return undefined;
  return chunkEvent(String(update.sessionUpdate), content.text, messageId as string | null | undefined, timestamp);
}

/** A text chunk of the agent's, its thought's or the user's, in the one model. */
function chunkEvent(kind: string, text: string, messageId: string | null | undefined, timestamp: number): AgentEvent {
  const data = messageId ? { messageId } : undefined;
  if (kind === 'user_message_chunk') return { type: 'user_message', timestamp, delta: text, data };
  return { type: 'message_update', timestamp, delta: text, block_type: kind === 'agent_thought_chunk' ? 'thinking' : 'text', data };
}

/** One `session/update` in the one event model; pure, so a stored line reads back the same. */
export function updateEvent(update: z.infer<typeof updateSchema>): AgentEvent | { invalid: string } {
  const timestamp = Date.now();
  const kind = update.sessionUpdate;
  const bad = (error: z.ZodError) => ({ invalid: `malformed ${kind} update: ${z.prettifyError(error)}` });
  switch (kind) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk': {
      const fast = textChunk(update, timestamp);
      if (fast) return fast;
      const c = chunkSchema.safeParse(update);
      if (!c.success) return bad(c.error);
      return chunkEvent(kind, textOf(c.data.content), c.data.messageId, timestamp);
    }
    case 'tool_call':
    case 'tool_call_update': {
      const t = toolCallSchema.safeParse(update);
      if (!t.success) return bad(t.error);
      // A call reported already finished has no running phase to show.
      const done = DONE.has(t.data.status ?? '');
      const event = toolEvent(done ? 'tool_execution_end' : kind === 'tool_call' ? 'tool_execution_start' : 'tool_execution_update', t.data);
      if (done) event.is_error = t.data.status === 'failed';
      return event;
    }
    case 'plan': {
      const p = planSchema.safeParse(update);
      if (!p.success) return bad(p.error);
      return { type: 'plan', timestamp, data: { entries: p.data.entries.map((e) => ({ content: e.content, status: e.status ?? 'pending', priority: e.priority ?? null })) } };
    }
    case 'usage_update': {
      const u = usageSchema.safeParse(update);
      if (!u.success) return bad(u.error);
      return { type: 'usage_update', timestamp, data: { used: u.data.used, size: u.data.size, cost: u.data.cost?.amount ?? null, currency: u.data.cost?.currency ?? null } };
    }
    case 'available_commands_update': {
      const c = commandsSchema.safeParse(update);
      if (!c.success) return bad(c.error);
      return { type: 'commands_changed', timestamp, data: { commands: c.data.availableCommands.map((x) => x.name) } };
    }
    case 'current_mode_update': {
      const mode = (update as { currentModeId?: unknown }).currentModeId;
      if (typeof mode !== 'string') return { invalid: 'malformed current_mode_update: currentModeId is not a string' };
      return { type: 'mode_changed', timestamp, data: { mode } };
    }
    case 'config_option_update': {
      const options = (update as { configOptions?: unknown }).configOptions;
      if (!Array.isArray(options)) return { invalid: 'malformed config_option_update: configOptions is not a list' };
      return { type: 'config_changed', timestamp, data: { options } };
    }
    case 'session_info_update': {
      const { sessionUpdate: _, ...rest } = update;
      return { type: 'session_info', timestamp, data: rest };
    }
    default: {
      // A kind this host does not know yet is kept under its own name, never dropped.
      const { sessionUpdate: _, ...rest } = update;
      return { type: kind, timestamp, data: rest };
    }
  }
}

// ---- the verbs

async function call<T>(connection: MessageConnection, method: string, params: object, schema: z.ZodType<T>): Promise<T> {
  let result: unknown;
  try {
    result = await connection.sendRequest(method, params);
  } catch (error) {
    const e = error as { message?: string; code?: number; data?: unknown };
    if (typeof e?.code === 'number') throw new WorkerRefusal(`the agent refused ${method} (${e.code}): ${e.message}`, e.code, e.data);
    throw error;
  }
  const parsed = schema.safeParse(result ?? {});
  if (!parsed.success) throw new Error(`the agent's ${method} answer is malformed: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The agent's own words for a start that needs a login, with the command it names. */
export function loginAdvice(agent: string, said: string, methods: Array<z.infer<typeof authMethodSchema>>): string {
  const ways = methods.map((m) => `${m.name}${m.description ? `: ${m.description}` : ''}`);
  const command = methods.map((m) => /`([^`]+)`/.exec(m.description ?? '')?.[1]).find(Boolean);
  return `${agent} needs a login before it can start a session (${said})`
    + (command ? `. Run \`${command}\` in a terminal, then start it again` : '')
    + (ways.length ? `. It offers: ${ways.join('; ')}` : '');
}

function sessionParams(connection: MessageConnection): { sessionId: string } {
  const { sessionId } = stateOf(connection);
  if (!sessionId) throw new Error('the agent has no session yet');
  return { sessionId };
}

/** Sets the agent's config option of a category (model, mode), where it has one; false: it has none. */
async function setOption(connection: MessageConnection, category: 'model' | 'mode', value: string): Promise<boolean> {
  const s = stateOf(connection);
  const option = s.configOptions.find((o) => o.category === category);
  if (!option) return false;
  const r = await call(connection, ACP.setConfigOption, { ...sessionParams(connection), configId: option.id, value }, z.looseObject({ configOptions: z.array(configOptionSchema).optional() }));
  if (r.configOptions) s.configOptions = r.configOptions;
  else option.currentValue = value;
  return true;
}

async function setModel(connection: MessageConnection, model: string): Promise<{ model: string | null }> {
  const s = stateOf(connection);
  if (await setOption(connection, 'model', model)) return { model: s.model };
  if (!s.models) throw new Unsupported('this agent offers no model choice (no model config option, no models list)');
  await call(connection, ACP.setModel, { ...sessionParams(connection), modelId: model }, z.unknown());
  s.models = { ...s.models, currentModelId: model };
  return { model };
}

async function setMode(connection: MessageConnection, mode: string): Promise<{ mode: string | null }> {
  const s = stateOf(connection);
  if (await setOption(connection, 'mode', mode)) return { mode: s.mode };
  if (!s.modes) throw new Unsupported('this agent offers no modes');
  if (!s.modes.available.some((m) => m.id === mode)) throw new WorkerRefusal(`this agent has no mode "${mode}" (its modes: ${s.modes.available.map((m) => m.id).join(', ')})`, null);
  await call(connection, ACP.setMode, { ...sessionParams(connection), modeId: mode }, z.unknown());
  s.modes.current = mode;
  return { mode };
}

/** The modes (or mode option's values) the agent offers, for a picker. */
export function modesOf(connection: MessageConnection): { current: string | null; available: Array<{ id: string; name: string }> } | null {
  const s = states.get(connection);
  if (!s) return null;
  const option = s.configOptions.find((o) => o.category === 'mode');
  if (option) {
    const available = (option.options ?? []).flatMap((o) => {
      const v = o as { value?: unknown; name?: unknown };
      return typeof v.value === 'string' ? [{ id: v.value, name: typeof v.name === 'string' ? v.name : v.value }] : [];
    });
    return { current: s.mode, available };
  }
  return s.modes ? { current: s.modes.current, available: [...s.modes.available] } : null;
}

async function openSession(connection: MessageConnection, ctx: ProbeContext, agent: string, authMethods: Array<z.infer<typeof authMethodSchema>>): Promise<void> {
  const s = stateOf(connection);
  const base = { cwd: ctx.cwd, mcpServers: [] };
  const resume = ctx.resume?.id;
  try {
    if (resume) {
      if (!s.canResume && !s.loadSession) throw new Error(`${agent} cannot resume a session: it offers neither session/resume nor session/load`);
      // session/resume continues without replaying the conversation; session/load replays it as
      // updates, which the log then shows again after the earlier session's own events.
      const method = s.canResume ? ACP.resumeSession : ACP.loadSession;
      s.learnSession(await call(connection, method, { ...base, sessionId: resume }, sessionSchema));
      s.sessionId = resume;
      s.sessions.add(resume);
      return;
    }
    const result = await call(connection, ACP.newSession, base, sessionSchema);
    if (!result.sessionId) throw new Error(`${agent}'s session/new answer names no sessionId`);
    s.learnSession(result);
    s.sessionId = result.sessionId;
    s.sessions.add(result.sessionId);
  } catch (error) {
    if (error instanceof WorkerRefusal && (error.code === AUTH_REQUIRED || /auth/i.test(error.message))) {
      throw new Error(loginAdvice(agent, error.message.replace(/^the agent refused /, ''), authMethods));
    }
    throw error;
  }
}

export const acpSessions: SessionVerbs = {
  async current(connection) {
    return { id: stateOf(connection).sessionId, file: null };
  },
  async newSession(connection) {
    const s = stateOf(connection);
    const result = await call(connection, ACP.newSession, { cwd: s.cwd ?? process.cwd(), mcpServers: [] }, sessionSchema);
    if (!result.sessionId) throw new Error('the agent\'s session/new answer names no sessionId');
    s.learnSession(result);
    s.sessionId = result.sessionId;
    s.sessions.add(result.sessionId);
    return { cancelled: false };
  },
  fork() {
    return Promise.reject(new Unsupported('ACP v1 has no fork; start a new session instead'));
  },
  setModel,
  setMode,
  exportHtml() {
    return Promise.reject(new Unsupported('an ACP agent has no HTML export; export the session as Markdown instead'));
  },
  messages() {
    return Promise.reject(new Unsupported('ACP has no verb that reads the conversation back'));
  },
  async usage(connection) {
    const u = stateOf(connection).usage;
    if (!u) throw new Unsupported('the agent has reported no usage yet');
    return { scope: 'session', input: null, output: null, cacheRead: null, cacheWrite: null, contextTokens: u.used, contextWindow: u.size, cost: u.cost, at: Date.now() };
  },
};

/** The answer to a permission request: the person's option, or cancelled. */
function permissionAnswer(optionId: string | null): unknown {
  return optionId === null ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId } };
}

/** A `session/request_permission` in the host's terms. */
function permissionRequest(params: unknown): AgentRequest {
  const parsed = permissionSchema.safeParse(params);
  if (!parsed.success) return { kind: 'invalid', reason: `malformed session/request_permission: ${z.prettifyError(parsed.error)}`, answer: permissionAnswer(null) };
  const { toolCall, options } = parsed.data;
  const tool = toolEvent('permission_request', toolCall);
  const input = isPlain(toolCall.rawInput) ? toolCall.rawInput : null;
  const command = input && (typeof input.command === 'string' ? input.command : Array.isArray(input.command) ? input.command.join(' ') : null);
  return {
    kind: 'permission',
    sessionId: parsed.data.sessionId,
    ask: {
      toolCallId: toolCall.toolCallId,
      title: toolCall.title ?? tool.title ?? 'a tool call',
      toolKind: toolCall.kind ?? null,
      command: command ?? null,
      args: tool.args ?? null,
      diffs: tool.diffs ?? [],
      locations: tool.locations ?? [],
      options: options.map((o): PermissionOption => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
    },
    answer: permissionAnswer,
  };
}

/**
 * Agents seen asking before every file write in their asking modes (docs/acp-agents-findings.md):
 * Copilot, Gemini, Claude (not in `auto`, `acceptEdits`, `bypassPermissions`). OpenCode asks
 * only when its config says so, and Codex never does: they are known as askers only once seen
 * asking (worker.ts).
 */
const ASKS_BEFORE_WRITING: ReadonlySet<string> = new Set(['Copilot', 'gemini-cli', '@agentclientprotocol/claude-agent-acp', '@zed-industries/claude-code-acp']);
const NON_ASKING_MODE = /auto|accept|bypass|yolo|full.?access|allow.?all/i;

export function writesVetoed(connection: MessageConnection): boolean {
  const s = states.get(connection);
  if (!s?.agentName || !ASKS_BEFORE_WRITING.has(s.agentName)) return false;
  return !NON_ASKING_MODE.test(s.mode ?? '');
}

export const acpDialect: Dialect = {
  name: 'acp',
  announcesCompaction: false,
  abortCancelsCompaction: false,
  // Claude's and Codex's adapters offer a real steer of their own (`_session/steering`).
  midTurn: (connection) => ({ steer: states.get(connection)?.steers === true, followUp: 'host' }),
  sweepsAfterAbort: true,
  sessions: acpSessions,
  createCodec: () => new AcpCodec(),
  bind(codec, connection) {
    states.set(connection, (codec as AcpCodec).state);
  },
  streaming: (connection) => stateOf(connection).turn !== null,
  // An ACP agent takes its own flags (`--acp`, `acp`) from the profile; the host adds none.
  launchArgs: () => [],
  traits: () => ({ sendsSettled: false }),
  async probe(connection, ctx): Promise<ProbeInfo> {
    const s = stateOf(connection);
    s.cwd = ctx.cwd;
    const init = await call(connection, ACP.initialize, {
      protocolVersion: ACP_PROTOCOL_VERSION,
      clientCapabilities: ctx.clientFiles === false ? { ...CLIENT_CAPABILITIES, fs: { readTextFile: false, writeTextFile: false } } : CLIENT_CAPABILITIES,
      clientInfo: { name: 'rpc-workers', title: 'RPC Workers', version: ctx.clientVersion ?? '0.0.0' },
    }, initializeSchema);
    const agent = init.agentInfo?.title ?? init.agentInfo?.name ?? 'the agent';
    if (init.protocolVersion !== ACP_PROTOCOL_VERSION) {
      throw new Error(`${agent} answered ACP protocol version ${init.protocolVersion}; RPC Workers speaks version ${ACP_PROTOCOL_VERSION}, so it cannot drive this agent (update the one that is older)`);
    }
    s.agentName = init.agentInfo?.name ?? null;
    s.agentVersion = init.agentInfo?.version ?? null;
    s.loadSession = init.agentCapabilities?.loadSession === true;
    s.canResume = init.agentCapabilities?.sessionCapabilities?.resume != null;
    s.steers = init._meta?.steering?.supported === true;
    await openSession(connection, ctx, agent, init.authMethods ?? []);
    if (ctx.mode) await setMode(connection, ctx.mode);
    if (ctx.model && ctx.model !== s.model) await setModel(connection, ctx.model);
    return { model: s.model, sessionId: s.sessionId, sessionFile: null, streaming: false, protocolVersion: String(init.protocolVersion), workerVersion: s.agentVersion };
  },
  async prompt(connection, request) {
    const s = stateOf(connection);
    if (request.streamingBehavior === 'followUp') {
      // ACP v1 queues nothing: the host holds the follow-up until the running turn is answered.
      const aborts = s.aborts;
      while (s.turn) {
        await s.turn;
        if (s.aborts !== aborts) throw new WorkerRefusal('the turn was aborted before the follow-up the host was holding could be sent; it was not sent', null);
      }
    } else if (request.streamingBehavior === 'steer') {
      if (!s.steers) throw new WorkerRefusal('an ACP agent cannot be steered inside its turn (ACP v1 has no steer): redirect instead (abort, then this message), or send it as a follow-up', null);
      // The adapters' own extension: the text joins the running turn at the next model call.
      const r = await call(connection, STEER, { ...sessionParams(connection), prompt: [{ type: 'text', text: request.text }] }, z.looseObject({ outcome: z.string() }));
      if (r.outcome !== 'injected') throw new WorkerRefusal(`the agent did not take the steer (it answered ${r.outcome}); nothing was sent into the turn`, null);
      return { submissionId: null };
    }
    const params = { ...sessionParams(connection), prompt: [{ type: 'text', text: request.text }] };
    const answered = connection.sendRequest(ACP.prompt, params).then(() => undefined, () => undefined);
    const turn = answered.then(() => {
      if (s.turn === turn) s.turn = null;
    });
    s.turn = turn;
    return { submissionId: null };
  },
  async abort(connection) {
    const s = stateOf(connection);
    s.aborts++;
    // A notification: the agent answers the running session/prompt with `cancelled`.
    await connection.sendNotification(ACP.cancel, sessionParams(connection));
    return { compactionId: null };
  },
  compactUnavailable(connection) {
    return stateOf(connection).commands.includes('compact') ? null : 'this agent has no compaction (it lists no /compact command)';
  },
  async compact(connection, instructions): Promise<CompactAck> {
    if (acpDialect.compactUnavailable!(connection)) throw new Unsupported(acpDialect.compactUnavailable!(connection)!);
    // The agent's own slash command, run as a prompt; its answer is the compaction's end.
    const text = instructions ? `/compact ${instructions}` : '/compact';
    const r = await call(connection, ACP.prompt, { ...sessionParams(connection), prompt: [{ type: 'text', text }] }, promptResultSchema);
    if (r.stopReason === 'cancelled') return { compactionId: null, result: { summary: null, tokensBefore: null, performed: false, note: 'cancelled' } };
    return { compactionId: null, result: { summary: null, tokensBefore: null, performed: true } };
  },
  agentRequest(method, params) {
    if (method === ACP.requestPermission) return permissionRequest(params);
    if (method === ACP.readTextFile) {
      const r = readFileSchema.safeParse(params);
      if (!r.success) return { kind: 'invalid', reason: `malformed ${method}: ${z.prettifyError(r.error)}`, answer: null, refuse: true };
      return { kind: 'readFile', sessionId: r.data.sessionId, path: r.data.path, line: r.data.line ?? null, limit: r.data.limit ?? null };
    }
    if (method === ACP.writeTextFile) {
      const r = writeFileSchema.safeParse(params);
      if (!r.success) return { kind: 'invalid', reason: `malformed ${method}: ${z.prettifyError(r.error)}`, answer: null, refuse: true };
      return { kind: 'writeFile', sessionId: r.data.sessionId, path: r.data.path, content: r.data.content };
    }
    if (method === ACP.terminalCreate) {
      const r = terminalCreateSchema.safeParse(params);
      if (!r.success) return { kind: 'invalid', reason: `malformed ${method}: ${z.prettifyError(r.error)}`, answer: null, refuse: true };
      const d = r.data;
      return { kind: 'terminal', op: 'create', sessionId: d.sessionId, command: d.command, args: d.args ?? [], env: d.env ?? [], cwd: d.cwd ?? null, outputByteLimit: d.outputByteLimit ?? null };
    }
    const op = TERMINAL_OPS[method];
    if (op) {
      const r = terminalIdSchema.safeParse(params);
      if (!r.success) return { kind: 'invalid', reason: `malformed ${method}: ${z.prettifyError(r.error)}`, answer: null, refuse: true };
      return { kind: 'terminal', op, sessionId: r.data.sessionId, terminalId: r.data.terminalId };
    }
    return null;
  },
  modes: modesOf,
  writesVetoed,
  explainStartFailure(stderr) {
    if (/--dangerously-skip-permissions cannot be used with root/.test(stderr)) return 'Claude Code refuses to run as root unless IS_SANDBOX=1 is set in the profile\'s env';
    return null;
  },
};

