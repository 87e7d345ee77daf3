// "Start Worker from Agent Card": a pi worker configured by a card (its prompt, tools, model and
// guard). The cards are loaded here only to offer and report them; the host loads them again
// from the same directories when it builds the launch, and its error for an unknown card is the
// one the person sees. The core (zod, yaml) is required when the command runs, not at activation.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StartResult, WorkerSpec } from '../../core/api';
import type { AgentCard } from '../../core/cards/agentCards';
import { cardItems, cardProblems } from './cardItems';
import type { ParsedArg } from './commandArgs';
import { guardFromSettings } from '../settings/guardSpec';
import { resolveAgentDirs } from '../settings/guardSpec';
import { findExecutable, piChoice, profileChoices, searchDirs, unknownDefault } from '../settings/profiles';
import type { Settings } from '../settings/settings';

export type CoreCards = Pick<typeof import('../../core/index'), 'loadAgentCards' | 'defaultAgentDirs' | 'policyFromSettings'>;
type Refused = { status: 'cancelled' | 'error'; error?: string };

export interface AgentStartDeps {
  settings(): Settings;
  extensionPath: string;
  /** Where pi workers keep their sessions: a card's worker is resumable as a profile's is. */
  piSessionDir?: string;
  core(): CoreCards;
  log: vscode.LogOutputChannel;
  /** The folder a palette start runs in (the active editor's, else the first). */
  defaultFolder(): string | undefined;
  firstTask(p: ParsedArg, title: string): Promise<string | undefined | null>;
  /** `worktree`: the pi profile asks for a worktree of its own. */
  launch(spec: WorkerSpec, task: string | undefined, p: ParsedArg, agentDirs: string[], worktree: boolean): Promise<StartResult | Refused>;
}

function refuse(error: string, ...buttons: Array<[string, () => unknown]>): Refused {
  void vscode.window.showErrorMessage(`RPC Workers: ${error}`, ...buttons.map(([b]) => b))
    .then((c) => buttons.find(([b]) => b === c)?.[1]());
  return { status: 'error', error };
}

const openSettings = (key: string): [string, () => unknown] => ['Open Settings', () => vscode.commands.executeCommand('workbench.action.openSettings', key)];

/** The argument's folder must be one that is open: a card worker's guard is rooted there. */
function folderFor(arg: string | undefined, deps: AgentStartDeps): { ok: true; folder: string } | { ok: false; error: string } {
  const open = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  if (arg === undefined) {
    const folder = deps.defaultFolder();
    return folder ? { ok: true, folder } : { ok: false, error: 'open a folder first: a worker runs in a workspace folder' };
  }
  const folder = open.find((f) => path.resolve(f) === path.resolve(arg));
  return folder ? { ok: true, folder } : { ok: false, error: `workspaceFolder ${JSON.stringify(arg)} is not an open workspace folder (open: ${open.join(', ') || 'none'})` };
}

function report(loaded: ReturnType<CoreCards['loadAgentCards']>, log: vscode.LogOutputChannel): void {
  const { invalid, shadowed } = cardProblems(loaded);
  for (const line of invalid) log.warn(`agent card not loaded: ${line}`);
  for (const line of shadowed) log.warn(line);
  const showLog = 'Show Log';
  const tell = (message: string) => void vscode.window.showWarningMessage(message, showLog).then((c) => c && log.show(true));
  if (invalid.length) tell(`RPC Workers: ${invalid.length === 1 ? 'an agent card was' : `${invalid.length} agent cards were`} not loaded: ${invalid[0]}${invalid.length > 1 ? ' (and more, see the log)' : ''}`);
  if (shadowed.length) tell(`RPC Workers: ${shadowed[0]}${shadowed.length > 1 ? ` (and ${shadowed.length - 1} more, see the log)` : ''}`);
}

