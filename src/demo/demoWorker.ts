// The built-in demo worker: a scripted stand-in for an agent that speaks τ's RPC protocol
// (JSON-RPC 2.0 over LF-delimited stdio) and needs no model. It streams its replies word by
// word, runs a real shell command when asked (so abort has something real to cut short),
// queues steer and follow-up messages, and compacts its history. It is not an LLM: what it
// says is derived from the prompt by fixed rules, and the README says so.
//
// Prompts it understands:
//   run: <command>      runs `sh -c <command>` as a tool call named bash, streaming its output
//   `<command>`         the same, for a command in backticks after "run"
//   write: <path> = <text>  writes <text> to <path> (under its folder) as a tool call named write
//   ask: <question>     ends its turn leaving an extension request standing, as a τ extension's
//                       lock does: prompts are refused until it is answered (answer_request)
//   anything else       an echo-style reply streamed word by word
//
// With `--session-dir DIR` it keeps its conversation in DIR (one JSONL file per session, like
// τ's file store) and offers list_sessions and switch_session, so that a session can be resumed
// after a reload; its replies then say how many earlier prompts the session holds. Its tools are
// demoTools.ts.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { askIn, commandIn, runTool, runWrite, writeIn, type ToolTurn } from './demoTools';

const PROTOCOL_VERSION = '3.1';
const WORD_DELAY_MS = Number(process.env.RPC_WORKERS_DEMO_WORD_MS ?? 40);

type Json = Record<string, unknown>;
interface Submission { text: string; id: string; source: string; submitter: string; correlation: Json | null }

let history: Array<{ role: string; content: string; timestamp: number }> = [];
const sessionDirArg = process.argv.indexOf('--session-dir');
const sessionDir = sessionDirArg > 0 ? process.argv[sessionDirArg + 1] ?? null : null;
const SESSION_FILE = /^demo-([0-9a-f-]{36})\.jsonl$/;
const sessionFile = (id: string) => join(sessionDir!, `demo-${id}.jsonl`);

/** The whole conversation, rewritten (it is small): after each turn and each compaction. */
function persist(): void {
  if (!sessionDir) return;
  try {
    mkdirSync(sessionDir, { recursive: true });
    writeFileSync(sessionFile(sessionId), history.map((m) => JSON.stringify(m)).join('\n') + (history.length ? '\n' : ''));
  } catch (error) {
    process.stderr.write(`[demo] could not write the session: ${(error as Error).message}\n`);
  }
}

function listSessions(): Json[] {
  if (!sessionDir) return [];
  let names: string[] = [];
  try {
    names = readdirSync(sessionDir);
  } catch {
    // No folder yet: no sessions.
  }
  return names.map((n) => SESSION_FILE.exec(n)?.[1]).filter((id): id is string => !!id).map((id) => ({ session_id: id, ref: sessionFile(id) }));
}

function onSwitchSession(id: unknown, params: Json): void {
  const target = params.session_id;
  if (typeof target !== 'string' || !/^[0-9a-f-]{36}$/.test(target)) return fail(id, -32602, 'Invalid params: session_id is required', { method: 'switch_session' });
  if (turn || compaction) return fail(id, -32002, 'A turn or compaction is running', { method: 'switch_session' });
  if (!sessionDir || !existsSync(sessionFile(target))) return fail(id, -32004, `No session ${target}`, { method: 'switch_session' });
  try {
    history = readFileSync(sessionFile(target), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { role: string; content: string; timestamp: number });
  } catch (error) {
    return fail(id, -32000, `Session ${target} is unreadable: ${(error as Error).message}`, { method: 'switch_session' });
  }
  sessionId = target;
  reply(id, 'switch_session', { cancelled: false, session_id: sessionId });
}

/** A rough estimate, as a model's tokenizer would count: ~4 characters a token. */
const estimate = (text: string) => Math.ceil(text.length / 4);
let lastCall: { input: number; output: number } | null = null;
let turn: { submission: Submission; aborted: boolean; tool: ChildProcess | null; wake: (() => void) | null } | null = null;
const steering: Submission[] = [];
const followUps: Submission[] = [];
let compaction: { id: string; timer: NodeJS.Timeout; requestId: number | null } | null = null;
let cursor = 0;
/** The extension request that stands (get_pending_request), as τ 0.15 words one. */
let standing: Json | null = null;
/** τ 3.x names the connection's cursor on every event; the demo has one. */
const CURSOR_ID = 'demo';

