/* eslint-disable @typescript-eslint/no-explicit-any -- the README's JSON recipes are parsed and edited by shape */
// The README's recipes for a first real worker (issue 28, major 3), tested as written: each
// config is read out of README.md, its model URL pointed at the mock model server (the one
// change: a hosted API or an Ollama on this machine are not there in a test), written where the
// README says the worker reads it (under a throw-away HOME), and the real worker is started by the
// host from the README's own profile (or, for τ, the profile Start Worker finds on PATH). The
// worker's request must reach the server with the recipe's model and key, and its answer the log.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Supervisor, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { ACP_AGENTS, findFirstExecutable, installLine, profileChoices, searchDirs, TAU_COMMANDS } from '../../src/ui/settings/profiles';
import { WALKTHROUGH_KEYS } from '../../src/ui/walkthrough/progress';
import { readSettings } from '../../src/ui/settings/settings';
import { ofType, record, ROOT, waitFor } from '../helpers/supervisor';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import { requireTau } from '../fixtures/tau-env.mjs';
import { pi1LauncherDir } from '../fixtures/pi-env.mjs';
import { ACP_AGENTS as INSTALLED } from '../fixtures/acp-env.mjs';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The JSON block that follows `<!-- recipe: NAME -->` in the README, parsed. */
function recipe(name: string): any {
  const m = new RegExp(`<!-- recipe: ${name} -->\\s*\`\`\`json\\n([\\s\\S]*?)\`\`\``).exec(README);
  assert.ok(m, `README.md has no recipe "${name}"`);
  return JSON.parse(m[1]);
}

/** A settings.json profile from the README's profiles recipe, as the extension reads it. */
function readmeProfile(name: string, extra: { tauSessionDir: string; piSessionDir: string }) {
  const profiles = recipe('profiles')['rpcWorkers.profiles'];
  const { settings, errors } = readSettings((k) => (k === 'profiles' ? profiles : undefined));
  assert.deepEqual(errors, [], 'the README\'s profiles are not valid settings');
  const choice = profileChoices({ configured: settings.profiles, extensionPath: ROOT, piPath: null, ...extra }).find((c) => c.name === name);
  assert.ok(choice, `the README has no profile "${name}"`);
  return choice;
}

const TEXT = 'The recipe works.';
const baseEnv = (home: string, bin: string) => ({
  HOME: home, TMPDIR: path.join(home, 'tmp'), PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
  NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
});

