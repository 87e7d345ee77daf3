// What the host knows of one ACP agent connection, shared by its codec and its verbs.
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import type { AgentEvent } from '../events/agentEvent';
import type { LoginCommand } from '../api';
import { isPlain, lazySafeParse } from '../../protocol/fastParse';
import { authMethodSchema, configOptionSchema, modelsSchema, sessionSchema } from './acpProtocol';
import { posixWord } from '../shellLine';

const parseConfigOption = lazySafeParse(configOptionSchema);

// ---- what the host knows of one agent connection, shared by its codec and its verbs

/** How a `session/prompt` was answered: `cancelled` (its stop reason), any other stop reason, or an error (or none). */
export type TurnEnding = 'cancelled' | 'ended' | 'failed';

/** One connection's session and what the agent said about it. */
export class AcpState {
  sessionId: string | null = null;
  /** The session's folder, for a new session asked for later. */
  cwd: string | null = null;
  /**
   * The profile's mode and model, set on each session the worker opens (its first, New Session):
   * Claude's adapter opens every session in `auto`, which ran commands without asking, and a
   * profile that asks for `default` asks for it for the worker, not for its first session only.
   */
  profile: { mode: string | null; model: string | null } = { mode: null, model: null };
  /** New Session is setting its session to the profile's: the mode the agent then says is no change of the worker's. */
  opening = false;
  /** Sessions this connection opened; an update for another is refused. */
  readonly sessions = new Set<string>();
  loadSession = false;
  canResume = false;
  agentName: string | null = null;
  /** The agent as its messages name it (its title, else its name). */
  agentTitle = 'the agent';
  agentVersion: string | null = null;
  /** The logins the agent offers (initialize `authMethods`), for the advice when it asks for one. */
  authMethods: Array<z.infer<typeof authMethodSchema>> = [];
  commands: string[] = [];
  modes: { current: string | null; available: ModeChoice[] } | null = null;
  configOptions: Array<z.infer<typeof configOptionSchema>> = [];
  models: z.infer<typeof modelsSchema> = null;
  usage: { used: number; size: number; cost: number | null } | null = null;
  /** Counts the mode changes the codec made from the agent's updates, so that Switch Mode knows whether the agent said its change. */
  modeSaid = 0;
  /** The running turn's `session/prompt`, settled when it is answered, with how it ended. */
  turn: Promise<TurnEnding> | null = null;
  /** The agent takes `_session/steering` into a running turn (its initialize `_meta.steering`). */
  steers = false;
  /** Counts aborts, so that a follow-up the host holds knows whether one was sent during the turn it waited for. */
  aborts = 0;

  /** The agent's own words for a refusal that needs a login (ACP's -32000), with the command it names. */
  loginAdvice(said: string, before: string): string {
    // The words the agent gives a person ("Run `copilot login` …") before the exact binary it names.
    const command = this.authMethods.map(quotedCommand).find(Boolean) ?? this.loginCommand()?.line;
    // The other ways it offers: the one the command already says is not said twice.
    const ways = this.authMethods.filter((m) => !command || !m.description?.includes(command)).map((m) => `${m.name}${m.description ? `: ${m.description}` : ''}`);
    return `${this.agentTitle} needs a login before it can ${before} (${said})`
      + (command ? `. Run \`${command}\` in a terminal, then try again` : '')
      + (ways.length ? `. It offers: ${ways.join('; ')}` : '');
  }

  /**
   * The command a login method names: its `_meta["terminal-auth"]` (Copilot's: the binary and
   * `login`), else the first one quoted in its description ("Run `opencode auth login` …").
   */
  loginCommand(): LoginCommand | null {
    for (const m of this.authMethods) {
      const meta = (m as { _meta?: unknown })._meta;
      const t = isPlain(meta) ? meta['terminal-auth'] : undefined;
      if (isPlain(t) && typeof t.command === 'string' && t.command) {
        const args = Array.isArray(t.args) ? t.args.filter((a): a is string => typeof a === 'string') : [];
        // Typed into the person's own shell, which may be a plain sh: no bash $'…' (shellQuote's).
        return { label: typeof t.label === 'string' && t.label ? t.label : m.name, line: [t.command, ...args].map(posixWord).join(' ') };
      }
    }
    for (const m of this.authMethods) {
      const line = quotedCommand(m);
      if (line) return { label: m.name, line };
    }
    return null;
  }

