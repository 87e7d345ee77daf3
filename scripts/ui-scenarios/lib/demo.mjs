// Steps the demo scenarios share. In lib/ so that the driver, which runs every
// scripts/ui-scenarios/*.mjs, does not take it for a scenario.
import { clickActivityBar, clickTreeItem, runCommand, webviewFrame, QUICK_INPUT, quickInputClosed, openPalette } from '../../ui-driver.mjs';

/** Open the sample workspace's src/hello.js from the Explorer and wait for its tab. */
export async function openHelloJs(page) {
  await clickActivityBar(page, 'Explorer');
  await clickTreeItem(page, 'src');
  await clickTreeItem(page, 'hello.js');
  await page.locator('.tab.active', { hasText: 'hello.js' }).waitFor({ state: 'visible' });
}

/** Open RPC Workers, start the demo worker from the palette, and return the event log frame. */
export async function startDemo(page, { width = 620 } = {}) {
  await clickActivityBar(page, 'RPC Workers');
  if (width) await widenSideBar(page, width);
  await runCommand(page, 'RPC Workers: Start Demo Worker');
  await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
  const log = await webviewFrame(page, 'Event Log');
  await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
  return log;
}

/** Open RPC Workers `width` wide and start two demo workers with `command` ("Demo worker" and "Demo worker #2"). */
export async function startTwoDemos(page, command, width) {
  await clickActivityBar(page, 'RPC Workers');
  await widenSideBar(page, width);
  await runCommand(page, command);
  await sessionsRow(page, 'Demo worker').waitFor({ state: 'visible' });
  await runCommand(page, command);
  await sessionsRow(page, 'Demo worker #2').waitFor({ state: 'visible' });
}

/**
 * Text that matches a worker's name and not a longer one's: "Demo worker" is not "Demo worker #2"
 * (each worker has one name, numbered from the second on).
 */
export function workerName(name) {
  return typeof name === 'string' ? new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\d| #\\d)`) : name;
}

/**
 * Open a Sessions row (`text` as sessionsRow takes it). A click that lands while the tree redraws
 * the row (its turn just ended, its children changed) is lost and the row stays closed: a person
 * clicks again, and so does this. The open row is matched as sessionsRow matches: "Demo worker"
 * open is not "Demo worker #2" open (that took a lost click for done).
 */
export async function expandRow(page, text) {
  const row = sessionsRow(page, text);
  const open = page.locator('.part.sidebar .monaco-list-row[role="treeitem"][aria-expanded="true"]', { hasText: workerName(text) }).first();
  for (let attempt = 1; ; attempt++) {
    await row.waitFor({ state: 'visible' });
    if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
    const opened = await open.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, (e) => {
      if (attempt >= 3) throw e;
      return false;
    });
    if (opened) return;
  }
}

export function sessionsRow(page, text) {
  text = workerName(text);
  return page.locator('.part.sidebar .pane[aria-label^="Sessions"] .monaco-list-row[role="treeitem"], .part.sidebar .monaco-list-row[role="treeitem"]', { hasText: text }).first();
}

/**
 * Answer the InputBox that a command opened. `next`: the title of a question that takes its place
 * at once (an agent's permission question), waited for instead of the widget closing.
 */
export async function answerInput(page, text, { next } = {}) {
  const input = page.locator(`${QUICK_INPUT} .quick-input-box input`);
  await input.waitFor({ state: 'visible' });
  await input.fill(text);
  await input.press('Enter');
  if (next) await page.locator(`${QUICK_INPUT} .quick-input-title`, { hasText: next }).waitFor({ state: 'visible' });
  else await quickInputClosed(page);
}

/**
 * Run a palette command that opens an InputBox titled `inputTitle` and answer it. (The driver's
 * runCommand waits for the palette to close, which never happens when the InputBox takes its
 * place at once.)
 */
export async function commandWithInput(page, title, inputTitle, text, answer = {}) {
  const widget = page.locator(QUICK_INPUT);
  const input = widget.locator('.quick-input-box input');
  await openPalette(page);
  await input.fill(`>${title}`);
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible' });
  await input.press('Enter');
  await widget.locator('.quick-input-title', { hasText: inputTitle }).waitFor({ state: 'visible' });
  await answerInput(page, text, answer);
}

