// An ACP agent writes a file the person has open with unsaved edits: the editor shows the agent's
// text, saved; the Event Log warns that it replaced the person's unsaved edits and that Undo
// brings them back; Undo in the editor does. Saves docs/screenshots/acp-dirty-write.png.
import { join } from 'node:path';
import { clickActivityBar, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { openHelloJs, promptFromPalette } from './lib/demo.mjs';
import { startFakeAcp } from './lib/fakeAcp.mjs';

const PROFILE = 'Agent with files (fake)';

export default async function acpDirtyWrite({ port } = {}) {
  const { wb, page } = await startFakeAcp({ port, profile: PROFILE });
  try {
    await openHelloJs(page);
    const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines');
    await lines.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('// my note, not saved yet\n');
    await page.locator('.tab.active.dirty', { hasText: 'hello.js' }).waitFor({ state: 'visible' });
    await clickActivityBar(page, 'RPC Workers');
    // Hidden behind the Explorer, the log's page was made anew.
    const log = await webviewFrame(page, 'Event Log');
    const file = join(wb.workspace, 'src', 'hello.js');
    await promptFromPalette(page, `write: ${file} = // hello.js, as the agent wrote it\n`, PROFILE);
    await log.locator('.kind-warning', { hasText: 'over your unsaved edits' }).waitFor({ state: 'visible' });
    await lines.filter({ hasText: 'as the agent wrote it' }).waitFor({ state: 'visible' });
    await page.locator('.tab.active:not(.dirty)', { hasText: 'hello.js' }).waitFor({ state: 'visible' });
    await screenshot(page, 'acp-dirty-write');
    await lines.click();
    await page.keyboard.press('Control+Z');
    await lines.filter({ hasText: 'my note, not saved yet' }).waitFor({ state: 'visible' });
  } catch (error) {
    await screenshot(page, '/tmp/acp-dirty-write-failure.png', { moveMouse: false, idle: false }).catch(() => {});
    throw error;
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, acpDirtyWrite);
