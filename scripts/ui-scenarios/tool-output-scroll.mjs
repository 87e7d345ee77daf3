// A running command's output read while it grows: the person opens the tool's row, scrolls its
// output box back up a little and selects a line; the updates that follow (every 50 ms or so) leave
// the box where the person put it and the selection in place. Saves docs/screenshots/tool-output-scroll.png.
import { screenshot, runScenario } from '../ui-driver.mjs';
import { promptFromPalette, startDemo } from './lib/demo.mjs';

const fail = (what) => { throw new Error(what); };

export default async function toolOutputScroll({ port } = {}) {
  const { launchWorkbench } = await import('../ui-driver.mjs');
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    const log = await startDemo(page);
    await promptFromPalette(page, 'run: for i in $(seq 1 400); do echo "line $i"; sleep 0.02; done');
    const row = log.locator('.kind-tool.tool-running').first();
    await row.waitFor({ state: 'visible' });
    await row.locator('summary').click();
    const box = row.locator('pre.out');
    // Enough output to scroll.
    await box.evaluate((el) => new Promise((ok) => { const check = () => (el.scrollHeight > el.clientHeight * 2 ? ok() : requestAnimationFrame(check)); check(); }));
    const before = await box.evaluate((el) => {
      el.scrollTop = 60;
      const range = document.createRange();
      range.selectNodeContents(el.firstChild);
      range.setEnd(el.firstChild, 6);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      return { length: el.textContent.length, top: el.scrollTop };
    });
    // Wait for the output to grow by some updates.
    await box.evaluate((el, was) => new Promise((ok) => { const check = () => (el.textContent.length > was + 200 ? ok() : requestAnimationFrame(check)); check(); }), before.length);
    const after = await box.evaluate((el) => ({ top: el.scrollTop, selected: String(getSelection()) }));
    if (after.top !== before.top) fail(`the output box moved from ${before.top} to ${after.top} while the person read it`);
    if (after.selected !== 'line 1') fail(`the selection became ${JSON.stringify(after.selected)}`);
    await screenshot(page, 'tool-output-scroll', { moveMouse: false });
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, toolOutputScroll);
