// How a spec becomes a command line. For pi the host builds the hermetic shape itself
// (`--mode rpc --no-session --no-extensions`, model, guard extension, tools, agent card); for τ
// and any other program it runs the configured command and args as given.
import type { HostOptions, WorkerSpec } from '../api';
import { DIALECTS } from '../wire/dialects';
import type { Launch } from './worker';

export function buildLaunch(spec: WorkerSpec, _options: HostOptions): { ok: true; launch: Launch } | { ok: false; error: string } {
  const dialect = DIALECTS[spec.dialect];
  // The caller's args come first, so that a program that hosts the protocol under an
  // interpreter (`node worker.js`) still receives pi's flags as its own arguments.
  const args = [...(spec.args ?? []), ...dialect.launchArgs({ model: spec.model, name: spec.name })];
  if (spec.dialect === 'pi') {
    if (spec.appendSystemPrompt) args.push('--append-system-prompt', spec.appendSystemPrompt);
    if (spec.tools) args.push('--tools', spec.tools.join(','));
  }
  return {
    ok: true,
    launch: { command: spec.command, args, env: spec.env ?? {}, guarded: false, tools: spec.tools ?? null, agent: spec.agent ?? null },
  };
}
