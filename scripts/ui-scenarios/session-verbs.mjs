// An ACP worker's session verbs as a person meets them (the fake ACP agent, which lists two modes,
// no model choice, and has no fork, as ACP v1 has none): its row's menu and the palette offer
// neither Fork Session nor Switch Model…; Switch Mode… from the row (the row, the log and the line
// under the composer say the mode); New Session from the row (the log marks it, and the mode the
// new session opens in); Export to Markdown from the row while a turn streams (both sessions, the
// mark, and the turn said to be running); then, the worker stopped, its past session's row and
// Open Log, read-only, with the mark. Screenshots only where RPC_WORKERS_SCREENSHOTS says: none
// of these is a picture of docs/screenshots.
import { screenshot as save, runScenario, QUICK_INPUT, openPalette, runCommand, quickInputClosed, webviewFrame } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow } from './lib/demo.mjs';
import { startFakeAcp } from './lib/fakeAcp.mjs';

const PROFILE = 'Session agent (fake)';

const screenshot = process.env.RPC_WORKERS_SCREENSHOTS ? save : async () => {};
const fail = (what) => { throw new Error(what); };
const WRONG_WORDS = /\b(null|undefined|NaN)\b|\[object Object\]/;

/** The row's context menu, its verbs' words; left open. */
async function rowMenu(page, row) {
  await row.click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  await menu.locator('.action-label').first().waitFor({ state: 'visible' });
  const verbs = (await menu.locator('.action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
  return { menu, verbs };
}

/**
 * Run `verb` from the row's menu. A menu opened as the tree redrew the row (a turn just ended and
 * gave it children) took the click and stayed open, running nothing: a person opens it again.
 */
async function menuVerb(page, row, verb) {
  for (let attempt = 1; ; attempt++) {
    const { menu } = await rowMenu(page, row);
    // Pointed at, then Enter: a click on the item was at times taken by the menu and ran nothing
    // (three in a row, the menu left open on the item), where the focused item's Enter runs it.
    const item = menu.locator('.action-item', { has: page.locator('.action-label', { hasText: new RegExp(`^\\s*${verb}\\s*$`) }) });
    await item.hover();
    await menu.locator('.action-item.focused', { hasText: verb }).waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
    const ran = await menu.waitFor({ state: 'hidden', timeout: 5000 }).then(() => true, (e) => {
      if (attempt >= 3) throw e;
      return false;
    });
    if (ran) return;
    await closeMenu(page, menu);
  }
}

async function closeMenu(page, menu) {
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
}

export default async function sessionVerbs({ port } = {}) {
  const { wb, page, log } = await startFakeAcp({ port, profile: PROFILE });
  try {
    const row = sessionsRow(page, PROFILE);
    await row.filter({ hasText: 'idle' }).waitFor({ state: 'visible' });

    // ---- Switch Mode… from the row's menu: the agent's two modes, the current one said.
    let { menu, verbs } = await rowMenu(page, row);
    console.log(`[ui] the idle row's menu: ${verbs.join(' | ')}`);
    await screenshot(page, 'session-verbs-menu', { moveMouse: false });
    // What the agent cannot take at all is not offered: ACP v1 has no fork, and it lists no model choice.
    for (const verb of ['Fork Session', 'Switch Model…']) if (verbs.includes(verb)) fail(`the row's menu offers ${verb} to an agent that cannot take it: ${verbs.join(' | ')}`);
    for (const verb of ['New Session', 'Switch Mode…', 'Export to Markdown']) if (!verbs.includes(verb)) fail(`the idle row's menu has no ${verb}: ${verbs.join(' | ')}`);
    // Run as the other verbs are (menuVerb): a click on the item was once taken by the menu, left open.
    await closeMenu(page, menu);
    await menuVerb(page, row, 'Switch Mode…');
    const widget = page.locator(QUICK_INPUT);
    await widget.locator('.quick-input-title', { hasText: `Switch Mode of ${PROFILE}` }).waitFor({ state: 'visible' });
    const items = await widget.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    console.log(`[ui] Switch Mode offers: ${items.map((t) => JSON.stringify(t)).join(', ')}`);
    await screenshot(page, 'session-verbs-mode-pick', { moveMouse: false });
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'Allow all' }).first().click();
    await quickInputClosed(page);
    await log.getByText(/Allow all/).first().waitFor({ state: 'visible' });
    // The row says the mode the agent is in now (it asks before nothing), and so does the line under the composer.
    await row.filter({ hasText: 'idle · mode: Allow all' }).waitFor({ state: 'visible' }).catch((e) => fail(`the row does not say the mode it was switched to: ${JSON.stringify(e.message.split('\n')[0])}`));
    await log.locator('.result', { hasText: `${PROFILE} is in mode Allow all` }).waitFor({ state: 'visible' });
    await screenshot(page, 'session-verbs-mode-set');
    // Neither Fork Session nor Switch Model… is in the palette: this agent can take neither.
    const input = await openPalette(page);
    await input.fill('>RPC Workers: ');
    await widget.locator('.quick-input-list .monaco-list-row', { hasText: 'New Session' }).first().waitFor({ state: 'visible' });
    const offered = await widget.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts();
    for (const verb of ['Fork Session', 'Switch Model…']) if (offered.includes(`RPC Workers: ${verb}`)) fail(`the palette offers ${verb} though no worker can take it: ${offered.join(' | ')}`);
    await page.keyboard.press('Escape');
    await quickInputClosed(page);

    // ---- A turn, then New Session from the row's menu: the log marks where the new one begins.
    await promptFromPalette(page, 'hello', PROFILE);
    await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible' });
    await row.filter({ hasText: 'idle' }).waitFor({ state: 'visible' });
    await menuVerb(page, row, 'New Session');
    await log.getByText('New session').first().waitFor({ state: 'visible' });
    // The new session opens in the agent's first mode: the log says so, and the row's mode words go.
    await log.getByText('Mode: Ask').first().waitFor({ state: 'visible' });
    await row.filter({ hasNotText: 'mode:' }).waitFor({ state: 'visible' });
    // The line under the composer says what came of it, not the prompt before it.
    await log.locator('.result', { hasText: `${PROFILE} started a new session` }).waitFor({ state: 'visible' });
    await screenshot(page, 'session-verbs-new-session');
    console.log(`[ui] the row after New Session: ${await row.innerText()}`);

    // ---- Export to Markdown while a turn streams (the row's menu).
    await promptFromPalette(page, 'usage 3', PROFILE);
    await row.filter({ hasText: 'streaming' }).waitFor({ state: 'visible' });
    ({ menu, verbs } = await rowMenu(page, row));
    console.log(`[ui] the streaming row's menu: ${verbs.join(' | ')}`);
    await screenshot(page, 'session-verbs-streaming-menu', { moveMouse: false });
    await closeMenu(page, menu);
    await menuVerb(page, row, 'Export to Markdown');
    await page.locator('.tab.active', { hasText: /Untitled/ }).waitFor({ state: 'visible' });
    // The export has both sessions' turns, the marks between them, and ends saying the second still
    // runs (the editor draws only the lines on screen: its end is read after Ctrl+End).
    const editor = page.locator('.editor-instance .view-lines').first();
    const says = (words) => editor.getByText(words).first().waitFor({ state: 'visible' }).catch(async () => fail(`the export does not say "${words}" where it is read: ${(await editor.innerText()).slice(0, 800)}`));
    for (const words of ['Mode: Allow all', 'New session', 'Mode: Ask']) await says(words);
    await screenshot(page, 'session-verbs-export');
    await editor.click();
    await page.keyboard.press('Control+End');
    for (const words of ['usage 3', 'Turn still running when exported']) await says(words);
    await screenshot(page, 'session-verbs-export-end');
    const abort = await openPalette(page);
    await abort.fill('>RPC Workers: Abort Turn');
    await widget.locator('.quick-input-list .monaco-list-row.focused .label-name').filter({ hasText: /^RPC Workers: Abort Turn$/ }).waitFor({ state: 'visible' });
    await abort.press('Enter');
    await row.filter({ hasText: 'idle' }).waitFor({ state: 'visible' });

    // ---- Stop it, then Open Log of the past session it left (its row's menu).
    await runCommand(page, 'RPC Workers: Stop Worker');
    await row.filter({ hasText: /stopped|exited/ }).waitFor({ state: 'visible' });
    await screenshot(page, 'session-verbs-stopped');
    // Its row under Past sessions: both agent sessions' turns are this worker's history.
    const pastRow = sessionsRow(page, PROFILE);
    await pastRow.filter({ hasText: '2 turns' }).waitFor({ state: 'visible' });
    const pastWords = await pastRow.innerText();
    console.log(`[ui] the past session's row: ${pastWords}`);
    if (WRONG_WORDS.test(pastWords)) fail(`the past session's row says ${JSON.stringify(pastWords)}`);
    await menuVerb(page, pastRow, 'Open Log');
    const past = await webviewFrame(page, `${PROFILE} · past session`);
    // The read-only log marks where the New Session began, between the two turns.
    await past.getByText('New session').first().waitFor({ state: 'visible' });
    await past.locator('.kind-end.end-aborted').waitFor({ state: 'attached' });
    await screenshot(page, 'session-verbs-past-log');
  } catch (error) {
    await screenshot(page, 'session-verbs-failure', { moveMouse: false }).catch(() => {});
    throw error;
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, sessionVerbs);
