// The five real ACP agents in code-server, each from a profile a person would write (their
// programs from the cache, offline on the mock model): started, asked to run a command, the
// agent's question answered (Claude, Codex, Copilot and Gemini ask; OpenCode runs it), the
// command's two lines in its row, the turn done. Saves docs/screenshots/acp-real-*.png.
//   [ACP_AGENTS_ONLY=claude,opencode] node scripts/ui-driver.mjs acp-real-agents
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockLlm } from '../../test/fixtures/mock-llm.mjs';
import { ACP_AGENT_NAMES, acpAgentLaunch, ensureAcpAgent, shellToolReply } from '../../test/fixtures/acp-env.mjs';
import { clickActivityBar, withWorkbench, screenshot, runScenario, webviewFrame, QUICK_INPUT } from '../ui-driver.mjs';
import { sessionsRow, startProfile, widenSideBar } from './lib/demo.mjs';

const TITLE = { claude: 'Claude', codex: 'Codex', copilot: 'Copilot', gemini: 'Gemini', opencode: 'OpenCode' };
const profileOf = (name) => `${TITLE[name]} (mock model)`;
const AGENT_WAIT = 180_000;

const chosen = () => (process.env.ACP_AGENTS_ONLY ? process.env.ACP_AGENTS_ONLY.split(',') : ACP_AGENT_NAMES);

export default async function acpRealAgents({ port } = {}) {
  const names = chosen();
  for (const name of names) ensureAcpAgent(name);
  const llm = await startMockLlm({ defaultText: 'unscripted' });
  const homes = mkdtempSync(join(tmpdir(), 'rpcw-acp-real-'));
  // As a person writes them: command, args, env; nothing of the agent's defaults (Claude's
  // asking mode, Gemini's files) said, so the host's own defaults for a known agent are what run.
  const profiles = names.map((name) => {
    const l = acpAgentLaunch(name, { mockUrl: llm.baseUrl, home: join(homes, name) });
    // Each agent's model is in its own config or env (acpAgentLaunch); Copilot offers no model
    // choice over ACP, so a profile model would fail its start (which says so).
    return { name: profileOf(name), dialect: 'acp', command: l.command, args: l.args, env: l.env };
  });
  try {
    await withWorkbench(
      { port, settings: { 'rpcWorkers.profiles': profiles } },
      async ({ page }) => {
        const widget = page.locator(QUICK_INPUT);
        await clickActivityBar(page, 'RPC Workers');
        await widenSideBar(page, 620);
        for (const name of names) {
          const profile = profileOf(name);
          await startProfile(page, profile);
          await sessionsRow(page, profile).filter({ hasText: 'idle' }).waitFor({ state: 'visible', timeout: AGENT_WAIT });
          llm.script(shellToolReply(name, 'printf "line1\\nline2\\n"'), { text: `${TITLE[name]} printed two lines.` });
          // From the Event Log's composer, on the worker just started (the log follows it).
          const log = await webviewFrame(page, 'Event Log');
          await log.locator('select.worker-select option:checked', { hasText: profile }).waitFor({ state: 'attached' });
          await log.locator('textarea.message').fill('Print two lines');
          await log.locator('textarea.message').press('Control+Enter');
          // Sent: the log shows it (a race that emptied the box would end here with the log's words).
          await log.locator('.kind-prompt', { hasText: 'Print two lines' }).waitFor({ state: 'visible' });
          // The agent's question, when it asks, takes the palette's place; OpenCode runs it unasked.
          const question = widget.locator('.quick-input-list .monaco-list-row');
          const end = log.locator('.kind-end').last();
          const first = await Promise.race([
            question
              .first()
              .waitFor({ state: 'visible', timeout: AGENT_WAIT })
              .then(() => 'asked'),
            end.waitFor({ state: 'visible', timeout: AGENT_WAIT }).then(() => 'ended'),
          ]);
          if (first === 'asked') {
            await sessionsRow(page, 'needs input').waitFor({ state: 'visible' });
            await screenshot(page, `acp-real-${name}-asks`, { moveMouse: false });
            // Enter, as a person answers: the focused answer is the agent's "allow once", whatever
            // its place in the agent's list (Gemini lists "Allow for this session" first).
            await page.keyboard.press('Enter');
          }
          await log.locator('.kind-end.end-done').last().waitFor({ state: 'visible', timeout: AGENT_WAIT });
          // The command's row, opened: its output as the command printed it.
          await log.locator('.kind-tool summary').last().click();
          const out = log.locator('.kind-tool pre.out').last();
          await out.waitFor({ state: 'visible' });
          const text = await out.innerText();
          // Copilot's own closing line for its model is part of what it sends (kept); Gemini 0.61.0
          // sends no output for a command, and the row says so.
          const expected = name === 'gemini' ? /^\(no output reported\)$/ : /^line1\nline2\n?(<shellId: \d+ completed with exit code 0>)?$/;
          if (!expected.test(text)) throw new Error(`${name}'s command output shows as ${JSON.stringify(text)}`);
          await sessionsRow(page, profile).filter({ hasText: 'idle' }).waitFor({ state: 'visible' });
          await screenshot(page, `acp-real-${name}-done`);
        }
        await screenshot(page, 'acp-real-sessions');
      },
      { name: 'acp-real-agents' },
    );
  } finally {
    await llm.close();
    rmSync(homes, { recursive: true, force: true });
  }
}

await runScenario(import.meta.url, acpRealAgents);
