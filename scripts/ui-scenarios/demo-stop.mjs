// Start the demo worker from the Start Worker picker, then stop it from its inline action in the
// Sessions view: the worker goes away (its session moves under Past sessions), the status bar
// item hides; its event log still says it stopped. Saves docs/screenshots/start-worker-pick.png and
// stop-*.png.
import { launchWorkbench, clickActivityBar, screenshot, runScenario, webviewFrame, QUICK_INPUT } from '../ui-driver.mjs';
import { answerInput, sessionsRow, widenSideBar } from './lib/demo.mjs';

export default async function demoStop({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    // Start it the long way: the welcome view's Start Worker button, the profile picker, an
    // empty first task.
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 620);
    await page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Start Worker' }).first().click();
    const pick = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: 'Demo worker' }).first();
    await pick.waitFor({ state: 'visible' });
    await screenshot(page, 'start-worker-pick');
    await pick.click();
    await page.locator(`${QUICK_INPUT} .quick-input-title`, { hasText: 'first task (optional)' }).waitFor({ state: 'visible' });
    await answerInput(page, '');
    await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    const status = page.locator('.part.statusbar .statusbar-item[aria-label^="RPC Workers:"]').first();
    await status.waitFor({ state: 'visible' });
    const row = sessionsRow(page, 'Demo worker');
    await row.hover();
    const stop = row.locator('.actions .action-label[aria-label^="Stop Worker"]');
    await stop.waitFor({ state: 'visible' });
    await screenshot(page, 'stop-before', { moveMouse: false });
    await stop.click();
    // The stopped worker's session is kept (history): it moves under Past sessions.
    // (Not sessionsRow: it keeps a name from matching one followed by a number, and this row's
    // description is its count.)
    await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'Past sessions' }).first().waitFor({ state: 'visible' });
    await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'stopped' }).first().waitFor({ state: 'visible' });
    await log.locator('.kind-exit').first().waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-stopped').waitFor({ state: 'visible' });
    await status.waitFor({ state: 'hidden' });
    await screenshot(page, 'stop-done');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, demoStop);
