// Many workers at once (issue 15), as a person meets it: two demo workers, each started in a git
// worktree of its own (the scenario's workspace copy is made a git repository first); one writes
// a file and ends its turn while the person looks at the other (done, with a notification), the
// other leaves a question standing (needs input: the badge on the view). Then the diff editor on
// the first worker's change, base ↔ worktree. Saves docs/screenshots/many-workers-*.png.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchWorkbench, clickActivityBar, runCommand, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { SAMPLE_WORKSPACE } from '../lib/code-server.mjs';
import { makeTempDir } from '../lib/paths.mjs';
import { answerInput, sessionsRow, settleToast, widenSideBar } from './lib/demo.mjs';

const git = (cwd, ...args) => execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

function gitWorkspace() {
  const root = makeTempDir('many-workers');
  const ws = join(root, 'workspace');
  cpSync(SAMPLE_WORKSPACE, ws, { recursive: true });
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'config', 'user.email', 'person@example.com');
  git(ws, 'config', 'user.name', 'A Person');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'The sample workspace');
  return { root, ws };
}

/** Prompt one of several workers from the palette: pick it, then type the message. */
async function promptWorker(page, worker, text) {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible' });
  await input.fill('>RPC Workers: Prompt');
  const row = widget.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^RPC Workers: Prompt$/ }) }).first();
  await row.click();
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: worker }).first().click();
  await widget.locator('.quick-input-title', { hasText: 'Prompt' }).waitFor({ state: 'visible' });
  await answerInput(page, text);
}

export default async function manyWorkers({ port } = {}) {
  const { root, ws } = gitWorkspace();
  const wb = await launchWorkbench({ port, workspace: ws });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 560);
    await runCommand(page, 'RPC Workers: Start Demo Worker in New Worktree');
    await sessionsRow(page, 'Worktree worker/demo-worker').waitFor({ state: 'visible' });
    await runCommand(page, 'RPC Workers: Start Demo Worker in New Worktree');
    await sessionsRow(page, 'Demo worker #2').waitFor({ state: 'visible' });
    await page.locator('.part.sidebar .monaco-list-row.selected[role="treeitem"]', { hasText: 'Demo worker #2' }).waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');

    // #1 works while the person looks at #2: its turn ends unseen (done, and a notification).
    await promptWorker(page, 'Demo worker #1', 'write: src/hello.js = export const greet = (name) => `Hello, ${name}! (from a worker)`;');
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
    const pick = page.locator('.quick-input-widget');
    if (await pick.isVisible()) await page.keyboard.press('Escape');
    await page.locator('.part.activitybar .badge .badge-content', { hasText: '1' }).first().waitFor({ state: 'visible' });
    await sessionsRow(page, 'NOTES.md').waitFor({ state: 'visible' });
    await sessionsRow(page, 'hello.js').waitFor({ state: 'visible' });
    await screenshot(page, 'many-workers-attention');

    // The diff editor on #1's change: base (read-only) ↔ its worktree.
    await sessionsRow(page, 'hello.js').click();
    await page.locator('.editor-instance .monaco-diff-editor').first().waitFor({ state: 'visible' });
    await page.locator('.tab.active', { hasText: 'hello.js' }).waitFor({ state: 'visible' });
    await screenshot(page, 'many-workers-diff');
    await runCommand(page, 'RPC Workers: Stop All Workers');
  } finally {
    await wb.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await runScenario(import.meta.url, manyWorkers);
