// The UI's pure guard and agent-card parts: the guard settings as read, the guard a start asks
// for (with the core's real policyFromSettings), the card QuickPick items and problem lines,
// which pi a card runs on, and the tooltip's words about trust.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { AgentCard } from '../../src/core/cards/agentCards';
import { judgePath, policyFromSettings, resolveGuard } from '../../src/core/guard/policy';
import * as manifest from '../../package.json';
import { cardItems, cardProblems } from '../../src/ui/commands/cardItems';
import { trustLines, workerDescription } from '../../src/ui/views/describe';
import { editorSettingsDirsOf, guardFromSettings, resolveAgentDirs } from '../../src/ui/settings/guardSpec';
import { piChoice, profileChoices } from '../../src/ui/settings/profiles';
import { readSettings, settingsMessage, settingsQuery, type GuardSettings } from '../../src/ui/settings/settings';
import type { WorkerState } from '../../src/core/api';

const WS = path.resolve('/ws/project');
const noGuard: GuardSettings = { allowedPaths: [], forbiddenPaths: [], allowBash: false, onViolation: 'abort' };

describe('ui guard settings', () => {
  it('defaults: no paths (the workspace folder), no bash, abort, no extra card dirs, profiles unguarded', () => {
    const { settings, errors } = readSettings((k) => (k === 'profiles' ? [{ name: 'p', dialect: 'pi', command: 'pi' }] : undefined));
    assert.deepEqual(errors, []);
    assert.deepEqual(settings.guard, noGuard);
    assert.deepEqual(settings.agentDirs, []);
    assert.equal(settings.profiles[0].guard, undefined);
    assert.equal(profileChoices({ configured: settings.profiles, extensionPath: '/ext', piPath: null })[0].guard, false);
  });

  it('reads the guard keys and a profile guard flag', () => {
    const values: Record<string, unknown> = {
      'guard.allowedPaths': ['src/**', '${workspaceFolder}/test'], 'guard.forbiddenPaths': ['secrets/'], 'guard.allowBash': true,
      'guard.onViolation': 'flag', agentDirs: ['~/cards'], profiles: [{ name: 'g', dialect: 'tau', command: 'tau', guard: true }],
    };
    const { settings, errors } = readSettings((k) => values[k]);
    assert.deepEqual(errors, []);
    assert.deepEqual(settings.guard, { allowedPaths: ['src/**', '${workspaceFolder}/test'], forbiddenPaths: ['secrets/'], allowBash: true, onViolation: 'flag' });
    assert.deepEqual(settings.agentDirs, ['~/cards']);
    assert.equal(profileChoices({ configured: settings.profiles, extensionPath: '/ext', piPath: null })[0].guard, true);
  });

  it('names each invalid value and uses its default', () => {
    const values: Record<string, unknown> = {
      'guard.allowedPaths': 'src', 'guard.forbiddenPaths': ['ok', ''], 'guard.allowBash': 'yes', 'guard.onViolation': 'ignore', agentDirs: [3],
      profiles: [{ name: 'g', dialect: 'pi', command: 'pi', guard: 'on' }],
    };
    const { settings, errors } = readSettings((k) => values[k]);
    // The path lists' errors are kept with them: a guarded start is refused (see below).
    const { invalid, ...read } = settings.guard;
    assert.deepEqual(read, noGuard);
    assert.deepEqual(invalid, ['rpcWorkers.guard.allowedPaths is invalid (must be a list of paths)', 'rpcWorkers.guard.forbiddenPaths is invalid (1: paths must not be empty)']);
    assert.deepEqual(settings.agentDirs, []);
    assert.equal(settings.profiles.length, 0);
    for (const key of ['guard.allowedPaths', 'guard.forbiddenPaths', 'guard.allowBash', 'guard.onViolation', 'agentDirs', 'profiles[0]']) {
      assert.ok(errors.some((e) => e.startsWith(`rpcWorkers.${key}`)), `no error names ${key}: ${errors.join(' | ')}`);
    }
    assert.ok(errors.some((e) => /onViolation is invalid \(must be "abort" or "flag"\); using the default "abort"/.test(e)), errors.join(' | '));
    assert.ok(errors.some((e) => /profiles\[0\] is invalid \(guard: guard must be true or false\)/.test(e)), errors.join(' | '));
    // The notification: one sentence each, not run together (issue 28).
    assert.equal(settingsMessage(errors.slice(0, 2)), `RPC Workers settings: ${errors[0]}. ${errors[1]}.`);
    assert.equal(settingsMessage(['Ends already.']), 'RPC Workers settings: Ends already.');
  });

  it('Open Settings on the notification shows the setting that is wrong, not all twenty', () => {
    const one = readSettings((k) => (k === 'history.maxSessions' ? 0 : undefined)).errors;
    assert.equal(settingsQuery(one), 'rpcWorkers.history.maxSessions');
    const twoProfiles = readSettings((k) => (k === 'profiles' ? [{ name: 'a' }, { name: 'b', dialect: 'pi', command: 'pi', guard: 1 }] : undefined)).errors;
    assert.equal(settingsQuery(twoProfiles), 'rpcWorkers.profiles');
    const sizes = readSettings((k) => (k === 'history.maxTotalMiB' ? 1 : k === 'history.maxSessionMiB' ? 8 : undefined)).errors;
    assert.equal(settingsQuery(sizes), 'rpcWorkers.history.maxTotalMiB');
    // Several settings: all of the extension's, where each of them is.
    assert.equal(settingsQuery([...one, ...twoProfiles]), 'rpcWorkers');
  });
});

