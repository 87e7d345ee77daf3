// A running turn that goes quiet says so: the demo worker runs a command that prints one line and
// then nothing for 45 s; past 30 s the log's status chip reads "streaming · quiet for 3x s" and
// counts on; after Abort it says the phase alone. Saves docs/screenshots/quiet-turn.png.
import { withWorkbench, runCommand, screenshot, runScenario } from '../ui-driver.mjs';
import { promptFromPalette, startDemo } from './lib/demo.mjs';

export default async function quietTurn({ port } = {}) {
  await withWorkbench(
    { port },
    async ({ page }) => {
      const log = await startDemo(page);
      await promptFromPalette(page, 'run: echo waiting on something slow; sleep 45');
      await log.getByText('waiting on something slow').first().waitFor({ state: 'visible' });
      const chip = log.locator('.status-badge');
      await chip.filter({ hasText: /^streaming · / }).waitFor({ state: 'visible' });
      await chip.filter({ hasText: /^streaming · quiet for 3\d s · / }).waitFor({ state: 'visible', timeout: 45_000 });
      const first = await chip.textContent();
      // It counts on, once a second.
      await chip
        .filter({ hasNotText: first ?? '' })
        .filter({ hasText: /quiet for \d+ s/ })
        .waitFor({ state: 'visible', timeout: 5_000 });
      await screenshot(page, 'quiet-turn');
      await runCommand(page, 'RPC Workers: Abort Turn');
      await log.locator('.kind-end.end-aborted').waitFor({ state: 'visible' });
      await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
      const after = await chip.textContent();
      if (/quiet/.test(after ?? '')) throw new Error(`the chip still says ${after} after the abort`);
    },
    { name: 'quiet-turn' },
  );
}

await runScenario(import.meta.url, quietTurn);
