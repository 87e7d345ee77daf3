// The settings as the UI reads them: validation, the host limits they make (and the lazy host's
// before the core loads), and package.json declaring the same defaults.
import { vscodeStub } from '../helpers/vscodeStub';
import * as assert from 'node:assert/strict';
import { checkSpec, DEFAULT_LIMITS } from '../../src/core/worker/limits';
import { DEFAULT_LIMITS as LEAF_DEFAULTS } from '../../src/core/worker/defaultLimits';
import { LazySupervisor } from '../../src/ui/host/lazySupervisor';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec } from '../helpers/supervisor';
import { historyLimits, hostLimits, limitsNeedingReload, newSettingErrors, readSettings, RESTRICTED_SETTINGS, SETTINGS } from '../../src/ui/settings/settings';
import { layered, readConfiguration } from '../../src/ui/settings/readConfiguration';
import { spawnFailure } from '../../src/core/worker/workerProcess';
import { DEFAULT_HISTORY_LIMITS } from '../../src/core/history/format';
import * as manifest from '../../package.json';
import { WATCHED_SETTINGS } from '../../src/ui/settings/launchConfigGate';

describe('ui settings', () => {
  it('uses the defaults when nothing is set, and passes them to the host limits', () => {
    const { settings, errors } = readSettings(() => undefined);
    assert.deepEqual(errors, []);
    assert.equal(settings.maxWorkers, 8);
    assert.deepEqual(hostLimits(settings), { maxWorkers: 8, maxPromptBytes: 32768, commandTimeoutMs: 30000, settleTimeoutMs: 60000, eventStoreSize: 10000 });
  });

  it('names an invalid value and uses its default', () => {
    const values: Record<string, unknown> = { maxWorkers: 0, commandTimeoutMs: 2.5, trace: 'yes', eventLogSize: 500 };
    const { settings, errors } = readSettings((k) => values[k]);
    assert.equal(settings.maxWorkers, 8);
    assert.equal(settings.commandTimeoutMs, 30000);
    assert.equal(settings.trace, false);
    assert.equal(settings.eventLogSize, 500);
    assert.equal(errors.length, 3);
    assert.match(errors[0], /^rpcWorkers\.maxWorkers is invalid \(must be at least 1\); using the default 8$/);
    assert.match(errors.join('\n'), /rpcWorkers\.commandTimeoutMs is invalid \(must be a whole number\)/);
  });

  it('a number too large to be an exact whole number is said to be too large, and only that', () => {
    const values: Record<string, unknown> = { maxPromptBytes: 1e20, maxWorkers: 2 ** 53 + 2, eventLogSize: 150.5, commandTimeoutMs: 0.5 };
    const { errors } = readSettings((k) => values[k]);
    assert.deepEqual(errors, [
      'rpcWorkers.maxWorkers is invalid (must be at most 64); using the default 8',
      'rpcWorkers.maxPromptBytes is invalid (must be at most 16777216); using the default 32768',
      'rpcWorkers.commandTimeoutMs is invalid (must be a whole number); using the default 30000',
      'rpcWorkers.eventLogSize is invalid (must be a whole number); using the default 10000',
    ]);
  });

  it('keeps the valid profiles and names each invalid or duplicate one', () => {
    const profiles = [
      { name: 'tau', dialect: 'tau', command: 'tau', args: ['--mode', 'rpc'] },
      { name: 'bad', dialect: 'gpt', command: 'x' },
      { name: 'tau', dialect: 'pi', command: 'pi' },
      { dialect: 'pi', command: 'pi' },
    ];
    const { settings, errors } = readSettings((k) => (k === 'profiles' ? profiles : undefined));
    assert.deepEqual(settings.profiles.map((p) => p.name), ['tau']);
    assert.equal(errors.length, 3);
    assert.match(errors[0], /profiles\[1\] is invalid \(dialect: dialect must be "pi", "tau" or "acp"\)/);
    assert.match(errors[1], /profiles\[2\]: a profile named "tau" comes earlier/);
    assert.match(errors[2], /profiles\[3\] is invalid \(name:/);
  });

  it('refuses a profile with a key it does not take, naming it (a misspelt guard would start unguarded workers)', () => {
    const { settings, errors } = readSettings((k) => (k === 'profiles' ? [{ name: 'safe', dialect: 'pi', command: 'pi', gaurd: true }, { name: 'ok', dialect: 'pi', command: 'pi', guard: true }] : undefined));
    assert.deepEqual(settings.profiles.map((p) => p.name), ['ok']);
    assert.equal(errors.length, 1);
    assert.match(errors[0], /^rpcWorkers\.profiles\[0\] is invalid \(a profile does not take "gaurd" \(its keys: name, dialect, /);
    assert.match(errors[0], /that profile is ignored$/);
  });

  it('refuses a profile with a switch its dialect does not have, rather than start its workers without it', () => {
    const profiles = [
      { name: 'careful tau', dialect: 'tau', command: 'tau', mode: 'default' },
      { name: 'pi files', dialect: 'pi', command: 'pi', clientFiles: false },
      { name: 'quiet pi', dialect: 'pi', command: 'pi', discovery: false },
      { name: 'claude', dialect: 'acp', command: 'claude-agent-acp', mode: 'plan', clientFiles: true },
      { name: 'tau', dialect: 'tau', command: 'tau', discovery: true },
    ];
    const { settings, errors } = readSettings((k) => (k === 'profiles' ? profiles : undefined));
    assert.deepEqual(settings.profiles.map((p) => p.name), ['claude', 'tau']);
    assert.deepEqual(errors, [
      'rpcWorkers.profiles[0] is invalid (mode: mode is for ACP profiles ("dialect": "acp"); a tau profile has none); that profile is ignored',
      'rpcWorkers.profiles[1] is invalid (clientFiles: clientFiles is for ACP profiles ("dialect": "acp"); a pi profile has none); that profile is ignored',
      'rpcWorkers.profiles[2] is invalid (discovery: discovery is for τ profiles ("dialect": "tau"); a pi profile has none); that profile is ignored',
    ]);
  });

  it('refuses a profile whose model is empty, naming the setting, as a card\'s empty model is refused', () => {
    const profiles = [{ name: 'pi blank', dialect: 'pi', command: 'pi', model: '' }, { name: 'tau blank', dialect: 'tau', command: 'tau', model: '  ' }, { name: 'ok', dialect: 'pi', command: 'pi', model: 'a/b' }];
    const { settings, errors } = readSettings((k) => (k === 'profiles' ? profiles : undefined));
    assert.deepEqual(settings.profiles.map((p) => [p.name, p.model]), [['ok', 'a/b']]);
    assert.deepEqual(errors, [0, 1].map((i) => `rpcWorkers.profiles[${i}] is invalid (model: model must not be empty (leave it out for the worker's default model)); that profile is ignored`));
  });

  it('refuses a profile whose mode is empty, naming it, where the host would refuse its start in other words', () => {
    const { settings, errors } = readSettings((k) => (k === 'profiles' ? [{ name: 'claude', dialect: 'acp', command: 'claude-agent-acp', mode: ' ' }] : undefined));
    assert.deepEqual(settings.profiles, []);
    assert.deepEqual(errors, ['rpcWorkers.profiles[0] is invalid (mode: mode must not be empty (leave it out to start in the agent\'s default mode)); that profile is ignored']);
    // An API caller's empty mode, in words too.
    assert.deepEqual(checkSpec({ dialect: 'acp', command: 'x', cwd: process.cwd(), mode: '' }), { ok: false, error: 'invalid worker spec: mode: mode must not be empty' });
    // A mode that is not text, in words too, as the API and the settings say it (not zod's default).
    assert.deepEqual(checkSpec({ dialect: 'acp', command: 'x', cwd: process.cwd(), mode: 5 }), { ok: false, error: 'invalid worker spec: mode: mode must be a string' });
    // Every other field of the wrong type too: its name and the type it takes.
    const wrong = (field: string, value: unknown) => checkSpec({ dialect: 'acp', command: 'x', cwd: process.cwd(), [field]: value });
    assert.deepEqual(wrong('model', 5), { ok: false, error: 'invalid worker spec: model: model must be a string' });
    assert.deepEqual(wrong('args', [1]), { ok: false, error: 'invalid worker spec: args.0: args.0 must be a string' });
    assert.deepEqual(wrong('args', 'x'), { ok: false, error: 'invalid worker spec: args: args must be a list' });
    assert.deepEqual(wrong('discovery', 'yes'), { ok: false, error: 'invalid worker spec: discovery: discovery must be true or false' });
    // A field of two shapes (guard: true/false or a guard spec): the shapes it takes, or what is wrong inside the one it has.
    assert.deepEqual(wrong('guard', 'yes'), { ok: false, error: 'invalid worker spec: guard: guard must be true or false, or an object' });
    assert.deepEqual(wrong('guard', { allowedPaths: 'src', forbiddenPaths: [] }), { ok: false, error: 'invalid worker spec: guard.allowedPaths: guard.allowedPaths must be a list' });
  });

  it('after a change, notifies only the errors the last read did not have (a standing one is not shown again at each change)', () => {
    const bad = readSettings((k) => (k === 'maxWorkers' ? 100 : undefined)).errors;
    const worse = readSettings((k) => (k === 'maxWorkers' ? 100 : k === 'trace' ? 'yes' : undefined)).errors;
    assert.deepEqual(newSettingErrors([], bad), bad);
    assert.deepEqual(newSettingErrors(bad, bad), [], 'trace toggled: maxWorkers shown again');
    assert.deepEqual(newSettingErrors(bad, worse), [worse[1]]);
    assert.deepEqual(newSettingErrors(worse, []), []);
  });

  it('asks for a reload only for a host limit changed away from what the host runs with, not for one set back to it', () => {
    const read = (values: Record<string, unknown>) => readSettings((k) => values[k]).settings;
    const applied = read({});
    const raised = read({ maxWorkers: 10 });
    assert.deepEqual(limitsNeedingReload(applied, applied, raised), ['maxWorkers']);
    assert.deepEqual(limitsNeedingReload(applied, raised, read({ maxWorkers: 12 })), ['maxWorkers']);
    // Set back (typed again, or Reset Setting): the window already runs with 8, and a reload would stop its workers for nothing.
    assert.deepEqual(limitsNeedingReload(applied, raised, applied), []);
    // Another setting changed meanwhile: the standing one is not asked about again.
    assert.deepEqual(limitsNeedingReload(applied, raised, read({ maxWorkers: 10, trace: true })), []);
  });

  it('asks for a reload for the history\'s settings too (the host takes them when it is created), all of a change in one list', () => {
    const read = (values: Record<string, unknown>) => readSettings((k) => values[k]).settings;
    const applied = read({});
    const changed = read({ maxWorkers: 10, 'history.maxSessions': 50, 'history.maxSessionMiB': 8, 'history.maxTotalMiB': 64 });
    assert.deepEqual(limitsNeedingReload(applied, applied, changed), ['maxWorkers', 'history.maxSessions', 'history.maxSessionMiB', 'history.maxTotalMiB']);
    assert.deepEqual(limitsNeedingReload(applied, applied, read({ 'history.enabled': false })), ['history.enabled']);
    assert.deepEqual(limitsNeedingReload(applied, changed, applied), [], 'set back: the window runs with these already');
    // Resuming interrupted sessions is read when the window opens: nothing to reload for.
    assert.deepEqual(limitsNeedingReload(applied, applied, read({ 'history.resumeInterrupted': true })), []);
    // With the history off (before and after the reload), its bounds bound nothing: no reload is asked for them.
    const off = read({ 'history.enabled': false });
    assert.deepEqual(limitsNeedingReload(off, off, read({ 'history.enabled': false, 'history.maxSessions': 50 })), []);
  });

  it('refuses a variable the folder settings do not substitute, naming it, instead of making or seeking a folder of that name', () => {
    const values: Record<string, unknown> = { worktreesDir: '${workspaceFolder}/wt', agentDirs: ['${workspaceFolder}/agents', '${userHome}/agents'] };
    const { settings, errors } = readSettings((k) => values[k]);
    assert.equal(settings.worktreesDir, '');
    assert.deepEqual(settings.agentDirs, []);
    assert.deepEqual(errors, [
      'rpcWorkers.agentDirs is invalid (1: only ${workspaceFolder} is substituted); using the default []',
      'rpcWorkers.worktreesDir is invalid (variables such as ${workspaceFolder} are not substituted (write an absolute path, ~/…, or a path relative to the repository)); using the default ""',
    ]);
    assert.deepEqual(readSettings((k) => (k === 'agentDirs' ? ['${workspaceFolder}/agents'] : undefined)).settings.agentDirs, ['${workspaceFolder}/agents']);
  });

  it('a worktrees folder of blanks is no folder (worktrees go beside the repository), and one with a space around it is trimmed', () => {
    // Kept as written, "   " resolved to a folder named by the blanks inside the repository.
    assert.equal(readSettings((k) => (k === 'worktreesDir' ? '   ' : undefined)).settings.worktreesDir, '');
    assert.equal(readSettings((k) => (k === 'worktreesDir' ? ' ~/wt ' : undefined)).settings.worktreesDir, '~/wt');
  });

  it('a profile that is no object (a name alone, null) is refused saying what a profile is, not "Invalid input"', () => {
    const { errors } = readSettings((k) => (k === 'profiles' ? ['pi', null] : undefined));
    assert.deepEqual(errors, [0, 1].map((i) => `rpcWorkers.profiles[${i}] is invalid (a profile is an object: { "name": …, "dialect": "pi", "tau" or "acp", "command": … }); that profile is ignored`));
  });

  it('a command written as a list is said to be no string (its arguments go in args), not missing; each thing wrong is said once', () => {
    const said = (profile: object) => readSettings((k) => (k === 'profiles' ? [profile] : undefined)).errors[0]?.replace(/^rpcWorkers\.profiles\[0\] is invalid \((.*)\); that profile is ignored$/, '$1');
    const list = 'command: command must be a string: the program alone, its arguments go in args';
    assert.equal(said({ name: 'claude', dialect: 'acp', command: ['npx', '-y', '@agentclientprotocol/claude-agent-acp'] }), list);
    assert.equal(said({ name: 'claude', dialect: 'acp', command: [] }), list);
    assert.equal(said({ name: 'claude', dialect: 'acp' }), 'command: a profile needs a command');
    assert.equal(said({ name: 'claude', dialect: 'acp', command: '  ' }), 'command: a profile needs a command');
    assert.equal(said({ name: 7, dialect: 'acp', command: 'x' }), 'name: name must be a string');
    assert.deepEqual(readSettings((k) => (k === 'agentDirs' ? [[]] : undefined)).errors, ['rpcWorkers.agentDirs is invalid (0: directories must be strings); using the default []']);
  });

  it('names every key package.json declares for a profile, and takes each', () => {
    const items = (manifest as unknown as { contributes: { configuration: { properties: Record<string, { items: { properties: Record<string, unknown> } }> } } }).contributes.configuration.properties['rpcWorkers.profiles'].items;
    const { errors } = readSettings((k) => (k === 'profiles' ? [{ name: 'x', dialect: 'pi', command: 'pi', nope: 1 }] : undefined));
    const named = /its keys: ([^)]*)\)/.exec(errors[0])![1].split(', ');
    assert.deepEqual([...named].sort(), Object.keys(items.properties).sort());
  });

  it('package.json declares every setting with the same default and range', () => {
    const props = (manifest as unknown as { contributes: { configuration: { properties: Record<string, { default: unknown; minimum?: number; maximum?: number; description?: string; markdownDescription?: string }> } } }).contributes.configuration.properties;
    for (const [key, spec] of Object.entries(SETTINGS)) {
      const p = props[`rpcWorkers.${key}`];
      assert.ok(p, `rpcWorkers.${key} is not contributed`);
      assert.deepEqual(p.default, spec.default, `default of ${key}`);
      assert.ok(p.description || p.markdownDescription, `${key} has no description`);
      const check = spec.schema.safeParse(p.default);
      assert.ok(check.success, `the contributed default of ${key} fails its own schema`);
      if (p.minimum !== undefined) assert.equal(spec.schema.safeParse(p.minimum - 1).success, false, `${key}: below the contributed minimum is accepted`);
      if (p.maximum !== undefined) assert.equal(spec.schema.safeParse(p.maximum + 1).success, false, `${key}: above the contributed maximum is accepted`);
    }
  });
});

describe('ui lazy host', () => {
  it('answers with the core\'s own default limits before the core is loaded', () => {
    const lazy = new LazySupervisor(() => assert.fail('the core was loaded'), {});
    assert.deepEqual(lazy.limits, DEFAULT_LIMITS);
    assert.equal(lazy.loaded, false);
  });

  it('a listener that throws is said through its warn (the extension\'s log), and the others still hear', async () => {
    const warned: string[] = [];
    const lazy = new LazySupervisor(() => createSupervisor({ watchdog: false }), {}, { warn: (m) => void warned.push(m) });
    const heard: string[] = [];
    lazy.onState(() => { throw new Error('boom'); });
    lazy.onState((s) => void heard.push(s.status));
    try {
      const r = await lazy.start(fakeSpec('tau'));
      assert.equal(r.status, 'started');
      assert.ok(heard.includes('running'), `heard ${heard.join(', ')}`);
      assert.match(warned[0] ?? '', /^onState listener threw: Error: boom/);
    } finally {
      await lazy.dispose();
    }
  });
});

describe('default limits', () => {
  it('package.json declares the host limits\' defaults of the one copy (core/worker/defaultLimits.ts)', () => {
    const props = (manifest as unknown as { contributes: { configuration: { properties: Record<string, { default: unknown }> } } }).contributes.configuration.properties;
    // Each host limit a setting sets, by the setting's name.
    const declared = { maxWorkers: 'maxWorkers', maxPromptBytes: 'maxPromptBytes', commandTimeoutMs: 'commandTimeoutMs', settleTimeoutMs: 'settleTimeoutMs', eventLogSize: 'eventStoreSize' } as const;
    for (const [setting, limit] of Object.entries(declared)) {
      assert.equal(props[`rpcWorkers.${setting}`]?.default, LEAF_DEFAULTS[limit], `rpcWorkers.${setting}'s default`);
    }
    assert.deepEqual(Object.keys(hostLimits(readSettings(() => undefined).settings)).sort(), Object.values(declared).sort(), 'a host limit set by a setting is missing here');
  });

  it('an untrusted workspace\'s own values of what decides a start (program, args, env, guard, cards, worktrees) are not read', () => {
    const caps = (manifest as unknown as { capabilities: { untrustedWorkspaces: { supported: unknown; restrictedConfigurations: string[] } } }).capabilities.untrustedWorkspaces;
    // VS Code honours restrictedConfigurations only for "limited" support.
    assert.equal(caps.supported, 'limited');
    // history.resumeInterrupted starts workers at a reload, unasked.
    const launching = ['profiles', 'defaultProfile', 'agentDirs', 'guard.allowedPaths', 'guard.forbiddenPaths', 'guard.allowBash', 'guard.onViolation', 'worktreesDir', 'history.resumeInterrupted'];
    assert.deepEqual(launching.filter((k) => !caps.restrictedConfigurations.includes(`rpcWorkers.${k}`)), []);
    for (const k of caps.restrictedConfigurations) assert.ok(k.replace(/^rpcWorkers\./, '') in SETTINGS, `${k} is restricted but is no setting`);
  });

  it('each setting an untrusted workspace may not set is watched while a worker runs (a worker may change it for the next)', () => {
    assert.ok(vscodeStub);
    const restricted = (manifest as unknown as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } }).capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.deepEqual(restricted.map((k) => k.replace(/^rpcWorkers\./, '')).filter((k) => !(WATCHED_SETTINGS as readonly string[]).includes(k)), []);
  });

  it('a history total below one session\'s bound is named in an error, with the total it counts as', () => {
    const values: Record<string, unknown> = { 'history.maxTotalMiB': 16 };
    const { settings, errors } = readSettings((k) => values[k]);
    // The history holds at least one whole session: 16 MiB counts as 32 (history.maxSessionMiB's default).
    assert.equal(historyLimits(settings.history).maxTotalBytes, 32 * 1024 * 1024);
    assert.deepEqual(errors, ['rpcWorkers.history.maxTotalMiB (16) is less than rpcWorkers.history.maxSessionMiB (32): the history holds at least one whole session, so 32 is used']);
    assert.deepEqual(readSettings((k) => ({ 'history.maxTotalMiB': 16, 'history.maxSessionMiB': 16 } as Record<string, unknown>)[k]).errors, []);
  });

  it('the history settings\' defaults are the core\'s (core/history/format.ts), and each contributed setting is read', () => {
    const props = (manifest as unknown as { contributes: { configuration: { properties: Record<string, { default: unknown; enum?: unknown[]; type?: string }> } } }).contributes.configuration.properties;
    const MiB = 1024 * 1024;
    const { history } = readSettings(() => undefined).settings;
    assert.deepEqual(historyLimits(history), { maxSessions: DEFAULT_HISTORY_LIMITS.maxSessions, maxSessionBytes: DEFAULT_HISTORY_LIMITS.maxSessionBytes, maxTotalBytes: DEFAULT_HISTORY_LIMITS.maxTotalBytes });
    assert.equal(props['rpcWorkers.history.maxSessionMiB']?.default, DEFAULT_HISTORY_LIMITS.maxSessionBytes / MiB);
    // A setting package.json offers that the code never reads would be a control that does nothing.
    assert.deepEqual(Object.keys(props).map((k) => k.replace(/^rpcWorkers\./, '')).sort(), Object.keys(SETTINGS).sort());
    for (const [key, p] of Object.entries(props)) {
      const spec = SETTINGS[key.replace(/^rpcWorkers\./, '') as keyof typeof SETTINGS];
      // Every value the settings editor offers is one the code takes, and a value of another type is refused.
      for (const v of p.enum ?? []) assert.ok(spec.schema.safeParse(v).success, `${key}: the offered ${JSON.stringify(v)} is refused`);
      if (p.type === 'integer') assert.equal(spec.schema.safeParse((p.default as number) + 0.5).success, false, `${key}: a fraction is taken`);
    }
  });
});

