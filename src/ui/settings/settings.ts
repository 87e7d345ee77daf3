// The extension's settings, validated with zod when read. A value that does not fit is named
// in an error and its default is used instead; nothing here imports vscode, so it is tested as
// a pure module (the caller hands in a getter over `workspace.getConfiguration`).
// zod/mini: the same checks, a fraction of the bundle (activation stays quick). Each schema is
// built on its first parse (lazySchema): activation reads settings that are mostly unset, and
// building these schemas was about 2 ms of it.
import * as path from 'node:path';
import * as z from 'zod/mini';
import { lazySchema, type LazyInfer } from '../../protocol/lazySchema';
import { nonEmptyText } from '../../protocol/shapes';
import { DEFAULT_LIMITS } from '../../core/worker/defaultLimits';
import { DIALECT_ERROR, DIALECT_NAMES } from '../../core/dialectName';

export const SECTION = 'rpcWorkers';

// Strict: a misspelt key ("gaurd") dropped without a word started the profile's workers without
// what it asked for (an unguarded worker), so a key the profile does not take refuses the profile.
const makeProfileSchema = () => z.strictObject({
  name: nonEmptyText('a profile needs a name', (issue) => (issue.input === undefined ? 'a profile needs a name' : 'name must be a string')),
  dialect: z.enum(DIALECT_NAMES, { error: DIALECT_ERROR }),
  // A list ("command": ["npx", "-y", …]) was said as no command at all.
  command: nonEmptyText('a profile needs a command', (issue) => (issue.input === undefined ? 'a profile needs a command' : 'command must be a string: the program alone, its arguments go in args')),
  args: z.optional(z.array(z.string({ error: 'args must be strings' }), { error: 'args must be a list of strings' })),
  env: z.optional(z.record(z.string(), z.string({ error: 'env values must be strings' }), { error: 'env must be an object of strings' })),
  // Empty, it passed here and its workers started on the program's default model, where a
  // card's empty model is refused.
  model: z.optional(nonEmptyText('model must not be empty (leave it out for the worker\'s default model)', 'model must be a string')),
  /** Off by default: an unguarded worker has exactly the trust of your own tools. */
  guard: z.optional(z.boolean({ error: 'guard must be true or false' })),
  /** τ: let it discover extensions and context files (AGENTS.md); off launches it with `-ne -nc`. */
  discovery: z.optional(z.boolean({ error: 'discovery must be true or false' })),
  /** ACP: the session mode to start in (Claude's adapter: "default" asks before tools). */
  // Empty, it passed here and the host refused the start in zod's words ("Too small…"), unnamed.
  mode: z.optional(nonEmptyText('mode must not be empty (leave it out to start in the agent\'s default mode)', 'mode must be a string')),
  /** ACP: offer the agent the editor's files (fs/*); a known agent's default when unset (Gemini: off). */
  clientFiles: z.optional(z.boolean({ error: 'clientFiles must be true or false' })),
  /** Start this profile's workers each in a new git worktree of the workspace. */
  worktree: z.optional(z.boolean({ error: 'worktree must be true or false' })),
}, { error: (issue) => (issue.code === 'unrecognized_keys' ? unknownKeys(issue.keys) : issue.code === 'invalid_type' ? NOT_AN_OBJECT : undefined) })
  // A switch of another dialect was taken and ignored: a τ profile's `mode: "default"` started
  // workers that never asked, a pi profile's `discovery: false` ones that loaded everything.
  .check(z.superRefine((p, ctx) => {
    for (const [key, dialect, words] of DIALECT_SWITCHES) {
      if (p[key] !== undefined && p.dialect !== dialect) ctx.addIssue({ code: 'custom', path: [key], input: p[key], message: `${key} is for ${words} profiles ("dialect": "${dialect}"); a ${p.dialect} profile has none` });
    }
  }));

/** The profile switches that one dialect alone has. */
const DIALECT_SWITCHES = [['mode', 'acp', 'ACP'], ['clientFiles', 'acp', 'ACP'], ['discovery', 'tau', 'τ']] as const;

const PROFILE_KEYS = 'name, dialect, command, args, env, model, guard, discovery, mode, clientFiles, worktree';
// zod's own word for a profile that is no object (a string, null) was "Invalid input".
const NOT_AN_OBJECT = 'a profile is an object: { "name": …, "dialect": "pi", "tau" or "acp", "command": … }';
const unknownKeys = (keys: string[]) => `a profile does not take ${keys.map((k) => JSON.stringify(k)).join(', ')} (its keys: ${PROFILE_KEYS})`;
export const profileSchema = lazySchema(makeProfileSchema);
export type Profile = LazyInfer<typeof profileSchema>;

