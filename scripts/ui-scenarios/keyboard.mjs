// The event log by keyboard alone, as a person who uses no mouse: from the worker picker, Tab
// reaches the filter chips (Space turns one off and back on, the arrows move along them), the search box, the log, and the
// composer; Ctrl+Enter sends a prompt, Tab reaches Abort and Enter presses it, and the focus then
// lands in the text box (Abort greys out). The log is a WAI-ARIA feed, one Tab stop: Shift+Tab goes
// back to its newest row, Page Up to the tool row, Tab to the row's expander, Enter opens it;
// Ctrl+Home and Ctrl+End leave the feed, and Tab comes back to the row last on. Each step checks where the focus is
// (document.activeElement in the page) and that it is drawn (an outline in the theme's focus colour).
// Saves docs/screenshots/keyboard-{chip,abort,feed,row}.png.
import { launchWorkbench, screenshot, runScenario } from '../ui-driver.mjs';
import { startDemo } from './lib/demo.mjs';

const fail = (what) => { throw new Error(what); };

/** What has the focus in the page: a short name for it, and whether an outline is drawn around it. */
function focused(log) {
  return log.locator('body').evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { name: 'body', ring: false };
    // A row of the log: `entry:<kind>` (entry:tool, entry:end).
    const kind = el.classList.contains('entry') ? [...el.classList].find((c) => c.startsWith('kind-'))?.slice(5) : null;
    const name = el.dataset.group ? `chip:${el.dataset.group}` : el.dataset.action ? `button:${el.dataset.action}` : kind ? `entry:${kind}`
      : `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}`;
    const s = getComputedStyle(el);
    // The theme's focus colour, resolved the way the outline's is (an rgb() string).
    const probe = document.createElement('span');
    probe.style.color = 'var(--vscode-focusBorder)';
    document.body.append(probe);
    const theme = getComputedStyle(probe).color;
    probe.remove();
    const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    return { name, ring, themed: ring && s.outlineColor === theme, color: s.outlineColor, theme, pressed: el.getAttribute('aria-pressed'),
      role: el.getAttribute('role'), pos: el.getAttribute('aria-posinset'), size: el.getAttribute('aria-setsize'), feed: el.parentElement?.getAttribute('role') ?? null };
  });
}

/** The focus ring is drawn, in the theme's focus colour (--vscode-focusBorder: high contrast's too). */
function ringOf(f, step) {
  if (!f.ring) fail(`${step}: ${f.name} has the focus but no focus ring is drawn`);
  if (!f.themed) fail(`${step}: ${f.name}'s focus ring is ${f.color}, not the theme's focus colour ${f.theme}`);
}

async function expectFocus(log, want, step) {
  const f = await focused(log);
  if (f.name !== want) fail(`${step}: the focus is on ${f.name}, not ${want}`);
  ringOf(f, step);
  return f;
}

/**
 * The contrast of an element's text on the page's background (WCAG's ratio), its colour blended
 * by the opacity it is drawn with (its own and its ancestors').
 */
function contrastOf(locator) {
  return locator.evaluate((el) => {
    const rgb = (c) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c) => c.map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
    let opacity = 1;
    for (let e = el; e; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
    const bg = rgb(getComputedStyle(document.body).backgroundColor);
    const fg = rgb(getComputedStyle(el).color).map((v, i) => v * opacity + bg[i] * (1 - opacity));
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    return { text: el.textContent, fg: `rgb(${fg.map(Math.round).join(', ')})`, bg: `rgb(${bg.join(', ')})`, ratio: (hi + 0.05) / (lo + 0.05) };
  });
}

/** Tab until `want` has the focus, at most `max` presses; returns where each press went. */
async function tabTo(page, log, want, max, step) {
  const path = [];
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(log);
    path.push(f.name);
    ringOf(f, `${step}, Tab ${i}`);
    if (f.name === want) return path;
  }
  return fail(`${step}: ${max} presses of Tab never reached ${want} (went ${path.join(' → ')})`);
}