describe('ui guard spec from settings', () => {
  it('the running editor\'s settings folders come from the extension\'s global storage, whatever --user-data-dir said', () => {
    const data = path.resolve('/d/user-data');
    assert.deepEqual(editorSettingsDirsOf(path.join(data, 'User', 'globalStorage', 'pub.rpc-workers')), [path.join(data, 'User'), path.join(data, 'Machine')]);
    assert.deepEqual(editorSettingsDirsOf(path.resolve('/elsewhere/pub.rpc-workers')), []);
  });

  it('nothing configured: true (the workspace defaults), with onViolation', () => {
    assert.deepEqual(guardFromSettings(noGuard, WS, policyFromSettings), { ok: true, guard: true, onViolation: 'abort' });
  });

  it('paths resolve against the workspace folder; bash and onViolation carried', () => {
    const g = guardFromSettings({ allowedPaths: ['src/**', '${workspaceFolder}/docs'], forbiddenPaths: ['src/gen'], allowBash: true, onViolation: 'flag' }, WS, policyFromSettings);
    assert.deepEqual(g, { ok: true, onViolation: 'flag', guard: { allowedPaths: [path.join(WS, 'src/**'), path.join(WS, 'docs')], forbiddenPaths: [path.join(WS, 'src/gen')], bash: true } });
  });

  it('only bash allowed: the workspace folder with bash, not `true` (which would drop bash)', () => {
    const g = guardFromSettings({ ...noGuard, allowBash: true }, WS, policyFromSettings);
    assert.deepEqual(g, { ok: true, onViolation: 'abort', guard: { allowedPaths: [WS], forbiddenPaths: [], bash: true } });
  });

  it('an entry the guard cannot honour is an error naming its setting', () => {
    const bad = guardFromSettings({ ...noGuard, allowedPaths: ['~/x'] }, WS, policyFromSettings);
    assert.equal(bad.ok, false);
    assert.match((bad as { error: string }).error, /^rpcWorkers\.guard\.allowedPaths: guard setting "~\/x": "~" is not expanded/);
    const bad2 = guardFromSettings({ ...noGuard, forbiddenPaths: ['{a,b}'] }, WS, policyFromSettings);
    assert.match((bad2 as { error: string }).error, /^rpcWorkers\.guard\.forbiddenPaths: .*no \{a,b\} globs/);
  });

  it('an error of the settings together names the settings set, not the rpcWorkers.guard group', () => {
    // Each list passes on its own; the whole (with bash) is refused.
    const together: typeof policyFromSettings = (s, ws) => {
      if (s.bash !== undefined) throw new Error('the lists clash');
      return policyFromSettings(s, ws);
    };
    const bad = guardFromSettings({ ...noGuard, allowedPaths: ['src/**'], allowBash: true }, WS, together);
    assert.deepEqual(bad, { ok: false, error: 'rpcWorkers.guard.allowedPaths and rpcWorkers.guard.allowBash: the lists clash' });
    const all = guardFromSettings({ ...noGuard, allowedPaths: ['src/**'], forbiddenPaths: ['src/gen'], allowBash: true }, WS, together);
    assert.deepEqual(all, { ok: false, error: 'rpcWorkers.guard.allowedPaths, rpcWorkers.guard.forbiddenPaths and rpcWorkers.guard.allowBash: the lists clash' });
  });

  it('a forbidden pattern is read from the workspace folder, as the setting\'s description says; an absolute one outside it is warned of', () => {
    // `*.pem` is the folder's own top level, `**/*.pem` any depth: the description said names were
    // forbidden "at any depth", which read as if `*.pem` were too.
    const policy = resolveGuard(policyFromSettings({ forbidden: ['*.pem', '**/*.key'] }, WS), WS)!;
    const forbidden = (rel: string) => !judgePath(policy, path.join(WS, rel), WS).allowed;
    assert.deepEqual(['a.pem', 'src/a.pem', 'a.key', 'src/a.key'].map(forbidden), [true, false, true, true]);
    const props = (manifest as unknown as { contributes: { configuration: { properties: Record<string, { markdownDescription: string }> } } }).contributes.configuration.properties;
    const described = props['rpcWorkers.guard.forbiddenPaths'].markdownDescription;
    for (const words of ['relative to the workspace folder', '`**/*.pem`', 'a leading `/`']) assert.ok(described.includes(words), `${words} in: ${described}`);
    // "/secrets" is the file system's /secrets: it forbids nothing in the workspace, and the log says so.
    const values: Record<string, unknown> = { 'guard.forbiddenPaths': ['/secrets', 'secrets', `${WS}/gen`, '/ws/**/*.pem', '${workspaceFolder}/y', '/elsewhere/*.key'] };
    const { errors, warnings } = readSettings((k) => values[k], [WS]);
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, [
      'rpcWorkers.guard.forbiddenPaths: "/secrets" is an absolute path outside the workspace folder, so it forbids nothing in the workspace (write "secrets" for the workspace\'s own)',
      'rpcWorkers.guard.forbiddenPaths: "/elsewhere/*.key" is an absolute path outside the workspace folder, so it forbids nothing in the workspace (write "elsewhere/*.key" for the workspace\'s own)',
    ]);
    assert.match(readSettings((k) => values[k], [WS, path.resolve('/other')]).warnings[0] ?? '', /outside every workspace folder/);
    assert.deepEqual(readSettings((k) => values[k], [path.resolve('/')]).warnings, []);
    assert.deepEqual(readSettings((k) => values[k]).warnings, [], 'no folder open: no workspace to speak of');
  });

  it('an invalid guard path list refuses the guard rather than starting under a wider one', () => {
    // One empty entry made the whole list its default: forbidden nothing, or allowed the whole workspace.
    for (const [key, value] of [['guard.forbiddenPaths', ['secrets/**', '']], ['guard.allowedPaths', 'src/**']] as const) {
      const { settings } = readSettings((k) => (k === key ? value : undefined));
      const g = guardFromSettings(settings.guard, WS, policyFromSettings);
      assert.equal(g.ok, false, `${key} ${JSON.stringify(value)} started under ${JSON.stringify(g)}`);
      assert.match((g as { error: string }).error, new RegExp(`^rpcWorkers\\.${key.replace('.', '\\.')} is invalid \\(`));
    }
  });

  it('agentDirs: ${workspaceFolder}, ~ and relative entries become absolute', () => {
    assert.deepEqual(resolveAgentDirs(['${workspaceFolder}/cards', '~/my', 'rel/dir', '/abs/x/'], WS, '/home/me'),
      [path.join(WS, 'cards'), path.join('/home/me', 'my'), path.join(WS, 'rel/dir'), path.normalize('/abs/x/')]);
  });
});

