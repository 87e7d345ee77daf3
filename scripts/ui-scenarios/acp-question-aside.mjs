// A question put aside, as a person meets it: the fake ACP agent asks before a command, the person
// opens the Command Palette over the question (VS Code shows one quick input at a time), and the
// question is not answered for them: a notification says the worker waits, its Answer… brings the
// question back (as does the log's Answer… on the question), and the answer reaches the agent.
// Saves docs/screenshots/acp-question-aside*.png.
import { screenshot, runScenario, QUICK_INPUT, quickInputClosed } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow } from './lib/demo.mjs';
import { startFakeAcp } from './lib/fakeAcp.mjs';

const PROFILE = 'Claude-like agent (fake)';

export default async function acpQuestionAside({ port } = {}) {
  const { wb, page, log } = await startFakeAcp({ port, profile: PROFILE });
  try {
    await promptFromPalette(page, 'shell: echo put aside', PROFILE, { next: 'asks:' });
    await log.locator('.kind-question.question-open').waitFor({ state: 'visible' });
    // The palette over the question: the question goes aside, the worker still waits.
    await page.keyboard.press('F1');
    const toast = page.locator('.notification-toast', { hasText: 'waits for your answer' });
    await toast.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await quickInputClosed(page);
    await sessionsRow(page, 'needs input').waitFor({ state: 'visible' });
    await settled(page, '.notification-toast');
    await screenshot(page, 'acp-question-aside', { moveMouse: false });
    // The log's Answer… brings it back; Escape puts it aside again; the notification's Answer…
    // brings it back too, and Allow once answers it.
    const allow = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: 'Allow once' }).first();
    await log.locator('.kind-question.question-open .answer-question').click();
    await allow.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await quickInputClosed(page);
    await toast.first().getByRole('button', { name: 'Answer…' }).click();
    await allow.waitFor({ state: 'visible' });
    await settled(page, QUICK_INPUT);
    await screenshot(page, 'acp-question-aside-back');
    await allow.click();
    await log.locator('.kind-question.question-answered').waitFor({ state: 'visible' });
    await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible' });
    await quickInputClosed(page);
    await sessionsRow(page, 'idle').waitFor({ state: 'visible' });
    await screenshot(page, 'acp-question-aside-answered');
  } finally {
    await wb.close();
  }
}

/** Waits until what `selector` shows stands still (VS Code slides toasts in and fades quick inputs). */
function settled(page, selector) {
  return page.waitForFunction((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const box = JSON.stringify(el.getBoundingClientRect());
    const still = window.__lastBox === box && getComputedStyle(el).opacity === '1';
    window.__lastBox = box;
    return still;
  }, selector, { timeout: 10_000, polling: 100 });
}

await runScenario(import.meta.url, acpQuestionAside);
