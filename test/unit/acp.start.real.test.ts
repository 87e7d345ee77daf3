// The five real ACP agents as a person has them right after the install (no key, no login, no
// config): a start that cannot open a session says why in the agent's words, with the login it
// offers and, where it names one, the command that logs in (the UI offers to run it in a terminal).
// Claude Code run as root refuses a session unless told it is sandboxed (IS_SANDBOX=1).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { acpAgentBareLaunch, ensureAcpAgent } from '../fixtures/acp-env.mjs';

const asRoot = process.getuid?.() === 0;

describe('ACP agents right after their install (real, no key, no login)', function () {
  this.timeout(120_000);
  let supervisor: Supervisor;
  const homes: string[] = [];
  before(function () {
    this.timeout(10 * 60_000);
    for (const name of ['copilot', 'gemini', 'codex', 'claude', 'opencode']) ensureAcpAgent(name);
    supervisor = createSupervisor({ limits: { commandTimeoutMs: 60_000 } });
  });
  after(async () => {
    await supervisor?.dispose();
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  });
  async function start(name: string, extraEnv: Record<string, string> = {}) {
    const home = mkdtempSync(path.join(tmpdir(), `rpc-acp-bare-${name}-`));
    homes.push(home);
    const launch = acpAgentBareLaunch(name, { home });
    const r = await supervisor.start({ dialect: 'acp', ...launch, env: { ...launch.env, ...extraEnv }, cwd: home, name });
    if (r.status === 'started') await supervisor.stop(r.workerId);
    return r;
  }

  it('Copilot needs a login: its words, `copilot login`, and its own binary to run it', async () => {
    const r = await start('copilot');
    assert.equal(r.status, 'error');
    if (r.status !== 'error') return;
    assert.equal(r.error, 'Copilot needs a login before it can start a session (session/new (-32000): Authentication required). Run `copilot login` in a terminal, then try again');
    assert.equal(r.login?.label, 'Copilot Login');
    const [binary, ...args] = r.login!.line.split(' ');
    assert.deepEqual(args, ['login']);
    assert.ok(path.isAbsolute(binary) && existsSync(binary), binary);
  });

  it('Gemini and Codex need a key: each says so and lists the logins it offers, with no command to run', async () => {
    const gemini = await start('gemini');
    assert.equal(gemini.status, 'error');
    if (gemini.status === 'error') {
      assert.match(gemini.error, /^Gemini CLI needs a login before it can start a session \(session\/new \(-32000\): Gemini API key is missing or not configured\.\)\. It offers: Log in with Google: .*; Gemini API key: /);
      assert.equal(gemini.login, undefined);
      assert.equal(gemini.needsLogin, true, 'said as a login refusal: the UI adds GEMINI_API_KEY');
    }
    const codex = await start('codex');
    assert.equal(codex.status, 'error');
    if (codex.status === 'error') {
      assert.equal(codex.error, 'Codex needs a login before it can start a session (session/new (-32000): Authentication required). It offers: API Key: Use an API key to authenticate; ChatGPT: Use ChatGPT to authenticate');
      assert.equal(codex.login, undefined);
      assert.equal(codex.needsLogin, true, 'said as a login refusal: the UI adds OPENAI_API_KEY and codex login');
    }
  });

  it('OpenCode opens a session without any', async () => {
    const r = await start('opencode');
    assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
  });

  it(asRoot ? 'Claude as root, not told it is sandboxed, refuses a session: the host says to set IS_SANDBOX=1; with it, it starts' : 'Claude, not root, starts without IS_SANDBOX', async () => {
    const r = await start('claude');
    if (!asRoot) {
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      return;
    }
    assert.equal(r.status, 'error');
    // Not a login: the UI must not add Claude's key advice to it.
    if (r.status === 'error') assert.equal(r.needsLogin, undefined);
    if (r.status === 'error') assert.match(r.error, /^the worker did not become ready: Claude Code refuses to run as root unless IS_SANDBOX=1 is set in the profile's env \(session\/new \(-32603\): Internal error: --dangerously-skip-permissions cannot be used with root/);
    const sandboxed = await start('claude', { IS_SANDBOX: '1' });
    assert.equal(sandboxed.status, 'started', sandboxed.status === 'error' ? sandboxed.error : '');
  });
});
