#!/usr/bin/env node
// A worker that costs nearly nothing: it answers the host's readiness probe and its prompt like
// the fake worker (pi or τ dialect), then writes a recorded event stream (a file of JSONL event
// lines, as the fake worker wrote them) to stdout as fast as the pipe takes it. With the writer
// out of the way, the reading side is what a throughput figure measures.
//   node replay-worker.mjs --dialect pi|tau --file <events.jsonl> [--mode rpc ...ignored]
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const arg = (k) => argv[argv.indexOf(k) + 1];
const dialect = arg('--dialect');
const stream = readFileSync(arg('--file'));
const out = process.stdout;
const line = (o) => out.write(JSON.stringify(o) + '\n');

async function replay() {
  const CHUNK = 64 * 1024;
  for (let i = 0; i < stream.length; i += CHUNK) {
    if (!out.write(stream.subarray(i, i + CHUNK))) await new Promise((r) => out.once('drain', r));
  }
}

function handle(m) {
  if (dialect === 'pi') {
    const ok = (data) => line({ id: m.id, type: 'response', command: m.type, success: true, ...(data ? { data } : {}) });
    if (m.type === 'get_state') return ok({ model: { provider: 'fake', id: 'replay' }, isStreaming: false, sessionId: 'replay' });
    if (m.type === 'prompt') {
      ok();
      return void replay();
    }
    return ok();
  }
  const ok = (result) => line({ jsonrpc: '2.0', id: m.id, result });
  if (m.method === 'get_capabilities') return ok({ protocol_version: '1.5', dialect: 'tau' });
  if (m.method === 'get_state') return ok({ session_id: 'replay', is_streaming: false, model: { provider: 'fake', id: 'replay' } });
  if (m.method === 'prompt') {
    ok({ accepted: true, submission_id: 'replay-1', rejection_reason: null });
    return void replay();
  }
  return ok({});
}

let rest = '';
process.stdin.on('data', (chunk) => {
  const text = rest + chunk.toString('utf8');
  const lines = text.split('\n');
  rest = lines.pop();
  for (const l of lines) if (l.trim()) handle(JSON.parse(l));
});
process.stdin.on('end', () => process.exit(0));
