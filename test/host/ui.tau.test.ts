// Real τ (ffwf-tau-coding-agent 0.15.0, installed into the cache by scripts/ensure-workers.mjs,
// offline on the mock LLM) started and driven through the extension's commands: a configured τ
// profile, a prompt whose reply streams into the event log, and a tool call aborted mid-command.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import type { ExtensionApi } from '../../src/ui/extension';
import { cacheDir, extensionApi, state, stopAll, streamThenAbort, TAU_VERSION, waitFor } from './ui.support';

type R = { status: string; workerId?: string; error?: string };

/** scripts/ensure-workers.mjs's tauCommand(). */
const tauCommand = () => path.join(cacheDir(), `tau-${TAU_VERSION}`, 'bin', 'ffwf-tau');

describe('UI with real τ', function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  let llm: MockLlm;
  let home: string;
  const tau = tauCommand();

  before(async () => {
    // A missing τ fails this suite with the reason; it is never skipped.
    assert.ok(fs.existsSync(tau), `real τ is not installed at ${tau}: run node scripts/ensure-workers.mjs tau (npm test does)`);
    api = await extensionApi();
    llm = await startMockLlm();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'ui-tau-home-'));
    fs.mkdirSync(path.join(home, '.tau'));
    fs.mkdirSync(path.join(home, 'tmp'));
    fs.writeFileSync(path.join(home, '.tau', 'config.json'), JSON.stringify({
      models: { mock: { backend: 'openai', model: 'mock-1', base_url: llm.baseUrl, api_key: 'not-needed', context_window: 32768, max_tokens: 1024 } },
      default_model: 'mock',
    }));
    const env = { HOME: home, TMPDIR: path.join(home, 'tmp'), NO_PROXY: '127.0.0.1,localhost' };
    await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', [{ name: 'τ (mock)', dialect: 'tau', command: tau, env }], vscode.ConfigurationTarget.Global);
    await waitFor(api, 'the τ profile', () => api.__ui.settings.profiles.some((p) => p.name === 'τ (mock)'));
  });
  after(async () => {
    await stopAll();
    await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', undefined, vscode.ConfigurationTarget.Global);
    await llm?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('starts from a profile (hermetic launch, sessions in the extension storage), streams a reply into the event log, aborts a tool call, records who asked', async () => {
    const started = await vscode.commands.executeCommand<R>('rpcWorkers.startWorker', { profile: 'τ (mock)' });
    assert.equal(started.status, 'started', JSON.stringify(started));
    const id = started.workerId!;
    const s = state(api, id);
    assert.equal(s.dialect, 'tau');
    assert.equal(s.model, 'openai/mock-1');
    assert.equal(s.workerVersion, TAU_VERSION, 'the tooltip says which τ');
    // The host decided the launch: rpc mode, no discovery, a session dir in the extension's storage.
    assert.deepEqual(s.args.slice(0, 4), ['--mode', 'rpc', '-ne', '-nc']);
    const sessionDir = s.args[s.args.indexOf('--session-dir') + 1];
    assert.match(sessionDir, /tau-sessions$/);
    assert.ok(!sessionDir.startsWith(home), 'τ sessions go to the extension storage, not the person\'s τ folder');

    const after = await streamThenAbort(api, id, llm, 'Hello from the mock model, streamed through τ.');
    assert.equal(after.status, 'running', 'τ survives the abort');
  });
});
