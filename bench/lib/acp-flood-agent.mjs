#!/usr/bin/env node
// An ACP agent that floods: it answers initialize and session/new as claude-agent-acp did, and a
// session/prompt with the recorded turn's session/update lines (test/fixtures/acp-transcripts,
// claude-agent-acp 0.101.0: its text chunks and tool-call updates) repeated until about
// --events updates, then the prompt's end_turn answer, written as fast as the pipe takes them,
// or with --rate at a real agent's pace: one line per write, that many a second (the pace of
// bench/lib/paced-write.mjs, as flood-worker.mjs's). The lines are built before the prompt, so
// the reading side is what a figure measures.
//   node acp-flood-agent.mjs --events <n> --size <bytes>|real [--rate <events/s>]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linesOf, writePaced } from './paced-write.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const events = Number(arg('--events', '10000'));
const size = arg('--size', 'real');
const rate = Number(arg('--rate', 0));
const SESSION = 'flood-session';

/** The recorded updates of the agent's turns, in order (text chunks, tools, usage). */
export function recordedUpdates() {
  const out = [];
  for (const file of ['claude-agent-acp-hello.jsonl', 'claude-agent-acp-shell-cancel.jsonl']) {
    for (const line of readFileSync(path.join(ROOT, 'test/fixtures/acp-transcripts', file), 'utf8').split('\n').filter(Boolean)) {
      const { dir, msg } = JSON.parse(line);
      if (dir === 'a2c' && msg.method === 'session/update' && msg.params.update.sessionUpdate !== 'available_commands_update') {
        out.push({ ...msg, params: { ...msg.params, sessionId: SESSION } });
      }
    }
  }
  return out;
}

const FILLER = 'the agent streams text while the host reads it ';
/** A text chunk brought to `bytes` on the wire; the other updates as recorded. */
function render(msg) {
  const u = msg.params.update;
  if (size === 'real' || u.sessionUpdate !== 'agent_message_chunk') return JSON.stringify(msg);
  const empty = JSON.stringify({ ...msg, params: { ...msg.params, update: { ...u, content: { type: 'text', text: '' } } } }).length;
  const n = Math.max(1, Number(size) - empty - 1);
  return JSON.stringify({ ...msg, params: { ...msg.params, update: { ...u, content: { type: 'text', text: FILLER.repeat(Math.ceil(n / FILLER.length)).slice(0, n) } } } });
}

export function buildFlood(n) {
  const lines = recordedUpdates().map(render);
  const repeats = Math.max(1, Math.ceil(n / lines.length));
  const body = lines.join('\n') + '\n';
  return { body: Buffer.from(body), repeats, events: repeats * lines.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flood = buildFlood(events);
  const body = rate > 0 ? linesOf(flood.body) : null;
  const lines = rate > 0 ? Array.from({ length: flood.repeats }, () => body).flat() : null;
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\n');
  let buffer = '';
  process.stdin.on('data', async (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const msg = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      if (msg.method === 'initialize') send({ id: msg.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [], agentInfo: { name: 'acp-flood-agent', version: '0.101.0' } } });
      else if (msg.method === 'session/new') send({ id: msg.id, result: { sessionId: SESSION } });
      else if (msg.method === 'session/prompt') {
        if (lines) await writePaced(process.stdout, lines, rate);
        else {
          for (let i = 0; i < flood.repeats; i++) {
            if (!process.stdout.write(flood.body)) await new Promise((r) => process.stdout.once('drain', r));
          }
        }
        send({ id: msg.id, result: { stopReason: 'end_turn' } });
      } else if (msg.id !== undefined) send({ id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
    }
  });
  process.stdin.on('end', () => process.exit(0));
}
