// Many workers at once (issue 15), as a person meets it: two demo workers, each started in a git
// worktree of its own (the scenario's workspace copy is made a git repository first); one writes
// a file and ends its turn while the person looks at the other (done, with a notification), the
// other leaves a question standing (needs input: the badge on the view). Then the diff editor on
// the first worker's change, base ↔ worktree. Saves docs/screenshots/many-workers-*.png.
import { rmSync } from 'node:fs';
import { withWorkbench, runCommand, screenshot, runScenario, webviewFrame, QUICK_INPUT } from '../ui-driver.mjs';
import { expandRow, openLogTab, promptWorker, sessionsRow, settleToast, startTwoDemos } from './lib/demo.mjs';
import { gitWorkspace } from './lib/gitWorkspace.mjs';

export default async function manyWorkers({ port } = {}) {
  const { root, ws } = gitWorkspace('many-workers');
  try {
    await withWorkbench({ port, workspace: ws }, ({ page }) => steps(page), { name: 'many-workers' });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function steps(page) {
  {
    await startTwoDemos(page, 'RPC Workers: Start Demo Worker in New Worktree', 560);
    await page.locator('.part.sidebar .monaco-list-row.selected[role="treeitem"]', { hasText: 'Demo worker #2' }).waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');

    // The first worker works while the person looks at #2: its turn ends unseen (done, and a notification).
    await promptWorker(page, 'Demo worker', 'write: src/hello.js = export const greet = (name) => `Hello, ${name}! (from a worker)`;');
    await sessionsRow(page, 'done').waitFor({ state: 'visible' });
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'its turn ended' }).first();
    await toast.waitFor({ state: 'visible' });
    await settleToast(toast);
    // #2 writes a note, then asks a question and waits for the answer.
    await promptWorker(page, 'Demo worker #2', 'write: NOTES.md = # Notes from worker 2');
    await log.locator('.kind-end').first().waitFor({ state: 'visible' });
    await promptWorker(page, 'Demo worker #2', 'ask: Merge my notes into main?');
    await sessionsRow(page, 'needs input').waitFor({ state: 'visible' });
    // The τ-style request's dialog (an extension asking) shows; dismissed, it still stands.
    const pick = page.locator(QUICK_INPUT);
    if (await pick.isVisible()) await page.keyboard.press('Escape');
    await page.locator('.part.activitybar .badge .badge-content', { hasText: '1' }).first().waitFor({ state: 'visible' });
    // The log beside it says what the row says (its chip once said "idle" here).
    await log.locator('.status-badge.attention-needs-input', { hasText: /^needs input · / }).waitFor({ state: 'visible' });
    // Open what is closed, as a person would (a row first drawn before it had children stays closed).
    for (const row of ['Demo worker', /Worktree worker\/demo-worker(?!-)/, 'Demo worker #2', /Worktree worker\/demo-worker-2/]) await expandRow(page, row);
    await sessionsRow(page, 'NOTES.md').waitFor({ state: 'visible' });
    await sessionsRow(page, 'hello.js').waitFor({ state: 'visible' });
    await screenshot(page, 'many-workers-attention');

    // The diff editor on #1's change: base (read-only) ↔ its worktree.
    // The row may be re-rendered under the pointer (the tree refreshes as turns end): a person
    // whose click did nothing clicks again.
    const diff = page.locator('.editor-instance .monaco-diff-editor').first();
    let clicks = 0;
    for (; clicks < 3 && !(await diff.isVisible()); clicks++) {
      await sessionsRow(page, 'hello.js').click();
      await diff.waitFor({ state: 'visible', timeout: 5000 }).catch(() => {});
    }
    await diff.waitFor({ state: 'visible' });
    console.log(`[ui] many-workers: the changed file's diff opened after ${clicks} click(s)`);
    await diff.locator('.modified .view-line', { hasText: 'from a worker' }).first().waitFor({ state: 'visible' });
    await page.locator('.tab.active', { hasText: 'hello.js' }).waitFor({ state: 'visible' });
    await screenshot(page, 'many-workers-diff');

    // Each worker's log as an editor tab of its own, side by side, titled with name and state.
    await runCommand(page, 'View: Close All Editors');
    await openLogTab(page, 'Demo worker');
    await (await webviewFrame(page, /^Demo worker · /)).locator('.kind-end').first().waitFor({ state: 'visible' });
    await openLogTab(page, 'Demo worker #2');
    await page.locator('.tab', { hasText: 'Demo worker #2 · needs input' }).waitFor({ state: 'visible' });
    await page.locator('.tab', { hasText: 'Demo worker ·' }).waitFor({ state: 'visible' });
    for (const title of [/^Demo worker · /, /^Demo worker #2 · needs input$/]) {
      const tab = await webviewFrame(page, title);
      await tab.locator('.kind-end').first().waitFor({ state: 'visible' });
    }
    await (await webviewFrame(page, /^Demo worker #2 · needs input$/)).locator('.status-badge.attention-needs-input', { hasText: /^needs input · / }).waitFor({ state: 'visible' });
    await screenshot(page, 'many-workers-log-tabs');
    await sessionsRow(page, 'Demo worker').click(); // focus out of the webview, so F1 reaches the workbench
    await runCommand(page, 'RPC Workers: Stop All Workers');
  }
}

await runScenario(import.meta.url, manyWorkers);
