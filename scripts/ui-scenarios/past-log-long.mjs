// A long past session (issue 24): the demo worker's session, stopped, then its turns repeated to
// 100,000 events on disk, with 23,456 older events recorded as dropped by the history's size
// bound and 17 as never written (a disk that was full); the window is reloaded, so the Sessions view lists it as it is on disk (a session of an
// earlier window: nothing tells this one that the files changed). Open Log shows its newest page
// at once, says how many older events are not shown, how many the bound dropped and how many never
// reached the disk, and why; Load older
// goes back a page (drawn from its top), Show newest comes back, and Page Up on the oldest row shown
// goes back a page too, landing on the row just older than the one it was on. Resume carries the newest page
// of it before the new worker's own events, and Load older there reads a page further back.
// Saves docs/screenshots/pastlog-*.png.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { withWorkbench, screenshot, runScenario, webviewFrame, runCommand } from '../ui-driver.mjs';
import { inflateSession } from '../../bench/lib/long-session.mjs';
import { promptFromPalette, sessionsRow, startDemo } from './lib/demo.mjs';

/** The history directory under the sandbox's user data, and the one ended session in it. */
function endedSession(root) {
  const dirs = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = path.join(d, e.name);
      if (e.name === 'history') dirs.push(p);
      else walk(p);
    }
  };
  walk(root);
  for (const dir of dirs) {
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.meta.json'))) {
      const meta = JSON.parse(readFileSync(path.join(dir, f), 'utf8'));
      if (meta.ended) return { dir, id: meta.id };
    }
  }
  return null;
}

