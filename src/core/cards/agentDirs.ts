// Where pi's agent cards are looked for, for a workspace folder and a worker's environment: one
// answer for the card loader (agentCards.ts), the worker's launch and the launch check the
// extension runs at activation (ui/settings/launchConfigGate.ts), which must watch every folder a
// start may read a card from. Node built-ins only, so that activation does not load the core.
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Workspace `.pi/agents/` first, then pi's own agent dir (`$PI_CODING_AGENT_DIR`, ~ expanded as pi
 * does). pi takes a relative one as is, from its cwd (`cwd`: the worker's folder, by default the
 * workspace folder); it was left relative, so read from the extension host's cwd and not guarded.
 */
export function defaultAgentDirs(workspaceFolder?: string, env: NodeJS.ProcessEnv = process.env, extraDirs: string[] = [], cwd = workspaceFolder): string[] {
  const given = env.PI_CODING_AGENT_DIR?.replace(/^~(?=$|\/)/, os.homedir());
  const piDir = given
    ? (cwd && !path.isAbsolute(given) ? path.resolve(cwd, given) : given)
    : path.join(os.homedir(), '.pi', 'agent');
  return [...(workspaceFolder ? [path.join(workspaceFolder, '.pi', 'agents')] : []), path.join(piDir, 'agents'), ...extraDirs];
}
