// An untrusted workspace (Restricted Mode): the Sessions view says why nothing starts, and Start
// Demo Worker is refused with a message that says how to trust the workspace; the empty Event Log
// says why no worker starts, not to start one.
// Saves docs/screenshots/untrusted-*.png.
import { launchWorkbench, clickActivityBar, runCommand, screenshot, runScenario, webviewFrame } from '../ui-driver.mjs';
import { settleToast } from './lib/demo.mjs';

export default async function untrusted({ port } = {}) {
  const wb = await launchWorkbench({ port, settings: { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'never' } });
  const { page } = wb;
  try {
    await clickActivityBar(page, 'RPC Workers');
    const welcome = page.locator('.part.sidebar .welcome-view-content', { hasText: 'This workspace is not trusted' }).first();
    await welcome.waitFor({ state: 'visible' });
    await welcome.locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).waitFor({ state: 'visible' });
    const log = await webviewFrame(page, 'Event Log');
    await log.locator('.status-badge').waitFor({ state: 'visible' });
    // The empty log says why no worker starts and how to trust the workspace, not to start one.
    await log.getByText('this workspace is not trusted').waitFor({ state: 'visible' });
    if (await log.getByText('Start one from the Sessions view').count()) throw new Error('the untrusted Event Log tells the person to start a worker');
    await log.locator('body').evaluate(() => document.fonts.ready.then(() => undefined));
    await runCommand(page, 'RPC Workers: Start Demo Worker');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'does not start workers in an untrusted workspace' }).first();
    await toast.waitFor({ state: 'visible' });
    await toast.locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).waitFor({ state: 'visible' });
    await settleToast(toast);
    await screenshot(page, 'untrusted-refused');
    if (await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]', { hasText: 'Demo worker' }).count()) throw new Error('a worker started in an untrusted workspace');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, untrusted);