function send(message: Json): void {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function event(type: string, fields: Json = {}): void {
  const s = turn?.submission;
  send({
    jsonrpc: '2.0', method: 'event', params: {
      type, timestamp: Date.now(), turn_index: null, tool_call_id: null, tool_name: null, is_error: false, error: null,
      end_reason: null, blocked: false, blocked_by: null, cursor_id: CURSOR_ID, submission_id: s?.id ?? null, source: s?.source ?? null,
      submitter: s?.submitter ?? null, correlation: s?.correlation ?? null, delta: null, block_type: null, replace: false,
      message_count: null, stop_reason: null, dropped_tool_calls: null, cache_notice: null, leaf: null, ...fields,
    },
  });
}

const reply = (id: unknown, method: string, result: Json) => send({ jsonrpc: '2.0', id, result: { ...result, method } });
const fail = (id: unknown, code: number, message: string, data?: Json) => send({ jsonrpc: '2.0', id: id ?? null, error: { code, message, ...(data ? { data } : {}) } });

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      if (turn) turn.wake = null;
      resolve();
    }
    if (turn) turn.wake = done;
  });
}

async function streamText(text: string): Promise<void> {
  const words = text.split(/(\s+)/).filter(Boolean);
  for (const word of words) {
    if (turn?.aborted) return;
    event('message_update', { delta: word, block_type: 'text' });
    await pause(WORD_DELAY_MS);
  }
}

/** Follow-ups taken into a turn: answered as such, not as a steer. */
const followedUp = new WeakSet<Submission>();

/** The running turn, as its tool calls see it. */
const toolTurn: ToolTurn = {
  event,
  tool: (child) => { turn!.tool = child; },
  aborted: () => turn!.aborted,
  result: (output) => { history.push({ role: 'toolResult', content: output, timestamp: Date.now() }); },
};

async function runTurn(submission: Submission): Promise<void> {
  turn = { submission, aborted: false, tool: null, wake: null };
  event('agent_start');
  let queue: Submission[] = [submission];
  let index = 0;
  while (queue.length && !turn.aborted) {
    const current = queue.shift()!;
    history.push({ role: 'user', content: current.text, timestamp: Date.now() });
    // Kept at once: a turn cut short by a stop (a reload) shows its prompt in the host's log, so
    // the resumed session holds that prompt too.
    persist();
    event('turn_start', { turn_index: index });
    event('message_start');
    const command = commandIn(current.text);
    const write = writeIn(current.text);
    const question = askIn(current.text);
    const intro = index === 0 ? '' : followedUp.has(current) ? 'Follow-up: ' : 'Steered: ';
    if (write) {
      await streamText(`${intro}Writing ${write.path}.`);
      event('message_end', { stop_reason: turn.aborted ? 'aborted' : 'toolUse' });
      if (!turn.aborted) await runWrite(write, index, toolTurn);
    } else if (question) {
      await streamText(`${intro}I need your answer before going on: ${question}`);
      event('message_end', { stop_reason: turn.aborted ? 'aborted' : 'stop' });
      if (!turn.aborted) {
        standing = {
          entry_id: `req-${randomUUID().slice(0, 8)}`, extension: 'demo', label: 'Demo question', lock: true, release: null,
          sentence: `The demo worker waits for your answer: ${question}`,
          ask: { title: question, body: { kind: 'text', text: 'The demo worker asked this at the end of its turn.' }, fields: [], actions: [{ label: 'Approve' }, { label: 'Reject' }] },
        };
      }
    } else if (command) {
      await streamText(`${intro}Running \`${command}\`.`);
      event('message_end', { stop_reason: turn.aborted ? 'aborted' : 'toolUse' });
      if (!turn.aborted) await runTool(command, index, toolTurn);
      if (!turn.aborted) await streamText(' Done.');
    } else {
      const earlier = history.filter((m) => m.role === 'user').length - 1;
      const memory = sessionDir ? ` This session holds ${earlier === 0 ? 'no earlier prompt' : earlier === 1 ? '1 earlier prompt' : `${earlier} earlier prompts`}.` : '';
      const said = current.text.trim();
      const text = `${intro}You said: ${said}${/[.!?]$/.test(said) ? '' : '.'}${memory} (I am the RPC Workers demo worker: scripted, no model behind me.)`;
      lastCall = { input: history.reduce((n, m) => n + estimate(m.content), 0), output: estimate(text) };
      await streamText(text);
      history.push({ role: 'assistant', content: text, timestamp: Date.now() });
      event('message_end', { stop_reason: turn.aborted ? 'aborted' : 'stop' });
    }
    event('turn_end', { turn_index: index });
    index++;
    queue = queue.concat(steering.splice(0));
    if (!queue.length) {
      queue = followUps.splice(0, 1);
      for (const f of queue) followedUp.add(f);
    }
    if (steering.length || followUps.length || queue.length) queueUpdate();
  }
  const aborted = turn.aborted;
  persist();
  cursor++;
  event('agent_end', { end_reason: aborted ? 'aborted' : 'done', message_count: index * 2, leaf: `e-${cursor}` });
  turn = null;
}

