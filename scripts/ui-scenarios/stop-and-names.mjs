// Stopping and telling workers apart, as a person meets it (issue 13): Ctrl+Alt+R with no
// worker says so and offers to start one; Stop while a tool runs ends the tool and the turn
// (no endless "running…", no false protocol error); a stopped worker stays in the log's list
// and its log can be read; two workers of the same name are told apart in the Sessions view
// and in the log's list, each by the one name the host gave it ("Demo worker", "#2", "#3"), and
// the stopped one's past session says the same (issue 28). Saves docs/screenshots/stop-*.png and
// names-past-session.png.
import { launchWorkbench, clickActivityBar, runCommand, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { openHelloJs, promptFromPalette, sessionsRow, settleToast } from './lib/demo.mjs';

const fail = (what) => { throw new Error(what); };

export default async function stopAndNames({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    // Item 11: the Redirect with Selection key with no worker running.
    await openHelloJs(page);
    await page.locator('.editor-instance .view-line', { hasText: 'function greet' }).first().click();
    await page.keyboard.press('Control+Alt+r');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'No worker is running' }).first();
    await toast.waitFor({ state: 'visible' });
    await toast.locator('.monaco-button', { hasText: 'Start Demo Worker' }).waitFor({ state: 'visible' });
    await settleToast(toast);
    await screenshot(page, 'stop-keybinding-no-worker');
    await clickActivityBar(page, 'RPC Workers');
    await toast.locator('.monaco-button', { hasText: 'Start Demo Worker' }).click();
    await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });

    // Item 4: Stop while a tool runs.
    await promptFromPalette(page, 'run: echo started; sleep 30');
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
    await log.getByText('started').first().waitFor({ state: 'visible' });
    await log.locator('button[data-action="stop"]').click();
    await log.locator('.kind-exit').waitFor({ state: 'visible' });
    await log.locator('.kind-end', { hasText: 'Turn ended: the worker stopped' }).waitFor({ state: 'visible' });
    if (await log.locator('.kind-tool.tool-running').count()) fail('the tool row still spins after the worker stopped');
    // The person's Stop cut the call short: stopped, as the Sessions view says, not a red error.
    await log.locator('.kind-tool.tool-stopped').waitFor({ state: 'visible' });
    const warnings = await log.locator('.kind-warning').allInnerTexts();
    if (warnings.length) fail(`warnings after a clean stop: ${warnings.join(' | ')}`);
    await log.locator('.result', { hasText: /stopped/i }).waitFor({ state: 'visible' });
    if (await log.locator('.result', { hasText: 'accepted' }).count()) fail('the status line still says "accepted" under a stopped worker');
    await log.locator('.kind-tool summary').first().click();
    await log.getByText(/cut short|aborted after/).first().waitFor({ state: 'visible' });
    await screenshot(page, 'stop-mid-tool');

    // Items 6 and 9: two more workers of the same name; the stopped one stays in the log's list.
    await runCommand(page, 'RPC Workers: Start Demo Worker');
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    await runCommand(page, 'RPC Workers: Start Demo Worker');
    await sessionsRow(page, 'Demo worker #3').waitFor({ state: 'visible' });
    await sessionsRow(page, 'Demo worker #2').waitFor({ state: 'visible' });
    // A start selects the new worker in the Sessions view (and so in the log) once its row is
    // revealed: wait for that, or it would switch the log back after the pick below.
    await page.locator('.part.sidebar .monaco-list-row.selected[role="treeitem"]', { hasText: 'Demo worker #3' }).waitFor({ state: 'visible' });
    const select = log.locator('select.worker-select');
    await log.locator('select.worker-select option', { hasText: 'Demo worker #3' }).waitFor({ state: 'attached' });
    const options = await select.locator('option').allInnerTexts();
    for (const want of ['Demo worker (stopped)', 'Demo worker #2', 'Demo worker #3']) {
      if (!options.includes(want)) fail(`the log's worker list lacks "${want}": ${options.join(', ')}`);
    }
    await select.selectOption({ label: 'Demo worker (stopped)' });
    await log.locator('.status-badge.phase-stopped').waitFor({ state: 'visible' });
    await log.locator('.kind-end', { hasText: 'Turn ended: the worker stopped' }).waitFor({ state: 'visible' });
    if (!await log.locator('button[data-action="stop"]').isDisabled()) fail('Stop is enabled for a stopped worker');
    await screenshot(page, 'stop-names-and-stopped-log');

    // Issue 28: the stopped one's past session, opened from Past sessions, is listed once, under
    // its own name, and says when it ran; the live ones keep theirs.
    const past = sessionsRow(page, /Demo worker(?! #)\s*(today|yesterday) \d\d:\d\d · stopped · 1 turn/);
    await past.waitFor({ state: 'visible' });
    await past.click();
    await page.locator('.tab', { hasText: 'Demo worker · past session' }).waitFor({ state: 'visible' });
    const pastLog = await webviewFrame(page, /^Demo worker · past session$/);
    await pastLog.locator('.kind-end', { hasText: 'Turn ended: the worker stopped' }).waitFor({ state: 'visible' });
    const listed = await pastLog.locator('select.worker-select option').allInnerTexts();
    const mine = listed.filter((o) => o.startsWith('Demo worker'));
    if (JSON.stringify(mine.sort()) !== JSON.stringify(['Demo worker #2', 'Demo worker #3', 'Demo worker (past session)'])) fail(`the past tab lists ${listed.join(', ')}`);
    await screenshot(page, 'names-past-session');
    await sessionsRow(page, 'Demo worker #3').click(); // out of the webview, so F1 reaches the workbench
    await runCommand(page, 'RPC Workers: Stop All Workers');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, stopAndNames);
