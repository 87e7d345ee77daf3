// The Getting Started walkthrough (contributes.walkthroughs), as a person meets it: opened from
// the palette, its first three steps done with the demo worker, each ticking itself off (its
// completionEvents are context keys the extension sets from what the worker did), then the step
// that lists the real agents and their one-line installs. Saves docs/screenshots/walkthrough-*.png.
import { launchWorkbench, runCommand, screenshot, runScenario, QUICK_INPUT, openPalette } from '../ui-driver.mjs';
import { commandWithInput, promptFromPalette, sessionsRow } from './lib/demo.mjs';

const step = (page, id) => page.locator(`.gettingStartedContainer button.getting-started-step[data-step-id$="${id}"]`).first();
const done = (page, id) => page.locator(`.gettingStartedContainer button.getting-started-step[data-step-id$="${id}"][aria-checked="true"]`).first();

async function openWalkthrough(page) {
  const widget = page.locator(QUICK_INPUT);
  const input = widget.locator('.quick-input-box input');
  await openPalette(page);
  await input.fill('>Welcome: Open Walkthrough...');
  await widget.locator('.quick-input-list .monaco-list-row .label-name', { hasText: /^Welcome: Open Walkthrough\.\.\.$/ }).first().click();
  await input.fill('RPC Workers');
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Get Started with RPC Workers' }).first().click();
  await page.locator('.gettingStartedContainer', { hasText: 'Get Started with RPC Workers' }).first().waitFor({ state: 'visible' });
}

export default async function walkthrough({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    await openWalkthrough(page);
    await step(page, 'startDemo').waitFor({ state: 'visible' });
    await screenshot(page, 'walkthrough-open');

    // 1. The step's own button starts the demo worker; the step ticks itself off.
    await step(page, 'startDemo').click();
    await page.locator('.gettingStartedContainer a, .gettingStartedContainer .monaco-button', { hasText: 'Start Demo Worker' }).first().click();
    await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
    await done(page, 'startDemo').waitFor({ state: 'visible' });

    // 2. A prompt from the palette streams a reply to its end.
    await promptFromPalette(page, 'tell me about this workspace');
    await done(page, 'watchStream').waitFor({ state: 'visible' });

    // 3. A long job, redirected while it runs: aborted, settled, the new instruction sent.
    await promptFromPalette(page, 'run: echo a long job; sleep 20');
    await sessionsRow(page, 'streaming').waitFor({ state: 'visible' });
    await commandWithInput(page, 'RPC Workers: Redirect', 'Redirect Demo worker', 'stop that and say hello instead');
    await done(page, 'abortRedirect').waitFor({ state: 'visible' });

    await step(page, 'installAgent').click();
    await screenshot(page, 'walkthrough-demo-done');

    // 4. The real agents and their installs (it completes when a profile is saved), with the
    // side bar closed: the walkthrough shows a step's media beside the steps only when wide.
    // Run right after the step's click (1.139), the command at times left the side bar open, the
    // palette having closed as after any command; a person presses it again, and so does this.
    for (let tries = 1; ; tries++) {
      await runCommand(page, 'View: Close Primary Side Bar');
      const closed = await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: 2000 }).then(() => true, () => false);
      if (closed) break;
      if (tries === 3) throw new Error('View: Close Primary Side Bar left the side bar open three times');
    }
    const media = page.frameLocator('.gettingStartedContainer iframe.webview').frameLocator('iframe#active-frame');
    await media.getByText('claude-agent-acp').first().waitFor({ state: 'visible' });
    await screenshot(page, 'walkthrough-install');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, walkthrough);
