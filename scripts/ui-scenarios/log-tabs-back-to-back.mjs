// Two log tabs opened back to back from the palette: the second is asked for as soon as the
// first tab shows, before its page has drawn. Each must show its own worker's log
// (in code-server one of them could stay blank: its page loaded while the other webview's
// service worker took over, and got neither script nor styles; the host now loads such a page
// again). Saves docs/screenshots/log-tabs-back-to-back.png.
import { runCommand, screenshot, runScenario, webviewFrame, withWorkbench } from '../ui-driver.mjs';
import { openLogTab, promptWorker, startTwoDemos } from './lib/demo.mjs';

export default async function logTabsBackToBack({ port } = {}) {
  await withWorkbench({ port }, ({ page }) => steps(page), { name: 'log-tabs-back-to-back' });
}

async function steps(page) {
  await startTwoDemos(page, 'RPC Workers: Start Demo Worker', 420);
  // #2 up and idle (the log beside follows it), so the palette asks which worker to prompt.
  const log = await webviewFrame(page, 'Event Log');
  await log.locator('.worker-select option:checked', { hasText: 'Demo worker #2' }).waitFor({ state: 'attached' });
  await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
  await promptWorker(page, 'Demo worker', 'Tell me something, number one');
  await promptWorker(page, 'Demo worker #2', 'Tell me something, number two');
  // Both from the palette, one right after the other: the second is asked for as soon as the
  // first tab is there, before its page has drawn.
  await openLogTab(page, 'Demo worker');
  await openLogTab(page, 'Demo worker #2');
  for (const n of [1, 2]) {
    const tab = await webviewFrame(page, n === 1 ? /^Demo worker · / : /^Demo worker #2 · /);
    await tab.locator('.kind-assistant', { hasText: `number ${n === 1 ? 'one' : 'two'}` }).first().waitFor({ state: 'visible' });
    await tab.locator('.status-badge', { hasText: /^idle · / }).waitFor({ state: 'visible' });
  }
  await screenshot(page, 'log-tabs-back-to-back');
  await runCommand(page, 'RPC Workers: Stop All Workers');
}

await runScenario(import.meta.url, logTabsBackToBack);