const card = (over: Partial<AgentCard>): AgentCard => ({ name: 'c', description: 'd', guard: true, prompt: '', file: path.join(WS, '.pi', 'agents', 'c.md'), ...over });

describe('ui agent card items', () => {
  it('label = name, description = the card, detail = tools · model · guard · file', () => {
    const items = cardItems([
      card({ name: 'reviewer', description: 'Reviews', tools: ['read', 'grep'] }),
      card({ name: 'impl', description: 'Implements', model: 'm/x', guard: false, file: '/home/me/.pi/agent/agents/impl.md' }),
      card({ name: 'scoped', allowedPaths: ['src/**'] }),
      card({ name: 'talker', tools: [] }),
    ], WS);
    assert.deepEqual(items.map((i) => [i.label, i.description]), [['reviewer', 'Reviews'], ['impl', 'Implements'], ['scoped', 'd'], ['talker', 'd']]);
    assert.equal(items[0].detail, `tools: read, grep · model: from the pi profile · guarded (paths from settings) · ${path.join('.pi', 'agents', 'c.md')}`);
    assert.equal(items[1].detail, "tools: pi's defaults · model: m/x · not guarded (the card says guard: false) · /home/me/.pi/agent/agents/impl.md");
    assert.match(items[2].detail, /guarded \(paths from the card\)/);
    assert.match(items[3].detail, /^tools: none · /);
    assert.equal(items[0].card.name, 'reviewer');
  });

  it('problem lines name the file and the reason, and which card hides which', () => {
    const p = cardProblems({ errors: [{ file: '/w/.pi/agents/bad.md', reason: 'no YAML front matter' }], shadowed: [{ name: 'r', file: '/u/r.md', by: '/w/r.md' }] });
    assert.deepEqual(p.invalid, ['/w/.pi/agents/bad.md: no YAML front matter']);
    assert.deepEqual(p.shadowed, ['card "r" in /u/r.md is hidden by the one in /w/r.md']);
  });
});

