// A worker that prints a line that is not a protocol message (here: the demo worker behind a
// wrapper that writes a stray line and a fake HTML tag to stdout first). The event log shows it
// as a visible warning, as text, and the worker goes on working. Saves
// docs/screenshots/protocol-warning.png.
import { join } from 'node:path';
import { launchWorkbench, clickActivityBar, screenshot, runScenario, webviewFrame, QUICK_INPUT } from '../ui-driver.mjs';
import { repoRoot } from '../lib/paths.mjs';
import { answerInput, promptFromPalette, sessionsRow, widenSideBar } from './lib/demo.mjs';

const demo = join(repoRoot, 'dist', 'demo-worker.js');
const wrapper = `process.stdout.write('Debugger attached <b>not a protocol line</b>\\n'); require(${JSON.stringify(demo)});`;

export default async function protocolWarning({ port } = {}) {
  const settings = { 'rpcWorkers.profiles': [{ name: 'Noisy demo', dialect: 'tau', command: process.execPath, args: ['-e', wrapper] }] };
  const wb = await launchWorkbench({ port, settings });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 620);
    await page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Start Worker' }).first().click();
    const pick = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: 'Noisy demo' }).first();
    await pick.waitFor({ state: 'visible' });
    await pick.click();
    await page.locator(`${QUICK_INPUT} .quick-input-title`, { hasText: 'first task (optional)' }).waitFor({ state: 'visible' });
    await answerInput(page, '');
    await sessionsRow(page, 'Noisy demo').waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');
    const warning = log.locator('.kind-warning', { hasText: 'Protocol error' }).first();
    await warning.waitFor({ state: 'visible' });
    await warning.getByText('<b>not a protocol line</b>', { exact: false }).waitFor({ state: 'visible' });
    if (await log.locator('.rows b').count()) throw new Error('the stray line was rendered as HTML');
    await promptFromPalette(page, 'still working?', 'Noisy demo');
    await log.locator('.kind-end.end-done').waitFor({ state: 'visible' });
    await screenshot(page, 'protocol-warning');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, protocolWarning);