describe('ui settings in an untrusted workspace', () => {
  afterEach(() => vscodeStub.reset());

  it('package.json\'s restricted settings are the ones read without their workspace values there', () => {
    const restricted = (manifest as unknown as { capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } } }).capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.deepEqual([...RESTRICTED_SETTINGS].sort(), restricted.map((k) => k.replace(/^rpcWorkers\./, '')).sort());
  });

  it('a restricted setting\'s workspace value is neither used nor reported; the user\'s still is; a trusted workspace reads both', () => {
    vscodeStub.workspaceSettings.set('profiles', [{ name: 'repo', dialect: 'gpt', command: './bin/agent' }, { name: 'repo2', dialect: 'pi', command: './bin/agent' }]);
    vscodeStub.workspaceSettings.set('guard.allowBash', true);
    vscodeStub.workspaceSettings.set('maxWorkers', 2);
    vscodeStub.userSettings.set('profiles', [{ name: 'mine', dialect: 'pi', command: 'pi' }]);
    vscodeStub.trusted = false;
    const untrusted = readConfiguration();
    assert.deepEqual(untrusted.errors, [], 'an invalid workspace profile, ignored there, raises no error');
    assert.deepEqual(untrusted.settings.profiles.map((p) => p.name), ['mine']);
    assert.equal(untrusted.settings.guard.allowBash, false);
    assert.equal(untrusted.settings.maxWorkers, 2, 'a setting that is not restricted keeps its workspace value');
    vscodeStub.trusted = true;
    const trusted = readConfiguration();
    assert.deepEqual(trusted.settings.profiles.map((p) => p.name), ['repo2']);
    assert.equal(trusted.settings.guard.allowBash, true);
    assert.equal(trusted.errors.length, 1);
    assert.match(trusted.errors[0]!, /^rpcWorkers\.profiles\[0\] is invalid/);
  });
});

