// A profile whose program is not installed (Claude's adapter, set up from the README before its
// install): Start Worker fails saying that no program of that name is on the PATH, and the line
// that installs it. Saves docs/screenshots/missing-agent.png.
import { withWorkbench, clickActivityBar, screenshot, runScenario } from '../ui-driver.mjs';
import { startProfile } from './lib/demo.mjs';

const PROFILE = 'Claude (not installed)';

export default async function missingAgent({ port } = {}) {
  const settings = { 'rpcWorkers.profiles': [{ name: PROFILE, dialect: 'acp', command: 'claude-agent-acp', mode: 'default' }] };
  await withWorkbench(
    { port, settings },
    async ({ page }) => {
      await clickActivityBar(page, 'RPC Workers');
      await startProfile(page, PROFILE);
      const toast = page.locator('.notification-toast', { hasText: 'no program of that name is on the PATH' });
      await toast.waitFor({ state: 'visible' });
      await toast.getByText('Install it: npm install -g @agentclientprotocol/claude-agent-acp').waitFor({ state: 'visible' });
      await screenshot(page, 'missing-agent');
    },
    { name: 'missing-agent' },
  );
}

await runScenario(import.meta.url, missingAgent);