  /** Takes what a session/new, load or resume answer says about the session. */
  learnSession(result: z.infer<typeof sessionSchema>): void {
    if (result.modes) this.modes = { current: result.modes.currentModeId ?? null, available: result.modes.availableModes.map((m) => ({ id: m.id, name: m.name, ...described(m) })) };
    if (result.configOptions) this.configOptions = result.configOptions;
    if (result.models) this.models = result.models;
  }

  get model(): string | null {
    const option = this.configOptions.find((o) => o.category === 'model');
    if (option && typeof option.currentValue === 'string') return option.currentValue;
    return this.models?.currentModelId ?? null;
  }

  get mode(): string | null {
    const option = this.configOptions.find((o) => o.category === 'mode');
    if (option && typeof option.currentValue === 'string') return option.currentValue;
    return this.modes?.current ?? null;
  }

  /** The mode option's current value (null: no such option, or not a string), as the agent last said it. */
  get modeOptionValue(): string | null {
    const value = this.configOptions.find((o) => o.category === 'mode')?.currentValue;
    return typeof value === 'string' ? value : null;
  }

  /**
   * A mode's name as the agent gives it (its mode option's values, else its modes list), for a
   * person: the ids are the program's words (Claude's "default" is "Manual", Copilot's are URLs).
   * Null where the agent names no such mode.
   */
  modeName(id: string): string | null {
    const option = this.configOptions.find((o) => o.category === 'mode');
    for (const o of option?.options ?? []) {
      const v = o as { value?: unknown; name?: unknown };
      if (v.value === id && typeof v.name === 'string' && v.name) return v.name;
    }
    return this.modes?.available.find((m) => m.id === id)?.name || null;
  }

  /** What an update tells the host about the session itself (usage, commands, mode, options). */
  observe(event: AgentEvent): void {
    const d = event.data ?? {};
    switch (event.type) {
      case 'usage_update':
        this.usage = { used: d.used as number, size: d.size as number, cost: typeof d.cost === 'number' ? d.cost : null };
        return;
      case 'commands_changed':
        this.commands = (d.commands as string[] | undefined) ?? [];
        return;
      case 'mode_changed': {
        const mode = typeof d.mode === 'string' ? d.mode : null;
        if (this.modes) this.modes.current = mode;
        // `mode` reads the mode option first: an agent that says the change only here (Gemini
        // has no option; Claude, Codex, Copilot have both) moves the option too, where it offers the mode.
        const option = this.configOptions.find((o) => o.category === 'mode');
        if (option && mode !== null && option.options?.some((o) => (o as { value?: unknown } | null)?.value === mode)) option.currentValue = mode;
        return;
      }
      case 'config_changed':
        if (Array.isArray(d.options)) this.configOptions = (d.options as unknown[]).map(parseConfigOption).filter((r) => r.success).map((r) => ({ ...r.data }));
        return;
    }
  }
}

/** One of the modes an agent offers, for a picker: `description`, the agent's own words for it, where it gave some. */
export type ModeChoice = { id: string; name: string; description?: string };

/** A mode's (or mode option value's) description as the agent gives it; nothing where it gives none that is text. */
export function described(m: object): { description?: string } {
  const d = (m as { description?: unknown }).description;
  return typeof d === 'string' && d ? { description: d } : {};
}

export const states = new WeakMap<MessageConnection, AcpState>();

export function stateOf(connection: MessageConnection): AcpState {
  const s = states.get(connection);
  if (!s) throw new Error('this connection is not an ACP agent\'s');
  return s;
}

/** The command a login method's description quotes ("Run `opencode auth login` in the terminal"), if any. */
function quotedCommand(m: z.infer<typeof authMethodSchema>): string | undefined {
  return /`([^`]+)`/.exec(m.description ?? '')?.[1];
}
