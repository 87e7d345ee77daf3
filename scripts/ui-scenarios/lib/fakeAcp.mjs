// A workbench with the fake ACP agent as a profile, started, its Event Log at hand: the opening
// of the ACP scenarios.
import { join } from 'node:path';
import { repoRoot } from '../../lib/paths.mjs';
import { clickActivityBar, launchWorkbench, webviewFrame } from '../../ui-driver.mjs';
import { sessionsRow, startProfile, widenSideBar } from './demo.mjs';

export async function startFakeAcp({ port, profile, settings = {} }) {
  const fake = join(repoRoot, 'test', 'fixtures', 'fake-acp-agent.mjs');
  const wb = await launchWorkbench({
    port,
    settings: { 'rpcWorkers.profiles': [{ name: profile, dialect: 'acp', command: process.execPath, args: [fake] }], ...settings },
  });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    await widenSideBar(page, 560);
    await startProfile(page, profile);
    await sessionsRow(page, profile).waitFor({ state: 'visible' });
    return { wb, page, log: await webviewFrame(page, 'Event Log') };
  } catch (error) {
    await wb.close();
    throw error;
  }
}