describe('ui pi for a card', () => {
  const configured = [{ name: 'tau', dialect: 'tau' as const, command: 'tau' }, { name: 'pi mock', dialect: 'pi' as const, command: '/x/pi' }];
  it('the named profile, which must be pi; else the default, else the detected pi, else a configured pi', () => {
    const all = profileChoices({ configured, extensionPath: '/ext', piPath: '/bin/pi' });
    assert.equal((piChoice(all, { requested: 'pi mock', defaultName: '' }) as { choice: { name: string } }).choice.name, 'pi mock');
    assert.match((piChoice(all, { requested: 'tau', defaultName: '' }) as { error: string }).error, /not a pi profile/);
    assert.match((piChoice(all, { requested: 'nope', defaultName: '' }) as { error: string }).error, /no worker profile named "nope"/);
    assert.equal((piChoice(all, { defaultName: 'pi mock' }) as { choice: { name: string } }).choice.name, 'pi mock');
    assert.equal((piChoice(all, { defaultName: '' }) as { choice: { name: string } }).choice.name, 'pi');
    const undetected = profileChoices({ configured, extensionPath: '/ext', piPath: null });
    assert.equal((piChoice(undetected, { defaultName: '' }) as { choice: { name: string } }).choice.name, 'pi mock');
  });
  it('no pi anywhere: an error that says pi is not installed', () => {
    const r = piChoice(profileChoices({ configured: [], extensionPath: '/ext', piPath: null }), { defaultName: '' });
    assert.equal(r.ok, false);
    assert.match((r as { error: string }).error, /^pi is not installed/);
  });
});

describe('ui trust words', () => {
  const s = (over: Partial<WorkerState>) => ({ agent: null, guarded: false, tools: null, dialect: 'pi' as const, ...over });
  it('guarded pi worker: its card, its tools, bash off', () => {
    assert.deepEqual(trustLines(s({ agent: 'reviewer', guarded: true, tools: ['read', 'grep'] })), {
      guard: 'guarded: writes are confined to the allowed paths',
      lines: ['agent card: reviewer', 'tools: read, grep', 'bash: off (the guard cannot confine a shell)'],
    });
    assert.deepEqual(trustLines(s({ guarded: true, tools: ['read', 'bash'] })).lines, ['tools: read, bash']);
  });
  it('unguarded worker: the trust of your own tools; guarded τ: the host audits', () => {
    assert.equal(trustLines(s({})).guard, 'not guarded: the worker has the trust of your own tools');
    assert.deepEqual(trustLines(s({})).lines, []);
    const tau = trustLines(s({ guarded: true, dialect: 'tau' }));
    assert.equal(tau.guard, 'guarded (audited after the call): write and edit paths are checked, any other tool but read, grep, find, ls is flagged');
    assert.deepEqual(tau.lines, ["tools: the worker's own; the host checks each call after it is made and may abort the turn"]);
  });
  it('a guarded worker given bash is not said to have its writes confined', () => {
    // With rpcWorkers.guard.allowBash on, a shell writes anywhere; "writes are confined" was said all the same.
    const pi = trustLines(s({ guarded: true, tools: ['read', 'bash', 'edit', 'write'], guardAllowsBash: true }));
    assert.equal(pi.guard, 'guarded: write and edit are confined to the allowed paths; bash is on, and what a shell writes is not');
    assert.deepEqual(pi.lines, ['tools: read, bash, edit, write', 'bash: on (rpcWorkers.guard.allowBash): the guard cannot confine what a shell writes']);
    const tau = trustLines(s({ guarded: true, dialect: 'tau', guardAllowsBash: true }));
    assert.match(tau.guard, /^guarded \(audited after the call\): .*; a shell command passes unchecked \(bash is allowed\)$/);
    const acp = trustLines(s({ guarded: true, dialect: 'acp', writeGuard: 'vetoed', guardAllowsBash: true }));
    assert.equal(acp.guard, 'guarded: writes outside the allowed paths are refused before they happen; a shell command passes unchecked (bash is allowed)');
  });
  it('the description ends with "guarded" for a guarded worker only', () => {
    const base = { status: 'running', streaming: false, compacting: false, model: 'm', exitCode: null, signal: null } as const;
    assert.equal(workerDescription({ ...base, guarded: true } as WorkerState), 'idle · m · guarded');
    assert.equal(workerDescription({ ...base, guarded: false } as WorkerState), 'idle · m');
  });
});
