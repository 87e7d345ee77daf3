// A pi extension's dialog as a person meets it (real pi 1.6.0 on the mock model, with
// test/fixtures/pi-ext/pick-writes.mjs asking before each write): the QuickPick comes up, the
// person opens the Command Palette over it and the dialog is put aside, not answered for them;
// the row's Answer Open Questions… brings it back and the pick reaches pi. Then, with the dialog up
// again and put aside, the log's Abort ends it and the turn ends aborted at once; the
// notification's Answer… then says no answer is needed.
// Saves docs/screenshots/pi-dialog-*.png.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockLlm } from '../../test/fixtures/mock-llm.mjs';
import { makePiAgentDir, removePiAgentDir } from '../../test/fixtures/pi-env.mjs';
import { ensurePi1 } from '../ensure-workers.mjs';
import { repoRoot } from '../lib/paths.mjs';
import { clickActivityBar, launchWorkbench, screenshot, runScenario, webviewFrame, QUICK_INPUT, quickInputClosed } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow, settleToast, startProfile, widenSideBar } from './lib/demo.mjs';

const PROFILE = 'pi asking before writes';

export default async function piDialog({ port } = {}) {
  const pi = ensurePi1();
  const llm = await startMockLlm();
  const piDir = await makePiAgentDir({ baseUrl: llm.baseUrl });
  const out = mkdtempSync(join(tmpdir(), 'rpcw-pi-dialog-'));
  const ext = join(repoRoot, 'test', 'fixtures', 'pi-ext', 'pick-writes.mjs');
  const wb = await launchWorkbench({
    port,
    settings: { 'rpcWorkers.profiles': [{ name: PROFILE, dialect: 'pi', command: pi, args: ['-e', ext], model: 'mock/mock-1', env: { PI_CODING_AGENT_DIR: piDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0' } }] },
  });
  const { page } = wb;
  const widget = page.locator(QUICK_INPUT);
  const pickRow = (text) => widget.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 560);
    await startProfile(page, PROFILE);
    await sessionsRow(page, PROFILE).filter({ hasText: 'idle' }).waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');

    const first = join(out, 'first.txt');
    llm.script([{ toolCalls: [{ name: 'write', arguments: { path: first, content: 'picked\n' } }] }, { text: 'Written.' }]);
    await promptFromPalette(page, 'write the first file', PROFILE, { next: 'first.txt?' });
    await pickRow('Write it').waitFor({ state: 'visible' });
    await sessionsRow(page, 'needs input').waitFor({ state: 'visible' });
    await screenshot(page, 'pi-dialog-asks');
    // The palette over the dialog: it is put aside, the worker still waits.
    await page.keyboard.press('F1');
    const toast = page.locator('.notification-toast', { hasText: 'waits for your answer' });
    await toast.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await quickInputClosed(page);
    await sessionsRow(page, 'needs input').waitFor({ state: 'visible' });
    await settleToast(toast);
    // The row offers the question back (its inline bell), beside Abort and Stop.
    const row = sessionsRow(page, PROFILE);
    await row.hover();
    const answer = row.locator('.actions .action-label[aria-label^="Answer Open Questions"]');
    await answer.waitFor({ state: 'visible' });
    await screenshot(page, 'pi-dialog-aside', { moveMouse: false });
    if (existsSync(first)) throw new Error('the dialog put aside was answered for the person');
    await answer.click();
    await pickRow('Write it').click();
    await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible' });
    await sessionsRow(page, PROFILE).filter({ hasText: 'idle' }).waitFor({ state: 'visible' });
    if (readFileSync(first, 'utf8') !== 'picked\n') throw new Error('the pick did not reach pi');

    // Abort while the dialog is up: pi's abort waits for the extension, so the host closes it.
    const second = join(out, 'second.txt');
    llm.unscript();
    llm.script([{ toolCalls: [{ name: 'write', arguments: { path: second, content: 'never\n' } }] }, { text: 'Not reached.' }]);
    await promptFromPalette(page, 'write the second file', PROFILE, { next: 'second.txt?' });
    await pickRow('Write it').waitFor({ state: 'visible' });
    // The person opens the palette over it (the dialog goes aside), closes it again, and presses
    // the log's Abort: the question is moot, and its notification's Answer… says so.
    await page.keyboard.press('F1');
    const secondToast = page.locator('.notification-toast', { hasText: /waits for your answer.*second\.txt/ });
    await secondToast.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await quickInputClosed(page);
    await log.locator('button[data-action="abort"]').click();
    await log.locator('.kind-end.end-aborted').last().waitFor({ state: 'visible', timeout: 10_000 });
    await sessionsRow(page, PROFILE).filter({ hasText: /idle|aborted/ }).waitFor({ state: 'visible' });
    if (existsSync(second)) throw new Error('the aborted turn wrote its file');
    await secondToast.getByRole('button', { name: 'Answer…' }).click();
    const gone = page.locator('.notification-toast', { hasText: 'No answer needed: the turn was aborted' });
    await gone.waitFor({ state: 'visible' });
    await settleToast(gone);
    if (await widget.isVisible()) throw new Error('the moot dialog came back');
    await screenshot(page, 'pi-dialog-aborted');
  } finally {
    await wb.close();
    await llm.close();
    await removePiAgentDir(piDir);
    rmSync(out, { recursive: true, force: true });
  }
}

await runScenario(import.meta.url, piDialog);
