// An abort after which the agent left its command running, as codex-acp's sandbox once did: the
// host ends it after the abort and the log says which command it ended. A sandbox's wrapper
// (Codex's) writes a long command line, its options first and the command last: the log shows
// its start and its end; the call's row keeps its state and time beside its long title.
// Saves docs/screenshots/acp-abort-orphan.png.
import { runCommand, screenshot, runScenario } from '../ui-driver.mjs';
import { promptFromPalette } from './lib/demo.mjs';
import { startFakeAcp } from './lib/fakeAcp.mjs';

const PROFILE = 'Codex-like agent (fake)';
// Python takes what follows its -c code as arguments, so the long line is the command's own.
const POLICY = JSON.stringify({ type: 'managed', writable: Array.from({ length: 12 }, (_, i) => `/tmp/workspace/area-${i}`) });
const COMMAND = `python3 -c "import time; time.sleep(600)" --sandbox-policy-cwd /tmp/workspace --permission-profile '${POLICY}' -- bash -lc "npm run build"`;

export default async function acpAbortOrphan({ port } = {}) {
  const { wb, page, log } = await startFakeAcp({ port, profile: PROFILE });
  try {
    await promptFromPalette(page, `orphan: ${COMMAND}`, PROFILE);
    await log.locator('.kind-tool.tool-running').waitFor({ state: 'visible' });
    await runCommand(page, 'RPC Workers: Abort Turn');
    await log.locator('.kind-end.end-aborted').waitFor({ state: 'visible' });
    await log.getByText('The host ended what the worker left running after the abort').waitFor({ state: 'visible' });
    await log.getByText('bash -lc "npm run build"', { exact: false }).last().waitFor({ state: 'visible' });
    // The call's long title is cut, not its state and time: they stay in the row, and the call the
    // abort cut short says stopped.
    const call = log.locator('.kind-tool summary').first();
    const clipped = await call.evaluate((s) => {
      const right = s.getBoundingClientRect().right + 1;
      return ['.badge', '.time'].filter((c) => { const r = s.querySelector(c).getBoundingClientRect(); return r.width === 0 || r.right > right; });
    });
    if (clipped.length) throw new Error(`the tool call's long title cuts off its ${clipped.join(' and ')}`);
    await call.locator('.badge', { hasText: /^stopped/ }).waitFor({ state: 'visible' });
    await screenshot(page, 'acp-abort-orphan');
  } finally {
    await wb.close();
  }
}

await runScenario(import.meta.url, acpAbortOrphan);