/** What is queued, in pi's shape (the event model's): the texts still waiting, steers and follow-ups. */
function queueUpdate(): void {
  event('queue_update', { steering: steering.map((s) => s.text), followUp: followUps.map((s) => s.text) });
}

function submission(params: Json): Submission {
  return {
    text: String(params.text),
    id: typeof params.submission_id === 'string' ? params.submission_id : randomUUID(),
    source: typeof params.source === 'string' ? params.source : 'rpc',
    submitter: typeof params.submitter === 'string' ? params.submitter : 'rpc-client',
    correlation: (params.correlation as Json | undefined) ?? null,
  };
}

const PROMPT_PARAMS = new Set(['text', 'source', 'submitter', 'submission_id', 'correlation', 'multitask_strategy', 'depth', 'images', 'store_history', 'expand_commands', 'expand_attachments', 'allow_user_input']);

function onPrompt(id: unknown, params: Json): void {
  const unknown = Object.keys(params).filter((k) => !PROMPT_PARAMS.has(k));
  if (standing) return fail(id, -32010, `${standing.label}: ${standing.sentence}`, { method: 'prompt', lock: standing.entry_id });
  if (unknown.length) return fail(id, -32602, `Invalid params: unknown ${unknown.join(', ')}`, { method: 'prompt' });
  if (typeof params.text !== 'string' || !params.text.trim()) return fail(id, -32602, 'Invalid params: text is required', { method: 'prompt' });
  const s = submission(params);
  const strategy = params.multitask_strategy ?? 'reject';
  if (turn) {
    if (strategy === 'steer') steering.push(s);
    else if (strategy === 'enqueue') followUps.push(s);
    else return fail(id, -32000, 'A turn is already running (multitask_strategy is reject)', { method: 'prompt', submission_id: s.id });
    reply(id, 'prompt', { accepted: true, submission_id: s.id, rejection_reason: null });
    queueUpdate();
    return;
  }
  if (compaction) return fail(id, -32000, 'A compaction is running', { method: 'prompt', submission_id: s.id });
  reply(id, 'prompt', { accepted: true, submission_id: s.id, rejection_reason: null });
  void runTurn(s);
}

