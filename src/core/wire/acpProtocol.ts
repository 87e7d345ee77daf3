// ACP v1's side of the wire as this host reads it: the methods it sends or answers, the client
// capabilities it declares, and the schemas of the agent's answers and requests.
import { z } from 'zod';

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
export const STEER = '_session/steering';

/**
 * Claude's and Codex's adapters' notice of whom the agent signs in as (not in ACP v1; their
 * interim extension, connection-wide, sent at the start and again whenever it changes).
 */
export const AUTH_STATUS = '_auth/status_update';

/** JSON-RPC error codes ACP gives a meaning. */
export const AUTH_REQUIRED = -32000;
/** The answer to a request its sender cancelled (`$/cancel_request`), as LSP's. */
export const REQUEST_CANCELLED = -32800;

/**
 * Either side's withdrawal of a request it sent and still waits for (ACP's request cancellation,
 * stabilized after v1; agents may send it before they say a version that has it). The receiver
 * answers that request once, with a result or REQUEST_CANCELLED.
 */
export const CANCEL_REQUEST = '$/cancel_request';
export const cancelRequestSchema = z.looseObject({ requestId: z.union([z.number(), z.string()]) });

// ---- the agent's answers, checked where the host reads them; every object is loose, as ACP
// asks of a client (fields and `_meta` may be added by any agent).

export const authMethodSchema = z.looseObject({ id: z.string(), name: z.string(), description: z.string().nullable().optional() });
export const initializeSchema = z.looseObject({
  protocolVersion: z.number().int(),
  agentCapabilities: z.looseObject({
    loadSession: z.boolean().optional(),
    sessionCapabilities: z.looseObject({ resume: z.unknown().optional(), fork: z.unknown().optional() }).nullable().optional(),
  }).optional(),
  authMethods: z.array(authMethodSchema).optional(),
  agentInfo: z.looseObject({ name: z.string(), title: z.string().nullable().optional(), version: z.string().optional() }).nullable().optional(),
  // ACP has a client assume nothing of the values under `_meta`: the one read here, a steering of another shape, means no steer, never a failed start.
  _meta: z.looseObject({ steering: z.looseObject({ supported: z.boolean().optional() }).optional().catch(undefined) }).nullable().optional(),
});
export const modeSchema = z.looseObject({ id: z.string(), name: z.string() });
export const modesSchema = z.looseObject({ currentModeId: z.string().nullable().optional(), availableModes: z.array(modeSchema) }).nullable().optional();
export const configOptionSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  category: z.string().nullable().optional(),
  currentValue: z.unknown().optional(),
  options: z.array(z.unknown()).optional(),
});
export const modelsSchema = z.looseObject({
  currentModelId: z.string().nullable().optional(),
  availableModels: z.array(z.looseObject({ modelId: z.string(), name: z.string().optional() })).optional(),
}).nullable().optional();
export const sessionSchema = z.looseObject({
  sessionId: z.string().min(1).optional(),
  modes: modesSchema,
  configOptions: z.array(configOptionSchema).nullable().optional(),
  models: modelsSchema,
});
export const stopReasonSchema = z.string();
export const promptResultSchema = z.looseObject({ stopReason: stopReasonSchema, usage: z.record(z.string(), z.unknown()).nullable().optional() });
export const contentBlockSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
export const toolContentSchema = z.looseObject({
  type: z.string(),
  content: contentBlockSchema.optional(),
  path: z.string().optional(),
  oldText: z.string().nullable().optional(),
  newText: z.string().optional(),
  terminalId: z.string().optional(),
});
export const toolFields = {
  toolCallId: z.string().min(1),
  title: z.string().nullable().optional(),
  kind: z.string().nullable().optional(),
  status: z.string().nullable().optional(),
  content: z.array(toolContentSchema).nullable().optional(),
  locations: z.array(z.looseObject({ path: z.string(), line: z.number().nullable().optional() })).nullable().optional(),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
};
export const toolCallSchema = z.looseObject(toolFields);
export const updateSchema = z.looseObject({ sessionUpdate: z.string().min(1) });
export const updateParamsSchema = z.looseObject({ sessionId: z.string().min(1), update: updateSchema });
export const chunkSchema = z.looseObject({ content: contentBlockSchema, messageId: z.string().nullable().optional() });
export const planSchema = z.looseObject({ entries: z.array(z.looseObject({ content: z.string(), status: z.string().optional(), priority: z.string().optional() })) });
export const usageSchema = z.looseObject({ used: z.number(), size: z.number(), cost: z.looseObject({ amount: z.number(), currency: z.string() }).nullable().optional() });
export const commandsSchema = z.looseObject({ availableCommands: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })) });
/**
 * `_auth/status_update`'s params. The kinds the adapters send: `none` (not logged in), `api_key`,
 * `gateway`, `external` (Bedrock, Vertex…), `account` (a subscription: no detail, its email in
 * `account`); read as any string, the label being what a person reads.
 */
export const authStatusSchema = z.looseObject({
  authStatus: z.looseObject({
    kind: z.string().min(1),
    label: z.string(),
    detail: z.string().nullable().optional(),
    account: z.looseObject({ email: z.string().nullable().optional() }).nullable().optional().catch(undefined),
  }),
});
export const permissionSchema = z.looseObject({
  sessionId: z.string(),
  toolCall: z.looseObject({ ...toolFields, toolCallId: z.string() }),
  options: z.array(z.looseObject({ optionId: z.string(), name: z.string(), kind: z.string() })).min(1),
});

export const readFileSchema = z.looseObject({
  sessionId: z.string().min(1),
  path: z.string().min(1),
  line: z.number().int().min(1).nullable().optional(),
  limit: z.number().int().min(0).nullable().optional(),
});
export const terminalCreateSchema = z.looseObject({
  sessionId: z.string().min(1),
  command: z.string().min(1),
  args: z.array(z.string()).nullable().optional(),
  env: z.array(z.looseObject({ name: z.string().min(1), value: z.string() })).nullable().optional(),
  cwd: z.string().min(1).nullable().optional(),
  outputByteLimit: z.number().int().min(0).nullable().optional(),
});
export const terminalIdSchema = z.looseObject({ sessionId: z.string().min(1), terminalId: z.string().min(1) });
export const TERMINAL_OPS: Record<string, 'output' | 'wait' | 'kill' | 'release'> = {
  [ACP.terminalOutput]: 'output', [ACP.terminalWait]: 'wait', [ACP.terminalKill]: 'kill', [ACP.terminalRelease]: 'release',
};
export const writeFileSchema = z.looseObject({ sessionId: z.string().min(1), path: z.string().min(1), content: z.string() });
