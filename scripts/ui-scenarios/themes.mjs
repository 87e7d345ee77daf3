// The event log and the Sessions view in the light, dark and high-contrast themes: a demo turn
// with a tool call, an aborted turn and a queue change, drawn in each theme's own colours.
// Saves docs/screenshots/theme-{light,dark,high-contrast}.png.
import { launchWorkbench, runCommand, screenshot, runScenario } from '../ui-driver.mjs';
import { promptFromPalette, startDemo } from './lib/demo.mjs';

const THEMES = [['light', 'Default Light Modern'], ['dark', 'Default Dark Modern'], ['high-contrast', 'Default High Contrast']];

export default async function themes({ port } = {}) {
  for (const [name, theme] of THEMES) {
    const wb = await launchWorkbench({ port, settings: { 'workbench.colorTheme': theme } });
    const { page } = wb;
    try {
      const log = await startDemo(page);
      await promptFromPalette(page, 'run: ls -la src; echo done listing');
      await log.locator('.kind-end.end-done').first().waitFor({ state: 'visible' });
      await log.locator('.kind-tool summary').first().click();
      await promptFromPalette(page, 'run: sleep 20');
      await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
      await runCommand(page, 'RPC Workers: Abort Turn');
      await log.locator('.kind-end.end-aborted').waitFor({ state: 'visible' });
      await log.locator('body').evaluate(() => document.fonts.ready.then(() => undefined));
      await screenshot(page, `theme-${name}`);
      await runCommand(page, 'RPC Workers: Stop All Workers');
    } finally {
      await wb.close();
    }
  }
}

await runScenario(import.meta.url, themes);
