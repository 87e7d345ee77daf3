// Redirect the demo worker from an editor selection while it runs a command: open
// src/hello.js, select the function, press the Redirect with Selection keybinding, type an
// instruction; the event log shows the turn aborted and the redirect from the editor, naming
// the file and lines and quoting the code. Saves docs/screenshots/redirect-*.png.
import { launchWorkbench, screenshot, runScenario, runCommand, QUICK_INPUT } from '../ui-driver.mjs';
import { answerInput, openHelloJs, promptFromPalette, startDemo } from './lib/demo.mjs';

export default async function demoRedirectSelection({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    await openHelloJs(page);
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor({ state: 'visible' });

    const log = await startDemo(page);
    await promptFromPalette(page, 'run: sleep 30');
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });

    // Select lines 2-4 (the greet function) in the editor, as a person would with the keyboard.
    await page.locator('.editor-instance .view-line', { hasText: 'function greet' }).first().click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Control+Alt+r');
    const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
    await input.waitFor({ state: 'visible' });
    await screenshot(page, 'redirect-ask');
    await answerInput(page, 'Stop that and make greet() trim the name first');

    await log.locator('.kind-end.end-aborted').waitFor({ state: 'visible' });
    const redirect = log.locator('.kind-prompt.src-editor').first();
    await redirect.waitFor({ state: 'visible' });
    await redirect.getByText('From `src/hello.js`, lines 2-4').waitFor({ state: 'visible' });
    await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible' });
    // Bring the aborted turn's end and the redirect into view for the picture.
    await log.locator('.kind-end.end-aborted').evaluate((el) => { el.closest('.list').scrollTop = el.offsetTop - 4; });
    await redirect.waitFor({ state: 'visible' });
    await screenshot(page, 'redirect-done');
    // Leave nothing running: Stop All from the palette.
    await runCommand(page, 'RPC Workers: Stop All Workers');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, demoRedirectSelection);
