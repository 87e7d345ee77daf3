// Issue 28, minor 8: a worker that finishes while its tree row is selected, but whose log is not
// on screen, is done (icon) and notified. Start two demo workers (the second's row is selected),
// show the first's log through the log's own picker, let the second finish.
// Saves docs/screenshots/done-while-selected.png.
import { withWorkbench, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { promptWorker, sessionsRow, settleToast, startTwoDemos } from './lib/demo.mjs';

export default async function doneWhileSelected({ port } = {}) {
  await withWorkbench({ port }, async ({ page }) => {
    await startTwoDemos(page, 'RPC Workers: Start Demo Worker', 620);
    // The second worker's row is selected; the log's picker shows the first.
    await sessionsRow(page, 'Demo worker #2').click();
    const log = await webviewFrame(page, 'Event Log');
    const select = log.locator('select.worker-select');
    const first = await select.locator('option').evaluateAll((os) => os.find((o) => /^Demo worker(?! #)/.test(o.textContent ?? ''))?.value);
    if (!first) throw new Error('the picker lists no "Demo worker"');
    await select.selectOption(first);
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    await promptWorker(page, 'Demo worker #2', 'finish while my row is selected');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Demo worker #2: its turn ended' }).first();
    await toast.waitFor({ state: 'visible' });
    await settleToast(toast);
    await sessionsRow(page, 'Demo worker #2').locator('.codicon-pass-filled').waitFor({ state: 'visible' });
    await screenshot(page, 'done-while-selected');
  }, { name: 'done-while-selected' });
}

await runScenario(import.meta.url, doneWhileSelected);
