// Start the demo worker from the Command Palette, see it in the Sessions view, prompt it from the
// event log's composer and watch the reply stream in. Saves docs/screenshots/demo-*.png.
import { launchWorkbench, clickActivityBar, runCommand, webviewFrame, typeInto, waitForText, screenshot, runScenario } from '../ui-driver.mjs';

export default async function demoStream({ port } = {}) {
  // Slower words, so the picture catches the reply while it streams.
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await page.locator('.part.sidebar .welcome-view-content', { hasText: 'Start Demo Worker' }).first().waitFor({ state: 'visible' });
    await screenshot(page, 'sessions-welcome');

    await runCommand(page, 'RPC Workers: Start Demo Worker');
    const item = page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'Demo worker' }).first();
    await item.waitFor({ state: 'visible' });
    await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'running' }).first().waitFor({ state: 'visible' });

    const log = await webviewFrame(page, 'Event Log');
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    await typeInto(log, 'textarea.message', 'Please summarise what src/hello.js does and suggest one improvement to it');
    await log.locator('textarea.message').press('Control+Enter');
    // The reply streams word by word: catch it while the badge still says so.
    await log.locator('.kind-assistant.streaming').waitFor({ state: 'visible' });
    await waitForText(log, /You said: Please summarise/);
    await screenshot(page, 'demo-streaming');
    await log.locator('.kind-end.end-done').first().waitFor({ state: 'visible' });
    await screenshot(page, 'demo-done');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, demoStream);
