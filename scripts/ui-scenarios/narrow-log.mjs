// The Event Log at the widths people give it (a narrow side bar, an editor split in three): about
// 320 and 440 px. A live worker with a long name (the fake ACP agent) while a turn streams and
// ends, and while it asks a question (the chip's words change: idle, streaming, done, needs
// input), then its past session's log in an editor tab made as narrow. At each: every control
// inside the page and clear of the others, none moved by the chip's words, no sideways scrolling
// of the page, and the header's words, cut, whole in its tooltip. Screenshots only where
// RPC_WORKERS_SCREENSHOTS says: none of these is a picture of docs/screenshots.
import { screenshot as save, runScenario, QUICK_INPUT, runCommand, webviewFrame, VIEWPORT } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow } from './lib/demo.mjs';
import { startFakeAcp } from './lib/fakeAcp.mjs';

const PROFILE = 'Payments service migration agent for the billing team (fake)';
const WIDTHS = [320, 440];

const screenshot = process.env.RPC_WORKERS_SCREENSHOTS ? save : async () => {};
const fail = (what) => { throw new Error(what); };

/** Drag the side bar's edge so it is `width` pixels wide, wider or narrower. */
async function sideBarTo(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (Math.abs(box.width - width) <= 2) return;
  const sashes = page.locator('.monaco-sash.vertical');
  for (let i = 0; i < await sashes.count(); i++) {
    const s = await sashes.nth(i).boundingBox();
    if (!s || Math.abs(s.x + s.width / 2 - (box.x + box.width)) > 4 || s.height < box.height / 2) continue;
    const y = s.y + s.height / 2;
    await page.mouse.move(s.x + s.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + width, y, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction((w) => Math.abs((document.querySelector('.part.sidebar')?.getBoundingClientRect().width ?? 0) - w) <= 4, width);
    return;
  }
  fail('no sash at the side bar\'s edge');
}

/**
 * What a person meets on the page: each control's box (keyed by what it is, not by its words,
 * which change), the page's own width and what it lays out, and the header's words and tooltip.
 */
function probe(frame) {
  return frame.locator('body').evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    const controls = {};
    for (const el of document.querySelectorAll('.worker-select, .chip, .search, .message, .buttons button, .load-older, .show-newest')) {
      if (!el.getClientRects().length) continue;
      const r = el.getBoundingClientRect();
      const key = el.dataset.action ? `button ${el.dataset.action}` : el.dataset.group ? `chip ${el.dataset.group}` : el.className;
      controls[key] = { left: Math.round(r.left), top: Math.round(r.top), right: Math.round(r.right), bottom: Math.round(r.bottom) };
    }
    const select = document.querySelector('.worker-select');
    const option = select?.selectedOptions[0]?.text ?? '';
    const pen = document.createElement('canvas').getContext('2d');
    pen.font = getComputedStyle(select).font;
    // The select's own arrow and padding take about 24 px of its width.
    const selectCut = pen.measureText(option).width > select.clientWidth - 24;
    const badge = document.querySelector('.status-badge');
    // The chip's first words are the worker's state: cut, the chip says nothing at all.
    const state = badge.textContent.split(' · ')[0];
    pen.font = getComputedStyle(badge).font;
    const stateCut = pen.measureText(state).width > badge.clientWidth - 12;
    // A row's title or badge squeezed beside the rest of its line: more than three lines for a few words.
    const squeezed = [...document.querySelectorAll('.entry .head > .title, .entry .head > .badge')].filter((el) => {
      if (!el.getClientRects().length) return false;
      const line = parseFloat(getComputedStyle(el).fontSize) * 1.5;
      return el.getBoundingClientRect().height > 3 * line;
    }).map((el) => el.textContent);
    // Words that run past their row's edge, neither wrapped nor cut with an ellipsis.
    const past = [...document.querySelectorAll('.entry .head')].flatMap((head) => {
      const edge = head.getBoundingClientRect().right;
      return [...head.children].filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > edge + 1).map((el) => el.textContent);
    });
    const wide = [...document.querySelectorAll('.app, .top, .toolbar, .composer')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.className);
    return {
      vw, vh, controls, wide, squeezed, past, pageScrolls: document.scrollingElement.scrollWidth > vw + 1,
      select: { text: option, title: select.title, cut: selectCut },
      badge: { text: badge.textContent, title: badge.title, cut: badge.scrollWidth > badge.clientWidth + 1, state, stateCut },
    };
  });
}

