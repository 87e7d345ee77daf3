#!/usr/bin/env node
// How fast the real ACP agents stream: each agent (scripts/ensure-workers.mjs's pinned versions,
// launched against the mock model as test/fixtures/acp-env.mjs launches them) is asked for a long
// reply, which the mock streams as fast as it can (thousands of text deltas, three words each, no
// delay between them); a plain reader (LF split + JSON.parse, the worker in a session of its own
// as the host starts it) stamps each session/update line as it arrives. Printed per agent and
// prompt: the updates, their events/s while the text streams (first text chunk to last), the
// same from the prompt to its answer, and the lines per stdout read. bench/acp.mjs plays the
// recorded lines at the rate measured here (ACP_RATES), as bench/events.mjs does for τ and pi.
//
//   node scripts/acp-pace.mjs [--words 9000] [--prompts 5] [claude codex copilot gemini opencode]
//
// Each prompt in a session of its own; the first on each agent is not counted (it warms the
// agent up). The mock runs in a child process of its own, so that its writing the reply does not
// hold up the reader. Copilot 1.0.102 cut a 30,000-word reply short (3,439 and 5,891 of its 10,000
// deltas, stop reason `cancelled`, which no one asked for): the default stays below that.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BareWorker } from '../bench/lib/common.mjs';
import { ACP_AGENTS, ACP_AGENT_NAMES, acpAgentLaunch, ensureAcpAgent } from '../test/fixtures/acp-env.mjs';
import { startMockLlm } from '../test/fixtures/mock-llm.mjs';

const argv = process.argv.slice(2);
const arg = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const WORDS = Number(arg('--words', 9000));
const PROMPTS = Number(arg('--prompts', 5));
const names = argv.filter((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));

/** A reply of `words` words: the mock streams it three words a delta, with no pause between them. */
const longReply = (words) => ({ text: Array.from({ length: words }, (_, i) => `w${i}`).join(' ') });

/** A reader that stamps every line and counts the stdout reads. */
class PaceReader extends BareWorker {
  reads = 0;
  onChunk(chunk) {
    this.reads++;
    super.onChunk(chunk);
  }
}

/** Answers what the agent asks of the client (nothing is offered, so it should ask nothing). */
function answerRequests(w) {
  const onValue = w.onValue.bind(w);
  w.onValue = (v) => {
    if (typeof v.method === 'string' && v.id !== undefined) {
      process.stderr.write(`the agent asked ${v.method}: answered -32601\n`);
      w.send({ jsonrpc: '2.0', id: v.id, error: { code: -32601, message: `not offered: ${v.method}` } });
    }
    onValue(v);
  };
}

async function promptOnce(w, sessionId, id, mock) {
  await mock.script(longReply(WORDS));
  const stamps = [];
  const onValue = w.onValue;
  w.onValue = (v) => {
    if (v.method === 'session/update') stamps.push({ t: performance.now(), kind: v.params?.update?.sessionUpdate, reads: w.reads });
    onValue(v);
  };
  const answered = w.next((v) => v.id === id && v.method === undefined, 300_000, 'the prompt\'s answer');
  const t0 = performance.now();
  w.send({ jsonrpc: '2.0', id, method: 'session/prompt', params: { sessionId, prompt: [{ type: 'text', text: 'say a lot' }] } });
  const answer = await answered;
  const t1 = performance.now();
  w.onValue = onValue;
  if (answer.error) throw new Error(`the prompt failed: ${JSON.stringify(answer.error)}`);
  const text = stamps.filter((s) => s.kind === 'agent_message_chunk');
  if (text.length < 2) throw new Error(`only ${text.length} text chunks`);
  const first = stamps.indexOf(text[0]);
  const last = stamps.indexOf(text.at(-1));
  const span = (text.at(-1).t - text[0].t) / 1000;
  const window = stamps.slice(first, last + 1);
  return {
    updates: stamps.length, textChunks: text.length, stopReason: answer.result?.stopReason,
    streaming: (window.length - 1) / span,
    whole: stamps.length / ((t1 - t0) / 1000),
    linesPerRead: window.length / Math.max(1, text.at(-1).reads - text[0].reads + 1),
    ms: Math.round(span * 1000),
  };
}

