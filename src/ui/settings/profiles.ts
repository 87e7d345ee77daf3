// The profiles a person can start: the configured ones, pi and τ when they are installed (on PATH
// or in the workspace's node_modules/.bin), and the built-in demo worker. Pure apart from the
// filesystem look-ups, which take their inputs as arguments.
import { accessSync, constants, statSync } from 'node:fs';
import { basename, delimiter, join, win32 } from 'node:path';
import type { DialectName, WorkerSpec } from '../../core/api';
import type { InvalidProfile, Profile } from './settings';
import { isPathCommand, windowsNames } from '../../core/pathExt';

export const DEMO_PROFILE = 'Demo worker';
export const PI_PROFILE = 'pi';
export const TAU_PROFILE = 'τ';
/** τ's console scripts: `ffwf-tau` first, since another PyPI package also installs a `tau`. */
export const TAU_COMMANDS = ['ffwf-tau', 'tau'];

/**
 * The ACP agents Start Worker offers when their command is installed: the command and its ACP
 * flag, and its npm package (installLine gives the one-line install; README, "ACP agents").
 */
export const ACP_AGENTS = [
  // Claude's adapter starts in `auto`, where it was seen to run a command without asking anyone
  // (docs/acp-agents-findings.md); `default` asks the person.
  // `login`: how it takes a key or a login, for a start it refuses without one. Its own refusal
  // lists only its methods' names ("API Key: Use an API key to authenticate"), and `claude` and
  // `codex` are not the adapters' commands (a global npm install links only the package's own).
  { name: 'Claude', command: 'claude-agent-acp', args: [] as string[], mode: 'default', npm: '@agentclientprotocol/claude-agent-acp', login: `set ANTHROPIC_API_KEY (in VS Code's environment, or a profile's env), or log in with Claude Code's \`claude\` (npm install -g @anthropic-ai/claude-code)` },
  { name: 'Codex', command: 'codex-acp', args: [] as string[], npm: '@agentclientprotocol/codex-acp', login: `set OPENAI_API_KEY or CODEX_API_KEY (in VS Code's environment, or a profile's env), or run \`codex login\` (npm install -g @openai/codex)` },
  // Copilot and OpenCode name their login command themselves; the error offers to run it.
  { name: 'GitHub Copilot', command: 'copilot', args: ['--acp'], npm: '@github/copilot' },
  // Gemini 0.61.0, offered the host's files, cannot create a new file (it reads first and takes
  // the host's "not found" for a failure): it keeps its own files; its questions meet the wall.
  { name: 'Gemini', command: 'gemini', args: ['--acp'], clientFiles: false, npm: '@google/gemini-cli', login: `set GEMINI_API_KEY (in VS Code's environment, or a profile's env), or run \`gemini\` once in a terminal to log in with Google` },
  { name: 'OpenCode', command: 'opencode', args: ['acp'], npm: 'opencode-ai' },
] as const satisfies ReadonlyArray<{ name: string; command: string; args: string[]; mode?: string; clientFiles?: boolean; npm: string; login?: string }>;

/**
 * The program a command runs, by the name its install gives it: the file's name without a Windows
 * executable extension (npm's `pi.cmd` and `pi.ps1`, pip's `ffwf-tau.exe`), in any case.
 */
function programName(command: string, platform = process.platform): string {
  // On Windows "\\" separates folders too; Node's own basename does so only there.
  return (platform === 'win32' ? win32.basename(command) : basename(command)).replace(/\.(cmd|exe|bat|ps1)$/i, '');
}

/** The one-line install of a program Start Worker knows, by its command's name; null for another. */
export function installLine(command: string, platform = process.platform): string | null {
  const name = programName(command, platform);
  const acp = ACP_AGENTS.find((a) => a.command === name);
  if (acp) return `npm install -g ${acp.npm}`;
  if (name === 'pi') return 'npm install -g @earendil-works/pi-coding-agent (pi 1.x needs Node ≥ 22.19)';
  if (TAU_COMMANDS.includes(name)) return 'pipx install ffwf-tau-coding-agent (Python 3.12 or newer)';
  return null;
}

/**
 * The install to offer for a program that is not there. A command that is a path (a profile's
 * `/opt/pi/bin/pi`) is not filled by it: npm and pipx put the program in their own bin folder, so
 * the words say where, and what to write as the command instead; null where no install is known.
 */
export function installAdvice(command: string, platform = process.platform): string | null {
  const line = installLine(command, platform);
  if (!line || !isPathCommand(command, platform)) return line;
  const name = programName(command, platform);
  const folder = line.startsWith('pipx') ? "pipx's bin folder" : "npm's global bin folder";
  return `${line}, which puts "${name}" in ${folder} (on the PATH), not at ${command}: then set the profile's command to "${name}"`;
}

/** How a known ACP agent that names no login command takes its key or login; null for another. */
export function loginHint(command: string, args: readonly string[] = []): string | null {
  const agent = knownAcpAgent(command, args);
  return agent && 'login' in agent ? agent.login : null;
}

