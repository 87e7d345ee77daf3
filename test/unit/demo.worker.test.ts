// The built-in demo worker, run as the host runs it (tsx on its source), on the edge a person met.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const DEMO = join(__dirname, '..', '..', 'src', 'demo', 'demoWorker.ts');

describe('demo worker', () => {
  it('closing stdin while a tool runs aborts it without an answer of id null (which reads as a protocol error)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', DEMO], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, RPC_WORKERS_DEMO_WORD_MS: '0' } });
    const lines: Array<Record<string, unknown>> = [];
    let buffer = '';
    let toolStarted: () => void;
    const started = new Promise<void>((r) => { toolStarted = r; });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      let lf: number;
      while ((lf = buffer.indexOf('\n')) !== -1) {
        const msg = JSON.parse(buffer.slice(0, lf)) as Record<string, unknown>;
        buffer = buffer.slice(lf + 1);
        lines.push(msg);
        const params = msg.params as Record<string, unknown> | undefined;
        if (params?.type === 'tool_execution_update') toolStarted();
      }
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompt', params: { text: 'run: echo started; sleep 30' } })}\n`);
    await started;
    const exited = once(child, 'exit');
    child.stdin.end();
    await exited;
    const answers = lines.filter((m) => 'result' in m || 'error' in m);
    assert.deepEqual(answers.map((m) => m.id), [1], `answers: ${JSON.stringify(answers)}`);
  });
});
