// Real τ (0.15.0, from the cache; offline on the mock LLM) as a person meets it: Start Worker,
// pick the τ profile, prompt from the palette, watch the reply stream into the event log; then a
// τ with an extension that locks the session after each turn and asks for a note and a verdict:
// the ask shows up as VS Code dialogs, the answer releases the lock, and the next prompt runs.
// Saves docs/screenshots/tau-*.png.
import { join } from 'node:path';
import { startMockLlm } from '../../test/fixtures/mock-llm.mjs';
import { makeTauHome, removeTauHome, tauOwnEnv } from '../../test/fixtures/tau-env.mjs';
import { ensureTau } from '../ensure-workers.mjs';
import { repoRoot } from '../lib/paths.mjs';
import { clickActivityBar, launchWorkbench, screenshot, runScenario, webviewFrame, QUICK_INPUT } from '../ui-driver.mjs';
import { promptFromPalette, promptWorker, sessionsRow, startProfile, widenSideBar } from './lib/demo.mjs';

export default async function tauWorker({ port } = {}) {
  const tau = ensureTau();
  const llm = await startMockLlm();
  const home = await makeTauHome({ baseUrl: llm.baseUrl });
  const env = tauOwnEnv(home);
  const gate = join(repoRoot, 'test', 'fixtures', 'tau-ext', 'review_gate.py');
  const wb = await launchWorkbench({
    port,
    settings: {
      'rpcWorkers.profiles': [
        { name: 'τ (mock model)', dialect: 'tau', command: tau, env },
        { name: 'τ with a review gate', dialect: 'tau', command: tau, args: ['-e', gate], env },
      ],
    },
  });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 620);
    await startProfile(page, 'τ (mock model)');
    await sessionsRow(page, 'τ (mock model)').filter({ hasText: 'idle' }).waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });

    llm.script([{ text: 'Hello from τ 0.15.0. This reply came from the mock model, streamed three words at a time through the worker.', chunkDelayMs: 40 }]);
    await promptFromPalette(page, 'Say hello', 'τ (mock model)');
    await log.getByText('streamed three words at a time').first().waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    await screenshot(page, 'tau-reply');

    // The gated τ: its extension locks the session after the turn and asks.
    await startProfile(page, 'τ with a review gate');
    await sessionsRow(page, 'τ with a review gate').filter({ hasText: 'idle' }).waitFor({ state: 'visible' });
    llm.script([{ text: 'I changed the parser as asked.' }]);
    // The turn is short: the extension's ask may take the prompt box's place before it closes.
    await promptWorker(page, 'τ with a review gate', 'Fix the parser', { next: 'Extension review_gate requires a response' });
    const widget = page.locator(QUICK_INPUT);
    await widget.locator('.quick-input-box input').fill('Looks right; keep the tests.');
    await screenshot(page, 'tau-request-field');
    await widget.locator('.quick-input-box input').press('Enter');
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Approve' }).waitFor({ state: 'visible' });
    await screenshot(page, 'tau-request-actions');
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Approve' }).click();
    const gated = await webviewFrame(page, 'Event Log');
    await gated.getByText('Request answered').first().waitFor({ state: 'visible' });
    await screenshot(page, 'tau-request-answered');
  } finally {
    await wb.close();
    await llm.close();
    await removeTauHome(home);
  }
}

await runScenario(import.meta.url, tauWorker);
