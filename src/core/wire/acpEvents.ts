// Each ACP `session/update` in the one event model (text chunks, tool calls, plan, usage,
// commands, mode and config changes).
import { z } from 'zod';
import type { AgentEvent, ToolDiff, ToolLocation } from '../events/agentEvent';
import { isPlain, lazySafeParse } from '../../protocol/fastParse';
import { contentBlockSchema, toolContentSchema, toolCallSchema, updateSchema, chunkSchema, planSchema, usageSchema, commandsSchema, authStatusSchema } from './acpProtocol';

// An update's payload takes its schema's fast path first (protocol/fastParse.ts): zod's own parse
// of a loose object cost 0.4-1.6 µs a line, and usage readouts and tool calls are 9 of the 20
// update lines of claude-agent-acp's recorded turns. On a miss the schema decides, with its error.
const parse = {
  chunk: lazySafeParse(chunkSchema),
  tool: lazySafeParse(toolCallSchema),
  plan: lazySafeParse(planSchema),
  usage: lazySafeParse(usageSchema),
  commands: lazySafeParse(commandsSchema),
};

export function textOf(block: z.infer<typeof contentBlockSchema> | undefined): string {
  if (!block) return '';
  if (block.type === 'text') return block.text ?? '';
  // An image, audio or resource block is named, not lost.
  return `[${block.type}]`;
}

/** A tool call's content in the one model: its text as output, its diffs, its terminals. */
export function toolContent(content: Array<z.infer<typeof toolContentSchema>> | null | undefined) {
  const texts: string[] = [];
  const diffs: ToolDiff[] = [];
  const terminals: string[] = [];
  for (const c of content ?? []) {
    if (c.type === 'diff' && typeof c.path === 'string' && typeof c.newText === 'string') diffs.push({ path: c.path, oldText: c.oldText ?? null, newText: c.newText });
    else if (c.type === 'terminal' && c.terminalId) terminals.push(c.terminalId);
    else if (c.type === 'content') texts.push(unfenced(textOf(c.content)));
  }
  return { text: texts.join('\n'), diffs, terminals };
}

const BACKTICK = 0x60;

/**
 * A tool's text as plain text. ACP's content is markdown to its clients, and claude-agent-acp
 * sends a command's output, and a file it read, as one fenced block ("```console\nline1\n```"):
 * the log shows output as it is, where the fences were noise around every Claude command (and the
 * export fenced them again). Only a text that is one whole block is unwrapped: a fence of three
 * or more backticks and an info string without one, a line break, the text, the same fence at
 * the very end (spaces or tabs after it), and no line of the text opening with that fence.
 * Read with indexOf, not a regular expression: the lazy body of one was tried character by
 * character against the closing fence, about 3 µs for a 600-character output of Claude's.
 */
export function unfenced(text: string): string {
  if (!text.startsWith('```')) return text;
  let n = 3;
  while (text.charCodeAt(n) === BACKTICK) n++;
  const fence = text.slice(0, n);
  const open = text.indexOf('\n', n);
  if (open === -1 || text.slice(n, open).includes('`')) return text;
  let end = text.length;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  const close = end - n;
  if (close <= open || !text.startsWith(fence, close)) return text;
  const bodyEnd = close - 1 > open && text[close - 1] === '\n' ? close - 1 : close;
  const body = text.slice(open + 1, bodyEnd);
  return opensALine(body, fence) ? text : body;
}

/** Whether a line of `text` starts with `fence` (a line ends at any of JavaScript's line terminators). */
function opensALine(text: string, fence: string): boolean {
  if (text.startsWith(fence)) return true;
  for (const lf of ['\n', '\r', '\u2028', '\u2029']) if (text.includes(lf + fence)) return true;
  return false;
}

/** The fields a tool_call and a tool_call_update share, in the one model. */
export function toolEvent(type: string, t: z.infer<typeof toolCallSchema>): AgentEvent {
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
  // Codex runs its commands itself and says their output only as chunks in `_meta`
  // (`terminal_output_delta`), never as content: a chunk to add to the row's output.
  const delta = !text && t.rawOutput === undefined ? terminalDelta(t) : null;
  const data: Record<string, unknown> = {};
  if (delta !== null) {
    event.result = { output: delta };
    data.outputDelta = true;
  } else if (text || t.rawOutput !== undefined) event.result = { output: text || (typeof t.rawOutput === 'string' ? t.rawOutput : ''), ...(t.rawOutput !== undefined ? { raw: t.rawOutput } : {}) };
  if (t.status) data.status = t.status;
  if (terminals.length) data.terminals = terminals;
  if (Object.keys(data).length) event.data = data;
  return event;
}

/** The output chunk a tool call carries in `_meta.terminal_output_delta` (Codex's), or null. */
function terminalDelta(t: z.infer<typeof toolCallSchema>): string | null {
  const meta = (t as { _meta?: unknown })._meta;
  const delta = isPlain(meta) ? meta.terminal_output_delta : undefined;
  return isPlain(delta) && typeof delta.data === 'string' && delta.data !== '' ? delta.data : null;
}

