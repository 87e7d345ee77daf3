// The event log's composer as a person meets it, at the side bar's default width (issue 13):
// filters and buttons say their names; Abort clicked twice hits a disabled Abort, not Compact;
// the status line follows what happened, palette actions included; an empty Send says what
// to do; a Prompt from the palette while the worker streams keeps the text and offers Steer,
// Follow Up and Redirect as buttons; no "null" under Queue and Compaction entries; a log
// emptied by filters says so. Saves docs/screenshots/composer-*.png.
import { launchWorkbench, runCommand, screenshot, runScenario } from '../ui-driver.mjs';
import { promptFromPalette, settleToast, startDemo } from './lib/demo.mjs';

const fail = (what) => { throw new Error(what); };

/** Where each composer button is (page coordinates), by its data-action. */
async function buttonBoxes(log) {
  const out = {};
  const buttons = log.locator('.buttons button');
  for (let i = 0; i < await buttons.count(); i++) {
    const b = buttons.nth(i);
    if (!await b.isVisible()) fail(`composer button ${await b.getAttribute('data-action')} is hidden`);
    out[await b.getAttribute('data-action')] = await b.boundingBox();
  }
  return out;
}

export default async function composerSteady({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    // The side bar as it opens: no widening.
    const log = await startDemo(page, { width: 0 });
    const line = log.locator('.result');

    // Item 10: the filters and the buttons show their names at the default width.
    for (const label of ['Messages', 'Tools', 'Turns']) await log.locator('.chip .lbl', { hasText: label }).waitFor({ state: 'visible' });
    for (const label of ['Send', 'Follow-up', 'Redirect', 'Abort', 'Compact', 'Stop']) await log.locator('.buttons button .label', { hasText: label }).waitFor({ state: 'visible' });

    // Item 7: an empty Send says what to do.
    await log.locator('button[data-action="send"]').click();
    await line.getByText('Type a message first').waitFor({ state: 'visible' });

    // Item 1: Abort twice. The buttons do not move when the turn ends, and the second click
    // lands on a disabled Abort.
    await promptFromPalette(page, 'run: echo started; sleep 30');
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-streaming').waitFor({ state: 'visible' });
    await line.getByText('Prompt accepted by Demo worker').waitFor({ state: 'visible' });
    const streamingBoxes = await buttonBoxes(log);
    await screenshot(page, 'composer-streaming');
    const abort = streamingBoxes.abort;
    await page.mouse.click(abort.x + abort.width / 2, abort.y + abort.height / 2);
    await log.locator('.kind-end.end-aborted').waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    await line.getByText('Aborted the turn of Demo worker').waitFor({ state: 'visible' });
    const idleBoxes = await buttonBoxes(log);
    for (const [name, box] of Object.entries(streamingBoxes)) {
      const after = idleBoxes[name];
      if (Math.abs(after.x - box.x) > 0.5 || Math.abs(after.y - box.y) > 0.5) fail(`the ${name} button moved when the turn ended: ${JSON.stringify(box)} -> ${JSON.stringify(after)}`);
    }
    if (!await log.locator('button[data-action="abort"]').isDisabled()) fail('Abort is still enabled on an idle worker');
    // The pressed Abort greyed out: the focus went to the text box, not to the page.
    const focused = await log.locator('body').evaluate(() => document.activeElement?.className ?? document.activeElement?.tagName);
    if (focused !== 'message') fail(`after Abort greyed out the focus is on ${JSON.stringify(focused)}, not the text box`);
    // The second click: on the disabled Abort. Then a prompt, whose result is the sync point
    // after which a compaction would already show.
    await page.mouse.click(abort.x + abort.width / 2, abort.y + abort.height / 2);
    await log.locator('textarea.message').fill('hello after the abort');
    await log.locator('textarea.message').press('Control+Enter');
    await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible' });
    await line.getByText('Prompt accepted by Demo worker').waitFor({ state: 'visible' });
    if (await log.locator('.kind-compaction').count()) fail('the second click on Abort compacted the conversation');
    await screenshot(page, 'composer-after-abort');

    // Item 8: Prompt from the palette while the worker streams keeps the text and offers the
    // ways it can go as buttons.
    await promptFromPalette(page, 'run: echo again; sleep 30');
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-streaming').waitFor({ state: 'visible' });
    await promptFromPalette(page, 'and then say hello');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'in the middle of a turn' }).first();
    await toast.waitFor({ state: 'visible' });
    for (const b of ['Steer', 'Follow Up', 'Redirect']) await toast.locator('.monaco-button', { hasText: b }).waitFor({ state: 'visible' });
    await settleToast(toast);
    await screenshot(page, 'composer-prompt-while-streaming');
    await toast.locator('.monaco-button', { hasText: 'Follow Up' }).click();
    const followUp = log.locator('.kind-prompt.queued-followUp', { hasText: 'and then say hello' });
    await followUp.waitFor({ state: 'visible' });
    await line.getByText('Follow-up queued for Demo worker').waitFor({ state: 'visible' });

    // Item 2: the queue entry shows no "null".
    const queue = log.locator('.kind-queue').last();
    await queue.waitFor({ state: 'visible' });
    if (/null/.test(await queue.innerText())) fail(`the queue entry reads: ${await queue.innerText()}`);

    // Item 7: an Abort from the palette replaces "Follow-up queued" under the composer.
    await runCommand(page, 'RPC Workers: Abort Turn');
    await line.getByText('Aborted the turn of Demo worker').waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });

    // Item 2: a compaction (from its stable place) shows no "null" either.
    await log.locator('button[data-action="compact"]').click();
    const compaction = log.locator('.kind-compaction.compaction-done');
    await compaction.waitFor({ state: 'visible' });
    await line.getByText('Compacted Demo worker').waitFor({ state: 'visible' });
    if (/null/.test(await compaction.innerText())) fail(`the compaction entry reads: ${await compaction.innerText()}`);
    await screenshot(page, 'composer-queue-compaction');

    // Issue 28: a follow-up the worker takes up is said to be delivered ("queued" stood), and
    // the demo answers it as a follow-up, not as a steer.
    await log.locator('textarea.message').fill('run: sleep 2');
    await log.locator('textarea.message').press('Control+Enter');
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
    await log.locator('textarea.message').fill('and then wave');
    await log.locator('button[data-action="follow-up"]').click();
    await line.getByText('Follow-up queued for Demo worker').waitFor({ state: 'visible' });
    await line.getByText('Follow-up delivered to Demo worker').waitFor({ state: 'visible' });
    await log.locator('.kind-assistant', { hasText: 'Follow-up: You said: and then wave' }).waitFor({ state: 'visible' });
    await screenshot(page, 'composer-follow-up-delivered');

    // Item 10: turn every filter off: the log says why it is empty and how to see it again.
    const chips = log.locator('.chip');
    for (let i = 0; i < await chips.count(); i++) await chips.nth(i).click();
    const why = log.locator('.filtered-empty');
    await why.getByText(/filters are off/).waitFor({ state: 'visible' });
    await screenshot(page, 'composer-filtered-empty');
    await why.getByRole('button', { name: 'Show everything' }).click();
    await log.locator('.kind-compaction').waitFor({ state: 'visible' });
    await runCommand(page, 'RPC Workers: Stop All Workers');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, composerSteady);
