// Persisted history across a reload (issue 14): start the demo worker, prompt it, reload the
// window; the session is listed under Past sessions as interrupted while idle, its log opens
// read-only; Resume starts the worker on the same conversation (the log shows the earlier
// events, a Resumed mark, then the new ones) and its next reply says it has the earlier prompt.
// Saves docs/screenshots/history-*.png.
import { withWorkbench, runCommand, screenshot, runScenario, webviewFrame, clickActivityBar } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow, startDemo, widenSideBar } from './lib/demo.mjs';

export default async function reloadHistory({ port } = {}) {
  await withWorkbench({ port }, async ({ page }) => {
    let log = await startDemo(page);
    await promptFromPalette(page, 'remember the word kumquat');
    await log.getByText(/no earlier prompt/).first().waitFor({ state: 'visible' });
    await log.locator('.status-badge', { hasText: /ctx/ }).waitFor({ state: 'visible' });
    await screenshot(page, 'history-before-reload');

    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 90_000 });
    // The reloaded window brings back the RPC Workers side bar it had; open it if it did not.
    const group = sessionsRow(page, /^Past sessions/); // its count follows the label with no space: not a worker's name
    if (!(await group.waitFor({ state: 'visible', timeout: 20_000 }).then(() => true, () => false))) await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 620);
    await group.waitFor({ state: 'visible' });
    const past = sessionsRow(page, 'interrupted while idle');
    await past.waitFor({ state: 'visible' });
    await screenshot(page, 'history-interrupted');
    // Its context menu: the history's verbs, with Resume first.
    await past.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    await menu.locator('.action-label', { hasText: 'Resume Session' }).waitFor({ state: 'visible' });
    await screenshot(page, 'history-menu', { moveMouse: false });
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    // Open Log: the persisted events, read-only.
    await past.click();
    const readOnly = await webviewFrame(page, 'Demo worker · past session');
    await readOnly.getByText(/no earlier prompt/).first().waitFor({ state: 'visible' });
    await readOnly.locator('textarea[placeholder*="read-only"]').waitFor({ state: 'attached' });
    await screenshot(page, 'history-log-readonly');
    await page.keyboard.press('Control+W');

    // Resume from the row's inline action.
    await past.hover();
    const resume = past.locator('.actions .action-label[aria-label^="Resume Session"]');
    await resume.waitFor({ state: 'visible' });
    await resume.click();
    await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
    // The side bar's log webview may be replaced while the resumed worker is selected: look again.
    for (let attempt = 1; ; attempt++) {
      log = await webviewFrame(page, 'Event Log');
      if (await log.getByText(/^Resumed$/).first().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) break;
      if (attempt === 3) throw new Error('the resumed worker\'s log shows no Resumed mark');
    }
    await log.getByText(/remember the word kumquat/).first().waitFor({ state: 'visible' });
    await promptFromPalette(page, 'what did I ask you to remember?');
    await log.getByText(/This session holds 1 earlier prompt/).first().waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    await screenshot(page, 'history-resumed');
  }, { name: 'reload-history' });
}

await runScenario(import.meta.url, reloadHistory);
