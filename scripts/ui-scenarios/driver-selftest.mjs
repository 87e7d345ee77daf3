// Exercises every helper of the UI driver on built-in parts of the workbench, so a broken
// selector shows up here rather than in a product scenario: a tree click (Explorer), a command
// from the palette (Markdown preview), text inside a webview, typing into a webview (Simple
// Browser's address bar). Pictures go to test-results/, not docs/.
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.mjs';
import { withWorkbench, clickActivityBar, clickTreeItem, runCommand, webviewFrame, typeInto, waitForText, screenshot, runScenario, QUICK_INPUT } from '../ui-driver.mjs';

export default async function driverSelftest({ port } = {}) {
  await withWorkbench({ port }, async ({ page }) => {
    await clickActivityBar(page, 'Explorer');
    await clickTreeItem(page, 'README.md');
    await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: 'Sample workspace' }).first().waitFor();
    await runCommand(page, 'Markdown: Open Preview to the Side');
    const preview = await webviewFrame(page, /Preview.*README\.md/);
    await waitForText(preview, 'Sample workspace');

    await runCommand(page, 'Simple Browser: Show');
    const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
    await input.waitFor({ state: 'visible' });
    await input.fill('http://127.0.0.1:9/');
    await page.keyboard.press('Enter');
    const browser = await webviewFrame(page, 'Simple Browser');
    const typed = 'http://127.0.0.1:9/typed-by-the-driver';
    const url = browser.locator('input.url-input');
    await url.waitFor();
    await url.fill('');
    await typeInto(browser, 'input.url-input', typed);
    if ((await url.inputValue()) !== typed) throw new Error(`typed into the webview, but it holds ${await url.inputValue()}`);
    await screenshot(page, join(repoRoot, 'test-results', 'ui-driver-selftest.png'));
  }, { name: 'driver-selftest' });
}

await runScenario(import.meta.url, driverSelftest);