describe('the README\'s first-worker recipes, as written', function () {
  this.timeout(90_000);
  let llm: MockLlm;
  let home: string;
  let supervisor: Supervisor;
  beforeEach(async () => {
    llm = await startMockLlm({ defaultText: TEXT });
    home = mkdtempSync(path.join(tmpdir(), 'rpcw-recipe-'));
    mkdirSync(path.join(home, 'tmp'));
    supervisor = createSupervisor();
  });
  afterEach(async () => {
    await supervisor.dispose();
    await llm.close();
    rmSync(home, { recursive: true, force: true });
  });

  /** Starts the worker, prompts once; the model's answer must be in the log. */
  async function answers(spec: WorkerSpec): Promise<void> {
    const r = await supervisor.start(spec);
    if (r.status !== 'started') return assert.fail(`${spec.name}: ${r.error}`);
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'), 60_000, 'the end of the first turn');
    assert.equal((await supervisor.prompt(r.workerId, 'hello')).status, 'accepted');
    const end = await settled;
    assert.equal(end.end_reason, 'done', `${spec.name}: ${JSON.stringify(end)}; stderr: ${supervisor.list().find((s) => s.workerId === r.workerId)?.stderrTail.join('\n')}`);
    assert.ok(JSON.stringify(events).includes('The recipe'), `${spec.name}: the model's answer is not in the log`);
  }

  const tauHome = (config: any) => {
    mkdirSync(path.join(home, '.tau'));
    writeFileSync(path.join(home, '.tau', 'config.json'), JSON.stringify(config));
  };
  const tauBin = () => path.dirname(requireTau());

  it('τ, a hosted model with a key in ~/.tau/config.json: Start Worker → τ, found on PATH', async () => {
    const config = recipe('tau-hosted');
    for (const m of Object.values<any>(config.models)) m.base_url = llm.baseUrl;
    tauHome(config);
    const env = baseEnv(home, tauBin());
    // What the extension offers when ffwf-tau is on PATH: no profile needed.
    const tauPath = findFirstExecutable(TAU_COMMANDS, searchDirs([], env.PATH));
    const choice = profileChoices({ configured: [], extensionPath: ROOT, piPath: null, tauPath, tauSessionDir: path.join(home, 'sessions') }).find((c) => c.name === 'τ');
    assert.ok(choice, 'τ on PATH is not offered');
    await answers({ ...choice.spec(home), env });
    assert.equal(llm.requests[0].model, 'gpt-4.1-mini');
    assert.equal(llm.authorizations[0], 'Bearer sk-your-key');
  });

  it('τ, a local OpenAI-compatible server: the README\'s "τ (local)" profile', async () => {
    const config = recipe('tau-local');
    for (const m of Object.values<any>(config.models)) m.base_url = llm.baseUrl;
    tauHome(config);
    const choice = readmeProfile('τ (local)', { tauSessionDir: path.join(home, 'sessions'), piSessionDir: path.join(home, 'pi-sessions') });
    await answers({ ...choice.spec(home), env: baseEnv(home, tauBin()) });
    assert.equal(llm.requests[0].model, 'qwen2.5-coder:7b');
  });

  // pi 1.x reads "$NAME" as an environment variable; 0.73.1 takes the bare name (the README says so).
  for (const pi of [{ version: '0.73.1', bin: () => path.join(ROOT, 'node_modules', '.bin'), key: (k: string) => k.replace(/^\$/, '') }, { version: '1.6.0', bin: pi1LauncherDir, key: (k: string) => k }]) {
    const piHome = (config: any) => {
      for (const p of Object.values<any>(config.providers)) {
        p.baseUrl = llm.baseUrl;
        p.apiKey = pi.key(p.apiKey);
      }
      mkdirSync(path.join(home, '.pi', 'agent'), { recursive: true });
      writeFileSync(path.join(home, '.pi', 'agent', 'models.json'), JSON.stringify(config));
    };
    // pi's own switches that keep it offline in a test; nothing of the recipe.
    const piEnv = (extra: Record<string, string> = {}) => ({ ...baseEnv(home, pi.bin()), PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0', ...extra });
    const sessions = () => ({ tauSessionDir: path.join(home, 'sessions'), piSessionDir: path.join(home, 'pi-sessions') });

    it(`pi ${pi.version}, a hosted model in ~/.pi/agent/models.json, its key in the environment variable the recipe names`, async () => {
      piHome(recipe('pi-hosted'));
      const choice = readmeProfile('pi (OpenRouter)', sessions());
      await answers({ ...choice.spec(home), env: piEnv({ OPENROUTER_API_KEY: 'sk-or-test' }) });
      assert.equal(llm.requests[0].model, 'anthropic/claude-sonnet-4.5');
      assert.equal(llm.authorizations[0], 'Bearer sk-or-test');
    });

    it(`pi ${pi.version}, a local OpenAI-compatible server: the README's "pi (local)" profile`, async () => {
      piHome(recipe('pi-local'));
      const choice = readmeProfile('pi (local)', sessions());
      await answers({ ...choice.spec(home), env: piEnv() });
      assert.equal(llm.requests[0].model, 'qwen2.5-coder:7b');
    });
  }
});

// What a newcomer reads first, checked against what ships: every name the README and the
// walkthrough's pages give (settings, command titles, npm scripts, files, install lines) is
// spelt as package.json, the scripts and the code have it. No worker runs here.
describe('the README and the walkthrough name what exists', () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const c = pkg.contributes;
  const settings: Record<string, any> = c.configuration.properties;
  const commands: any[] = c.commands;
  const views = Object.values<any[]>(c.views).flat().map((v) => v.id);
  const WALK_DIR = path.join(ROOT, 'media', 'walkthrough');
  const walkPages = readdirSync(WALK_DIR).filter((f) => f.endsWith('.md')).map((f) => ({ file: `media/walkthrough/${f}`, text: readFileSync(path.join(WALK_DIR, f), 'utf8') }));
  const docs = [{ file: 'README.md', text: README }, ...walkPages];
  /** Prose with its line breaks undone (a title may be wrapped). */
  const flat = (t: string) => t.replace(/\s*\n\s*/g, ' ');

  it('every rpcWorkers.* name is a setting (or a group of them), a command or a view', () => {
    const known = (k: string) => k in settings || commands.some((x) => x.command === k) || views.includes(k) || Object.keys(settings).some((s) => s.startsWith(`${k}.`));
    const unknown = docs.flatMap((d) => [...d.text.matchAll(/rpcWorkers\.[A-Za-z.]*[A-Za-z]/g)].map((m) => m[0]).filter((k) => !known(k)).map((k) => `${d.file}: ${k}`));
    assert.deepEqual(unknown, []);
  });

  it('every "RPC Workers: …" command title is a command\'s title', () => {
    const titles = new Set(commands.map((x) => x.title));
    const unknown = docs.flatMap((d) => [...flat(d.text).matchAll(/RPC Workers: ([^*`)\n]+?)(?=\*|`|\)| \(|,|$)/g)].map((m) => m[1].trim()).filter((t) => !titles.has(t)).map((t) => `${d.file}: ${t}`));
    assert.deepEqual(unknown, []);
  });

  it('every npm command it gives is a script of package.json', () => {
    const named = docs.flatMap((d) => [...d.text.matchAll(/\bnpm (?:run ([\w:-]+)|(start|test)\b)/g)].map((m) => ({ file: d.file, script: m[1] ?? m[2] })));
    assert.ok(named.some((n) => n.script === 'start') && named.some((n) => n.script === 'test'), 'the README\'s first commands are npm start and npm test');
    assert.deepEqual(named.filter((n) => !(n.script in pkg.scripts)), []);
  });

  it('npm test\'s line names every suite npm test runs, as the Tests section lists them', () => {
    const test = readFileSync(path.join(ROOT, 'scripts', 'test.mjs'), 'utf8');
    const suites = /--only ([\w,]+)/.exec(test)?.[1].split(',') ?? [];
    const section = README.slice(README.indexOf('\n## Tests\n')).split(/\n## /)[1] ?? '';
    const listed = [...section.matchAll(/^- \*\*(\w+)\*\*[ :]/gm)].map((m) => m[1]);
    assert.deepEqual(listed, suites, 'the Tests section\'s suites');
    const first = /npm ci && npm test +# [^(\n]*\(([^)]+)\)/.exec(README)?.[1].split(', ') ?? [];
    assert.equal(first.length, suites.length, `the README's second command says it runs (${first.join(', ')}); npm test runs ${suites.join(', ')}`);
  });

  it('every relative link and image exists, and every #anchor is a heading of the README', () => {
    // GitHub's heading anchors: lower case, punctuation dropped, spaces as dashes.
    const anchors = new Set([...README.matchAll(/^#+ (.+)$/gm)].map((m) => m[1].toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s/g, '-')));
    const broken = docs.flatMap((d) => [...d.text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((u) => !/^[a-z]+:/i.test(u)).filter((u) => {
      const [file, anchor] = u.split('#');
      if (file) return !existsSync(path.resolve(path.dirname(path.join(ROOT, d.file)), file));
      return !anchors.has(decodeURIComponent(anchor ?? ''));
    }).map((u) => `${d.file}: ${u}`));
    assert.deepEqual(broken, []);
  });

  it('a program it says to name in a profile is a path a profile takes: no leading ~, which no shell expands', () => {
    const tilde = docs.flatMap((d) => [...flat(d.text).matchAll(/name `(~[^`]*)` in a profile|"command": "(~[^"]*)"/g)].map((m) => `${d.file}: ${m[1] ?? m[2]}`));
    assert.deepEqual(tilde, []);
  });

  it('the Settings table lists every setting once, with package.json\'s default', () => {
    const rows = new Map([...README.matchAll(/^\| `(rpcWorkers\.[\w.]+)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2].trim().replace(/^`|`$/g, '')]));
    assert.deepEqual([...rows.keys()].sort(), Object.keys(settings).sort());
    for (const [key, shown] of rows) assert.deepEqual(JSON.parse(shown), settings[key].default, key);
  });

  it('the profile keys it lists are the ones a profile takes (package.json and the settings\' own error)', () => {
    const row = /^\| `rpcWorkers\.profiles` \|[^|]+\| ([^|]+)\|/m.exec(README)?.[1] ?? '';
    const said = /and the (\w+) below/.exec(row)?.[1];
    const section = /A profile's own switches[^\n]*\n((?:(?:- | {2}).*\n)+)/.exec(README)?.[1] ?? '';
    const switches = [...section.matchAll(/^- `(\w+)`/gm)].map((m) => m[1]);
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
    assert.equal(said, words[switches.length], `the table says "the ${said} below"; ${switches.length} are listed`);
    const listed = [...[...row.matchAll(/`(\w+)`/g)].map((m) => m[1]).filter((k) => !['pi', 'tau', 'acp'].includes(k)), ...switches];
    const manifest = Object.keys(settings['rpcWorkers.profiles'].items.properties);
    assert.deepEqual([...listed].sort(), [...manifest].sort());
    const { errors } = readSettings((k) => (k === 'profiles' ? [{ name: 'x', dialect: 'pi', command: 'pi', gaurd: true }] : undefined));
    const keys = /its keys: ([^)]+)\)/.exec(errors.join('\n'))?.[1].split(', ');
    assert.deepEqual([...(keys ?? [])].sort(), [...manifest].sort(), 'the error for a misspelt key names the keys a profile takes');
  });

  it('each walkthrough step: its page exists, its buttons run contributed commands, it completes on a key the extension sets', () => {
    const [walk] = c.walkthroughs;
    const keys = Object.values<string>(WALKTHROUGH_KEYS);
    for (const step of walk.steps) {
      assert.ok(existsSync(path.join(ROOT, step.media.markdown)), `${step.id}: ${step.media.markdown}`);
      for (const m of step.description.matchAll(/\(command:([\w.]+)/g)) assert.ok(m[1].startsWith('workbench.') || commands.some((x) => x.command === m[1]), `${step.id}: command ${m[1]}`);
      for (const e of step.completionEvents) {
        const [kind, what] = e.split(/:(.*)/);
        assert.ok(kind === 'onContext' ? keys.includes(what) : kind === 'onSettingChanged' && what in settings, `${step.id}: ${e}`);
      }
    }
  });

  it('the install line of each agent is the one Start Worker gives and the tests install, and each login is named', () => {
    const installPage = walkPages.find((p) => p.file.endsWith('install-agent.md'))?.text ?? '';
    for (const agent of ACP_AGENTS) {
      const line = `npm install -g ${agent.npm}`;
      assert.equal(installLine(agent.command), line);
      const tested = Object.values(INSTALLED).find((a) => a.bin === agent.command);
      assert.equal(tested?.package, agent.npm, `${agent.name}: the package the tests install`);
      assert.ok(README.includes(`\`${line}\` (${tested.version})`), `${agent.name}: the README's ACP table`);
      assert.ok(installPage.includes(`\`${line}\``), `${agent.name}: the walkthrough's table`);
    }
    assert.ok(installLine('pi')?.startsWith('npm install -g @earendil-works/pi-coding-agent'));
    assert.ok(installLine('ffwf-tau')?.startsWith('pipx install ffwf-tau-coding-agent'));
    for (const line of ['npm install -g @earendil-works/pi-coding-agent', 'pipx install ffwf-tau-coding-agent']) assert.ok(installPage.includes(line) && README.includes(line), line);
    // How each agent logs in, as the README's ACP table says: the walkthrough names every one.
    const logins = /Each agent logs in[\s\S]*?\n\n/.exec(installPage)?.[0] ?? '';
    for (const agent of ACP_AGENTS) assert.ok(flat(logins).includes(agent.name.replace('GitHub ', '')), `the walkthrough's login sentence leaves out ${agent.name}`);
    // A login run by a program other than the adapter (Codex's `codex login`) needs that program's
    // own install: a global npm install puts only the installed package's own commands on PATH.
    for (const agent of ACP_AGENTS) {
      const row = README.split('\n').find((l) => l.startsWith(`| ${agent.name} |`)) ?? '';
      const login = row.split('|')[4] ?? '';
      const programs = [...login.matchAll(/`([a-z][\w-]*)(?: [^`]*)?`/g)].map((m) => m[1]).filter((p) => p !== agent.command && p !== 'npm');
      for (const program of programs) {
        const install = /`(npm install -g [^`]+)`/.exec(login)?.[1];
        assert.ok(install, `${agent.name}: the README names \`${program}\` for its login, and not how to install it`);
        assert.ok(installPage.includes(`\`${install}\``), `${agent.name}: the walkthrough does not say how to install \`${program}\``);
      }
    }
  });
});
