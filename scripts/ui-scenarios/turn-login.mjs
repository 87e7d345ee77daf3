// An ACP agent that opens its session (its row's menu: Switch Mode…, as it lists modes, and no
// Compact, as it lists no /compact) and then refuses a prompt for want of a login (Copilot signed
// out), naming its login command (`_meta["terminal-auth"]`): the refusal's notification, its log
// not on screen, says so whole and offers Run "<the login>" before Open Log, each button's words
// whole; Run opens a terminal named for the login, the refusal's notification goes, and the next
// one says, whole, to finish the login there and prompt the worker again, with Open Log, which
// opens the worker's log. Saves docs/screenshots/turn-login.png (the refusal) and
// turn-login-terminal.png.
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.mjs';
import { withWorkbench, clickActivityBar, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow, settleToast, startProfile, widenSideBar } from './lib/demo.mjs';

const PROFILE = 'Agent signed out (fake)';
// What the fake agent names (test/fixtures/fake-acp-agent.mjs, FAKE_ACP_AUTH=offered).
const LABEL = 'Fake Login';
const RUN = 'Run "fake-agent login"';

const fail = (what) => { throw new Error(what); };
/** What a wait that failed says (a timeout, or a locator that matched two elements). */
const firstLine = (error) => String(error?.message ?? error).split('\n')[0];

/** The element's text runs past its box (an ellipsis where the rest would be). */
const cutOff = (locator) => locator.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);

export default async function turnLogin({ port } = {}) {
  const fake = join(repoRoot, 'test', 'fixtures', 'fake-acp-agent.mjs');
  const settings = { 'rpcWorkers.profiles': [{ name: PROFILE, dialect: 'acp', command: process.execPath, args: [fake], env: { FAKE_ACP_AUTH: 'offered' } }] };
  await withWorkbench(
    { port, settings },
    async ({ page }) => {
      await clickActivityBar(page, 'RPC Workers');
      await widenSideBar(page, 560);
      await startProfile(page, PROFILE);
      const row = sessionsRow(page, PROFILE);
      await row.filter({ hasText: 'idle' }).waitFor({ state: 'visible' });
      // Its row's menu offers what this agent can do: its modes (it lists two), no Compact (it lists no
      // /compact). Switch Mode… exactly: Switch Model… is there too.
      await row.click({ button: 'right' });
      const menu = page.locator('.context-view .monaco-menu');
      await menu.locator('.action-label', { hasText: /^\s*Switch Mode…\s*$/ }).waitFor({ state: 'visible' }).catch((e) => fail(`the row's menu has no Switch Mode… for an agent with modes (${firstLine(e)})`));
      const verbs = (await menu.locator('.action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
      if (verbs.includes('Compact')) fail(`the row's menu offers Compact to an agent that cannot compact: ${verbs.join(' | ')}`);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });
      // Its log off screen, as when the person works elsewhere: the refusal is notified.
      await clickActivityBar(page, 'Explorer');
      await promptFromPalette(page, 'signed out', PROFILE);
      const toast = page.locator('.notifications-toasts .notification-toast', { hasText: `${PROFILE}:` }).first();
      await toast.waitFor({ state: 'visible' });
      await settleToast(toast);
      const said = await toast.locator('.notification-list-item-message').innerText();
      console.log(`[ui] the refusal says: ${said}`);
      if (!said.includes('needs a login')) fail(`the notification does not say the agent needs a login: ${JSON.stringify(said)}`);
      if (/\b(null|undefined|\[object Object\])\b/.test(said)) fail(`the notification says ${JSON.stringify(said)}`);
      if (await cutOff(toast.locator('.notification-list-item-message'))) fail(`the notification is cut off: ${JSON.stringify(said)}`);
      // Its buttons, in order, each one's words whole (not cut off with an ellipsis).
      const buttons = await toast.locator('.notification-list-item-buttons-container .monaco-button').evaluateAll((els) => els.map((el) => ({
        text: el.textContent?.trim() ?? '', cut: el.scrollWidth > el.clientWidth + 1 || [...el.querySelectorAll('*')].some((c) => c.scrollWidth > c.clientWidth + 1 && getComputedStyle(c).overflow !== 'visible'),
      })));
      const names = buttons.map((b) => b.text);
      if (names.join(' | ') !== `${RUN} | Open Log`) fail(`the notification's buttons are ${JSON.stringify(names)}, not ["${RUN.replace(/"/g, '\\"')}", "Open Log"]`);
      const cut = buttons.filter((b) => b.cut).map((b) => b.text);
      if (cut.length) fail(`the words of ${cut.map((t) => JSON.stringify(t)).join(', ')} are cut off`);
      await screenshot(page, 'turn-login');

      await toast.getByRole('button', { name: RUN }).click();
      // A terminal named for the login opens in the panel...
      await page.locator('.part.panel').waitFor({ state: 'visible' });
      const terminal = page.locator('.terminal-tab, .terminal-tabs-entry, .single-terminal-tab', { hasText: LABEL }).first();
      await terminal.waitFor({ state: 'visible' }).catch(async () => {
        const seen = await page.locator('.terminal-tab, .terminal-tabs-entry, .single-terminal-tab').allInnerTexts();
        fail(`no terminal named "${LABEL}" opened; terminals: ${seen.map((t) => JSON.stringify(t)).join(', ') || 'none'}`);
      });
      await page.locator('.terminal-wrapper.active .xterm').first().waitFor({ state: 'visible' });
      // ...the refusal's notification, whose button is done, goes...
      await toast.waitFor({ state: 'hidden' }).catch((e) => fail(`the refusal's notification stays on screen after its Run button opened the terminal (${firstLine(e)})`));
      // ...and the next says what to do once the login is done.
      const next = page.locator('.notifications-toasts .notification-toast', { hasText: `Finish the login in the terminal "${LABEL}"` }).first();
      await next.waitFor({ state: 'visible' });
      await settleToast(next);
      const then = await next.locator('.notification-list-item-message').innerText();
      if (!then.includes(`prompt ${PROFILE} again`)) fail(`the notification after Run says ${JSON.stringify(then)}, not to prompt ${PROFILE} again`);
      // Shown whole: VS Code draws a notification without a button as one line, cut off at its end.
      if (await cutOff(next.locator('.notification-list-item-message'))) fail(`the notification after Run is cut off: ${JSON.stringify(then)}`);
      const open = next.getByRole('button', { name: 'Open Log' });
      await open.waitFor({ state: 'visible' }).catch((e) => fail(`the notification after Run has no Open Log, where the person prompts again (${firstLine(e)})`));
      // The pointer off the toasts and the terminal (a hover card would cover them in the picture).
      await page.mouse.move(940, 150);
      await screenshot(page, 'turn-login-terminal', { moveMouse: false });
      // Open Log opens the worker's log, its text box at hand to prompt again.
      await open.click();
      const tab = await webviewFrame(page, new RegExp(`^${PROFILE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · `));
      await tab.locator('textarea.message').waitFor({ state: 'visible' });
    },
    { name: 'turn-login' },
  );
}

await runScenario(import.meta.url, turnLogin);
