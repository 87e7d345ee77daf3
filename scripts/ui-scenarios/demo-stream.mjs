// Start the demo worker from the Command Palette, see it in the Sessions view, prompt it from the
// event log's composer and watch the reply stream in; then check that what a worker says is
// shown as text, never as HTML. Saves docs/screenshots/sessions-welcome.png and demo-*.png.
import { launchWorkbench, clickActivityBar, runCommand, webviewFrame, typeInto, waitForText, screenshot, runScenario } from '../ui-driver.mjs';
import { sessionsRow, widenSideBar } from './lib/demo.mjs';

export default async function demoStream({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 620);
    await page.locator('.part.sidebar .welcome-view-content', { hasText: 'Start Demo Worker' }).first().waitFor({ state: 'visible' });
    // The picture is of what a person sees a moment later: the Event Log's own hint, not its blank pane while it loads.
    await (await webviewFrame(page, 'Event Log')).getByText('No worker selected. Start one').waitFor({ state: 'visible' });
    await screenshot(page, 'sessions-welcome');

    await runCommand(page, 'RPC Workers: Start Demo Worker');
    await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
    await sessionsRow(page, 'idle').waitFor({ state: 'visible' });
    await page.locator('.part.statusbar .statusbar-item[aria-label^="RPC Workers:"]').first().waitFor({ state: 'visible' });

    const log = await webviewFrame(page, 'Event Log');
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    await typeInto(log, 'textarea.message', 'Please summarise what src/hello.js does and suggest one improvement to it, in a few short sentences');
    await log.locator('textarea.message').press('Control+Enter');
    // The reply streams word by word: catch it while the badge still says so.
    await log.locator('.kind-assistant.streaming').waitFor({ state: 'visible' });
    await waitForText(log, /You said: Please summarise what/);
    await log.locator('button[data-action="follow-up"]').waitFor({ state: 'visible' });
    await screenshot(page, 'demo-streaming');
    await log.locator('.kind-end.end-done').first().waitFor({ state: 'visible' });

    // A worker that says HTML: shown as those characters, no element made of it.
    const hostile = '<img src=x onerror=alert(1)> and <b>not bold</b>';
    await typeInto(log, 'textarea.message', hostile);
    await log.locator('textarea.message').press('Control+Enter');
    await log.locator('.kind-end.end-done').nth(1).waitFor({ state: 'visible' });
    await log.getByText(`You said: ${hostile}.`, { exact: false }).first().waitFor({ state: 'visible' });
    const made = await log.locator('.rows img, .rows b').count();
    if (made !== 0) throw new Error(`the event log made ${made} element(s) out of worker text`);
    await screenshot(page, 'demo-done');

    // Scrolling up pauses auto-scroll and offers "Jump to latest"; new text does not pull the
    // view down until the person asks.
    const list = log.locator('.list');
    await list.hover();
    await page.mouse.wheel(0, -5000);
    await log.locator('.jump.visible').waitFor({ state: 'visible' });
    await typeInto(log, 'textarea.message', 'One more, while you read the top of the log');
    await log.locator('textarea.message').press('Control+Enter');
    await log.locator('.kind-end.end-done').nth(2).waitFor({ state: 'attached' });
    const top = await list.evaluate((el) => el.scrollTop);
    if (top > 40) throw new Error(`the log scrolled to ${top} while paused`);
    // The button says how much came below while the person read above.
    await log.locator('.jump.visible', { hasText: /Jump to latest \(\d+ new\)/ }).waitFor({ state: 'visible' });
    await screenshot(page, 'demo-paused');
    await log.locator('.jump.visible').click();
    await log.locator('.jump.visible').waitFor({ state: 'hidden' });
    const gap = await list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    if (gap > 40) throw new Error(`Jump to latest left ${gap} px below`);

    await runCommand(page, 'RPC Workers: Stop All Workers');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, demoStream);
