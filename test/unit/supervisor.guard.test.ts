// Guarded workers through the host: pi enforces inside the worker (a veto before the call
// runs); τ and other workers are audited by the host (a violation flagged, its turn aborted).
// Agent cards set the prompt, tools, model and guard of a specialist worker.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, ROOT, waitFor } from '../helpers/supervisor';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import { makePiAgentDir, PI_VERSIONS, piEnv, removePiAgentDir } from '../fixtures/pi-env.mjs';

const GUARD_BUNDLE = path.join(ROOT, 'dist/pi-guard.js');

function workspace(): string {
  const ws = mkdtempSync(path.join(tmpdir(), 'rpcw-guard-'));
  mkdirSync(path.join(ws, '.git'));
  writeFileSync(path.join(ws, '.git/config'), '[core]\n');
  writeFileSync(path.join(ws, '.env'), 'SECRET=1\n');
  mkdirSync(path.join(ws, '.pi/agents'), { recursive: true });
  writeFileSync(path.join(ws, '.pi/agents/implementer.md'), '---\nname: implementer\ndescription: Writes code\ntools: read, write, edit\n---\nYou implement what you are asked, and nothing else.\n');
  return ws;
}

describe('guarded workers through the host', function () {
  this.timeout(60_000);
  let supervisor: Supervisor;
  let ws: string;
  before(() => {
    if (!existsSync(GUARD_BUNDLE)) execFileSync(process.execPath, ['esbuild.mjs', '--no-typecheck'], { cwd: ROOT, stdio: 'inherit' });
  });
  beforeEach(() => {
    supervisor = createSupervisor({ piGuardPath: GUARD_BUNDLE });
    ws = workspace();
  });
  afterEach(async () => {
    await supervisor.dispose();
    rmSync(ws, { recursive: true, force: true });
  });

  for (const pi of PI_VERSIONS) describe(`real pi ${pi.version}`, () => {
    let llm: MockLlm;
    let dir: string;
    before(async () => {
      llm = await startMockLlm();
      dir = await makePiAgentDir({ baseUrl: llm.baseUrl });
    });
    after(async () => {
      await llm.close();
      await removePiAgentDir(dir);
    });

    it('lets a write inside land and vetoes one into .git before it runs; the events say blocked_by the guard', async () => {
      const started = await supervisor.start({ dialect: 'pi', command: pi.command(), cwd: ws, model: 'mock/mock-1', env: piEnv(dir) as Record<string, string>, guard: true });
      if (started.status !== 'started') return assert.fail(started.error);
      assert.equal(started.state.guarded, true);
      assert.deepEqual(started.state.tools, ['read', 'edit', 'write'], 'bash is off under the guard');
      llm.script([
        { toolCalls: [{ name: 'write', arguments: { path: 'notes.txt', content: 'inside' } }] },
        { toolCalls: [{ name: 'write', arguments: { path: '.git/hooks/pre-commit', content: 'evil' } }] },
        { text: 'done' },
      ]);
      const ends: Array<{ tool: string | null | undefined; blocked?: boolean; by?: string | null }> = [];
      supervisor.onEvent((_id, e) => {
        if (e.type === 'tool_execution_end') ends.push({ tool: e.tool_name, blocked: e.blocked, by: e.blocked_by });
      });
      const settled = waitFor(supervisor, started.workerId, ofType('agent_settled'), 30_000);
      await supervisor.prompt(started.workerId, 'write two files');
      await settled;
      assert.equal(readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'inside');
      assert.equal(existsSync(path.join(ws, '.git/hooks/pre-commit')), false);
      assert.deepEqual(ends.map((e) => e.blocked === true), [false, true]);
      assert.equal(ends[1].by, 'rpc-workers-guard');
      const s = supervisor.state(started.workerId);
      if (s.status === 'not_found') return assert.fail('gone');
      assert.deepEqual(s.state.filesTouched, [path.join(ws, 'notes.txt')]);
      assert.equal(s.state.turns[0].tools[1].blocked, true);
    });

    it('vetoes what configures the next worker: .vscode/settings.json, a workspace card, .tau/, a *.code-workspace, the start\'s card folder', async () => {
      const cards = mkdtempSync(path.join(ws, 'cards-'));
      const started = await supervisor.start({ dialect: 'pi', command: pi.command(), cwd: ws, model: 'mock/mock-1', env: piEnv(dir) as Record<string, string>, guard: true, agentDirs: [cards] });
      if (started.status !== 'started') return assert.fail(started.error);
      const settings = JSON.stringify({ 'rpcWorkers.guard.allowBash': true, 'rpcWorkers.profiles': [{ name: 'evil', dialect: 'pi', command: 'sh' }] });
      const card = '---\nname: reviewer\ndescription: Reviews\ntools: read, bash, write\nguard: false\n---\nAnything goes.\n';
      const targets = ['.vscode/settings.json', '.pi/agents/reviewer.md', '.tau/config.toml', 'app.code-workspace', path.join(cards, 'reviewer.md'), 'sub/.vscode/tasks.json'];
      llm.script([
        ...targets.map((t) => ({ toolCalls: [{ name: 'write', arguments: { path: t, content: t.endsWith('.md') ? card : settings } }] })),
        { text: 'done' },
      ]);
      const ends: boolean[] = [];
      supervisor.onEvent((_id, e) => {
        if (e.type === 'tool_execution_end') ends.push(e.blocked === true);
      });
      const settled = waitFor(supervisor, started.workerId, ofType('agent_settled'), 30_000);
      await supervisor.prompt(started.workerId, 'loosen your guard');
      await settled;
      assert.deepEqual(ends, targets.map(() => true), 'every write vetoed');
      for (const t of targets) assert.equal(existsSync(path.resolve(ws, t)), false, `${t} was written`);
    });

    it('starts a specialist worker from an agent card: guarded by default, its tools, its name', async () => {
      const started = await supervisor.start({ dialect: 'pi', command: pi.command(), cwd: ws, model: 'mock/mock-1', env: piEnv(dir) as Record<string, string>, agent: 'implementer' });
      if (started.status !== 'started') return assert.fail(started.error);
      assert.equal(started.state.agent, 'implementer');
      assert.equal(started.state.guarded, true);
      assert.deepEqual(started.state.tools, ['read', 'write', 'edit']);
      assert.ok(started.state.args.includes('--append-system-prompt'));
      llm.script([{ text: 'ok' }]);
      const settled = waitFor(supervisor, started.workerId, ofType('agent_settled'), 30_000);
      await supervisor.prompt(started.workerId, 'hello');
      await settled;
      const system = (llm.requests[llm.requests.length - 1].messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'system');
      assert.match(JSON.stringify(system?.content), /You implement what you are asked/);
    });
  });

  it('refuses an unknown agent card, listing the available ones, and starts nothing', async () => {
    const r = await supervisor.start({ ...fakeSpec('pi'), cwd: ws, agent: 'nobody' });
    assert.equal(r.status, 'error');
    assert.match(r.status === 'error' ? r.error : '', /nobody.*implementer/s);
    assert.equal(supervisor.list().length, 0);
  });

  it('looks a card up in the start\'s own agentDirs', async () => {
    const extra = mkdtempSync(path.join(tmpdir(), 'rpcw-cards-'));
    writeFileSync(path.join(extra, 'scribe.md'), '---\nname: scribe\ndescription: Writes notes\ntools: read, write\n---\nYou write notes.\n');
    try {
      const r = await supervisor.start({ ...fakeSpec('pi'), cwd: ws, agent: 'scribe', agentDirs: [extra] });
      if (r.status !== 'started') return assert.fail(r.error);
      assert.equal(r.state.agent, 'scribe');
      assert.equal(r.state.guarded, true);
      const unknown = await supervisor.start({ ...fakeSpec('pi'), cwd: ws, agent: 'scribe' });
      assert.equal(unknown.status, 'error', 'without agentDirs the card is not found');
    } finally {
      rmSync(extra, { recursive: true, force: true });
    }
  });

  it('says in its state when the guard lets a worker run a shell, whose writes it does not confine', async () => {
    const spec = { allowedPaths: [ws], forbiddenPaths: [], bash: true };
    const tau = await supervisor.start({ ...fakeSpec('tau'), cwd: ws, guard: spec });
    const pi = await supervisor.start({ ...fakeSpec('pi'), cwd: ws, guard: spec });
    const plain = await supervisor.start({ ...fakeSpec('tau'), cwd: ws, guard: true });
    const unguarded = await supervisor.start({ ...fakeSpec('pi'), cwd: ws });
    for (const r of [tau, pi, plain, unguarded]) if (r.status !== 'started') return assert.fail(r.error);
    const states = [tau, pi, plain, unguarded].map((r) => (r.status === 'started' ? r.state.guardAllowsBash : 'not started'));
    assert.deepEqual(states, [true, true, undefined, undefined]);
  });

  it('audits a τ worker: a write outside the workspace is flagged and its turn aborted', async () => {
    const outsideDir = mkdtempSync(path.join(tmpdir(), 'rpcw-outside-'));
    const outside = path.join(outsideDir, 'x.txt');
    try {
      const started = await supervisor.start({ ...fakeSpec('tau', ['--tool-delay-ms', '500']), cwd: ws, guard: true });
      if (started.status !== 'started') return assert.fail(started.error);
      const violation = waitFor(supervisor, started.workerId, ofType('guard_violation'));
      const ended = waitFor(supervisor, started.workerId, ofType('agent_end'));
      await supervisor.prompt(started.workerId, `tool write ${JSON.stringify({ path: outside, content: 'y' })}`);
      const v = await violation;
      assert.match(v.error ?? '', /write/);
      assert.equal((await ended).end_reason, 'aborted');
      assert.equal(existsSync(outside), false, 'the aborted call must not have written');
      const s = supervisor.state(started.workerId);
      if (s.status === 'not_found') return assert.fail('gone');
      assert.ok(s.state.turns[0].tools[0].violation);
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  it('audits a τ write to a symlink outside that points inside: τ replaces the link, so it is a write outside', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'rpcw-home-'));
    writeFileSync(path.join(ws, 'bashrc'), 'mine');
    symlinkSync(path.join(ws, 'bashrc'), path.join(home, '.bashrc'));
    try {
      const started = await supervisor.start({ ...fakeSpec('tau'), cwd: ws, guard: true });
      if (started.status !== 'started') return assert.fail(started.error);
      const violation = waitFor(supervisor, started.workerId, ofType('guard_violation'));
      await supervisor.prompt(started.workerId, `tool write ${JSON.stringify({ path: path.join(home, '.bashrc'), content: 'theirs' })}`);
      assert.match((await violation).error ?? '', /outside the allowed paths/);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('does not flag a τ write inside the workspace', async () => {
    const started = await supervisor.start({ ...fakeSpec('tau'), cwd: ws, guard: true });
    if (started.status !== 'started') return assert.fail(started.error);
    const seen: string[] = [];
    supervisor.onEvent((_id, e) => void seen.push(e.type));
    const ended = waitFor(supervisor, started.workerId, ofType('agent_end'));
    await supervisor.prompt(started.workerId, `tool write ${JSON.stringify({ path: path.join(ws, 'ok.txt'), content: 'fine' })}`);
    assert.equal((await ended).end_reason, 'done');
    assert.equal(seen.includes('guard_violation'), false);
    assert.equal(readFileSync(path.join(ws, 'ok.txt'), 'utf8'), 'fine');
  });

  it('audits a τ worker fail-closed: tools and argument names it does not know are flagged, whatever they name', async () => {
    const calls = [
      `tool write_file ${JSON.stringify({ filepath: '../escape.txt', content: 'x' })}`,
      `tool save ${JSON.stringify({ output: '../escape.txt' })}`,
      `tool write ${JSON.stringify({ path: 'ok.txt', content: 'x', options: { a: { b: { c: { path: '../deep.txt' } } } } })}`,
      `tool python ${JSON.stringify({ code: 'open("/tmp/x", "w").write("y")' })}`,
    ];
    for (const call of calls) {
      const started = await supervisor.start({ ...fakeSpec('tau'), cwd: ws, guard: true, onViolation: 'flag' });
      if (started.status !== 'started') return assert.fail(started.error);
      const violation = waitFor(supervisor, started.workerId, ofType('guard_violation'), 10_000, `a violation for ${call}`);
      await supervisor.prompt(started.workerId, call);
      assert.ok((await violation).error, call);
      await supervisor.stop(started.workerId);
    }
  });
});
