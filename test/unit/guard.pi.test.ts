// Real pi (0.73.1 and 1.x) with the bundled guard extension, driven by a scripted mock LLM: the guard has
// to stop real write/edit calls before they touch the disk.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { pathToFileURL } from 'node:url';
import { piGuardLaunch } from '../../src/core/guard/piLaunch';
import { resolveGuard, type ResolvedPolicy } from '../../src/core/guard/policy';
import { parseGuardVeto } from '../../src/core/guard/veto';
import { PI_VERSIONS } from '../fixtures/pi-env.mjs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- pi's lines read by shape: the assertions are the types
type Json = Record<string, any>;

// The fixtures are plain .mjs without declarations; these are the parts used here.
interface MockLlm {
  baseUrl: string;
  requests: Json[];
  script(...replies: unknown[]): void;
  close(): Promise<void>;
}
interface Fixtures {
  startMockLlm(): Promise<MockLlm>;
  makePiAgentDir(o: { baseUrl: string }): Promise<string>;
  removePiAgentDir(dir: string): Promise<void>;
  piEnv(dir: string): Record<string, string>;
  piRpcArgs(extra: string[]): string[];
}
async function loadFixtures(): Promise<Fixtures> {
  const load = (name: string) => import(pathToFileURL(path.resolve('test/fixtures', name)).href);
  return { ...(await load('mock-llm.mjs')), ...(await load('pi-env.mjs')) } as Fixtures;
}

function resultText(event: Json): string {
  const content = event.result?.content;
  return Array.isArray(content) ? content.map((c: Json) => (c.type === 'text' ? c.text : '')).join('') : '';
}

/** Events until one satisfies `until`; lines split on LF only, as pi's protocol requires. */
function readUntil(child: ChildProcessWithoutNullStreams, until: (e: Json) => boolean, timeoutMs: number): Promise<Json[]> {
  return new Promise((resolve, reject) => {
    const events: Json[] = [];
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`timed out; saw ${events.map((e) => e.type).join(',')}`)), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        const event = JSON.parse(line) as Json;
        events.push(event);
        if (until(event)) {
          clearTimeout(timer);
          resolve(events);
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`pi exited (${code}) early`)));
  });
}

