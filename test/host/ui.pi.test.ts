// Real pi, offline on the mock LLM, started and driven through the extension's commands: a
// configured profile, a prompt whose reply streams into the event log, a tool call aborted
// mid-command, and the turn's provenance recorded by the host (pi stamps none). Both pis: the
// devDependency 0.73.1, and pi 1.x with its own Node 22 from the cache scripts/ensure-workers.mjs
// fills (which `npm test` runs first).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import type { ExtensionApi } from '../../src/ui/extension';
import { workerTooltip } from '../../src/ui/views/sessionsTree';
import { cacheDir, extensionApi, PI1_VERSION, state, stopAll, streamThenAbort, waitFor } from './ui.support';

type R = { status: string; workerId?: string; error?: string };

const PIS = [
  { version: '0.73.1', bin: () => path.join(vscode.extensions.getExtension('rpc-workers.rpc-workers')!.extensionPath, 'node_modules', '.bin', 'pi') },
  { version: PI1_VERSION, bin: () => path.join(cacheDir(), `pi-${PI1_VERSION}`, 'pi') },
];

for (const pi of PIS) describe(`UI with real pi ${pi.version}`, function () {
  this.timeout(90_000);
  let api: ExtensionApi;
  let llm: MockLlm;
  let dir: string;
  const piBin = pi.bin();
  const profile = `pi ${pi.version} (mock)`;

  before(async function () {
    // A missing pi fails this suite with the reason; it is never skipped.
    assert.ok(fs.existsSync(piBin), `pi ${pi.version} is not installed at ${piBin} (node scripts/ensure-workers.mjs pi)`);
    api = await extensionApi();
    llm = await startMockLlm();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ui-pi-agent-'));
    fs.writeFileSync(path.join(dir, 'models.json'), JSON.stringify({ providers: { mock: { baseUrl: llm.baseUrl, api: 'openai-completions', apiKey: 'x', compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models: [{ id: 'mock-1' }] } } }));
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ compaction: { enabled: true, keepRecentTokens: 10, reserveTokens: 100 } }));
    const env = { PI_CODING_AGENT_DIR: dir, PI_CODING_AGENT_SESSION_DIR: path.join(dir, 'sessions'), PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' };
    await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', [{ name: profile, dialect: 'pi', command: piBin, model: 'mock/mock-1', env }], vscode.ConfigurationTarget.Global);
    await waitFor(api, 'the pi profile', () => api.__ui.settings.profiles.some((p) => p.name === profile));
  });
  after(async () => {
    await stopAll();
    await vscode.workspace.getConfiguration('rpcWorkers').update('profiles', undefined, vscode.ConfigurationTarget.Global);
    await llm?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts from a profile, streams a reply into the event log, aborts a tool call, records who asked', async () => {
    const started = await vscode.commands.executeCommand<R>('rpcWorkers.startWorker', { profile });
    assert.equal(started.status, 'started', JSON.stringify(started));
    const id = started.workerId!;
    assert.equal(state(api, id).dialect, 'pi');
    assert.equal(state(api, id).workerVersion, pi.version);
    // The tooltip's markdown escapes what it shows (spaces as &nbsp;): compared without that.
    assert.match(workerTooltip(state(api, id)).value.replace(/\\/g, '').replace(/&nbsp;/g, ' '), new RegExp(`Dialect: pi ${pi.version.replace(/\./g, '\\.')}`));
    await streamThenAbort(api, id, llm, 'Hello from the mock model, word by word.');
  });
});
