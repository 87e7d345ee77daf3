// The real Claude (claude-agent-acp from the cache) as a person has it right after its install: no
// ANTHROPIC_API_KEY, no login (a throwaway HOME and CLAUDE_CONFIG_DIR, so nothing of this machine's
// ~/.claude is read). It starts without a key and refuses the first prompt (-32000); what the person
// sees must say how Claude takes one: the notification (its log not on screen) and the Event Log's
// "Turn ended" row and the worker's tooltip all name ANTHROPIC_API_KEY. Saves
// docs/screenshots/claude-no-key.png (the notification), claude-no-key-log.png (the row) and
// claude-no-key-tooltip.png.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acpAgentBareLaunch, ensureAcpAgent } from '../../test/fixtures/acp-env.mjs';
import { clickActivityBar, withWorkbench, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { promptFromPalette, sessionsRow, settleToast, startProfile, widenSideBar } from './lib/demo.mjs';

const PROFILE = 'Claude (no key)';
const AGENT_WAIT = 90_000;
const ADVICE = 'ANTHROPIC_API_KEY';

export default async function claudeNoKey({ port } = {}) {
  ensureAcpAgent('claude');
  const home = mkdtempSync(join(tmpdir(), 'rpcw-claude-no-key-'));
  const launch = acpAgentBareLaunch('claude', { home });
  // As root Claude Code opens no session unless told it is sandboxed (docs/acp-agents-findings.md);
  // that is not the refusal this scenario is about.
  // A worker's env is the window's with the profile's over it: a key in the shell that ran the
  // tests is blanked (Claude takes an empty one for none), and no request could leave this machine.
  const env = { ...launch.env, ANTHROPIC_API_KEY: '', ANTHROPIC_AUTH_TOKEN: '', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}) };
  const profiles = [{ name: PROFILE, dialect: 'acp', command: launch.command, args: launch.args, env }];
  try {
    await withWorkbench(
      { port, settings: { 'rpcWorkers.profiles': profiles } },
      async ({ page }) => {
        await clickActivityBar(page, 'RPC Workers');
        await widenSideBar(page, 620);
        await startProfile(page, PROFILE);
        await sessionsRow(page, PROFILE).filter({ hasText: 'idle' }).waitFor({ state: 'visible', timeout: AGENT_WAIT });
        // Its log off screen, as when the person works elsewhere: the refusal is notified.
        await clickActivityBar(page, 'Explorer');
        await promptFromPalette(page, 'Say hello', PROFILE);
        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: `${PROFILE}:` }).first();
        await toast.waitFor({ state: 'visible', timeout: AGENT_WAIT });
        await settleToast(toast);
        // The status bar no longer ticks the prompt off beside the error that refused it.
        const bar = await page.locator('.part.statusbar').innerText();
        if (bar.includes('Prompt accepted')) throw new Error(`the status bar still says the prompt was accepted: ${JSON.stringify(bar)}`);
        const said = await toast.locator('.notification-list-item-message').innerText();
        if (!said.includes('needs a login') || !said.includes(`For ${PROFILE}: set ${ADVICE}`)) throw new Error(`the notification does not say how Claude takes a key: ${JSON.stringify(said)}`);
        await screenshot(page, 'claude-no-key', { moveMouse: false });
        // The Event Log's row for the turn says it too.
        await clickActivityBar(page, 'RPC Workers');
        const log = await webviewFrame(page, 'Event Log');
        const end = log.locator('.kind-end').last();
        await end.waitFor({ state: 'visible' });
        const row = await end.innerText();
        if (!row.includes('needs a login') || !row.includes(`For ${PROFILE}: set ${ADVICE}`)) throw new Error(`the log's "Turn ended" row does not say how Claude takes a key: ${JSON.stringify(row)}`);
        await screenshot(page, 'claude-no-key-log');
        // The worker's row's tooltip: its last error, with the advice.
        // As a person does when no hover comes (the pointer was already on the row, or the row was
        // redrawn under it): move off the row and onto it again, up to three times.
        const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'Last error' }).first();
        for (let attempt = 1; ; attempt++) {
          await page.mouse.move(0, 0);
          await sessionsRow(page, PROFILE).hover();
          try {
            await hover.waitFor({ state: 'visible', timeout: 10_000 });
            break;
          } catch (error) {
            if (attempt === 3) throw error;
          }
        }
        // Markdown's text keeps its spaces as no-break spaces.
        const tip = (await hover.innerText()).replace(/\s+/g, ' ');
        if (!tip.includes(`For ${PROFILE}: set ${ADVICE}`)) throw new Error(`the row's tooltip does not say how Claude takes a key: ${JSON.stringify(tip)}`);
        // And wraps: the advice is not off the hover's right edge behind a scroll bar.
        const wide = await hover.evaluate((el) => [el, ...el.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible').map((e) => e.className));
        if (wide.length) throw new Error(`the row's tooltip scrolls sideways (${wide.join(', ')}): its long lines do not wrap`);
        await screenshot(page, 'claude-no-key-tooltip', { moveMouse: false });
      },
      { name: 'claude-no-key' },
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

await runScenario(import.meta.url, claudeNoKey);