/** Press `key` until a row of `kind` has the focus, at most `max` presses; each row it passes shows the ring. */
async function keyTo(page, log, key, want, max, step) {
  const path = [];
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(key);
    const f = await focused(log);
    path.push(f.name);
    ringOf(f, `${step}, ${key} ${i}`);
    if (!f.name.startsWith('entry:')) fail(`${step}: ${key} left the log's rows for ${f.name}`);
    if (f.name === want) return f;
  }
  return fail(`${step}: ${max} presses of ${key} never reached ${want} (went ${path.join(' → ')})`);
}

export default async function keyboard({ port } = {}) {
  const wb = await launchWorkbench({ port });
  const { page } = wb;
  try {
    const log = await startDemo(page);
    // The one step that is not a key: the page gets the focus where a person tabbing into it starts.
    await log.locator('select.worker-select').focus();
    await expectFocus(log, 'select.worker-select', 'the worker picker');

    // The filter chips: the first after the picker; Space turns one off and on again.
    await page.keyboard.press('Tab');
    await expectFocus(log, 'chip:messages', 'Tab from the picker');
    await page.keyboard.press('Tab');
    const thinking = await expectFocus(log, 'chip:thinking', 'Tab along the chips');
    if (thinking.pressed !== 'true') fail(`the Thinking chip starts aria-pressed=${thinking.pressed}`);
    await page.keyboard.press('Space');
    const off = await expectFocus(log, 'chip:thinking', 'Space on a chip');
    if (off.pressed !== 'false') fail(`Space on the Thinking chip left aria-pressed=${off.pressed}`);
    await screenshot(page, 'keyboard-chip', { moveMouse: false });
    // A filter that is off still reads (4.5:1): it is a control a person turns back on.
    const offChip = await contrastOf(log.locator('.chip[data-group="thinking"] .lbl'));
    if (offChip.ratio < 4.5) fail(`the Thinking chip, off, is ${offChip.fg} on ${offChip.bg}: contrast ${offChip.ratio.toFixed(2)}:1, under 4.5:1`);
    await page.keyboard.press('Space');
    const on = await focused(log);
    if (on.pressed !== 'true') fail(`Space again on the Thinking chip left aria-pressed=${on.pressed}`);
    // The chips are a toolbar: the arrows, Home and End move along it.
    await page.keyboard.press('ArrowRight');
    await expectFocus(log, 'chip:tools', 'ArrowRight from the Thinking chip');
    await page.keyboard.press('End');
    await expectFocus(log, 'chip:other', 'End along the chips');
    await page.keyboard.press('Home');
    await expectFocus(log, 'chip:messages', 'Home along the chips');

    // On to the search box, then past the log (one Tab stop at most) to the composer's text box.
    await tabTo(page, log, 'input.search', 10, 'from the chips');
    const past = await tabTo(page, log, 'textarea.message', 10, 'from the search box');
    if (past.filter((n) => n.startsWith('entry:')).length > 1) fail(`Tab stopped at more than one row of the log: ${past.join(' → ')}`);
    await expectFocus(log, 'textarea.message', 'the text box');

    // A prompt by Ctrl+Enter: the turn runs a command that would take 30 s.
    await page.keyboard.type('run: echo keyboard only; sleep 30; echo never printed');
    await page.keyboard.press('Control+Enter');
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-streaming').waitFor({ state: 'visible' });
    await expectFocus(log, 'textarea.message', 'after Ctrl+Enter');

    // Abort: Tab along the composer's buttons (Steer, Follow-up, Redirect, Abort) and press Enter.
    await tabTo(page, log, 'button:abort', 6, 'from the text box');
    await expectFocus(log, 'button:abort', 'the Abort button');
    await page.keyboard.press('Enter');
    await log.locator('.kind-end.end-aborted').waitFor({ state: 'visible' });
    await log.locator('.status-badge.phase-idle').waitFor({ state: 'visible' });
    // Abort greyed out under the focus: the focus goes to the text box, not the page's body.
    await expectFocus(log, 'textarea.message', 'after Abort greyed out');
    await screenshot(page, 'keyboard-abort', { moveMouse: false });
    // The line under the buttons and the turn's end say it in a colour that can be read (WCAG AA:
    // 4.5:1 on the page's background).
    for (const [sel, what] of [['.result', 'the line under the buttons'], ['.kind-end .title', 'the turn\'s end']]) {
      const c = await contrastOf(log.locator(sel).first());
      if (c.ratio < 4.5) fail(`${what} "${c.text}" is ${c.fg} on ${c.bg}: contrast ${c.ratio.toFixed(2)}:1, under 4.5:1`);
    }
    // A screen reader hears the state from the hidden live line, not from the chip (whose text counts
    // a quiet turn's seconds): the chip is no live region.
    const live = await log.locator('.top').evaluate((top) => ({ chipRole: top.querySelector('.status-badge')?.getAttribute('role') ?? null, said: top.querySelector('[role="status"]')?.textContent }));
    if (live.chipRole !== null) fail(`the status chip is still a live region (role=${live.chipRole})`);
    if (live.said !== 'Demo worker: idle') fail(`the live line says ${JSON.stringify(live.said)}, not "Demo worker: idle"`);
    // Back into the log, a feed of articles and one Tab stop: Shift+Tab reaches its newest row (the
    // turn's end), Page Up the rows before it, up to the tool row.
    await page.keyboard.press('Shift+Tab');
    const newest = await expectFocus(log, 'entry:end', 'Shift+Tab from the text box');
    if (newest.role !== 'article' || newest.feed !== 'feed') fail(`the row is role=${newest.role} in role=${newest.feed}, not an article of a feed`);
    if (!(Number(newest.pos) > 1) || newest.size !== String(newest.pos)) fail(`the newest row is article ${newest.pos} of ${newest.size}, not the last of the feed`);
    const toolRow = await keyTo(page, log, 'PageUp', 'entry:tool', 6, 'Page Up from the turn\'s end');
    if (!(Number(toolRow.pos) < Number(newest.pos))) fail(`Page Up went to article ${toolRow.pos}, not one before ${newest.pos}`);
    await screenshot(page, 'keyboard-feed', { moveMouse: false });
    await page.keyboard.press('PageDown');
    const next = await focused(log);
    if (!next.name.startsWith('entry:') || Number(next.pos) !== Number(toolRow.pos) + 1) fail(`Page Down from the tool row went to ${next.name} (article ${next.pos}), not article ${Number(toolRow.pos) + 1}`);
    await page.keyboard.press('PageUp');
    await expectFocus(log, 'entry:tool', 'Page Up back to the tool row');
    // Ctrl+Home leaves the feed for what is before it (the search box); Tab comes back to the row last on.
    await page.keyboard.press('Control+Home');
    await expectFocus(log, 'input.search', 'Ctrl+Home from a row');
    await page.keyboard.press('Tab');
    await expectFocus(log, 'entry:tool', 'Tab from the search box, back into the feed');
    // The row's own controls are Tab stops from it: its expander next. Enter opens it.
    await page.keyboard.press('Tab');
    await expectFocus(log, 'summary', 'Tab from the tool row');
    // What a screen reader says of it: the row, not the drawn triangle before it.
    const said = await log.locator('.kind-tool summary').first().ariaSnapshot();
    console.log(`[ui] the tool row's expander reads: ${said}`);
    if (/[\u25B8\u25BE]/.test(said)) fail(`the tool row's expander reads its drawn triangle: ${said}`);
    await page.keyboard.press('Enter');
    const open = await log.locator('body').evaluate(() => document.activeElement?.parentElement?.open);
    if (open !== true) fail('Enter on the tool row\'s expander did not open it');
    await log.getByText(/never printed/).first().waitFor({ state: 'visible' });
    await screenshot(page, 'keyboard-row', { moveMouse: false });
    // Ctrl+End leaves the feed for what follows it: Jump to latest if the log scrolled up, else the text box.
    await page.keyboard.press('Control+End');
    const after = await focused(log);
    if (after.name !== 'textarea.message' && after.name !== 'button.jump') fail(`Ctrl+End from the row went to ${after.name}, not past the feed`);
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, keyboard);
