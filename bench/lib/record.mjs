// Records the event lines the fake worker writes for one prompt, as bytes, so the replay
// worker can write the same stream again at no cost of its own.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WIRE, fakeArgs } from './common.mjs';

export async function recordEvents(dialect, prompt, file = path.join(tmpdir(), 'rpc-workers-bench', `${dialect}-${prompt.replace(/\W+/g, '_')}.jsonl`)) {
  mkdirSync(path.dirname(file), { recursive: true });
  const wire = WIRE[dialect];
  const child = spawn(process.execPath, fakeArgs(dialect), { stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = [];
  let rest = '';
  let events = 0;
  await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.on('data', (chunk) => {
      const parts = (rest + chunk.toString('utf8')).split('\n');
      rest = parts.pop();
      for (const l of parts) {
        const v = JSON.parse(l);
        if (!wire.isEvent(v)) continue;
        lines.push(l);
        events++;
        if (wire.eventType(v) === 'agent_end') resolve();
      }
    });
    child.stdin.write(JSON.stringify(wire.prompt(1, prompt)) + '\n');
  });
  child.kill('SIGTERM');
  writeFileSync(file, lines.join('\n') + '\n');
  return { file, events, bytes: Buffer.byteLength(lines.join('\n')) + 1 };
}
