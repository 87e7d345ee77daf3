import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createPiGuard } from '../../src/core/guard/piGuard';
import { buildLaunch } from '../../src/core/worker/launch';
import { editorSettingsDirs } from '../../src/core/guard/editorDirs';
import { GEMINI_AGENT_TOOL } from '../../src/core/guard/geminiLaunch';
import { GUARD_ENV, guardedTools, piGuardLaunch } from '../../src/core/guard/piLaunch';
import { judgePath, resolveGuard, type ResolvedPolicy } from '../../src/core/guard/policy';
import { GUARD_MARKER, formatGuardVeto, parseGuardVeto } from '../../src/core/guard/veto';

describe('guard launch: pi tool list, env, veto text and the extension decision', () => {
  let tmp: string;
  let policy: ResolvedPolicy;
  let withBash: ResolvedPolicy;

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-launch-')));
    policy = resolveGuard(true, tmp) as ResolvedPolicy;
    withBash = resolveGuard({ allowedPaths: [tmp], forbiddenPaths: [], bash: true }, tmp) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('guardedTools: pi defaults minus bash, only pi built-ins, bash only when allowed', () => {
    assert.deepEqual(guardedTools(undefined, policy), ['read', 'edit', 'write']);
    assert.deepEqual(guardedTools(undefined, withBash), ['read', 'bash', 'edit', 'write']);
    assert.deepEqual(guardedTools(['read', 'bash', 'grep', 'my_tool', 'grep', ' ls '], policy), ['read', 'grep', 'ls']);
    assert.deepEqual(guardedTools(['bash'], policy), []);
  });

  it('a relative $PI_CODING_AGENT_DIR in the worker\'s env is pi\'s config from the worker\'s folder: forbidden there, and its cards read there', () => {
    // pi takes the variable as is, so relative to its cwd; the host dropped it from the guard
    // (not absolute) and looked for its cards from the extension host's own cwd.
    const cwd = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(cwd, 'pi-home', 'agents'), { recursive: true });
    fs.writeFileSync(path.join(cwd, 'pi-home', 'agents', 'r.md'), '---\nname: local\ndescription: d\n---\nbody\n');
    const built = buildLaunch({ dialect: 'pi', command: 'pi', cwd, env: { PI_CODING_AGENT_DIR: 'pi-home' }, agent: 'local', guard: true }, { piGuardPath: __filename });
    if (!built.ok) return assert.fail(built.error);
    assert.equal(built.launch.agent, 'local');
    const wire = JSON.parse(built.launch.env[GUARD_ENV] as string) as { forbiddenPaths: string[] };
    assert.ok(wire.forbiddenPaths.includes(path.join(cwd, 'pi-home')), wire.forbiddenPaths.join('\n'));
  });

  it('VS Code\'s user settings (rpcWorkers.profiles, rpcWorkers.guard.*) are forbidden wherever the editor keeps them', () => {
    // An allowed path covering the home folder let a guarded worker rewrite them and loosen the next worker's guard.
    const linux = editorSettingsDirs('/h', {}, 'linux');
    for (const dir of ['/h/.config/Code/User', '/h/.config/Code - Insiders/User', '/h/.config/VSCodium/User', '/h/.local/share/code-server/User', '/h/.vscode-server/data/Machine']) {
      assert.ok(linux.includes(dir), `${dir} in ${linux.join(', ')}`);
    }
    assert.ok(editorSettingsDirs('/h', { XDG_CONFIG_HOME: '/x' }, 'linux').includes('/x/Code/User'));
    assert.ok(editorSettingsDirs('/h', {}, 'darwin').includes('/h/Library/Application Support/Code/User'));
    assert.ok(editorSettingsDirs('/h', { APPDATA: '/roaming' }, 'win32').includes(path.join('/roaming', 'Code', 'User')));

    const home = os.homedir();
    const userSettings = process.platform === 'darwin' ? path.join(home, 'Library', 'Application Support', 'Code', 'User', 'settings.json') : path.join(home, '.config', 'Code', 'User', 'settings.json');
    // The editor's own User folder, wherever its --user-data-dir put it, as the extension learns it.
    const ownUser = path.join(tmp, 'user-data', 'User');
    const guard = { allowedPaths: [home, tmp], forbiddenPaths: [], bash: false };
    const pi = buildLaunch({ dialect: 'pi', command: 'pi', cwd: tmp, guard }, { piGuardPath: __filename, editorSettingsDirs: [ownUser] });
    if (!pi.ok) return assert.fail(pi.error);
    const decide = createPiGuard(pi.launch.env[GUARD_ENV]);
    for (const file of [userSettings, path.join(ownUser, 'settings.json'), path.join(ownUser, 'profiles', 'p1', 'settings.json')]) {
      assert.match(parseGuardVeto(decide('write', { path: file, content: '{}' })?.reason)?.rule ?? 'allowed', /^forbidden ".*User"$/, file);
    }
    assert.equal(decide('write', { path: path.join(tmp, 'a.txt'), content: '' }), undefined);
    const acp = buildLaunch({ dialect: 'acp', command: 'copilot', args: ['--acp'], cwd: tmp, guard }, { editorSettingsDirs: [ownUser] });
    if (!acp.ok || !acp.launch.audit) return assert.fail('an audited launch');
    assert.equal(judgePath(acp.launch.audit.policy, path.join(ownUser, 'settings.json'), tmp).allowed, false);
  });

  it('a guarded Gemini is started with an admin policy that denies invoke_agent; an unguarded one, another ACP agent or pi is not', () => {
    // Gemini's subagents run their tools unreported over ACP (their questions wait on its
    // terminal UI): the guard would never see their writes.
    const gemini = buildLaunch({ dialect: 'acp', command: '/usr/bin/gemini', args: ['--acp'], cwd: tmp, guard: true }, {});
    if (!gemini.ok) return assert.fail(gemini.error);
    assert.deepEqual(gemini.launch.args.slice(0, 2), ['--acp', '--admin-policy']);
    const file = gemini.launch.args[2];
    assert.ok(path.isAbsolute(file) && file.endsWith('.toml'), file);
    assert.match(fs.readFileSync(file, 'utf8'), new RegExp(`^toolName = "${GEMINI_AGENT_TOOL}"\\ndecision = "deny"$`, 'm'));
    // Written again when it went away: Gemini reads it at each new session, and a missing one is no rules.
    fs.rmSync(path.dirname(file), { recursive: true });
    const again = buildLaunch({ dialect: 'acp', command: 'npx', args: ['-y', '@google/gemini-cli@0.61.0', '--acp'], cwd: tmp, guard: true }, {});
    assert.ok(again.ok && again.launch.args.at(-1) === file && fs.existsSync(file));
    for (const spec of [{ command: 'gemini', args: ['--acp'] }, { command: 'copilot', args: ['--acp'], guard: true as const }]) {
      const other = buildLaunch({ dialect: 'acp', cwd: tmp, ...spec }, {});
      assert.ok(other.ok && other.launch.args.join(' ') === '--acp', JSON.stringify(spec));
    }
    const pi = buildLaunch({ dialect: 'pi', command: 'pi', cwd: tmp, guard: true }, { piGuardPath: __filename });
    assert.ok(pi.ok && !pi.launch.args.includes('--admin-policy'));
  });

  it('piGuardLaunch: -e bundle, --tools, and the policy in the env', () => {
    const l = piGuardLaunch(policy, tmp, '/opt/x/dist/pi-guard.js', ['read', 'write', 'bash']);
    assert.deepEqual(l.args, ['-e', '/opt/x/dist/pi-guard.js', '--tools', 'read,write']);
    const wire = JSON.parse(l.env[GUARD_ENV] as string);
    assert.equal(wire.cwd, tmp);
    assert.equal(wire.bash, false);
    assert.deepEqual(wire.allowedPaths, [tmp]);
    assert.ok(wire.forbiddenPaths.includes(path.join(tmp, '**/.git')));
    assert.deepEqual(piGuardLaunch(policy, tmp, '/b.js', ['bash']).args, ['-e', '/b.js', '--no-tools']);
    assert.throws(() => piGuardLaunch(policy, tmp, 'dist/pi-guard.js'), /not absolute/);
  });

  it('veto text: marker first, the rule parsed back from the first line only', () => {
    const text = formatGuardVeto('forbidden "/w/**/.git"', 'write to "/w/.git/x" is not allowed.');
    assert.ok(text.startsWith(`${GUARD_MARKER} forbidden`));
    assert.deepEqual(parseGuardVeto(text), { rule: 'forbidden "/w/**/.git"' });
    assert.deepEqual(parseGuardVeto(formatGuardVeto('a\nb', 'd')), { rule: 'a b' });
    assert.equal(parseGuardVeto('ENOENT: no such file'), null);
    assert.equal(parseGuardVeto(`oops ${GUARD_MARKER} x`), null);
    assert.equal(parseGuardVeto(GUARD_MARKER), null);
    assert.equal(parseGuardVeto(undefined), null);
  });

  it('the extension decision: writes judged, bash off, unknown tools blocked, reads free', () => {
    const guard = createPiGuard(piGuardLaunch(policy, tmp, '/b.js').env[GUARD_ENV]);
    assert.equal(guard('write', { path: 'a.txt', content: '' }), undefined);
    assert.equal(guard('read', { path: '/etc/passwd' }), undefined);
    const git = guard('edit', { path: '.git/config', edits: [] });
    assert.deepEqual(parseGuardVeto(git?.reason), { rule: `forbidden ${JSON.stringify(path.join(tmp, '**/.git'))}` });
    assert.match(guard('write', { path: '/etc/x', content: '' })?.reason ?? '', /^\[rpc-workers guard\] outside the allowed paths/);
    assert.match(guard('bash', { command: 'ls' })?.reason ?? '', /^\[rpc-workers guard\] bash is off under the guard \(rpcWorkers\.guard\.allowBash allows it, and what a shell writes is then not confined\)\n/);
    assert.match(guard('my_tool', {})?.reason ?? '', /^\[rpc-workers guard\] unknown tool "my_tool"/);
    assert.match(guard('write', {})?.reason ?? '', /refused: path is not a string/);
  });

  it('pi\'s own cwd is judged too when it differs from the host\'s', () => {
    const guard = createPiGuard(piGuardLaunch(policy, tmp, '/b.js').env[GUARD_ENV]);
    assert.equal(guard('write', { path: 'x' }, tmp), undefined);
    assert.match(guard('write', { path: 'x' }, os.homedir())?.reason ?? '', /outside the allowed paths/);
  });

  it('fails closed on a missing or invalid policy', () => {
    for (const env of [undefined, 'not json', '{"allowedPaths":["rel"],"forbiddenPaths":[],"bash":false,"cwd":"/"}']) {
      const guard = createPiGuard(env);
      assert.match(guard('write', { path: path.join(tmp, 'a') })?.reason ?? '', /^\[rpc-workers guard\] invalid guard policy: /, String(env));
      assert.ok(guard('bash', { command: 'true' })?.block);
      assert.equal(guard('read', { path: 'a' }), undefined);
    }
  });
});
