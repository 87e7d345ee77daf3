// The demo worker's `write:` and `ask:` directives, through the real host (core), as the
// many-workers scenario and the attention host tests use them: a file really written (inside its
// folder only), and an extension request that stands, refusing prompts meanwhile.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createSupervisor } from '../../src/core';
import type { WorkerState } from '../../src/core/api';

// tsx is resolved from the repository (the worker's cwd is a temp folder without node_modules).
const DEMO = join(__dirname, '..', '..', 'src', 'demo', 'demoWorker.ts');
const TSX = pathToFileURL(require.resolve('tsx')).href;

describe('demo worker directives', function () {
  this.timeout(30_000);
  const supervisor = createSupervisor({});
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rpcw-demo-dir-')));
  after(async () => { await supervisor.dispose(); rmSync(dir, { recursive: true, force: true }); });

  const until = (id: string, pred: (s: WorkerState) => boolean) => new Promise<WorkerState>((resolve) => {
    const check = () => { const r = supervisor.state(id); if (r.status !== 'not_found' && pred(r.state)) { off(); resolve(r.state); } };
    const off = supervisor.onState(check);
    check();
  });

  it('write: writes the file as a write tool call; a path outside its folder is refused', async () => {
    const r = await supervisor.start({ dialect: 'tau', command: process.execPath, args: ['--import', TSX, DEMO], cwd: dir, name: 'writer', env: { RPC_WORKERS_DEMO_WORD_MS: '0' } });
    assert.equal(r.status, 'started');
    const id = (r as { workerId: string }).workerId;
    assert.equal((await supervisor.prompt(id, 'write: sub/a.txt = hello there')).status, 'accepted');
    const s = await until(id, (x) => x.turns[0]?.endedAt != null && !x.streaming);
    assert.equal(readFileSync(join(dir, 'sub', 'a.txt'), 'utf8'), 'hello there\n');
    assert.deepEqual(s.filesTouched, [join(dir, 'sub', 'a.txt')]);
    await supervisor.prompt(id, 'write: ../escape.txt = no');
    const t = await until(id, (x) => x.turns[1]?.endedAt != null && !x.streaming);
    assert.equal(t.turns[1].tools[0].isError, true);
    assert.ok(!existsSync(join(dir, '..', 'escape.txt')));
  });

  it('ask: leaves a request standing (needs input), refuses prompts meanwhile', async () => {
    const r = await supervisor.start({ dialect: 'tau', command: process.execPath, args: ['--import', TSX, DEMO], cwd: dir, name: 'asker', env: { RPC_WORKERS_DEMO_WORD_MS: '0' } });
    const id = (r as { workerId: string }).workerId;
    await supervisor.prompt(id, 'ask: Ship it?');
    const s = await until(id, (x) => x.pendingInput.length > 0);
    assert.equal(s.pendingInput[0].kind, 'extension_request');
    assert.match(s.pendingInput[0].title ?? '', /Ship it\?/);
    const refused = await supervisor.prompt(id, 'go on');
    assert.equal(refused.status, 'error');
    assert.match((refused as { error: string }).error, /waits for your answer: Ship it\?/);
  });
});
