// How a spec becomes a command line. For pi the host builds the hermetic shape itself
// (`--mode rpc`, `--session-dir` or `--no-session`, `--no-extensions`, model, agent card, guard
// extension, tools); to τ itself (`ffwf-tau`, `tau`) the dialect adds `--mode rpc -ne -nc
// --session-dir DIR` where the caller did not, and any other program is run as given. A guard on τ or another program is an
// audit of each tool call by the host (see worker.ts), not an adapter inside the worker; a
// guarded Gemini CLI is also given a policy that denies its subagents (guard/geminiLaunch.ts).
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SupervisorOptions, WorkerSpec } from '../api';
import { cardGuard, defaultAgentDirs, findCard, loadAgentCards, type AgentCard } from '../cards/agentCards';
import { editorSettingsDirs } from '../guard/editorDirs';
import { geminiGuardArgs, isGeminiCli } from '../guard/geminiLaunch';
import { guardedTools, piGuardLaunch } from '../guard/piLaunch';
import { resolveGuard, type ResolvedPolicy } from '../guard/policy';
import { DIALECTS } from '../wire/dialects';
import { checkResume, resumeFileOf } from './sessions';

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  guarded: boolean;
  tools: string[] | null;
  agent: string | null;
  /** The host's own check of each tool call, for workers it cannot load a guard into. */
  audit: { policy: ResolvedPolicy; onViolation: 'abort' | 'flag' } | null;
}

export type Built = { ok: true; launch: Launch } | { ok: false; error: string };

/** dist/core.js and dist/extension.js sit beside dist/pi-guard.js. */
export const defaultGuardBundle = () => path.join(__dirname, 'pi-guard.js');

export function buildLaunch(spec: WorkerSpec, options: SupervisorOptions): Built {
  const root = spec.workspaceFolder ?? spec.cwd;
  let card: AgentCard | undefined;
  const cardDirs = spec.agentDirs ?? options.agentDirs ?? defaultAgentDirs(root, { ...process.env, ...spec.env }, [], spec.cwd);
  if (spec.agent) {
    const loaded = loadAgentCards(cardDirs);
    const found = findCard(loaded.cards, spec.agent, loaded.errors);
    if (!found.ok) return { ok: false, error: found.error };
    card = found.card;
    if (spec.dialect !== 'pi') return { ok: false, error: `agent cards configure pi (system prompt, tools, model); a ${spec.dialect} worker cannot take card "${card.name}"` };
  }
  let policy: ResolvedPolicy | null;
  try {
    // A specialist worker is guarded unless its card or the spec says otherwise.
    const guard = spec.guard ?? (card ? cardGuard(card, root) : undefined);
    // Where cards are read, pi's and τ's own config and the editor's user settings, wherever they
    // are: a guarded worker must not write the card or settings the next worker starts from. The
    // editor's are where the editor (this host's env) reads them, not the worker's env.
    const home = os.homedir();
    const configDirs = [
      ...cardDirs, ...defaultAgentDirs(root, { ...process.env, ...spec.env }, [], spec.cwd).map((d) => path.dirname(d)), path.join(home, '.tau'), path.join(home, '.pi'),
      ...editorSettingsDirs(home, process.env), ...(options.editorSettingsDirs ?? []),
    ];
    policy = resolveGuard(guard, root, { alsoForbidden: [...new Set(configDirs)] });
  } catch (error) {
    return { ok: false, error: `invalid guard: ${(error as Error).message}` };
  }

  const resumeRefused = checkResume(spec);
  if (resumeRefused) return { ok: false, error: `cannot resume: ${resumeRefused}` };
  const model = spec.model ?? card?.model;
  const tools = spec.tools ?? card?.tools;
  // The caller's args come first, so that a program that hosts the protocol under an
  // interpreter (`node worker.js`) still receives pi's flags as its own arguments.
  const own = spec.args ?? [];
  const args = [...own, ...DIALECTS[spec.dialect].launchArgs({ command: spec.command, model, name: spec.name, args: own, sessionDir: spec.sessionDir, discovery: spec.discovery, resumeFile: resumeFileOf(spec) })];
  const env = { ...spec.env };
  let shownTools: string[] | null = tools ?? null;
  if (spec.dialect === 'pi') {
    const append = [card?.prompt, spec.appendSystemPrompt].filter((s) => s && s.trim()).join('\n\n');
    if (append) args.push('--append-system-prompt', append);
    if (policy) {
      const bundle = options.piGuardPath ?? defaultGuardBundle();
      if (!existsSync(bundle)) return { ok: false, error: `the guard extension for pi is missing at ${bundle} (run npm run build)` };
      const guard = piGuardLaunch(policy, spec.cwd, bundle, tools);
      args.push(...guard.args);
      Object.assign(env, guard.env);
      shownTools = guardedTools(tools, policy);
    } else if (tools) args.push(...(tools.length > 0 ? ['--tools', tools.join(',')] : ['--no-tools']));
  }
  // Gemini's subagents write where the guard cannot see (guard/geminiLaunch.ts): denied.
  if (policy && spec.dialect === 'acp' && isGeminiCli(spec.command, own)) args.push(...geminiGuardArgs());
  return {
    ok: true,
    launch: {
      command: spec.command, args, env, guarded: policy !== null, tools: shownTools, agent: card?.name ?? null,
      audit: policy && spec.dialect !== 'pi' ? { policy, onViolation: spec.onViolation ?? 'abort' } : null,
    },
  };
}
