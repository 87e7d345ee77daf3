// The event log by keyboard alone, as a person who uses no mouse: from the worker picker, Tab
// reaches the filter chips (Space turns one off and back on, the arrows move along them), the search box, the log, and the
// composer; Ctrl+Enter sends a prompt, Tab reaches Abort and Enter presses it, and the focus then
// lands in the text box (Abort greys out); Shift+Tab goes back to the tool row, Enter opens it. Each step checks where the focus is
// (document.activeElement in the page) and that it is drawn (an outline in the theme's focus colour).
// Saves docs/screenshots/keyboard-{chip,abort,row}.png.
import { launchWorkbench, screenshot, runScenario } from '../ui-driver.mjs';
import { startDemo } from './lib/demo.mjs';

const fail = (what) => { throw new Error(what); };

/** What has the focus in the page: a short name for it, and whether an outline is drawn around it. */
function focused(log) {
  return log.locator('body').evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { name: 'body', ring: false };
    const name = el.dataset.group ? `chip:${el.dataset.group}` : el.dataset.action ? `button:${el.dataset.action}`
      : `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''}`;
    const s = getComputedStyle(el);
    // The theme's focus colour, resolved the way the outline's is (an rgb() string).
    const probe = document.createElement('span');
    probe.style.color = 'var(--vscode-focusBorder)';
    document.body.append(probe);
    const theme = getComputedStyle(probe).color;
    probe.remove();
    const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
    return { name, ring, themed: ring && s.outlineColor === theme, color: s.outlineColor, theme, pressed: el.getAttribute('aria-pressed') };
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

/** Tab until `want` has the focus, at most `max` presses; returns how many it took. */
async function tabTo(page, log, want, max, step) {
  const path = [];
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(log);
    path.push(f.name);
    ringOf(f, `${step}, Tab ${i}`);
    if (f.name === want) return i;
  }
  return fail(`${step}: ${max} presses of Tab never reached ${want} (went ${path.join(' → ')})`);
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

    // On to the search box, the log itself, then the composer's text box.
    await tabTo(page, log, 'input.search', 10, 'from the chips');
    await page.keyboard.press('Tab');
    await expectFocus(log, 'div.list', 'Tab from the search box');
    await tabTo(page, log, 'textarea.message', 10, 'from the log');
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
    // Back into the log: Shift+Tab reaches the tool row's expander, Enter opens it.
    await page.keyboard.press('Shift+Tab');
    await expectFocus(log, 'summary', 'Shift+Tab from the text box');
    // What a screen reader says of it: the row, not the drawn triangle before it.
    const said = await log.locator('.kind-tool summary').first().ariaSnapshot();
    console.log(`[ui] the tool row's expander reads: ${said}`);
    if (/[\u25B8\u25BE]/.test(said)) fail(`the tool row's expander reads its drawn triangle: ${said}`);
    await page.keyboard.press('Enter');
    const open = await log.locator('body').evaluate(() => document.activeElement?.parentElement?.open);
    if (open !== true) fail('Enter on the tool row\'s expander did not open it');
    await log.getByText(/never printed/).first().waitFor({ state: 'visible' });
    await screenshot(page, 'keyboard-row', { moveMouse: false });
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, keyboard);