const pathList = (what: string) => z.array(nonEmptyText(`${what} must not be empty`, `${what} must be strings`), { error: `must be a list of ${what}` });

// Not z.int(): it calls a whole number above 2^53 (1e20) not whole, beside "at most". Every bound
// here is far below 2^53, so the range check alone says what is wrong with such a number.
const int = (min: number, max: number) => z.number({ error: 'must be a whole number' }).check(
  z.refine(Number.isInteger, { error: 'must be a whole number', abort: true }),
  z.minimum(min, { error: `must be at least ${min}` }),
  z.maximum(max, { error: `must be at most ${max}` }),
);

/** Each key: its schema and its default (the host's limits from the core's one copy). package.json's contributes declare the same. */
export const SETTINGS = {
  profiles: { schema: lazySchema(() => z.array(z.unknown(), { error: 'must be a list of profiles' })), default: [] as unknown[] },
  defaultProfile: { schema: lazySchema(() => z.string({ error: 'must be a profile name' })), default: '' },
  maxWorkers: { schema: lazySchema(() => int(1, 64)), default: DEFAULT_LIMITS.maxWorkers },
  maxPromptBytes: { schema: lazySchema(() => int(1024, 16 * 1024 * 1024)), default: DEFAULT_LIMITS.maxPromptBytes },
  commandTimeoutMs: { schema: lazySchema(() => int(1_000, 600_000)), default: DEFAULT_LIMITS.commandTimeoutMs },
  settleTimeoutMs: { schema: lazySchema(() => int(1_000, 600_000)), default: DEFAULT_LIMITS.settleTimeoutMs },
  eventLogSize: { schema: lazySchema(() => int(100, 1_000_000)), default: DEFAULT_LIMITS.eventStoreSize },
  trace: { schema: lazySchema(() => z.boolean({ error: 'must be true or false' })), default: false },
  // Guarded workers only. Entries are checked for what the guard can honour when a worker starts
  // (the core's policyFromSettings), where the error can name the entry.
  'guard.allowedPaths': { schema: lazySchema(() => pathList('paths')), default: [] as string[] },
  'guard.forbiddenPaths': { schema: lazySchema(() => pathList('paths')), default: [] as string[] },
  'guard.allowBash': { schema: lazySchema(() => z.boolean({ error: 'must be true or false' })), default: false },
  'guard.onViolation': { schema: lazySchema(() => z.enum(['abort', 'flag'], { error: 'must be "abort" or "flag"' })), default: 'abort' as 'abort' | 'flag' },
  // Only ${workspaceFolder} is substituted (resolveAgentDirs): another variable was a folder of that name, never found.
  agentDirs: { schema: lazySchema(() => z.array(nonEmptyText('directories must not be empty', 'directories must be strings').check(z.refine((d) => !d.replaceAll('${workspaceFolder}', '').includes('${'), { error: 'only ${workspaceFolder} is substituted' })), { error: 'must be a list of directories' })), default: [] as string[] },
  notifications: { schema: lazySchema(() => z.enum(['all', 'needsInputAndFailures', 'none'], { error: 'must be "all", "needsInputAndFailures" or "none"' })), default: 'all' as NotifySetting },
  /** Empty: beside the repository (<repo>.worktrees), as the core decides. */
  // No variable is substituted: "${workspaceFolder}/wt" made a folder of that name inside the repository.
  worktreesDir: { schema: lazySchema(() => z.string({ error: 'must be a folder path (a string)' }).check(z.refine((d) => !d.includes('${'), { error: 'variables such as ${workspaceFolder} are not substituted (write an absolute path, ~/…, or a path relative to the repository)' }))), default: '' },
  // Persisted history: kept in the workspace's storage; the defaults are the core's
  // (src/core/history/format.ts DEFAULT_HISTORY_LIMITS), in units a person sets.
  'history.enabled': { schema: lazySchema(() => z.boolean({ error: 'must be true or false' })), default: true },
  'history.maxSessions': { schema: lazySchema(() => int(1, 10_000)), default: 200 },
  'history.maxSessionMiB': { schema: lazySchema(() => int(1, 4096)), default: 32 },
  'history.maxTotalMiB': { schema: lazySchema(() => int(1, 65_536)), default: 256 },
  'history.resumeInterrupted': { schema: lazySchema(() => z.boolean({ error: 'must be true or false' })), default: false },
} as const;

