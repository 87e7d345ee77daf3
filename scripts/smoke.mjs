#!/usr/bin/env node
// `npm run smoke`: the fake worker (both dialects) through start → prompt → redirect → abort →
// stop, printing each status and its timing. `RPC_SMOKE_REAL=1` adds real pi, driven by the
// local mock LLM (no network, no key). Exits non-zero when any step is not the honest status
// it should be.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMockLlm } from '../test/fixtures/mock-llm.mjs';
import { makePiAgentDir, piCommand, piEnv, removePiAgentDir } from '../test/fixtures/pi-env.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createSupervisor } = createRequire(import.meta.url)(path.join(root, 'dist/core.js'));
const fakeWorker = path.join(root, 'test/fixtures/fake-worker.mjs');

let failures = 0;
function report(step, result, expected) {
  const ok = result.status === expected;
  if (!ok) failures++;
  const extra = result.error ? `  ${result.error.split('\n')[0]}` : result.aborted !== undefined ? `  aborted=${result.aborted}` : '';
  console.log(`  ${ok ? '✓' : '✗'} ${step.padEnd(9)} ${String(result.status).padEnd(11)} ${String(result.ms ?? '').padStart(9)} ms${extra}`);
}

function nextEvent(host, workerId, type) {
  return new Promise((resolve) => {
    const off = host.onEvent((id, e) => {
      if (id === workerId && e.type === type) {
        off();
        resolve(e);
      }
    });
  });
}

async function run(label, spec, script) {
  console.log(`${label}`);
  const host = createSupervisor();
  try {
    const started = await host.start(spec);
    report('start', started, 'started');
    if (started.status !== 'started') return;
    const id = started.workerId;
    let tool = nextEvent(host, id, 'tool_execution_start');
    report('prompt', await host.prompt(id, script.first, { source: 'smoke' }), 'accepted');
    await tool;
    report('redirect', await host.redirect(id, script.redirect, { source: 'smoke' }), 'redirected');
    tool = nextEvent(host, id, 'tool_execution_start');
    await tool;
    report('abort', await host.abort(id), 'aborted');
    report('stop', await host.stop(id), 'stopped');
  } finally {
    await host.dispose();
  }
}

const fakeScript = { first: 'say smoke test\nbash sleep 30', redirect: 'say new plan\nbash sleep 30' };
await run('fake worker, τ dialect', { dialect: 'tau', command: process.execPath, args: [fakeWorker, '--dialect', 'tau'], cwd: root }, fakeScript);
await run('fake worker, pi dialect', { dialect: 'pi', command: process.execPath, args: [fakeWorker, '--dialect', 'pi'], cwd: root}, fakeScript);

if (process.env.RPC_SMOKE_REAL === '1') {
  const llm = await startMockLlm();
  const dir = await makePiAgentDir({ baseUrl: llm.baseUrl });
  const sleep = { toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] };
  llm.script([sleep, sleep]);
  try {
    await run('real pi + mock LLM', { dialect: 'pi', command: piCommand(), cwd: root, model: 'mock/mock-1', env: piEnv(dir) }, { first: 'run sleep 30', redirect: 'run it again' });
  } finally {
    await llm.close();
    await removePiAgentDir(dir);
  }
}

console.log(failures ? `${failures} step(s) did not give the expected status` : 'all steps gave the expected status');
process.exit(failures ? 1 : 0);
