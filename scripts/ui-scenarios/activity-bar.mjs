// The RPC Workers view container, opened from the activity bar as a person would.
// Saves docs/screenshots/activity-bar.png.
import { withWorkbench, clickActivityBar, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';

export default async function activityBar({ port } = {}) {
  await withWorkbench({ port }, async ({ page }) => {
    await clickActivityBar(page, 'RPC Workers');
    // The container's view (package.json: views.rpcWorkers) is there.
    await page.locator('.part.sidebar .pane-header', { hasText: 'Sessions' }).first().waitFor({ state: 'visible' });
    // The Event Log below it, with no worker yet, says what to do rather than show a blank pane.
    const log = await webviewFrame(page, 'Event Log');
    await log.getByText('No worker selected. Start one').waitFor({ state: 'visible' });
    await screenshot(page, 'activity-bar');
  }, { name: 'activity-bar' });
}

await runScenario(import.meta.url, activityBar);
