// Real pi 1.6.0 and real τ 0.15.0 side by side (from the cache; offline on the mock LLM), as a
// person sees them in the Sessions view: each row's tooltip names the worker and its version.
// Saves docs/screenshots/real-workers-*.png.
import { startMockLlm } from '../../test/fixtures/mock-llm.mjs';
import { makeTauHome, removeTauHome, tauOwnEnv } from '../../test/fixtures/tau-env.mjs';
import { makePiAgentDir, removePiAgentDir } from '../../test/fixtures/pi-env.mjs';
import { ensurePi1, ensureTau } from '../ensure-workers.mjs';
import { clickActivityBar, launchWorkbench, screenshot, runScenario } from '../ui-driver.mjs';
import { sessionsRow, startProfile, widenSideBar } from './lib/demo.mjs';

export default async function realWorkers({ port } = {}) {
  const tau = ensureTau();
  const pi = ensurePi1();
  const llm = await startMockLlm();
  const piDir = await makePiAgentDir({ baseUrl: llm.baseUrl });
  const home = await makeTauHome({ baseUrl: llm.baseUrl });
  const wb = await launchWorkbench({
    port,
    settings: {
      'rpcWorkers.profiles': [
        { name: 'pi 1.x (mock model)', dialect: 'pi', command: pi, model: 'mock/mock-1', env: { PI_CODING_AGENT_DIR: piDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' } },
        { name: 'τ (mock model)', dialect: 'tau', command: tau, env: tauOwnEnv(home) },
      ],
    },
  });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 620);
    for (const profile of ['pi 1.x (mock model)', 'τ (mock model)']) {
      await startProfile(page, profile);
      await sessionsRow(page, profile).filter({ hasText: 'idle' }).waitFor({ state: 'visible' });
    }
    for (const [profile, version, shot] of [['pi 1.x (mock model)', 'pi 1.6.0', 'real-workers-pi-tooltip'], ['τ (mock model)', 'tau 0.15.0', 'real-workers-tau-tooltip']]) {
      await sessionsRow(page, profile).locator('.label-name').first().hover();
      await page.locator('.monaco-hover, .workbench-hover').getByText(version).first().waitFor({ state: 'visible' });
      await screenshot(page, shot);
      await page.mouse.move(1000, 600);
      await page.locator('.monaco-hover, .workbench-hover').first().waitFor({ state: 'hidden' }).catch(() => {});
    }
  } finally {
    await wb.close();
    await llm.close();
    await removePiAgentDir(piDir);
    await removeTauHome(home);
  }
}

await runScenario(import.meta.url, realWorkers);
