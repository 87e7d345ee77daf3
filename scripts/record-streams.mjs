#!/usr/bin/env node
// Records what real workers say on the wire, for the benchmarks' flood worker
// (bench/lib/flood-worker.mjs) to replay: real τ 0.15.0, real pi 0.73.1 and real pi 1.6.0, each
// driven by the mock LLM through the host's own start-up (τ: get_capabilities, get_state,
// get_pending_request; pi: get_state) and one prompt whose reply is a tool call (bash `echo`) and then a streamed text.
// Each recording is the raw wire in order, one line each: `> ` what was sent to the worker,
// `< ` what the worker wrote to stdout, byte for byte. Re-run it after a worker upgrade:
//
//   node scripts/ensure-workers.mjs && node scripts/record-streams.mjs [tau|pi-0.73|pi-1.x ...]
//
// Writes bench/recordings/<name>.wire (a few dozen lines each, committed; gzipped as .wire.gz
// when over 100 KB).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockLlm } from '../test/fixtures/mock-llm.mjs';
import { makePiAgentDir, piCommand, piEnv, piRpcArgs, removePiAgentDir } from '../test/fixtures/pi-env.mjs';
import { makeTauHome, removeTauHome, requireTau, tauEnv, tauRpcArgs } from '../test/fixtures/tau-env.mjs';
import { PI1_VERSION, pi1Command } from './ensure-workers.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RECORDINGS = path.join(ROOT, 'bench/recordings');

/** The model's replies: a tool call, then ~120 words streamed three words a chunk (40 deltas). */
const WORDS = Array.from({ length: 120 }, (_, i) => ['the', 'worker', 'streams', 'text', 'while', 'the', 'host', 'reads', 'it'][i % 9] + (i % 13 === 0 ? ',' : '')).join(' ');
const REPLIES = [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo recorded' } }] }, { text: WORDS }];
const PROMPT = 'run echo recorded, then tell me about it';

const WORKERS = {
  tau: {
    async env(baseUrl) {
      const home = await makeTauHome({ baseUrl });
      return { command: requireTau(), args: tauRpcArgs(home), env: tauEnv(home), cleanup: () => removeTauHome(home) };
    },
    handshake: [
      { jsonrpc: '2.0', id: 0, method: 'get_capabilities', params: {} },
      { jsonrpc: '2.0', id: 1, method: 'get_state', params: {} },
      // The host asks after the start and after each settle whether an extension left a request.
      { jsonrpc: '2.0', id: 3, method: 'get_pending_request', params: {} },
    ],
    prompt: { jsonrpc: '2.0', id: 2, method: 'prompt', params: { text: PROMPT, source: 'interactive' } },
    answers: (v, id) => v.id === id && v.method === undefined,
    // τ ends a run with agent_end.
    last: (v) => v.method === 'event' && v.params?.type === 'agent_end',
  },
  'pi-0.73': {
    async env(baseUrl) {
      const dir = await makePiAgentDir({ baseUrl });
      return { command: piCommand(), args: piRpcArgs(), env: piEnv(dir), cleanup: () => removePiAgentDir(dir) };
    },
    handshake: [{ id: '0', type: 'get_state' }],
    prompt: { id: '2', type: 'prompt', message: PROMPT },
    answers: (v, id) => v.type === 'response' && v.id === String(id),
    last: (v) => v.type === 'agent_end',
  },
  'pi-1.x': {
    async env(baseUrl) {
      const dir = await makePiAgentDir({ baseUrl });
      return { command: pi1Command(), args: piRpcArgs(), env: piEnv(dir), cleanup: () => removePiAgentDir(dir), version: PI1_VERSION };
    },
    handshake: [{ id: '0', type: 'get_state' }],
    prompt: { id: '2', type: 'prompt', message: PROMPT },
    answers: (v, id) => v.type === 'response' && v.id === String(id),
    // pi 1.x ends a run with agent_settled, after agent_end.
    last: (v) => v.type === 'agent_settled',
  },
};

async function record(name) {
  const w = WORKERS[name];
  const llm = await startMockLlm();
  llm.script(...REPLIES);
  const { command, args, env, cleanup } = await w.env(llm.baseUrl);
  const child = spawn(command, args, { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const wire = [];
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const waiters = [];
  let rest = '';
  child.stdout.on('data', (chunk) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (!line.trim()) continue;
      wire.push(`< ${line}`);
      const v = JSON.parse(line);
      for (const x of [...waiters]) if (x.match(v)) waiters.splice(waiters.indexOf(x), 1), x.resolve(v);
    }
  });
  const exited = new Promise((r) => child.once('exit', r));
  const next = (match, what) => new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${name}: no ${what} within 60 s; stderr: ${stderr.slice(-2000)}`)), 60_000);
    waiters.push({ match, resolve: (v) => (clearTimeout(t), resolve(v)) });
  });
  const send = async (msg, what) => {
    const answered = next((v) => w.answers(v, msg.id), what);
    wire.push(`> ${JSON.stringify(msg)}`);
    child.stdin.write(JSON.stringify(msg) + '\n');
    return answered;
  };
  try {
    for (const m of w.handshake) await send(m, m.method ?? m.type);
    const ended = next(w.last, 'end of the run');
    await send(w.prompt, 'prompt answer');
    await ended;
  } finally {
    child.kill('SIGTERM');
    await exited;
    await llm.close();
    await cleanup();
  }
  mkdirSync(RECORDINGS, { recursive: true });
  // τ's get_capabilities answer alone is ~200 KB: a large recording is kept gzipped.
  const text = wire.join('\n') + '\n';
  const large = text.length > 100_000;
  const file = path.join(RECORDINGS, `${name}.wire${large ? '.gz' : ''}`);
  rmSync(path.join(RECORDINGS, `${name}.wire${large ? '' : '.gz'}`), { force: true });
  writeFileSync(file, large ? gzipSync(text) : text);
  const events = wire.filter((l) => l.startsWith('< ')).length;
  console.log(`${name}: ${wire.length} lines (${events} from the worker) → ${path.relative(ROOT, file)}`);
}

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(WORKERS);
for (const n of names) {
  if (!WORKERS[n]) throw new Error(`unknown worker ${n}; known: ${Object.keys(WORKERS).join(', ')}`);
  await record(n);
}
