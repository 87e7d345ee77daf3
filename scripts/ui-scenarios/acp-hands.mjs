// An ACP agent's host terminal as a person meets it: a command the agent runs in a host
// terminal, opened from its tool call's row in a read-only VS Code terminal that shows its output
// and how it exited. Saves docs/screenshots/acp-host-terminal.png.
import { screenshot, runScenario } from '../ui-driver.mjs';
import { promptFromPalette } from './lib/demo.mjs';
import { startFakeAcp } from './lib/fakeAcp.mjs';

const PROFILE = 'Agent with host terminals (fake)';

export default async function acpHands({ port } = {}) {
  const { wb, page, log } = await startFakeAcp({ port, profile: PROFILE });
  try {
    await promptFromPalette(page, 'term: echo one; echo two; exit 3', PROFILE);
    await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible' });
    await log.locator('.kind-tool summary').last().click();
    // The call's terminal is named as its tab is (term-1), not in the label's capitals.
    const label = await log.locator('.kind-tool .terminal .label').first().innerText();
    if (!label.includes('term-1')) throw new Error(`the call's terminal is not named as its tab: ${JSON.stringify(label)}`);
    await log.locator('.open-terminal').first().click();
    await page.locator('.terminal-tab, .terminal-tabs-entry, .single-terminal-tab', { hasText: 'term-1' }).first().waitFor({ state: 'visible' });
    // xterm draws on a canvas: the text is looked at in the screenshot, not read from the DOM.
    await page.locator('.terminal-wrapper.active .xterm').first().waitFor({ state: 'visible' });
    await screenshot(page, 'acp-host-terminal');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, acpHands);