describe('settings read out of their section\'s layers (one inspect for all)', () => {
  it('finds a dotted key nested in each layer, takes a list or a value as it is, and a layer not set as no value', () => {
    const section = {
      globalValue: { guard: { allowBash: true, allowedPaths: ['src'] }, maxWorkers: 3 },
      workspaceValue: { guard: { allowedPaths: ['lib'] }, profiles: [{ name: 'p' }] },
    };
    assert.deepEqual(layered(section, 'guard.allowBash'), { globalValue: true, workspaceValue: undefined, workspaceFolderValue: undefined });
    assert.deepEqual(layered(section, 'guard.allowedPaths'), { globalValue: ['src'], workspaceValue: ['lib'], workspaceFolderValue: undefined });
    assert.deepEqual(layered(section, 'profiles').workspaceValue, [{ name: 'p' }]);
    assert.equal(layered(section, 'maxWorkers').globalValue, 3);
    // A value where a section of keys was expected is no value of the key below it.
    assert.equal(layered({ globalValue: { guard: 'on' } }, 'guard.allowBash').globalValue, undefined);
    assert.deepEqual(layered(undefined, 'maxWorkers'), { globalValue: undefined, workspaceValue: undefined, workspaceFolderValue: undefined });
  });
});

describe('a profile\'s relative command', () => {
  it('is described as resolved where it is: against the worker\'s folder (its worktree, or the folder it starts in), as a failed spawn says', () => {
    const props = (manifest as unknown as { contributes: { configuration: { properties: Record<string, { items: { properties: { command: { description: string } } } }> } } }).contributes.configuration.properties;
    const described = props['rpcWorkers.profiles']!.items.properties.command.description;
    assert.match(described, /relative to the worker's folder/);
    assert.doesNotMatch(described, /relative to the workspace folder/);
    const enoent = Object.assign(new Error('spawn ./bin/agent ENOENT'), { code: 'ENOENT' });
    assert.match(spawnFailure('./bin/agent', enoent, { cwd: '/nowhere/wt', path: '' }).why, /relative to the worker's folder \/nowhere\/wt/);
  });
});