export default async function pastLogLong({ port } = {}) {
  await withWorkbench({ port }, async (wb) => {
    const { page } = wb;
    const log = await startDemo(page);
    await promptFromPalette(page, 'read the file README.md and tell me about it');
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    const row = sessionsRow(page, 'Demo worker');
    await row.hover();
    await row.locator('.actions .action-label[aria-label^="Stop Worker"]').click();
    await sessionsRow(page, /^Past sessions/).waitFor({ state: 'visible' });
    let found = null;
    for (let i = 0; i < 100 && !found; i++) {
      found = endedSession(wb.sandbox.userDataDir);
      if (!found) await page.waitForTimeout(100);
    }
    if (!found) throw new Error('the stopped session\'s end never reached the history');
    const bytes = inflateSession(found.dir, found.id, 100_000, { dropped: 23_456, lost: 17, lastError: 'ENOSPC: no space left on device, write' });
    const { turns } = JSON.parse(readFileSync(path.join(found.dir, `${found.id}.meta.json`), 'utf8'));
    console.log(`[ui] the session now holds 100,000 events, ${turns} turns (${(bytes / 2 ** 20).toFixed(1)} MiB)`);
    await runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 90_000 });
    // The row says the session's turns as its record has them.
    await sessionsRow(page, `stopped · ${turns} turns`).waitFor({ state: 'visible', timeout: 60_000 });

    // Open Log: the newest page, what is older, and what the bound dropped. Each window starts
    // where a turn starts, so a page's count of older events is its size's multiple plus the
    // few events of the turn its start would have cut.
    const past = page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'stopped' }).first();
    // The group row's hover would lie over the session's row.
    await page.mouse.move(900, 600);
    await page.locator('.context-view .hover-contents').waitFor({ state: 'hidden' });
    await past.click();
    const readOnly = await webviewFrame(page, /past session/);
    await readOnly.getByText(/9[78],\d{3} older events not shown/).waitFor({ state: 'visible' });
    // The counts stay in the toolbar wherever the log is scrolled; the sentence is at its top.
    await readOnly.getByText(/9[78],\d{3} older · 23,456 dropped · 17 lost/).waitFor({ state: 'visible' });
    await readOnly.getByText(/23,456 oldest events were dropped/).waitFor({ state: 'attached' });
    await readOnly.getByText(/17 events never reached the history and cannot be shown \(the last error: ENOSPC/).waitFor({ state: 'attached' });
    await screenshot(page, 'pastlog-first-page');

    // Up, toward older events: the rows loaded first, then the page before.
    const list = readOnly.locator('.list');
    const showMore = readOnly.locator('.hidden-row button', { hasText: 'Show more' });
    for (let i = 0; i < 10 && await showMore.isVisible(); i++) await showMore.click();
    await list.evaluate((el) => { el.scrollTop = 0; });
    // A page back, then another: the log then holds its widest window, and the newest events leave it.
    await readOnly.locator('.load-older').click();
    await readOnly.getByText(/9[56],\d{3} older events not shown/).waitFor({ state: 'visible' });
    await readOnly.locator('.load-older', { hasText: 'Load older' }).click();
    await readOnly.getByText(/9[23],\d{3} older events not shown/).waitFor({ state: 'visible' });
    await readOnly.getByText(/newer events not shown/).first().waitFor({ state: 'attached' });
    await screenshot(page, 'pastlog-older');
    await list.evaluate((el) => { el.scrollTop = el.scrollHeight; });
    await readOnly.locator('.newer-row').waitFor({ state: 'visible' });
    await screenshot(page, 'pastlog-older-bottom');

    // Back to the newest page.
    await readOnly.locator('.show-newest').click();
    await readOnly.getByText(/9[78],\d{3} older events not shown/).waitFor({ state: 'visible' });
    await readOnly.locator('.newer-row').waitFor({ state: 'hidden' });

    // By keyboard: Page Up on the oldest row shown brings the page before and lands on the row just
    // older, the row it was on next below it (the page before holds it, drawn anew).
    // The newest page's rows are built newest first, a few a frame, each older one put above the
    // rest: a row focused as the first drawn while they are still coming ends up in the middle
    // (under load a run focused what became row 38, and Page Up went to row 37, as it should,
    // leaving 97,529 older). So: Load older offered, every event received drawn, no row waiting.
    const loadOlder = readOnly.locator('.load-older', { hasText: 'Load older' });
    for (let i = 0; i < 10 && !(await loadOlder.isVisible()); i++) {
      await showMore.or(loadOlder).first().waitFor({ state: 'visible' });
      if (await showMore.isVisible()) await showMore.click();
    }
    await loadOlder.waitFor({ state: 'visible' });
    await readOnly.locator('body').evaluate(() => new Promise((resolve, reject) => {
      const app = document.getElementById('app');
      const ready = () => {
        const rows = document.querySelector('.rows');
        const events = /([\d,]+) events?/.exec(document.querySelector('.toolbar .counter')?.textContent ?? '')?.[1]?.replace(/,/g, '');
        return rows?.getAttribute('aria-busy') === 'false' && events !== undefined && app.dataset.settled === events;
      };
      if (ready()) return resolve();
      const seen = new MutationObserver(() => { if (ready()) { seen.disconnect(); clearTimeout(limit); resolve(); } });
      seen.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      const limit = setTimeout(() => { seen.disconnect(); reject(new Error('the newest page never settled: rows still wait to be built')); }, 60_000);
    }));
    await list.evaluate((el) => { el.scrollTop = 0; });
    const oldest = readOnly.locator('.rows > .entry').first();
    await oldest.focus();
    const wasOn = await oldest.evaluate((row) => row.querySelector('summary, .title')?.textContent ?? row.textContent);
    await page.keyboard.press('PageUp');
    await readOnly.getByText(/9[56],\d{3} older events not shown/).waitFor({ state: 'visible' });
    let landed = null;
    for (let i = 0; i < 100 && !landed; i++) {
      landed = await readOnly.locator('body').evaluate(() => {
        const row = document.activeElement?.closest('.entry');
        if (!row) return null;
        const next = row.nextElementSibling;
        return { above: row.previousElementSibling !== null, next: next?.querySelector('summary, .title')?.textContent ?? next?.textContent ?? null };
      });
      if (!landed) await page.waitForTimeout(100);
    }
    if (!landed) throw new Error('Page Up on the oldest row left no row focused once the page before came');
    if (landed.next !== wasOn) throw new Error(`Page Up landed on a row followed by "${landed.next}", not by the row it was on ("${wasOn}")`);
    if (!landed.above) throw new Error('Page Up landed on the page\'s first row: nothing older was brought');
    await screenshot(page, 'pastlog-pageup', { moveMouse: false });
    await page.keyboard.press('Control+W');

    // Resume: the new worker's log carries the session's newest page, then its own events.
    await past.hover();
    await past.locator('.actions .action-label[aria-label^="Resume Session"]').click();
    let log2 = null;
    for (let attempt = 1; ; attempt++) {
      log2 = await webviewFrame(page, 'Event Log');
      if (await log2.getByText(/^Resumed$/).first().waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false)) break;
      if (attempt === 3) throw new Error('the resumed worker\'s log shows no Resumed mark');
    }
    await log2.getByText(/9[78],\d{3} older · 23,456 dropped/).waitFor({ state: 'visible' });
    await screenshot(page, 'pastlog-resumed');
    const more = log2.locator('.hidden-row button', { hasText: 'Show more' });
    for (let i = 0; i < 10 && await more.isVisible(); i++) await more.click();
    await log2.locator('.list').evaluate((el) => { el.scrollTop = 0; });
    await log2.locator('.load-older').click();
    await log2.getByText(/9[56],\d{3} older · 23,456 dropped/).waitFor({ state: 'visible' });
    await screenshot(page, 'pastlog-resumed-older');
  }, { name: 'past-log-long' });
}

await runScenario(import.meta.url, pastLogLong);
