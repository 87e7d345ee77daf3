// Abort the demo worker in the middle of a real shell command: prompt "run: sleep 30" from the
// palette, see the tool call running in the event log and the Sessions view, abort it from the
// palette, and see the turn end as aborted, its call stopped (not an error) in the log and the
// tree. Saves docs/screenshots/abort-*.png.
import { launchWorkbench, runCommand, screenshot, runScenario } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow, startDemo } from './lib/demo.mjs';

export default async function demoAbort({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    const log = await startDemo(page);
    await promptFromPalette(page, 'run: echo starting a long job; sleep 30; echo never printed');
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
    await log.getByText('starting a long job').first().waitFor({ state: 'visible' });
    await sessionsRow(page, 'streaming').waitFor({ state: 'visible' });
    await screenshot(page, 'abort-running');

    const t0 = Date.now();
    await runCommand(page, 'RPC Workers: Abort Turn');
    await log.locator('.kind-end.end-aborted').waitFor({ state: 'visible' });
    const ms = Date.now() - t0;
    if (ms > 10_000) throw new Error(`the abort took ${ms} ms: sleep 30 was not cut short`);
    // The call the abort cut short is stopped, not an error of its own: the log and the tree agree.
    await log.locator('.kind-tool.tool-stopped').first().getByText(/^stopped/).waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    // Open the tool call, so the picture shows its output and the abort note, then go back to
    // the latest entry with the jump button if opening it scrolled the log.
    await log.locator('.kind-tool summary').first().click();
    await log.getByText(/aborted after/).first().waitFor({ state: 'visible' });
    await log.locator('.kind-end.end-aborted').scrollIntoViewIfNeeded();
    // The Sessions view has the turn too: expand the worker and its turn to see the tool call.
    await sessionsRow(page, 'Demo worker').locator('.monaco-tl-twistie').click();
    const turn = sessionsRow(page, 'Turn 1');
    await turn.waitFor({ state: 'visible' });
    await turn.getByText(/aborted/).waitFor({ state: 'visible' });
    await turn.locator('.monaco-tl-twistie').click();
    await sessionsRow(page, 'bash').filter({ hasText: 'stopped' }).waitFor({ state: 'visible' });
    await screenshot(page, 'abort-done');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, demoAbort);
