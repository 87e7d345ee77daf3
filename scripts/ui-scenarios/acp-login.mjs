// An ACP agent that needs a login before it starts a session (as Copilot and OpenCode do before
// `copilot login` / `opencode auth login`): Start Worker fails with the agent's words and a button
// that runs the login command it names in a terminal, then offers Start Again. Saves
// docs/screenshots/acp-login.png (the failure) and acp-login-terminal.png.
import { join } from 'node:path';
import { repoRoot } from '../lib/paths.mjs';
import { withWorkbench, clickActivityBar, screenshot, runScenario } from '../ui-driver.mjs';
import { startProfile } from './lib/demo.mjs';

const PROFILE = 'Agent that needs a login (fake)';

export default async function acpLogin({ port } = {}) {
  const fake = join(repoRoot, 'test', 'fixtures', 'fake-acp-agent.mjs');
  const settings = { 'rpcWorkers.profiles': [{ name: PROFILE, dialect: 'acp', command: process.execPath, args: [fake], env: { FAKE_ACP_AUTH: 'required' } }] };
  await withWorkbench(
    { port, settings },
    async ({ page }) => {
      await clickActivityBar(page, 'RPC Workers');
      await startProfile(page, PROFILE);
      const toast = page.locator('.notification-toast', { hasText: 'needs a login before it can start a session' });
      await toast.waitFor({ state: 'visible' });
      const run = toast.getByRole('button', { name: 'Run "fake-agent login"' });
      await run.waitFor({ state: 'visible' });
      await screenshot(page, 'acp-login');
      await run.click();
      await page.locator('.terminal-tab, .terminal-tabs-entry, .single-terminal-tab', { hasText: 'Log in' }).first().waitFor({ state: 'visible' });
      await page.locator('.notification-toast', { hasText: 'Finish the login in the terminal "Log in", then start' }).getByRole('button', { name: 'Start Again' }).waitFor({ state: 'visible' });
      await screenshot(page, 'acp-login-terminal');
    },
    { name: 'acp-login' },
  );
}

await runScenario(import.meta.url, acpLogin);