export const DONE = new Set(['completed', 'failed']);

/** A command's exit code where the agent puts it in rawOutput (OpenCode's `metadata.exit`, Copilot's `shell_exit`), or null. */
export function exitCodeOf(raw: unknown): number | null {
  if (!isPlain(raw)) return null;
  if (isPlain(raw.metadata) && typeof raw.metadata.exit === 'number') return raw.metadata.exit;
  if (Array.isArray(raw.contents)) {
    for (const c of raw.contents) if (isPlain(c) && c.type === 'shell_exit' && typeof c.exitCode === 'number') return c.exitCode;
  }
  return null;
}

/** A text chunk as the event, when it is plainly one; undefined: the schema decides. */
export function textChunk(update: Record<string, unknown>, timestamp: number): AgentEvent | undefined {
  const content = update.content;
  if (!isPlain(content) || content.type !== 'text' || typeof content.text !== 'string') return undefined;
  const messageId = update.messageId;
  if (messageId !== undefined && messageId !== null && typeof messageId !== 'string') return undefined;
  return chunkEvent(String(update.sessionUpdate), content.text, messageId as string | null | undefined, timestamp);
}

/** A text chunk of the agent's, its thought's or the user's, in the one model. */
export function chunkEvent(kind: string, text: string, messageId: string | null | undefined, timestamp: number): AgentEvent {
  const data = messageId ? { messageId } : undefined;
  if (kind === 'user_message_chunk') return { type: 'user_message', timestamp, delta: text, data };
  return { type: 'message_update', timestamp, delta: text, block_type: kind === 'agent_thought_chunk' ? 'thinking' : 'text', data };
}

/** One `session/update` in the one event model; pure, so a stored line reads back the same. */
export function updateEvent(update: z.infer<typeof updateSchema>): AgentEvent | { invalid: string } {
  const timestamp = Date.now();
  const kind = update.sessionUpdate;
  const bad = (error: Parameters<typeof z.prettifyError>[0]) => ({ invalid: `malformed ${kind} update: ${z.prettifyError(error)}` });
  switch (kind) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk': {
      const fast = textChunk(update, timestamp);
      if (fast) return fast;
      const c = parse.chunk(update);
      if (!c.success) return bad(c.error);
      return chunkEvent(kind, textOf(c.data.content), c.data.messageId, timestamp);
    }
    case 'tool_call':
    case 'tool_call_update': {
      const t = parse.tool(update);
      if (!t.success) return bad(t.error);
      // A call reported already finished has no running phase to show.
      const done = DONE.has(t.data.status ?? '');
      const event = toolEvent(done ? 'tool_execution_end' : kind === 'tool_call' ? 'tool_execution_start' : 'tool_execution_update', t.data);
      if (done) {
        event.is_error = t.data.status === 'failed';
        // Copilot and OpenCode end a command that exited non-zero `completed`, and say the exit
        // only in rawOutput; Claude and Codex end it `failed`. The row says it failed for all.
        const exit = exitCodeOf(t.data.rawOutput);
        if (exit !== null && exit !== 0) {
          event.is_error = true;
          event.data = { ...event.data, exitCode: exit };
        }
      }
      // An update's content replaces the call's content (ACP's ToolCallUpdate): the whole output so far.
      else if (event.result !== undefined && kind === 'tool_call_update' && event.data?.outputDelta !== true) event.replace = true;
      return event;
    }
    case 'plan': {
      const p = parse.plan(update);
      if (!p.success) return bad(p.error);
      return { type: 'plan', timestamp, data: { entries: p.data.entries.map((e) => ({ content: e.content, status: e.status ?? 'pending', priority: e.priority ?? null })) } };
    }
    case 'usage_update': {
      const u = parse.usage(update);
      if (!u.success) return bad(u.error);
      return { type: 'usage_update', timestamp, data: { used: u.data.used, size: u.data.size, cost: u.data.cost?.amount ?? null, currency: u.data.cost?.currency ?? null } };
    }
    case 'available_commands_update': {
      const c = parse.commands(update);
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

/**
 * Claude's and Codex's `_auth/status_update` in the model's `auth_status`: whom the agent signs in
 * as, in the agent's own words (`label`; `detail`, or a subscription's email). Null when the
 * params are not of that shape: the notice then stays the raw event it was, nothing dropped.
 * The params are kept whole (`params`) for the history and the export.
 */
export function authStatusEvent(params: unknown): AgentEvent | null {
  const parsed = authStatusSchema.safeParse(params);
  if (!parsed.success) return null;
  const { kind, label, detail, account } = parsed.data.authStatus;
  return { type: 'auth_status', timestamp: Date.now(), data: { kind, label, detail: detail ?? account?.email ?? null, params } };
}