async function pickCard(cards: AgentCard[], folder: string): Promise<AgentCard | undefined> {
  const picked = await vscode.window.showQuickPick(cardItems(cards, folder), {
    title: 'Start Worker from Agent Card', placeHolder: 'Which specialist to start', matchOnDescription: true, matchOnDetail: true,
  });
  return picked?.card;
}

export async function startAgentWorker(p: ParsedArg, deps: AgentStartDeps): Promise<StartResult | Refused> {
  const settings = deps.settings();
  const where = folderFor(p.arg.workspaceFolder, deps);
  if (!where.ok) return refuse(where.error);
  const folder = where.folder;
  // Cards configure pi; which pi is found as Start Worker finds it, or named by `profile`.
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const choices = profileChoices({ configured: settings.profiles, extensionPath: deps.extensionPath, piPath: findExecutable('pi', searchDirs(folders)), piSessionDir: deps.piSessionDir });
  const pi = piChoice(choices, { requested: p.arg.profile, defaultName: settings.defaultProfile });
  if (!pi.ok) return refuse(pi.error, openSettings('rpcWorkers.profiles'));
  const unknown = p.arg.profile ? null : unknownDefault(choices, settings.defaultProfile, settings.invalidProfiles);
  if (unknown) deps.log.warn(`${unknown}; the agent runs on the pi profile "${pi.choice.name}"`);
  const base = pi.choice.spec(folder);

  let core: CoreCards;
  try {
    core = deps.core();
  } catch (error) {
    return refuse(`could not load the worker host: ${(error as Error).message}`);
  }
  // The same directories the host will search, with the worker's environment (PI_CODING_AGENT_DIR).
  const dirs = core.defaultAgentDirs(folder, { ...process.env, ...base.env }, resolveAgentDirs(settings.agentDirs, folder));
  const loaded = core.loadAgentCards(dirs);
  report(loaded, deps.log);

  let card: AgentCard | undefined;
  let name: string;
  if (p.arg.agent !== undefined) {
    name = p.arg.agent;
    // Unknown: the host refuses it with the list of cards, before anything is spawned.
    card = loaded.cards.find((c) => c.name === name);
  } else {
    if (loaded.cards.length === 0) {
      return refuse(`no agent cards were found (looked in ${dirs.join(', ')}). A card is a Markdown file with "name" and "description" front matter, e.g. ${path.join(folder, '.pi', 'agents', 'reviewer.md')}.`, openSettings('rpcWorkers.agentDirs'));
    }
    card = await pickCard(loaded.cards, folder);
    if (!card) return { status: 'cancelled' };
    name = card.name;
  }

  // A card that leaves the guard on and names no paths is guarded by the settings' paths, and so
  // is any card run on a profile that asks for the guard: a card (a workspace's, say) saying
  // `guard: false` does not take away the guard the person set on the profile.
  let guard: WorkerSpec['guard'];
  const ownPaths = card?.guard === true && (card.allowedPaths !== undefined || card.forbiddenPaths !== undefined);
  if ((card?.guard || pi.choice.guard === true) && !ownPaths) {
    const g = guardFromSettings(settings.guard, folder, core.policyFromSettings);
    if (!g.ok) return refuse(`the guard settings cannot be honoured, so nothing was started: ${g.error}`, openSettings('rpcWorkers.guard'));
    guard = g.guard;
  }

  const task = await deps.firstTask(p, `Start ${name}: first task (optional)`);
  if (task === null) return { status: 'cancelled' };
  const { name: _profileName, ...rest } = base;
  const spec: WorkerSpec = {
    ...rest,
    dialect: 'pi',
    cwd: folder,
    workspaceFolder: folder,
    agent: name,
    // The card's own model wins over the profile's; the worker is named by its card.
    model: card?.model ? undefined : base.model,
    ...(p.arg.name ? { name: p.arg.name } : {}),
    ...(guard !== undefined ? { guard } : {}),
    onViolation: settings.guard.onViolation,
  };
  return deps.launch(spec, task, p, dirs, pi.choice.worktree === true);
}