export type NotifySetting = 'all' | 'needsInputAndFailures' | 'none';

/**
 * package.json's capabilities.untrustedWorkspaces.restrictedConfigurations (without the section):
 * the settings that start programs or say what a worker may do, which an untrusted workspace's
 * own settings may not set. The UI test compares the two lists.
 */
export const RESTRICTED_SETTINGS: readonly SettingKey[] = [
  'profiles', 'defaultProfile', 'guard.allowedPaths', 'guard.forbiddenPaths', 'guard.allowBash', 'guard.onViolation', 'agentDirs', 'worktreesDir',
  'history.resumeInterrupted',
];

/** What `WorkspaceConfiguration.inspect()` gives of a setting (the parts read here). */
export interface InspectedSetting {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The value the extension uses: the most specific one set. In an untrusted workspace a restricted
 * setting's workspace and folder values are neither used nor checked (VS Code's own get() ignores
 * them there too; inspect() does not), so an invalid workspace profile raises no error for a value
 * that is documented as ignored; the user's value still counts.
 */
export function configuredValue(key: SettingKey, inspected: InspectedSetting | undefined, trusted: boolean): unknown {
  if (!trusted && RESTRICTED_SETTINGS.includes(key)) return inspected?.globalValue;
  return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
}

export type SettingKey = keyof typeof SETTINGS;

/** A profile of the settings that is not used: its name, and why (its validation error). */
export interface InvalidProfile {
  name: string;
  error: string;
}

export interface Settings {
  profiles: Profile[];
  /** The profiles refused for their errors, by name: said when rpcWorkers.defaultProfile names one. */
  invalidProfiles: InvalidProfile[];
  defaultProfile: string;
  maxWorkers: number;
  maxPromptBytes: number;
  commandTimeoutMs: number;
  settleTimeoutMs: number;
  eventLogSize: number;
  trace: boolean;
  guard: GuardSettings;
  /** Extra agent card directories, as written (resolveAgentDirs in guardSpec.ts says how they resolve). */
  agentDirs: string[];
  /** Which attention changes are notified while the worker's log is not in view. */
  notifications: NotifySetting;
  /** Where worker worktrees go; empty: the core's default beside the repository. */
  worktreesDir: string;
  history: HistorySettings;
}

export interface HistorySettings {
  enabled: boolean;
  maxSessions: number;
  maxSessionMiB: number;
  maxTotalMiB: number;
  /** After a reload, sessions a window's end interrupted start again on their conversation. */
  resumeInterrupted: boolean;
}

export interface GuardSettings {
  allowedPaths: string[];
  forbiddenPaths: string[];
  allowBash: boolean;
  onViolation: 'abort' | 'flag';
  /**
   * A path list that was invalid, in its error's words: its default (no entries) is a wider guard
   * than the one asked for, so a guarded start is refused (guardFromSettings). Absent when none.
   */
  invalid?: string[];
}

export interface ReadSettings {
  settings: Settings;
  /** One sentence per value that was not used, naming the setting. */
  errors: string[];
  /** Values used as they are, that likely do not do what was meant (for the log). */
  warnings: string[];
}

/**
 * A forbidden entry with a leading `/` is the file system's path: `/secrets`, meant for the
 * workspace's `secrets`, forbade nothing there, in silence. Said of an absolute entry whose fixed
 * part (before any wildcard) neither holds nor lies in a workspace folder; none open, nothing said.
 */
function forbiddenOutside(entries: readonly string[], folders: readonly string[]): string[] {
  if (folders.length === 0) return [];
  const within = (root: string, p: string) => {
    const rel = path.relative(root, p);
    return rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel);
  };
  const where = folders.length === 1 ? 'the workspace folder' : 'every workspace folder';
  return entries.flatMap((entry) => {
    // As the core reads a setting: a backslash is a separator everywhere (policyFromSettings).
    const p = entry.replaceAll('\\', '/');
    if (!path.isAbsolute(p)) return [];
    const segments = p.split('/');
    const glob = segments.findIndex((s) => s.includes('*') || s.includes('?'));
    const fixed = path.resolve(glob < 0 ? p : segments.slice(0, glob).join('/') || '/');
    if (folders.some((f) => within(f, fixed) || within(fixed, f))) return [];
    const own = p.startsWith('/') ? ` (write ${JSON.stringify(p.replace(/^\/+/, ''))} for the workspace's own)` : '';
    return [`${SECTION}.guard.forbiddenPaths: ${JSON.stringify(entry)} is an absolute path outside ${where}, so it forbids nothing in the workspace${own}`];
  });
}