/**
 * The known agent a configured ACP profile runs, by its command's name (or, through npx / bunx /
 * pnpm dlx, its package's): its defaults (Claude's asking mode, Gemini kept off the host's files)
 * hold for a profile that only adds a key or `IS_SANDBOX=1`, unless the profile says otherwise.
 */
export function knownAcpAgent(command: string, args: readonly string[] = []): (typeof ACP_AGENTS)[number] | null {
  const name = programName(command);
  const direct = ACP_AGENTS.find((a) => a.command === name);
  if (direct) return direct;
  if (!['npx', 'bunx', 'pnpm', 'pnpx'].includes(name)) return null;
  const pkg = args.find((a) => !a.startsWith('-') && a !== 'dlx' && a !== 'exec');
  if (!pkg) return null;
  const bare = pkg.replace(/(?<=.)@[^/]*$/, '');
  return ACP_AGENTS.find((a) => a.npm === bare) ?? null;
}

/** Where each ACP agent's command was found (null: not installed), by its name in ACP_AGENTS. */
export function findAcpAgents(dirs: string[]): Record<string, string | null> {
  return Object.fromEntries(ACP_AGENTS.map((a) => [a.name, findExecutable(a.command, dirs)]));
}

export interface ProfileChoice {
  name: string;
  detail: string;
  /** Where it came from: the settings, found on this machine, or built in. */
  origin: 'settings' | 'detected' | 'builtin';
  /** The profile asks for the write guard (rpcWorkers.profiles[].guard); only settings can. */
  guard: boolean;
  /** The profile starts each worker in a new git worktree (rpcWorkers.profiles[].worktree). */
  worktree?: boolean;
  dialect: DialectName;
  spec: (cwd: string) => Omit<WorkerSpec, 'cwd'> & { cwd: string };
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first executable `name` in `dirs`; on Windows the first of its PATHEXT names (pathExt.ts):
 * the extensionless sh script npm writes beside claude-agent-acp.cmd was taken before it.
 */
export function findExecutable(name: string, dirs: string[], platform = process.platform): string | null {
  const names = platform === 'win32' ? windowsNames(name) : [name];
  for (const dir of dirs) {
    if (!dir) continue;
    for (const file of names) {
      const candidate = join(dir, file);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

/** The first of `names` found in `dirs`. */
export function findFirstExecutable(names: string[], dirs: string[]): string | null {
  for (const name of names) {
    const found = findExecutable(name, dirs);
    if (found) return found;
  }
  return null;
}

/** Workspace `node_modules/.bin` first, then PATH. */
export function searchDirs(workspaceFolders: string[], pathEnv = process.env.PATH ?? ''): string[] {
  return [...workspaceFolders.map((f) => join(f, 'node_modules', '.bin')), ...pathEnv.split(delimiter)];
}

/**
 * The demo worker runs on the extension host's own runtime: plain Node in code-server, Electron
 * in desktop VS Code, where ELECTRON_RUN_AS_NODE makes the binary behave as Node.
 */
export function demoSpec(extensionPath: string, cwd: string, execPath = process.execPath, sessionDir?: string): WorkerSpec {
  // With a session folder the demo keeps its conversation there and can be resumed (it is not
  // τ itself, so the host adds no τ flags: the folder goes in its own args).
  return {
    dialect: 'tau',
    command: execPath,
    args: [join(extensionPath, 'dist', 'demo-worker.js'), ...(sessionDir ? ['--session-dir', sessionDir] : [])],
    ...(sessionDir ? { sessionDir } : {}),
    cwd,
    env: { ELECTRON_RUN_AS_NODE: '1' },
    name: DEMO_PROFILE,
    model: 'demo (scripted)',
  };
}

/**
 * `tauSessionDir`: where τ workers keep their sessions (the extension's storage), so that compact
 * works (τ refuses it under --no-session) and nothing lands in the person's own τ folder.
 */
export function profileChoices(opts: { configured: Profile[]; extensionPath: string; piPath: string | null; tauPath?: string | null; acpPaths?: Record<string, string | null>; tauSessionDir?: string; piSessionDir?: string }): ProfileChoice[] {
  const sessionDir = (dialect: DialectName) => (dialect === 'tau' ? opts.tauSessionDir : opts.piSessionDir);
  const out: ProfileChoice[] = opts.configured.map((p) => ({
    name: p.name,
    detail: `${p.dialect} · ${[p.command, ...(p.args ?? [])].join(' ')}${p.model ? ` · ${p.model}` : ''}${p.discovery ? ' · discovery on' : ''}`,
    origin: 'settings' as const,
    guard: p.guard === true,
    worktree: p.worktree === true,
    dialect: p.dialect,
    spec: (cwd: string) => ({
      dialect: p.dialect, command: p.command, args: p.args, env: p.env, model: p.model, name: p.name, cwd,
      sessionDir: sessionDir(p.dialect), discovery: p.discovery, ...acpDefaults(p),
    }),
  }));
  const names = new Set(out.map((p) => p.name));
  if (opts.piPath && !names.has(PI_PROFILE)) {
    const piPath = opts.piPath;
    out.push({ name: PI_PROFILE, detail: `pi · ${piPath}`, origin: 'detected', guard: false, dialect: 'pi', spec: (cwd) => ({ dialect: 'pi', command: piPath, name: PI_PROFILE, cwd, ...(opts.piSessionDir ? { sessionDir: opts.piSessionDir } : {}) }) });
  }
  if (opts.tauPath && !names.has(TAU_PROFILE) && !opts.configured.some((p) => p.dialect === 'tau' && p.command === opts.tauPath)) {
    const tauPath = opts.tauPath;
    out.push({
      name: TAU_PROFILE, detail: `τ · ${tauPath}`, origin: 'detected', guard: false, dialect: 'tau',
      spec: (cwd) => ({ dialect: 'tau', command: tauPath, name: TAU_PROFILE, cwd, sessionDir: sessionDir('tau') }),
    });
  }
  for (const agent of ACP_AGENTS) {
    const path = opts.acpPaths?.[agent.name];
    if (!path || names.has(agent.name) || opts.configured.some((p) => p.dialect === 'acp' && p.command === path)) continue;
    out.push({
      name: agent.name, detail: `ACP · ${[path, ...agent.args].join(' ')}`, origin: 'detected', guard: false, dialect: 'acp',
      spec: (cwd) => ({ dialect: 'acp', command: path, args: [...agent.args], name: agent.name, cwd, ...agentDefaults(agent) }),
    });
  }
  if (!names.has(DEMO_PROFILE)) {
    out.push({ name: DEMO_PROFILE, detail: 'τ protocol · scripted, no model: streams echo replies and runs "run: <command>"', origin: 'builtin', guard: false, dialect: 'tau', spec: (cwd) => demoSpec(opts.extensionPath, cwd, undefined, opts.tauSessionDir) });
  }
  return out;
}

function agentDefaults(agent: (typeof ACP_AGENTS)[number]): Pick<WorkerSpec, 'mode' | 'clientFiles'> {
  return { ...('mode' in agent ? { mode: agent.mode } : {}), ...('clientFiles' in agent ? { clientFiles: agent.clientFiles } : {}) };
}

/** A configured profile's mode and client files: what it says, else its known agent's defaults. */
function acpDefaults(p: Profile): Pick<WorkerSpec, 'mode' | 'clientFiles'> {
  const agent = p.dialect === 'acp' ? knownAcpAgent(p.command, p.args) : null;
  const out = agent ? agentDefaults(agent) : {};
  if (p.mode !== undefined) out.mode = p.mode;
  if (p.clientFiles !== undefined) out.clientFiles = p.clientFiles;
  return out;
}

/**
 * Why rpcWorkers.defaultProfile is not used: it names a profile of the settings that is invalid
 * (said with its error: "not a profile here" sent the person looking for a typo), or no profile
 * of this machine (a typo, an agent not installed).
 */
export function unknownDefault(choices: ProfileChoice[], defaultName: string, invalid: readonly InvalidProfile[] = []): string | null {
  if (!defaultName || choices.some((c) => c.name === defaultName)) return null;
  const refused = invalid.find((p) => p.name === defaultName);
  if (refused) return `rpcWorkers.defaultProfile "${defaultName}" names a profile of your settings that is invalid (${refused.error}), so it is not offered`;
  return `rpcWorkers.defaultProfile "${defaultName}" is not a profile here`;
}

/**
 * The pi a card worker runs on: the profile named (it must be a pi profile), else the default
 * profile when it is pi, else pi found on this machine, else the first configured pi profile.
 */
export function piChoice(choices: ProfileChoice[], opts: { requested?: string; defaultName: string }): { ok: true; choice: ProfileChoice } | { ok: false; error: string } {
  const isPi = (c: ProfileChoice) => c.dialect === 'pi';
  if (opts.requested) {
    const named = choices.find((c) => c.name === opts.requested);
    if (!named) return { ok: false, error: `there is no worker profile named "${opts.requested}" (known: ${choices.map((c) => c.name).join(', ')})` };
    if (!isPi(named)) return { ok: false, error: `profile "${named.name}" is not a pi profile: agent cards configure pi (system prompt, tools, model)` };
    return { ok: true, choice: named };
  }
  const pis = choices.filter(isPi);
  const choice = pis.find((c) => c.name === opts.defaultName) ?? pis.find((c) => c.origin === 'detected') ?? pis[0];
  return choice
    ? { ok: true, choice }
    : { ok: false, error: 'pi is not installed: agent cards run on pi, and no "pi" was found in the workspace\'s node_modules/.bin or on PATH. Install it (npm install -g @earendil-works/pi-coding-agent; pi 1.x needs Node ≥ 22.19) or add a pi profile to rpcWorkers.profiles.' };
}
