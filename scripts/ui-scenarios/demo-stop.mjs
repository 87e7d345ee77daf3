// Stop the demo worker from its inline action in the Sessions view: the worker goes away, the
// status bar item hides and the welcome view comes back; its event log still says it stopped.
// Saves docs/screenshots/stop-*.png.
import { launchWorkbench, screenshot, runScenario } from '../ui-driver.mjs';
import { sessionsRow, startDemo } from './lib/demo.mjs';

export default async function demoStop({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    const log = await startDemo(page);
    const status = page.locator('.part.statusbar .statusbar-item[aria-label^="RPC Workers:"]').first();
    await status.waitFor({ state: 'visible' });
    const row = sessionsRow(page, 'Demo worker');
    await row.hover();
    const stop = row.locator('.actions .action-label[aria-label^="Stop Worker"]');
    await stop.waitFor({ state: 'visible' });
    await screenshot(page, 'stop-before', { moveMouse: false });
    await stop.click();
    await page.locator('.part.sidebar .welcome-view-content', { hasText: 'Start Demo Worker' }).first().waitFor({ state: 'visible' });
    await log.locator('.kind-exit').first().waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-stopped').waitFor({ state: 'visible' });
    await status.waitFor({ state: 'hidden' });
    await screenshot(page, 'stop-done');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, demoStop);
