// The agent's requests of the client (permission, files, terminals) in the host's terms, and
// which agents ask before writing.
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import type { PermissionOption } from '../events/agentEvent';
import type { AgentRequest } from './dialect';
import { isPlain } from '../../protocol/fastParse';
import { ACP, permissionSchema, readFileSchema, REQUEST_CANCELLED, terminalCreateSchema, terminalIdSchema, TERMINAL_OPS, writeFileSchema } from './acpProtocol';
import { states } from './acpState';
import { toolEvent } from './acpEvents';

/** The answer to a permission request: the person's option, or cancelled. */
export function permissionAnswer(optionId: string | null): unknown {
  return optionId === null ? { outcome: { outcome: 'cancelled' } } : { outcome: { outcome: 'selected', optionId } };
}

/** A `session/request_permission` in the host's terms. */
export function permissionRequest(params: unknown): AgentRequest {
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
    withdrawn: () => new ResponseError(REQUEST_CANCELLED, 'Request cancelled'),
  };
}

/**
 * Agents seen asking before every file write in their asking modes (docs/acp-agents-findings.md):
 * Copilot, Gemini, Claude (not in `auto`, `acceptEdits`, `bypassPermissions`). OpenCode asks
 * only when its config says so, and Codex never does: they are known as askers only once seen
 * asking (worker.ts).
 */
export const ASKS_BEFORE_WRITING: ReadonlySet<string> = new Set(['Copilot', 'gemini-cli', '@agentclientprotocol/claude-agent-acp', '@zed-industries/claude-code-acp']);
export const NON_ASKING_MODE = /auto|accept|bypass|yolo|full.?access|allow.?all/i;

export function writesVetoed(connection: MessageConnection): boolean {
  const s = states.get(connection);
  if (!s?.agentName || !ASKS_BEFORE_WRITING.has(s.agentName)) return false;
  return !NON_ASKING_MODE.test(s.mode ?? '');
}

/** A request of the agent's (permission, files, terminals) in the host's terms; null: not one ACP has. */
export function agentRequest(method: string, params: unknown): AgentRequest | null {
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
}
