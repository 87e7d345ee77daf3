// An ACP agent (the fake ACP agent, which asks before its edits and commands as Claude, Copilot
// and Gemini do) as a person meets it: Start Worker from a profile, a prompt whose edit comes up
// as a question with the change in the diff editor beside it while the Sessions view says the
// worker needs input, the answer, then a long command aborted. Saves docs/screenshots/acp-*.png.
import { screenshot, runScenario, QUICK_INPUT, openPalette } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow } from './lib/demo.mjs';
import { startFakeAcp } from './lib/fakeAcp.mjs';

const PROFILE = 'Claude-like agent (fake)';

export default async function acpApproval({ port } = {}) {
  const { wb, page, log } = await startFakeAcp({ port, profile: PROFILE });
  try {
    // The edit: a question with the agent's options, the change beside it, needs input.
    // The question takes the prompt box's place at once.
    await promptFromPalette(page, 'edit: src/hello.js', PROFILE, { next: 'asks: Edit src/hello.js' });
    await page.locator('.tab', { hasText: '(proposed)' }).first().waitFor({ state: 'visible' });
    await sessionsRow(page, 'needs input').waitFor({ state: 'visible' });
    await log.locator('.kind-question.question-open').waitFor({ state: 'visible' });
    await screenshot(page, 'acp-approval-diff', { moveMouse: false });
    // Every answer reads whole: none cut off at the pick's edge (Always allow's was, mid-sentence).
    const cut = await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row .monaco-icon-label-container, ${QUICK_INPUT} .quick-input-list .monaco-list-row .monaco-icon-label-container > *`).evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    if (cut.length) throw new Error(`the question's answers are cut off: ${JSON.stringify(cut)}`);

    // Allow it: the question row says so, the tool row shows the change as a diff.
    await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: 'Allow' }).first().click();
    await log.locator('.kind-question.question-answered').waitFor({ state: 'visible' });
    // The proposal is answered: its "(proposed)" tab goes (the log's Open diff shows the change again).
    await page.locator('.tab', { hasText: '(proposed)' }).first().waitFor({ state: 'hidden' });
    await log.locator('.kind-tool .diff .ins').first().waitFor({ state: 'visible' });
    // The change's label names the file as it is spelt (the label's caps are for its word, not the path).
    const label = await log.locator('.kind-tool .change .label').first().innerText();
    if (!label.includes('src/hello.js')) throw new Error(`the change's label does not spell the path as it is: ${JSON.stringify(label)}`);
    await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible' });
    await screenshot(page, 'acp-approval-answered');

    // A long command, allowed, then aborted from the palette.
    await promptFromPalette(page, 'shell: echo working; sleep 30', PROFILE, { next: 'asks:' });
    await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: 'Allow once' }).first().click();
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
    const input = await openPalette(page);
    await input.fill('>RPC Workers: Abort Turn');
    await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row.focused .label-name`).filter({ hasText: /^RPC Workers: Abort Turn$/ }).waitFor({ state: 'visible' });
    await input.press('Enter');
    await log.locator('.kind-end.end-aborted').waitFor({ state: 'visible' });
    // The line under the composer says what came of the palette's abort, not the prompt before it.
    await log.getByText(`Aborted the turn of ${PROFILE}`).waitFor({ state: 'visible' });
    await screenshot(page, 'acp-aborted');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, acpApproval);