/** What in `seen` a person would trip over (see the file's comment); `before`: the same page in the state before. */
function trips(seen, where, before) {
  const found = [];
  const boxes = Object.entries(seen.controls);
  for (const [k, b] of boxes) if (b.left < 0 || b.right > seen.vw + 1 || b.bottom > seen.vh + 1) found.push(`${k} is off the page (${JSON.stringify(b)}, the page ${seen.vw}x${seen.vh})`);
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [ka, a] = boxes[i];
      const [kb, b] = boxes[j];
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) found.push(`${ka} overlaps ${kb}`);
    }
  }
  for (const t of seen.past) found.push(`"${t}" runs past its row's edge`);
  for (const t of seen.squeezed) found.push(`"${t}" is squeezed to a few letters a line`);
  if (seen.pageScrolls || seen.wide.length) found.push(`the page scrolls sideways (${seen.wide.join(', ') || 'body'})`);
  if (seen.select.cut && !seen.select.title.includes(seen.select.text)) found.push(`the header reads "${seen.select.text}" cut, with no tooltip saying it whole (title "${seen.select.title}")`);
  if (seen.badge.stateCut) found.push(`the chip cuts its state "${seen.badge.state}" (it reads "${seen.badge.text}")`);
  if (seen.badge.cut && !seen.badge.title.includes(seen.badge.text)) found.push(`the chip reads "${seen.badge.text}" cut, with no tooltip saying it whole`);
  if (before) {
    for (const [k, b] of boxes) {
      const was = before.controls[k];
      if (was && (was.left !== b.left || was.top !== b.top || was.right !== b.right || was.bottom !== b.bottom)) found.push(`${k} moved between "${before.badge.text}" and "${seen.badge.text}": ${JSON.stringify(was)} → ${JSON.stringify(b)}`);
    }
  }
  return found.map((f) => `${where}: ${f}`);
}

export default async function narrowLog({ port } = {}) {
  const { wb, page, log } = await startFakeAcp({ port, profile: PROFILE });
  const problems = [];
  const look = async (frame, where, before) => {
    const seen = await probe(frame);
    console.log(`[ui] ${where}: ${seen.vw} px, chip "${seen.badge.text}", header "${seen.select.text}"${seen.select.cut ? ' (cut)' : ''}`);
    problems.push(...trips(seen, where, before));
    await screenshot(page, `narrow-log-${where.replace(/[^a-z0-9]+/gi, '-')}`, { moveMouse: false });
    return seen;
  };
  try {
    const row = sessionsRow(page, PROFILE);
    const badge = log.locator('.status-badge');
    // The mouse rests on the editor area, away from the log and its tooltips.
    const park = () => page.mouse.move(VIEWPORT.width - 40, VIEWPORT.height / 2);
    for (const width of WIDTHS) {
      await sideBarTo(page, width);
      await park();
      await badge.filter({ hasText: /^(idle|done)/ }).waitFor({ state: 'visible' });
      const idle = await look(log, `live ${width} idle`);
      // A turn streams: the chip's words grow (its usage), then the turn is aborted and ends.
      await promptFromPalette(page, 'usage 3', PROFILE);
      await badge.filter({ hasText: /^streaming · .*ctx/ }).waitFor({ state: 'visible' });
      await park();
      await look(log, `live ${width} streaming`, idle);
      await runCommand(page, 'RPC Workers: Abort Turn');
      await row.filter({ hasText: /idle|done/ }).waitFor({ state: 'visible' });
      await badge.filter({ hasText: /^(idle|done)/ }).waitFor({ state: 'visible' });
      await look(log, `live ${width} after the turn`, idle);
      // A question: the chip says the worker needs the person.
      await promptFromPalette(page, 'shell: echo narrow', PROFILE, { next: 'asks:' });
      await badge.filter({ hasText: /^needs input/ }).waitFor({ state: 'visible' });
      await look(log, `live ${width} needs input`, idle);
      await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: 'Allow once' }).first().click();
      await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible' });
    }

    // The worker stopped, its past session's log in an editor tab, the editor made narrow.
    await runCommand(page, 'RPC Workers: Stop Worker');
    await row.filter({ hasText: /stopped|exited/ }).waitFor({ state: 'visible' });
    const pastRow = page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: PROFILE }).last();
    await pastRow.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    const open = menu.locator('.action-item', { has: page.locator('.action-label', { hasText: /^\s*Open Log\s*$/ }) });
    await open.hover();
    await menu.locator('.action-item.focused', { hasText: 'Open Log' }).waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    const past = await webviewFrame(page, `${PROFILE} · past session`);
    await past.locator('.kind-end.end-done').last().waitFor({ state: 'attached' });
    const activity = (await page.locator('.part.activitybar').boundingBox()).width;
    for (const width of WIDTHS) {
      await sideBarTo(page, VIEWPORT.width - activity - width);
      await page.mouse.move(activity + 10, VIEWPORT.height / 2);
      await past.locator('body').evaluate((body, w) => new Promise((resolve) => {
        const check = () => (Math.abs(document.documentElement.clientWidth - w) <= 30 ? resolve() : requestAnimationFrame(check));
        check();
      }), width);
      await look(past, `past ${width}`);
    }
    if (problems.length) fail(`at narrow widths:\n  ${problems.join('\n  ')}`);
  } catch (error) {
    await screenshot(page, 'narrow-log-failure', { moveMouse: false }).catch(() => {});
    throw error;
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, narrowLog);
