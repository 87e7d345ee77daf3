// What the person types stays with its worker: a draft for one demo worker does not follow the
// log to the second (a start moves the selection there), comes back when the first is selected
// again, and survives the side bar switched to the Explorer and back (VS Code rebuilds the page).
// Saves docs/screenshots/composer-drafts.png.
import { clickActivityBar, launchWorkbench, runCommand, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { sessionsRow, widenSideBar } from './lib/demo.mjs';

const fail = (what) => { throw new Error(what); };

async function boxShows(log, text, what) {
  const box = log.locator('textarea.message');
  await box.waitFor({ state: 'visible' });
  try {
    await log.locator('textarea.message').evaluate((el, t) => new Promise((ok, no) => {
      const until = Date.now() + 5000;
      const check = () => (el.value === t ? ok() : Date.now() > until ? no(new Error(el.value)) : requestAnimationFrame(check));
      check();
    }), text);
  } catch (error) {
    const held = /Error: ([^\n]*)/.exec(error.message)?.[1] ?? error.message;
    fail(`${what}: the box holds ${JSON.stringify(held)}, not ${JSON.stringify(text)}`);
  }
}

export default async function composerDrafts({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 620);
    await runCommand(page, 'RPC Workers: Start Demo Worker');
    await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
    let log = await webviewFrame(page, 'Event Log');
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    await log.locator('textarea.message').fill('half a thought for the first worker');

    // A second worker takes the selection, and the log: the first one's draft stays behind.
    await runCommand(page, 'RPC Workers: Start Demo Worker');
    await sessionsRow(page, 'Demo worker #2').waitFor({ state: 'visible' });
    await log.locator('select.worker-select option:checked', { hasText: 'Demo worker #2' }).waitFor({ state: 'attached' });
    await boxShows(log, '', 'the second worker\'s log');
    await log.locator('textarea.message').fill('for the second');

    await sessionsRow(page, 'Demo worker').click();
    await log.locator('select.worker-select option:checked', { hasText: /^Demo worker(?! #)/ }).waitFor({ state: 'attached' });
    await boxShows(log, 'half a thought for the first worker', 'back on the first worker');

    // The side bar on the Explorer and back: the page is built again, the draft is there.
    await clickActivityBar(page, 'Explorer');
    await clickActivityBar(page, 'RPC Workers');
    log = await webviewFrame(page, 'Event Log');
    await boxShows(log, 'half a thought for the first worker', 'after the side bar was on the Explorer');
    await screenshot(page, 'composer-drafts');
    await sessionsRow(page, 'Demo worker #2').click();
    await boxShows(log, 'for the second', 'back on the second worker');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, composerDrafts);
