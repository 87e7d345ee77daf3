// The worker profiles Start Worker offers: the configured ones, pi and τ when found, the demo.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoSpec, findExecutable, findFirstExecutable, installAdvice, installLine, loginHint, knownAcpAgent, profileChoices, searchDirs, TAU_COMMANDS, unknownDefault } from '../../src/ui/settings/profiles';

describe('ui profiles', () => {
  it('offers the configured profiles, pi when found, and the demo worker', () => {
    const choices = profileChoices({ configured: [{ name: 'mine', dialect: 'tau', command: 'tau', args: ['--mode', 'rpc'] }], extensionPath: '/ext', piPath: '/bin/pi' });
    assert.deepEqual(choices.map((c) => [c.name, c.origin]), [['mine', 'settings'], ['pi', 'detected'], ['Demo worker', 'builtin']]);
    assert.deepEqual(choices[1].spec('/ws'), { dialect: 'pi', command: '/bin/pi', name: 'pi', cwd: '/ws' });
    assert.equal(profileChoices({ configured: [], extensionPath: '/ext', piPath: null }).length, 1);
  });

  it('a defaultProfile that names no profile here is said, not passed over (a typo, an agent not installed)', () => {
    const choices = profileChoices({ configured: [{ name: 'mine', dialect: 'tau', command: 'tau' }], extensionPath: '/ext', piPath: null });
    assert.equal(unknownDefault(choices, ''), null, 'unset: nothing to say');
    assert.equal(unknownDefault(choices, 'mine'), null);
    assert.equal(unknownDefault(choices, 'Demo worker'), null);
    assert.equal(unknownDefault(choices, 'Claud'), 'rpcWorkers.defaultProfile "Claud" is not a profile here');
  });

  it('offers τ when ffwf-tau (or tau) is found, with its sessions in the extension storage; a τ profile may allow discovery', () => {
    const choices = profileChoices({ configured: [], extensionPath: '/ext', piPath: null, tauPath: '/venv/bin/ffwf-tau', tauSessionDir: '/storage/tau-sessions' });
    assert.deepEqual(choices.map((c) => [c.name, c.origin, c.dialect]), [['τ', 'detected', 'tau'], ['Demo worker', 'builtin', 'tau']]);
    assert.deepEqual(choices[0].spec('/ws'), { dialect: 'tau', command: '/venv/bin/ffwf-tau', name: 'τ', cwd: '/ws', sessionDir: '/storage/tau-sessions' });
    const configured = profileChoices({
      configured: [{ name: 'my tau', dialect: 'tau', command: '/venv/bin/ffwf-tau', discovery: true }], extensionPath: '/ext', piPath: null,
      tauPath: '/venv/bin/ffwf-tau', tauSessionDir: '/s',
    });
    // The detected τ is the configured one: offered once, as the person configured it.
    assert.deepEqual(configured.map((c) => c.name), ['my tau', 'Demo worker']);
    assert.equal(configured[0].spec('/ws').discovery, true);
    assert.equal(configured[0].spec('/ws').sessionDir, '/s');
    assert.match(configured[0].detail, /discovery on/);
  });

  it('finds τ as ffwf-tau before tau, on the search path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-bin-'));
    try {
      for (const name of ['tau', 'ffwf-tau']) {
        writeFileSync(join(dir, name), '#!/bin/sh\n');
        chmodSync(join(dir, name), 0o755);
      }
      assert.equal(findFirstExecutable(TAU_COMMANDS, ['/nonexistent', dir]), join(dir, 'ffwf-tau'));
      rmSync(join(dir, 'ffwf-tau'));
      assert.equal(findFirstExecutable(TAU_COMMANDS, [dir]), join(dir, 'tau'));
      assert.equal(findFirstExecutable(TAU_COMMANDS, ['/nonexistent']), null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the demo worker runs on the host runtime as Node, even where that is Electron', () => {
    const spec = demoSpec('/ext', '/ws', '/opt/electron');
    assert.equal(spec.command, '/opt/electron');
    assert.deepEqual(spec.args, ['/ext/dist/demo-worker.js']);
    assert.equal(spec.env?.ELECTRON_RUN_AS_NODE, '1');
  });

  it('finds an executable in the workspace node_modules/.bin before PATH, and skips what is not executable', () => {
    const root = mkdtempSync(join(tmpdir(), 'ui-profiles-'));
    try {
      const ws = join(root, 'ws');
      const bin = join(ws, 'node_modules', '.bin');
      const onPath = join(root, 'path');
      mkdirSync(bin, { recursive: true });
      mkdirSync(onPath);
      writeFileSync(join(onPath, 'pi'), '#!/bin/sh\n');
      chmodSync(join(onPath, 'pi'), 0o755);
      assert.equal(findExecutable('pi', searchDirs([ws], onPath)), join(onPath, 'pi'));
      writeFileSync(join(bin, 'pi'), '#!/bin/sh\n');
      chmodSync(join(bin, 'pi'), 0o644);
      if (process.getuid?.() !== 0) assert.equal(findExecutable('pi', [bin]), null, 'a non-executable file was taken');
      chmodSync(join(bin, 'pi'), 0o755);
      assert.equal(findExecutable('pi', searchDirs([ws], onPath)), join(bin, 'pi'));
      assert.equal(findExecutable('nope', searchDirs([ws], onPath)), null);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a configured ACP profile for a known agent keeps its defaults unless it says otherwise (a profile that only adds IS_SANDBOX=1 still asks)', () => {
    const spec = (p: Record<string, unknown>) => profileChoices({ configured: [{ name: 'p', dialect: 'acp', ...p } as never], extensionPath: '/ext', piPath: null })[0].spec('/ws');
    const claude = spec({ command: '/usr/local/bin/claude-agent-acp', env: { IS_SANDBOX: '1' } });
    assert.equal(claude.mode, 'default', 'Claude started in the adapter\'s auto, which runs commands without asking');
    assert.equal(claude.clientFiles, undefined);
    assert.equal(spec({ command: 'claude-agent-acp', mode: 'acceptEdits' }).mode, 'acceptEdits');
    assert.equal(spec({ command: 'gemini', args: ['--acp'] }).clientFiles, false, 'Gemini was offered the host\'s files, which break its new files');
    assert.equal(spec({ command: 'gemini', args: ['--acp'], clientFiles: true }).clientFiles, true);
    assert.equal(spec({ command: 'npx', args: ['-y', '@google/gemini-cli@0.61.0', '--acp'] }).clientFiles, false);
    assert.equal(spec({ command: 'npx', args: ['@agentclientprotocol/claude-agent-acp'] }).mode, 'default');
    const other = spec({ command: '/opt/my-agent', args: ['--acp'] });
    assert.equal(other.mode, undefined);
    assert.equal(other.clientFiles, undefined);
    // The same defaults do not leak into another dialect whose command shares a name.
    assert.equal(profileChoices({ configured: [{ name: 'p', dialect: 'pi', command: 'gemini' }], extensionPath: '/ext', piPath: null })[0].spec('/ws').clientFiles, undefined);
    assert.equal(knownAcpAgent('/x/opencode.exe')?.name, 'OpenCode');
    assert.equal(knownAcpAgent('pnpm', ['dlx', 'opencode-ai', 'acp'])?.name, 'OpenCode');
    assert.equal(knownAcpAgent('npx', ['my-agent']), null);
  });

  it('knows how to install the programs Start Worker knows, by the command\'s name, and no other', () => {
    assert.equal(installLine('claude-agent-acp'), 'npm install -g @agentclientprotocol/claude-agent-acp');
    assert.equal(installLine('/usr/local/bin/opencode'), 'npm install -g opencode-ai');
    assert.match(installLine('pi') ?? '', /^npm install -g @earendil-works\/pi-coding-agent/);
    assert.match(installLine('ffwf-tau') ?? '', /^pipx install ffwf-tau-coding-agent/);
    assert.equal(installLine('my-agent'), null);
  });

  it('knows the install of a command written with its Windows extension (npm\'s .cmd and .ps1, pip\'s .exe), in any case, and in a Windows path', () => {
    const pi = installLine('pi');
    assert.equal(installLine('pi.cmd'), pi);
    assert.equal(installLine('pi.PS1'), pi);
    assert.equal(installLine('ffwf-tau.exe'), installLine('ffwf-tau'));
    assert.equal(installLine('claude-agent-acp.CMD'), 'npm install -g @agentclientprotocol/claude-agent-acp');
    assert.equal(installLine('codex-acp.bat'), 'npm install -g @agentclientprotocol/codex-acp');
    assert.equal(installLine(String.raw`C:\Users\me\AppData\Roaming\npm\pi.cmd`, 'win32'), pi);
    assert.equal(installLine('my-agent.exe'), null);
    assert.equal(installLine('pi.sh'), null, 'not a Windows executable extension');
    // A Windows path the install does not fill: the command to write is the bare name.
    assert.match(installAdvice(String.raw`C:\Tools\pi.exe`, 'win32') ?? '', /, which puts "pi" in npm's global bin folder \(on the PATH\), not at C:\\Tools\\pi\.exe: then set the profile's command to "pi"$/);
  });

  it('says how Claude, Codex and Gemini take a key or a login (they name no command for it), through npx too, and nothing for another', () => {
    assert.match(loginHint('claude-agent-acp') ?? '', /ANTHROPIC_API_KEY.*@anthropic-ai\/claude-code/);
    assert.match(loginHint('codex-acp') ?? '', /OPENAI_API_KEY.*`codex login`.*@openai\/codex/);
    assert.match(loginHint('npx', ['@agentclientprotocol/codex-acp']) ?? '', /OPENAI_API_KEY/);
    assert.match(loginHint('gemini', ['--acp']) ?? '', /GEMINI_API_KEY/);
    // Copilot and OpenCode name their own login command, which the error already says and offers.
    assert.equal(loginHint('copilot', ['--acp']), null);
    assert.equal(loginHint('my-agent'), null);
  });
});