function describe(error: z.core.$ZodError): string {
  return error.issues.map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`).join('; ');
}

/** `get(key)` returns the configured value or undefined when unset. */
/** The notification for invalid settings: each error its own sentence (they ran together before). */
export function settingsMessage(errors: string[]): string {
  return `RPC Workers settings: ${errors.map((e) => (/[.!?]$/.test(e) ? e : `${e}.`)).join(' ')}`;
}

/** The words of a key under the section that package.json does not declare (unknownSettings.ts). */
export const NOT_DECLARED = 'is not a setting of RPC Workers';

/**
 * What the notification's Open Settings searches for: the one setting its errors are about (each
 * error starts with the setting's id, readSettings words them so), else the extension's section.
 * The section alone opened the Settings editor on all twenty, the one that is wrong far below.
 * An undeclared key is no setting the editor finds: the one it is likely meant for is.
 */
export function settingsQuery(errors: readonly string[]): string {
  const KEY = '[A-Za-z]+(?:\\.[A-Za-z]+)*';
  const keyOf = (e: string) => (e.includes(NOT_DECLARED) ? new RegExp(`did you mean ${SECTION}\\.(${KEY})\\?$`) : new RegExp(`^${SECTION}\\.(${KEY})`)).exec(e)?.[1] ?? '';
  const keys = new Set(errors.map(keyOf));
  const [only] = keys;
  return keys.size === 1 && only ? `${SECTION}.${only}` : SECTION;
}

/**
 * The errors to notify after a settings change: the ones the last read did not have. Each change
 * of any rpcWorkers.* setting (a toggle, each number the Settings editor writes as you type)
 * showed every standing error again; the log still has them all.
 */
export function newSettingErrors(previous: readonly string[], current: readonly string[]): string[] {
  const before = new Set(previous);
  return current.filter((e) => !before.has(e));
}

// The name alone of a profile refused for its other keys, as the profile's schema reads it:
// rpcWorkers.defaultProfile may name it, and is then told why it is not offered.
const namedSchema = lazySchema(() => z.object({ name: nonEmptyText('a profile needs a name') }));

/** The valid profiles, the first of each name; the others' errors added to `errors`. */
function readProfiles(raws: unknown[], errors: string[]): Pick<Settings, 'profiles' | 'invalidProfiles'> {
  const profiles: Profile[] = [];
  const invalidProfiles: InvalidProfile[] = [];
  const seen = new Set<string>();
  raws.forEach((raw, i) => {
    const parsed = profileSchema.safeParse(raw);
    if (!parsed.success) {
      const error = describe(parsed.error);
      errors.push(`${SECTION}.profiles[${i}] is invalid (${error}); that profile is ignored`);
      const named = namedSchema.safeParse(raw);
      if (named.success) invalidProfiles.push({ name: named.data.name, error });
      return;
    }
    if (seen.has(parsed.data.name)) {
      errors.push(`${SECTION}.profiles[${i}]: a profile named "${parsed.data.name}" comes earlier; this one is ignored`);
      return;
    }
    seen.add(parsed.data.name);
    profiles.push(parsed.data);
  });
  return { profiles, invalidProfiles };
}

/** `workspaceFolders`: the open folders, for what the guard's paths mean there. */
export function readSettings(get: (key: SettingKey) => unknown, workspaceFolders: readonly string[] = []): ReadSettings {
  const errors: string[] = [];
  const invalid = new Map<SettingKey, string>();
  const value = <K extends SettingKey>(key: K) => {
    const raw = get(key);
    const spec = SETTINGS[key];
    if (raw === undefined || raw === null) return spec.default;
    const parsed = spec.schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    invalid.set(key, `${SECTION}.${key} is invalid (${describe(parsed.error)})`);
    errors.push(`${invalid.get(key)}; using the default ${JSON.stringify(spec.default)}`);
    return spec.default;
  };
  const { profiles, invalidProfiles } = readProfiles(value('profiles') as unknown[], errors);
  const settings: Settings = {
    profiles,
    invalidProfiles,
    defaultProfile: value('defaultProfile') as string,
    maxWorkers: value('maxWorkers') as number,
    maxPromptBytes: value('maxPromptBytes') as number,
    commandTimeoutMs: value('commandTimeoutMs') as number,
    settleTimeoutMs: value('settleTimeoutMs') as number,
    eventLogSize: value('eventLogSize') as number,
    trace: value('trace') as boolean,
    guard: {
      allowedPaths: value('guard.allowedPaths') as string[],
      forbiddenPaths: value('guard.forbiddenPaths') as string[],
      allowBash: value('guard.allowBash') as boolean,
      onViolation: value('guard.onViolation') as 'abort' | 'flag',
    },
    agentDirs: value('agentDirs') as string[],
    notifications: value('notifications') as NotifySetting,
    worktreesDir: (value('worktreesDir') as string).trim(),
    history: {
      enabled: value('history.enabled') as boolean,
      maxSessions: value('history.maxSessions') as number,
      maxSessionMiB: value('history.maxSessionMiB') as number,
      maxTotalMiB: value('history.maxTotalMiB') as number,
      resumeInterrupted: value('history.resumeInterrupted') as boolean,
    },
  };
  const badPaths = (['guard.allowedPaths', 'guard.forbiddenPaths'] as const).flatMap((k) => invalid.get(k) ?? []);
  if (badPaths.length) settings.guard.invalid = badPaths;
  // historyLimits raises the total to one session's bound (the history holds at least one whole
  // session): a smaller total is said, not taken in silence for a bound it is not.
  const h = settings.history;
  if (h.enabled && h.maxTotalMiB < h.maxSessionMiB) errors.push(`${SECTION}.history.maxTotalMiB (${h.maxTotalMiB}) is less than ${SECTION}.history.maxSessionMiB (${h.maxSessionMiB}): the history holds at least one whole session, so ${h.maxSessionMiB} is used`);
  return { settings, errors, warnings: forbiddenOutside(settings.guard.forbiddenPaths, workspaceFolders) };
}

/** The settings that the host takes when it is created (a change applies after a reload). */
export const HOST_LIMIT_KEYS = ['maxWorkers', 'maxPromptBytes', 'commandTimeoutMs', 'settleTimeoutMs', 'eventLogSize'] as const satisfies readonly (SettingKey & keyof Settings)[];

/** The history's settings the host takes when it is created (`history.resumeInterrupted` is read when a window opens). */
export const HISTORY_RELOAD_KEYS = ['history.enabled', 'history.maxSessions', 'history.maxSessionMiB', 'history.maxTotalMiB'] as const satisfies readonly SettingKey[];

type ReloadKey = (typeof HOST_LIMIT_KEYS)[number] | (typeof HISTORY_RELOAD_KEYS)[number];

const reloadValue = (s: Settings, k: ReloadKey): unknown => (k.startsWith('history.') ? s.history[k.slice('history.'.length) as keyof HistorySettings] : s[k as (typeof HOST_LIMIT_KEYS)[number]]);

/**
 * The settings a change asks a reload for (host limits, the history's): changed by it, and not
 * what the host runs with (`applied`, read at activation). One set back to that value needs no
 * reload: "Reload Window" would have stopped the workers for nothing. The history's bounds bound
 * nothing while it is off, before the reload and after.
 */
export function limitsNeedingReload(applied: Settings, before: Settings, after: Settings): ReloadKey[] {
  const historyOff = !applied.history.enabled && !after.history.enabled;
  return [...HOST_LIMIT_KEYS, ...HISTORY_RELOAD_KEYS].filter((k) => {
    if (historyOff && k !== 'history.enabled' && k.startsWith('history.')) return false;
    return reloadValue(before, k) !== reloadValue(after, k) && reloadValue(after, k) !== reloadValue(applied, k);
  });
}

/** The history's bounds for the host (bytes from the MiB a person sets); a change applies after a reload. */
export function historyLimits(h: HistorySettings) {
  const MiB = 1024 * 1024;
  return { maxSessions: h.maxSessions, maxSessionBytes: h.maxSessionMiB * MiB, maxTotalBytes: Math.max(h.maxTotalMiB, h.maxSessionMiB) * MiB };
}

export function hostLimits(s: Settings) {
  return {
    maxWorkers: s.maxWorkers,
    maxPromptBytes: s.maxPromptBytes,
    commandTimeoutMs: s.commandTimeoutMs,
    settleTimeoutMs: s.settleTimeoutMs,
    eventStoreSize: s.eventLogSize,
  };
}
