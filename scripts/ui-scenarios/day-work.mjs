// A day's work with what no other scenario walks, as a person would: a setting out of range is
// notified and Open Settings shows it; a guarded worker writes
// where the guard forbids (the log's warning, its row, the turn it ended), its history compacted,
// its output channel, its log exported to Markdown; then a worker in a worktree of its own writes
// a file, the person merges it into their branch (the row says so) and discards the worktree while
// the worker runs (Stop Worker and Discard); at last a past session is deleted. The scenario's workspace copy is made a git repository first.
// Screenshots: day-*.png.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { clickActivityBar, withWorkbench, runCommand, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { repoRoot } from '../lib/paths.mjs';
import { expandRow, promptFromPalette, sessionsRow, settleToast, startProfile, widenSideBar } from './lib/demo.mjs';
import { git, gitWorkspace } from './lib/gitWorkspace.mjs';

const GUARDED = 'Guarded demo';

export default async function dayWork({ port } = {}) {
  const { root, ws } = gitWorkspace('day-work');
  const settings = {
    'rpcWorkers.profiles': [{ name: GUARDED, dialect: 'tau', command: process.execPath, args: [join(repoRoot, 'dist', 'demo-worker.js')], guard: true }],
    // A value out of range, as a person's typo leaves it: said once, with the way to the setting.
    'rpcWorkers.history.maxSessions': 0,
  };
  try {
    await withWorkbench({ port, workspace: ws, settings }, ({ page }) => steps(page, ws), { name: 'day-work' });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * Run the entry `label` of a tree row's context menu. Pointed at, then Enter: the menu took a
 * click on its entry as the end of the right-click that opened it, and stayed open.
 */
async function fromMenu(page, row, label) {
  await row.click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  const item = menu.locator('.action-item', { has: page.locator('.action-label', { hasText: new RegExp(`^\\s*${label}`) }) }).first();
  await item.hover();
  await menu.locator('.action-item.focused', { hasText: new RegExp(`^\\s*${label}`) }).waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden' });
}

async function toast(page, text) {
  const t = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  await t.waitFor({ state: 'visible' });
  await settleToast(t);
  return t;
}

async function closeToasts(page) {
  for (const close of await page.locator('.notifications-toasts .notification-toast .codicon-notifications-clear').all()) await close.click().catch(() => {});
}

async function steps(page, ws) {
  await clickActivityBar(page, 'RPC Workers');
  await widenSideBar(page, 600);

  // 0. The invalid setting: what is wrong, what is used instead, and a button to the settings.
  const bad = await toast(page, 'rpcWorkers.history.maxSessions is invalid');
  const badText = await bad.innerText();
  if (!/must be at least 1.*using the default 200/s.test(badText)) throw new Error(`the settings notification says: ${badText}`);
  await screenshot(page, 'day-settings-error');
  await bad.locator('.monaco-button', { hasText: 'Open Settings' }).click();
  // The Settings editor shows that setting (it opened on all twenty, Profiles first).
  await page.locator('.settings-editor .settings-count-widget', { hasText: /^1 Setting Found$/ }).waitFor({ state: 'visible' });
  await page.locator('.settings-editor .setting-item-contents', { hasText: 'Max Sessions' }).first().waitFor({ state: 'visible' });
  await screenshot(page, 'day-settings-open');
  // Today's VS Code opens the Settings editor over the workbench (the palette does not open over
  // it), with a close button of its own; VS Code 1.100 in an editor tab.
  const closeModal = page.locator('.modal-editor-action-container .action-label[aria-label^="Close Modal Editor"]');
  if (await closeModal.isVisible()) await closeModal.click();
  else await runCommand(page, 'View: Close Editor');
  await page.locator('.settings-editor').waitFor({ state: 'hidden' });

  // 1. The guard: a guarded worker writes .env, which the guard always forbids.
  await startProfile(page, GUARDED);
  const row = sessionsRow(page, GUARDED);
  await row.waitFor({ state: 'visible' });
  await row.locator('.label-description', { hasText: /guarded/ }).waitFor({ state: 'visible' });
  const log = await webviewFrame(page, 'Event Log');
  await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
  await promptFromPalette(page, 'write: .env = SECRET=1', GUARDED);
  const warning = log.locator('.entry.kind-warning', { hasText: 'Guard' }).first();
  await warning.waitFor({ state: 'visible' });
  await log.locator('.kind-end').first().waitFor({ state: 'visible' });
  const warnText = await warning.innerText();
  for (const bad of ['undefined', 'null', '[object', '{"']) if (warnText.includes(bad)) throw new Error(`the guard's row says "${bad}": ${warnText}`);
  if (!/\.env/.test(warnText)) throw new Error(`the guard's row does not name the file: ${warnText}`);
  // τ's calls are judged as they run: the row says the write was not prevented (it read as a refusal).
  if (!/not prevented/.test(warnText)) throw new Error(`the guard's row does not say the write was not prevented: ${warnText}`);
  // Its turn in the Sessions view, opened: the write flagged there too.
  await expandRow(page, GUARDED);
  const turnRow = sessionsRow(page, /Turn 1/);
  await expandRow(page, /Turn 1/);
  await sessionsRow(page, /⚠/).waitFor({ state: 'visible' });
  // The turn counts the call as flagged: "1 blocked" said the guard stopped a write that landed.
  const turnText = await turnRow.innerText();
  if (!/1 flagged by the guard/.test(turnText) || /blocked/.test(turnText)) throw new Error(`the turn's row says: ${turnText}`);
  await screenshot(page, 'day-guard');
  console.log(`[ui] day-work: the guarded worker's rows after the violation: ${(await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).join(' | ')}`);
  await turnRow.locator('.monaco-tl-twistie').click();

  // 2. Compact its history from the palette.
  await runCommand(page, 'RPC Workers: Compact');
  // One prompt is too little to compact: the status line says so, and so does the log's row
  // (its title read "Compacted" over "Nothing to compact.").
  const compaction = log.locator('.entry.kind-compaction.compaction-done').first();
  await compaction.waitFor({ state: 'visible' });
  await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
  await log.getByText(`Nothing to compact in ${GUARDED}`).first().waitFor({ state: 'visible' });
  const compactionText = await compaction.innerText();
  if (!/^Nothing to compact/.test(compactionText) || /Compacted/.test(compactionText)) throw new Error(`the compaction's row says it compacted when there was nothing to compact: ${compactionText}`);
  await screenshot(page, 'day-compact');

  // 3. Its output channel, from its row.
  await fromMenu(page, row, 'Show Worker Output');
  // Its own channel, with what the worker wrote to stderr as it started.
  // The panel is narrow: the line wraps, so its words may sit on two view lines.
  const ready = page.locator('.part.panel .view-lines', { hasText: /demo\s*worker\s*ready/ }).first();
  await ready.waitFor({ state: 'visible' });
  // Logged as info: every stderr line was a warning, this one too, and no level hid the chatter.
  const readyText = (await ready.innerText()).replace(/\s+/g, ' ');
  if (!/\[info\] \[stderr\] \[τ-rpc\] RPC Workers demo/.test(readyText)) throw new Error(`the worker's stderr is logged as: ${readyText}`);
  await screenshot(page, 'day-output');

  // 4. Export its log to Markdown, from its row.
  await fromMenu(page, row, 'Export to Markdown');
  await page.locator('.editor-instance .view-lines', { hasText: `# ${GUARDED}` }).first().waitFor({ state: 'visible' });
  await screenshot(page, 'day-export');

  // 5. Stop it; its session moves under Past sessions.
  // The export is an untitled document: closed without saving, as one reads and drops it.
  await runCommand(page, 'View: Revert and Close Editor');
  await runCommand(page, 'View: Toggle Panel Visibility');
  await page.locator('.part.panel').waitFor({ state: 'hidden' });
  await row.hover();
  await row.locator('.actions .action-label[aria-label^="Stop Worker"]').click();
  await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'Past sessions' }).first().waitFor({ state: 'visible' });

  // 6. A worker in a worktree of its own writes a file; the person merges it into main.
  await runCommand(page, 'RPC Workers: Start Demo Worker in New Worktree');
  await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
  await promptFromPalette(page, 'write: NOTES.md = # Notes from the worktree');
  await log.locator('.kind-end').first().waitFor({ state: 'visible' });
  // And a hook manager's config, which the person's hooks would run at the merge: they are not run, and the toast says why.
  await promptFromPalette(page, 'write: lefthook.yml = pre-commit: {}');
  await log.locator('.kind-end').nth(1).waitFor({ state: 'visible' });
  await expandRow(page, 'Demo worker');
  const wtRow = sessionsRow(page, /worktree worker\/demo-worker/i);
  await expandRow(page, /worktree worker\/demo-worker/i);
  await sessionsRow(page, 'NOTES.md').waitFor({ state: 'visible' });
  await screenshot(page, 'day-worktree');
  // The row's action bar is drawn again when the tree refreshes the row (the worker's state): a
  // click on a bar being replaced ran nothing once (no toast in 30 s, the row still unmerged). So it
  // is clicked again, at most twice more, only while the row still lists its change and no toast
  // says the merge: never a second merge.
  const mergedToast = page.locator('.notifications-toasts .notification-toast', { hasText: /merged Demo worker/ }).first();
  for (let attempt = 1; ; attempt++) {
    await wtRow.hover();
    await wtRow.locator('.actions .action-label[aria-label^="Merge into My Branch"]').click();
    try {
      await mergedToast.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (e) {
      if (attempt === 3 || !(await wtRow.locator('.label-description', { hasText: '2 changed' }).isVisible())) throw e;
    }
  }
  const merged = await toast(page, /merged Demo worker/);
  const mergedWords = await merged.innerText();
  const commit = /commit ([0-9a-f]{8})/.exec(mergedWords)?.[1];
  if (!/into main without running your git hooks: the worker changed lefthook\.yml, which they run or read\. 2 files, commit/.test(mergedWords)) throw new Error(`the merge's toast does not say the hooks were not run: ${mergedWords}`);
  // The row says where the work went, with the merge commit: "no changes" read as if it was lost.
  await wtRow.locator('.label-description', { hasText: `merged into main (${commit})` }).waitFor({ state: 'visible' });
  await screenshot(page, 'day-merged');
  if (!existsSync(join(ws, 'NOTES.md')) || !readFileSync(join(ws, 'NOTES.md'), 'utf8').includes('Notes from the worktree')) throw new Error('the merge did not bring NOTES.md into the checkout');
  await closeToasts(page);

  // 7. Discard its worktree while the worker still runs there: the menu offers it (it was
  // hidden, with no word why); chosen, it says why it cannot now and offers to stop the worker,
  // then a modal names what would be lost.
  await fromMenu(page, wtRow, 'Discard Worktree');
  const why = await toast(page, 'still runs in this worktree');
  await screenshot(page, 'day-discard-running');
  await why.locator('.monaco-button', { hasText: 'Stop Worker and Discard' }).click();
  const dialog = page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible' });
  await screenshot(page, 'day-discard-confirm');
  await dialog.locator('.monaco-button', { hasText: /^Discard$/ }).click();
  await toast(page, /discarded Demo worker/);
  await wtRow.waitFor({ state: 'hidden' });
  await screenshot(page, 'day-discarded');
  if (git(ws, 'branch', '--list', 'worker/*').trim()) throw new Error(`the worker's branch is still there: ${git(ws, 'branch', '--list', 'worker/*')}`);
  await closeToasts(page);

  // 8. Delete the guarded worker's past session.
  const past = page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'Past sessions' }).first();
  if ((await past.getAttribute('aria-expanded')) === 'false') await past.locator('.monaco-tl-twistie').click();
  const pastRow = page.locator('.part.sidebar .monaco-list-row[role="treeitem"][aria-level="2"]', { hasText: GUARDED }).first();
  await pastRow.waitFor({ state: 'visible' });
  await fromMenu(page, pastRow, 'Delete Session');
  await dialog.waitFor({ state: 'visible' });
  await dialog.getByText(/\(\d+ events, 1 turn\)/).waitFor({ state: 'visible' }).catch(async () => { throw new Error(`the Delete confirmation says: ${await dialog.innerText()}`); });
  await screenshot(page, 'day-delete-confirm');
  await dialog.locator('.monaco-button', { hasText: /^Delete$/ }).click();
  await pastRow.waitFor({ state: 'hidden' });
  await screenshot(page, 'day-deleted');
}

await runScenario(import.meta.url, dayWork);