for (const pi of PI_VERSIONS) describe(`guard on real pi ${pi.version}: the bundled extension vetoes writes before they run`, function () {
  this.timeout(60000);
  let tmp: string;
  let ws: string;
  let outside: string;
  let agentDir: string;
  let fx: Fixtures;
  let mock: MockLlm;
  let child: ChildProcessWithoutNullStreams | undefined;
  let stderr = '';

  before(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-pi-')));
    ws = path.join(tmp, 'ws');
    outside = path.join(tmp, 'outside');
    fs.mkdirSync(path.join(ws, '.git'), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]\n');
    fs.writeFileSync(path.join(ws, '.env'), 'SECRET=1\n');
    fs.symlinkSync(outside, path.join(ws, 'out'));
    // pnpm's layout: node_modules/foo links two folders down into .pnpm.
    fs.mkdirSync(path.join(ws, 'node_modules/.pnpm/foo@1.0.0/node_modules/foo'), { recursive: true });
    fs.symlinkSync('.pnpm/foo@1.0.0/node_modules/foo', path.join(ws, 'node_modules/foo'));
    await esbuild.build({
      entryPoints: ['src/guard/piGuardExtension.ts'], outfile: path.join(tmp, 'pi-guard.js'),
      bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'silent',
    });
    fx = await loadFixtures();
    mock = await fx.startMockLlm();
    agentDir = await fx.makePiAgentDir({ baseUrl: mock.baseUrl });
  });

  after(async () => {
    child?.kill('SIGKILL');
    await mock?.close();
    if (agentDir) await fx.removePiAgentDir(agentDir);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a write inside lands; .git, outside, through a symlink and .env are blocked and untouched', async () => {
    const policy = resolveGuard(true, ws) as ResolvedPolicy;
    const launch = piGuardLaunch(policy, ws, path.join(tmp, 'pi-guard.js'), ['read', 'write', 'edit']);
    assert.deepEqual(launch.args.slice(2), ['--tools', 'read,write,edit']);
    // Five `..` after the pnpm link: the kernel climbs back into ws, pi removes them as text and
    // lands in `outside`.
    const linkTo = path.join(ws, 'node_modules/foo');
    const dotdot = `${linkTo}/../../../../../${path.relative(path.resolve(linkTo, '../../../../..'), path.join(outside, 'dotdot.txt'))}`;
    mock.script(
      {
        toolCalls: [
          { id: 'ok', name: 'write', arguments: { path: 'src/ok.txt', content: 'landed' } },
          { id: 'git', name: 'write', arguments: { path: '.git/hooks/pre-commit', content: 'evil' } },
          { id: 'abs', name: 'write', arguments: { path: path.join(outside, 'abs.txt'), content: 'evil' } },
          { id: 'link', name: 'write', arguments: { path: 'out/link.txt', content: 'evil' } },
          { id: 'env', name: 'edit', arguments: { path: '.env', edits: [{ oldText: 'SECRET=1', newText: 'SECRET=leaked' }] } },
          // pi 1.x reads a file URL as the path it names, percent-decoded.
          { id: 'url', name: 'write', arguments: { path: `file://${outside}/url.txt`, content: 'evil' } },
          { id: 'urlgit', name: 'write', arguments: { path: `file://${ws}/%2egit/config`, content: 'evil' } },
          { id: 'dotdot', name: 'write', arguments: { path: dotdot, content: 'evil' } },
        ],
      },
      { text: 'done' },
    );
    child = spawn(pi.command(), fx.piRpcArgs(launch.args), { cwd: ws, env: { ...fx.piEnv(agentDir), ...launch.env } });
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const events = readUntil(child, (e) => e.type === 'agent_end', 45000);
    child.stdin.write(`${JSON.stringify({ id: 'p1', type: 'prompt', message: 'write some files' })}\n`);
    const seen = await events.catch((err: Error) => assert.fail(`${err.message}\nstderr: ${stderr}`));

    const ends = new Map(seen.filter((e) => e.type === 'tool_execution_end').map((e) => [e.toolCallId as string, e]));
    assert.deepEqual([...ends.keys()].sort(), ['abs', 'dotdot', 'env', 'git', 'link', 'ok', 'url', 'urlgit']);
    assert.equal(ends.get('ok')?.isError, false, resultText(ends.get('ok') ?? {}));
    assert.equal(fs.readFileSync(path.join(ws, 'src/ok.txt'), 'utf8'), 'landed');

    const expected: Record<string, RegExp> = {
      git: /^forbidden ".*\*\*\/\.git"$/,
      abs: /^outside the allowed paths/,
      link: /^outside the allowed paths/,
      env: /^forbidden ".*\*\*\/\.env"$/,
      url: /^outside the allowed paths/,
      urlgit: /^forbidden ".*\*\*\/\.git"$/,
      dotdot: /^outside the allowed paths .*removed as text first, as pi and Node-based agents write it\)$/,
    };
    for (const [id, rule] of Object.entries(expected)) {
      const end = ends.get(id) as Json;
      assert.equal(end.isError, true, id);
      const veto = parseGuardVeto(resultText(end));
      assert.ok(veto, `${id}: no guard veto in ${JSON.stringify(resultText(end))}`);
      assert.match(veto.rule, rule, id);
    }
    assert.equal(fs.existsSync(path.join(ws, '.git/hooks/pre-commit')), false);
    assert.equal(fs.existsSync(path.join(outside, 'abs.txt')), false);
    assert.equal(fs.existsSync(path.join(outside, 'link.txt')), false);
    assert.equal(fs.existsSync(path.join(outside, 'url.txt')), false);
    assert.equal(fs.existsSync(path.join(outside, 'dotdot.txt')), false);
    assert.equal(fs.readFileSync(path.join(ws, '.git', 'config'), 'utf8'), '[core]\n');
    assert.equal(fs.readFileSync(path.join(ws, '.env'), 'utf8'), 'SECRET=1\n');
    // The model was told why: the veto text is the tool result pi sent back.
    const followUp = JSON.stringify(mock.requests[1]?.messages ?? []);
    assert.match(followUp, /\[rpc-workers guard\] forbidden/);
  });

  it('with no policy in the env, pi\'s guard blocks every write (fail closed)', async () => {
    child?.kill('SIGKILL');
    mock.script({ toolCalls: [{ id: 'w', name: 'write', arguments: { path: 'src/unguarded.txt', content: 'x' } }] }, { text: 'done' });
    const launch = piGuardLaunch(resolveGuard(true, ws) as ResolvedPolicy, ws, path.join(tmp, 'pi-guard.js'));
    const env: Record<string, string | undefined> = { ...fx.piEnv(agentDir), RPC_WORKERS_GUARD: '{"allowedPaths": "everything"}' };
    child = spawn(pi.command(), fx.piRpcArgs(launch.args), { cwd: ws, env });
    const events = readUntil(child, (e) => e.type === 'agent_end', 45000);
    child.stdin.write(`${JSON.stringify({ id: 'p2', type: 'prompt', message: 'write' })}\n`);
    const end = (await events).find((e) => e.type === 'tool_execution_end') as Json;
    assert.equal(end.isError, true);
    assert.match(parseGuardVeto(resultText(end))?.rule ?? '', /^invalid guard policy: /);
    assert.equal(fs.existsSync(path.join(ws, 'src/unguarded.txt')), false);
  });
});