async function measureAgent(name, mock) {
  ensureAcpAgent(name);
  const home = mkdtempSync(path.join(tmpdir(), `rpc-acp-pace-${name}-home-`));
  const cwd = mkdtempSync(path.join(tmpdir(), `rpc-acp-pace-${name}-cwd-`));
  const launch = acpAgentLaunch(name, { mockUrl: mock.baseUrl, home });
  const w = new PaceReader(launch.command, launch.args, { cwd, env: launch.env, detached: true });
  answerRequests(w);
  try {
    const init = w.next((v) => v.id === 1, 120_000, 'initialize');
    w.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } });
    await init;
    // A fresh session for each prompt: a long reply in the history makes the next call heavier
    // (Copilot 1.0.102 did not answer a second prompt after a 30,000-word reply in one session).
    const out = [];
    for (let p = 0; p <= PROMPTS; p++) {
      const id = 10 + 2 * p;
      const created = w.next((v) => v.id === id && v.method === undefined, 120_000, 'session/new');
      w.send({ jsonrpc: '2.0', id, method: 'session/new', params: { cwd, mcpServers: [] } });
      const session = await created;
      if (session.error) throw new Error(`session/new: ${JSON.stringify(session.error)}`);
      const m = await promptOnce(w, session.result.sessionId, id + 1, mock);
      if (p > 0) out.push(m);
    }
    return out;
  } finally {
    await w.stop();
    // The agent's own children too (Copilot's native binary, Codex's app-server): its process group.
    try {
      process.kill(-w.child.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
    for (const d of [home, cwd]) rmSync(d, { recursive: true, force: true, maxRetries: 5 });
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** The mock model in a child process (this file with --mock-child): its URL, `script` (acknowledged), `close`. */
async function mockChild() {
  const child = fork(new URL(import.meta.url).pathname, ['--mock-child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let waiting = null;
  child.on('message', (m) => waiting?.resolve(m));
  child.on('exit', (code) => waiting?.reject(new Error(`the mock exited ${code}`)));
  const next = () => new Promise((resolve, reject) => (waiting = { resolve, reject }));
  const baseUrl = await next();
  return {
    baseUrl,
    script: (reply) => {
      const scripted = next();
      child.send(reply);
      return scripted;
    },
    close: () => child.kill(),
  };
}

async function main() {
  const mock = await mockChild();
  try {
    for (const name of names.length ? names : ACP_AGENT_NAMES) {
      const a = ACP_AGENTS[name];
      try {
        const runs = await measureAgent(name, mock);
        for (const r of runs) {
          console.log(`${name} ${a.package}@${a.version}: ${r.updates} updates (${r.textChunks} text chunks, ${r.stopReason}) in ${r.ms} ms, ${Math.round(r.streaming)} events/s while streaming, ${Math.round(r.whole)} prompt to answer, ${r.linesPerRead.toFixed(2)} lines a read`);
        }
        console.log(`${name}: median ${Math.round(median(runs.map((r) => r.streaming)))} events/s while streaming (${WORDS} words, ${runs.length} prompts)\n`);
      } catch (e) {
        console.log(`${name} ${a.package}@${a.version}: ${e.message}\n`);
      }
    }
  } finally {
    mock.close();
  }
}

if (argv.includes('--mock-child')) {
  const llm = await startMockLlm({ defaultText: 'ok' });
  process.on('message', (reply) => {
    llm.script(reply);
    process.send('scripted');
  });
  process.on('disconnect', () => process.exit(0));
  process.send(llm.baseUrl);
} else {
  await main();
}