/** Start Worker from the palette, pick `profile`, and leave the optional first task empty. */
export async function startProfile(page, profile) {
  const widget = page.locator(QUICK_INPUT);
  const input = widget.locator('.quick-input-box input');
  await openPalette(page);
  await input.fill('>RPC Workers: Start Worker');
  // The exact entry, not "Start Worker from Agent Card" that the same words also match.
  const row = widget.locator('.quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^RPC Workers: Start Worker$/ }) }).first();
  await row.click();
  await widget.locator('.quick-input-title', { hasText: 'Start Worker' }).waitFor({ state: 'visible' });
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: profile }).first().click();
  await widget.locator('.quick-input-title', { hasText: 'first task' }).waitFor({ state: 'visible' });
  await answerInput(page, '');
}

/** Prompt the (only) worker from the palette, as a person would. */
export async function promptFromPalette(page, text, workerName = 'Demo worker', answer = {}) {
  await commandWithInput(page, 'RPC Workers: Prompt', `Prompt ${workerName}`, text, answer);
}

/**
 * Prompt from the palette when several workers run: pick the worker, then type the message.
 * `answer.next`: a dialog that takes the InputBox's place at once (see answerInput).
 */
export async function promptWorker(page, worker, text, answer = {}) {
  const widget = page.locator(QUICK_INPUT);
  const input = widget.locator('.quick-input-box input');
  await openPalette(page);
  await input.fill('>RPC Workers: Prompt');
  const top = widget.locator('.quick-input-list .monaco-list-row.focused .label-name');
  await top.filter({ hasText: /^RPC Workers: Prompt$/ }).waitFor({ state: 'visible' });
  await input.press('Enter');
  // Two workers run: the person picks one (the one selected in the Sessions view comes first).
  await widget.locator('.quick-input-title', { hasText: /^Prompt$/ }).waitFor({ state: 'visible' });
  await input.fill(worker);
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: workerName(worker) }).first().click();
  await widget.locator('.quick-input-title', { hasText: `Prompt ${worker}` }).waitFor({ state: 'visible' });
  await answerInput(page, text, answer);
}

/** Drag the side bar's edge so it is `width` pixels wide (the event log reads better wide). */
export async function widenSideBar(page, width = 600) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width) return;
  const sashes = page.locator('.monaco-sash.vertical');
  const n = await sashes.count();
  for (let i = 0; i < n; i++) {
    const s = await sashes.nth(i).boundingBox();
    if (!s || Math.abs(s.x + s.width / 2 - (box.x + box.width)) > 4 || s.height < box.height / 2) continue;
    const x = s.x + s.width / 2;
    const y = s.y + s.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(box.x + width, y, { steps: 8 });
    await page.mouse.up();
    // Park the mouse over the empty editor area, so no hover card shows in the pictures.
    await page.mouse.move(box.x + width + 300, y + 150);
    await page.waitForFunction((w) => (document.querySelector('.part.sidebar')?.getBoundingClientRect().width ?? 0) >= w - 4, width);
    return;
  }
  throw new Error('no sash at the side bar\'s edge');
}

/** Wait until a notification toast has finished sliding in (its place holds for a few frames). */
export async function settleToast(toast) {
  await toast.evaluate((el) => new Promise((resolve) => {
    let last = null; let same = 0;
    const step = () => {
      const r = el.getBoundingClientRect();
      const now = `${r.top},${r.left}`;
      same = now === last ? same + 1 : 0;
      last = now;
      if (same >= 5 && r.bottom <= window.innerHeight) resolve(undefined); else requestAnimationFrame(step);
    };
    step();
  }));
}

/** Open a worker's log in an editor tab from its row and the palette; waits for the tab, not for its page. */
export async function openLogTab(page, worker) {
  const widget = page.locator(QUICK_INPUT);
  const input = widget.locator('.quick-input-box input');
  // From the worker's row, as a person would (and so F1 reaches the workbench, not a webview).
  await sessionsRow(page, worker).click();
  await openPalette(page);
  await input.fill('>RPC Workers: Open Log in Editor Tab');
  await widget.locator('.quick-input-list .monaco-list-row.focused .label-name').filter({ hasText: /^RPC Workers: Open Log in Editor Tab$/ }).waitFor({ state: 'visible' });
  await input.press('Enter');
  await widget.locator('.quick-input-title', { hasText: 'Open Log in Editor Tab' }).waitFor({ state: 'visible' });
  await input.fill(worker);
  await widget.locator('.quick-input-list .monaco-list-row', { hasText: workerName(worker) }).first().click();
  await page.locator('.tab', { hasText: `${worker} ·` }).waitFor({ state: 'visible' });
}
