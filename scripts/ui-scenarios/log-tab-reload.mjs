// Issue 28, polish: an editor-tab log comes back after a reload. With resumeInterrupted on, the
// tab shows the worker that resumed the session (live); with it off, the session read-only.
// Saves docs/screenshots/log-tab-reload-{live,readonly}.png.
import { withWorkbench, runCommand, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { promptFromPalette, startDemo } from './lib/demo.mjs';

async function tabAfterReload(resume, shot) {
  await withWorkbench({ settings: { 'rpcWorkers.history.resumeInterrupted': resume } }, async ({ page }) => {
    const log = await startDemo(page);
    await promptFromPalette(page, 'remember the word plum');
    await log.getByText(/no earlier prompt/).first().waitFor({ state: 'visible' });
    // One worker: the command opens its tab without asking which.
    await runCommand(page, 'RPC Workers: Open Log in Editor Tab');
    await page.locator('.tab', { hasText: 'Demo worker ·' }).waitFor({ state: 'visible' });
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 90_000 });
    const title = resume ? 'Demo worker · idle' : 'Demo worker · past session';
    await page.locator('.tab', { hasText: title }).waitFor({ state: 'visible', timeout: 60_000 });
    // The restored tab's webview is given its page again once the extension has it: look again.
    let tab;
    for (let attempt = 1; ; attempt++) {
      tab = await webviewFrame(page, title, { timeout: 60_000 });
      if (await tab.getByText(/remember the word plum/).first().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) break;
      if (attempt === 4) {
        const inner = await page.evaluate(() => [...document.querySelectorAll('iframe.webview')].map((o) => { try { const f = o.contentDocument?.querySelector('iframe#active-frame'); return `${f?.title}: ${f?.contentDocument?.body?.innerHTML?.slice(0, 300)}`; } catch (e) { return String(e); } }));
        throw new Error(`the restored tab never drew the log: ${JSON.stringify(inner)}`);
      }
    }
    if (resume) await tab.getByText(/^Resumed$/).first().waitFor({ state: 'visible' });
    else await tab.locator('textarea[placeholder*="read-only"]').waitFor({ state: 'attached' });
    await screenshot(page, shot);
  }, { name: shot });
}

export default async function logTabReload() {
  await tabAfterReload(true, 'log-tab-reload-live');
  await tabAfterReload(false, 'log-tab-reload-readonly');
}

await runScenario(import.meta.url, logTabReload);