function onAbort(id: unknown): void {
  let compactionId: string | null = null;
  if (turn && !turn.aborted) {
    turn.aborted = true;
    steering.length = 0;
    followUps.length = 0;
    if (turn.tool?.pid) {
      try {
        process.kill(process.platform === 'win32' ? turn.tool.pid : -turn.tool.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    turn.wake?.();
  }
  if (compaction) {
    compactionId = compaction.id;
    clearTimeout(compaction.timer);
    send({ jsonrpc: '2.0', method: 'compaction_end', params: { compaction_id: compaction.id, request_id: compaction.requestId, is_error: false, error: null, cancelled: true, leaf: `e-${cursor}` } });
    compaction = null;
  }
  // Aborting because stdin closed answers no request: a response with id null would be taken
  // for a protocol error.
  if (id !== null && id !== undefined) reply(id, 'abort', { status: 'aborted', compaction_id: compactionId });
}

function onCompact(id: unknown): void {
  if (compaction) return fail(id, -32002, 'A compaction is already running', { method: 'compact', compaction_id: compaction.id });
  if (turn) return fail(id, -32002, 'A turn is still running', { method: 'compact' });
  const cid = `c-${randomUUID().slice(0, 8)}`;
  reply(id, 'compact', { accepted: true, compaction_id: cid });
  const performed = history.length > 2;
  compaction = {
    id: cid, requestId: typeof id === 'number' ? id : null,
    timer: setTimeout(() => {
      const before = history.reduce((n, m) => n + Math.ceil(m.content.length / 4), 0);
      const summary = `Summary of ${history.length} messages: ${history.filter((m) => m.role === 'user').map((m) => m.content.slice(0, 40)).join(' / ')}`;
      if (performed) history.splice(0, history.length, { role: 'system', content: summary, timestamp: Date.now() });
      if (performed) persist();
      cursor++;
      send({
        jsonrpc: '2.0', method: 'compaction_end', params: {
          compaction_id: cid, request_id: compaction?.requestId ?? null, is_error: false, error: null, cancelled: false, leaf: `e-${cursor}`, performed,
          ...(performed ? { summary, tokens_before: before, tokens_saved: before - Math.ceil(summary.length / 4) } : {}),
        },
      });
      compaction = null;
    }, 600),
  };
}

function dispatch(message: Json): void {
  const { id, method } = message;
  const params = (message.params ?? {}) as Json;
  if (typeof method !== 'string' || !method) return fail(id, -32600, 'Invalid Request');
  switch (method) {
    case 'get_capabilities':
      return reply(id, method, {
        protocol_version: PROTOCOL_VERSION, dialect: 'jsonrpc-2.0', ui_methods: [], declined: [],
        commands: ['get_capabilities', 'get_state', 'get_messages', 'prompt', 'abort', 'compact', 'get_pending_request', 'answer_request', 'get_session_stats', ...(sessionDir ? ['list_sessions', 'switch_session'] : [])].map((name) => ({ name, tier: 'A' })),
        events: ['agent_start', 'agent_end', 'turn_start', 'turn_end', 'message_start', 'message_update', 'message_end', 'tool_execution_start', 'tool_execution_update', 'tool_execution_end'],
        limits: { max_request_line_bytes: 8388608 },
      });
    case 'get_pending_request':
      return reply(id, method, { request: standing });
    case 'answer_request': {
      const p = (params ?? {}) as Json;
      if (!standing || p.request_id !== standing.entry_id) return fail(id, -32602, `Invalid params: no request ${String(p.request_id)} stands`, { method });
      standing = null;
      const output = `${String(p.action)}${p.values && Object.keys(p.values as Json).length ? ` ${JSON.stringify(p.values)}` : ''}`;
      history.push({ role: 'user', content: `answer: ${output}`, timestamp: Date.now() });
      return reply(id, method, { handled: true, output });
    }
    case 'get_state':
      return reply(id, method, {
        session_id: sessionId, status: turn ? 'running' : 'idle', is_streaming: !!turn,
        model: { id: 'demo', provider: 'rpc-workers', context_window: 0 }, usage: null, message_count: history.length, leaf: `e-${cursor}`, addressable: sessionDir !== null,
      });
    case 'get_messages':
      return reply(id, method, { messages: history });
    case 'prompt':
      return onPrompt(id, params);
    case 'abort':
      return onAbort(id);
    case 'compact':
      return onCompact(id);
    case 'list_sessions':
      return sessionDir ? reply(id, method, { sessions: listSessions() }) : fail(id, -32601, `Method not found: ${method}`, { method });
    case 'switch_session':
      return sessionDir ? onSwitchSession(id, params) : fail(id, -32601, `Method not found: ${method}`, { method });
    case 'get_session_stats':
      // Like τ: the last model call's usage (the demo's is an estimate) and the context estimate.
      return reply(id, method, {
        context: { tokens: history.reduce((n, m) => n + estimate(m.content), 0) }, context_window: 32768,
        usage: lastCall ? { input_tokens: lastCall.input, output_tokens: lastCall.output } : null,
      });
    default:
      return fail(id, -32601, `Method not found: ${method}`, { method });
  }
}

let sessionId: string = randomUUID();
// τ writes a session file when it starts; so does the demo, so that its session can be resumed.
persist();
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  let lf: number;
  while ((lf = buffer.indexOf('\n')) !== -1) {
    let line = buffer.slice(0, lf);
    buffer = buffer.slice(lf + 1);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (!line.trim()) continue;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      fail(null, -32700, 'Parse error');
      continue;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) fail(null, -32600, 'Invalid Request');
    else dispatch(message as Json);
  }
});
process.stdin.on('end', () => {
  if (turn?.tool?.pid) onAbort(null);
  process.exit(0);
});
process.on('SIGTERM', () => {
  if (turn?.tool?.pid) {
    try {
      process.kill(-turn.tool.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  process.exit(143);
});
process.stderr.write(`[τ-rpc] RPC Workers demo worker ready (pid ${process.pid}, protocol ${PROTOCOL_VERSION})\n`);
