// A defaultProfile that names no profile (a typo): Start Worker says so in its picker, offers the
// demo first, and the demo starts. Saves docs/screenshots/default-profile-typo.png.
import { withWorkbench, clickActivityBar, screenshot, runScenario, QUICK_INPUT, openPalette } from '../ui-driver.mjs';
import { answerInput, sessionsRow } from './lib/demo.mjs';

export default async function defaultProfileTypo({ port } = {}) {
  await withWorkbench({ port, settings: { 'rpcWorkers.defaultProfile': 'Claud' } }, async ({ page }) => {
    await clickActivityBar(page, 'RPC Workers');
    const widget = page.locator(QUICK_INPUT);
    const input = await openPalette(page);
    await input.fill('>RPC Workers: Start Worker');
    await widget.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^RPC Workers: Start Worker$/ }) }).first().click();
    await widget.locator('.quick-input-title', { hasText: 'Start Worker' }).waitFor({ state: 'visible' });
    await page.waitForFunction(() => document.querySelector('.quick-input-widget .quick-input-box input')?.getAttribute('placeholder')?.includes('"Claud" is not a profile here'));
    const first = widget.locator('.quick-input-list .monaco-list-row').first();
    await first.locator('.label-name', { hasText: 'Demo worker' }).waitFor({ state: 'visible' });
    await screenshot(page, 'default-profile-typo');
    await first.click();
    await widget.locator('.quick-input-title', { hasText: 'first task' }).waitFor({ state: 'visible' });
    await answerInput(page, '');
    await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
  }, { name: 'default-profile-typo' });
}

await runScenario(import.meta.url, defaultProfileTypo);
