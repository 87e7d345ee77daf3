// How a guarded Gemini CLI worker is kept from its subagents. Gemini 0.61.0 offers its model an
// `invoke_agent` tool (agents are on by default; the built-in `generalist` has every tool, and its
// default policy allows the call without asking). A subagent's tool calls run in a scheduler of
// their own: they are never reported over ACP, nor asked there (their questions go to Gemini's
// internal message bus, which only its terminal UI answers). In yolo mode a subagent's write
// outside the policy landed unflagged (acp.gemini.subagents.real.test.ts): past the guard, which
// sees only the `invoke_agent` call, as kind `think` with no input.
//
// The host adds a policy file of its own with `--admin-policy`: a deny rule for the tool in
// Gemini's highest tier, which no user or workspace rule outranks; a denied tool is also left out
// of the tools offered to the model (PolicyEngine.getExcludedTools). Not a settings file: Gemini
// reads system settings ($GEMINI_CLI_SYSTEM_DEFAULTS_PATH, ..._SETTINGS_PATH) only from a file
// owned by root in folders no one else can write, and the user's own settings are theirs.
// Gemini ignores --admin-policy where the machine has system policies of its own (an admin's
// folder of .toml files): there the admin decides.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Gemini CLI's subagent tool (packages/core/src/tools/tool-names.ts, AGENT_TOOL_NAME). */
export const GEMINI_AGENT_TOOL = 'invoke_agent';
export const GEMINI_GUARD_POLICY = [
  '# Written by RPC Workers for a guarded worker: a subagent\'s tool calls are not reported over ACP,',
  '# so the write guard could not see its writes.',
  '[[rule]]',
  `toolName = "${GEMINI_AGENT_TOOL}"`,
  'decision = "deny"',
  'priority = 999',
  '',
].join('\n');

const RUNNERS = ['npx', 'bunx', 'pnpm', 'pnpx'];

/** Is this command line Gemini CLI: `gemini`, or its package through npx / bunx / pnpm dlx? */
export function isGeminiCli(command: string, args: readonly string[] = []): boolean {
  const name = path.basename(command).replace(/\.(cmd|exe)$/i, '');
  if (name === 'gemini') return true;
  return RUNNERS.includes(name) && args.some((a) => /^@google\/gemini-cli(@[^/]*)?$/.test(a));
}

let dir: string | undefined;

/**
 * The arguments that give a guarded Gemini the policy above. The file is written once per host
 * process, into a private folder of its own, and again whenever it is not there: Gemini reads it
 * at each new session, and takes a missing one for no rules at all. It goes when the host ends.
 */
export function geminiGuardArgs(): string[] {
  if (!dir) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rpc-workers-gemini-'));
    const made = dir;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  const file = path.join(dir, 'guard.toml');
  let present = false;
  try {
    present = statSync(file).isFile();
  } catch {
    // Not there (yet, or a cleaner took it): written below.
  }
  if (!present) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, GEMINI_GUARD_POLICY, { mode: 0o600 });
  }
  return ['--admin-policy', file];
}
