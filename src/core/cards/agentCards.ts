// Agent cards: Markdown with YAML front matter, the format of pi's subagent example
// (examples/extensions/subagent/agents/*.md: name, description, tools, model), plus the guard
// fields. The body is the card's prompt. The guard is on unless a card says `guard: false`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { policyFromSettings, type GuardSpec } from '../guard/policy';
import { nonEmptyText } from '../../protocol/shapes';
import { editDistance } from '../editDistance';
import { MAX_CARD_BYTES, isCardFileName, readRegularFileHead } from '../regularFile';

export interface AgentCard {
  name: string;
  description: string;
  /** pi's defaults when left out; empty: no tools at all (`--no-tools`). */
  tools?: string[];
  model?: string;
  guard: boolean;
  /** As written in the card: workspace-relative globs, absolute paths, `${workspaceFolder}`. */
  allowedPaths?: string[];
  forbiddenPaths?: string[];
  prompt: string;
  file: string;
}

export interface CardError {
  file: string;
  reason: string;
}

export interface LoadedCards {
  cards: AgentCard[];
  errors: CardError[];
  /** Cards hidden by an earlier one of the same name (a workspace card hides a user's card). */
  shadowed: Array<{ name: string; file: string; by: string }>;
}

const toolList = z
  .union([z.string(), z.array(z.string())], { error: 'tools is a list of tool names, or one string of them separated by ","' })
  .transform((v) => (typeof v === 'string' ? v.split(',') : v).map((t) => t.trim()).filter((t) => t.length > 0))
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9_-]+$/, 'tool names are letters, digits, "_" and "-"')));
// Paths may contain commas, so a single string is one path, not a list.
const pathList = z.union([z.string(), z.array(z.string())], { error: 'a path, or a list of paths (strings)' }).transform((v) => (typeof v === 'string' ? [v] : v));

const FrontMatterSchema = z
  .object({
    // Each field's own words: zod's were "Invalid input" and "Too small: expected string to have >=1 characters".
    name: z.string({ error: (i) => (i.input === undefined ? 'a card needs a name' : 'name must be a string') }).regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a name is 1-64 letters, digits, ".", "_" or "-"'),
    description: nonEmptyText('description is empty', (i) => (i.input === undefined ? 'a card needs a description' : 'description must be a string')),
    tools: toolList.optional(),
    model: z.optional(nonEmptyText('model is empty (leave it out for the pi profile\'s model)', 'model must be a string')),
    guard: z.boolean({ error: 'guard must be true or false' }).optional(),
    allowed_paths: pathList.optional(),
    forbidden_paths: pathList.optional(),
  })
  .refine((c) => c.guard !== false || (c.allowed_paths === undefined && c.forbidden_paths === undefined), {
    message: 'allowed_paths/forbidden_paths given but guard is false',
  });

/**
 * A misspelt key would otherwise be dropped silently: `tool: read` gave a "read-only" card all of
 * pi's tools, a misspelt guard key guarded it wrongly. Keys of other tools' cards (`color`) are
 * far from these and still pass, so a card folder shared with another agent loads.
 */
const CARD_KEYS = ['name', 'description', 'tools', 'model', 'guard', 'allowed_paths', 'forbidden_paths'] as const;
/** Keys of other agents' cards that lie near one of these: OpenCode's agents say `mode: subagent`. */
const OTHER_TOOLS_KEYS: readonly string[] = ['mode'];

/** The card key `key` is a near miss of (its case, "-"/"_", or a letter or two), or null. */
function misspeltKey(key: string): string | null {
  if ((CARD_KEYS as readonly string[]).includes(key) || OTHER_TOOLS_KEYS.includes(key)) return null;
  const bare = (k: string) => k.toLowerCase().replace(/[-_]/g, '');
  return CARD_KEYS.find((k) => editDistance(bare(key), bare(k)) <= (k.length <= 6 ? 1 : 2)) ?? null;
}

function splitFrontMatter(text: string): { yaml: string; body: string } | null {
  const m = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(text.replace(/^\uFEFF/, ''));
  return m ? { yaml: m[1] ?? '', body: text.replace(/^\uFEFF/, '').slice(m[0].length) } : null;
}

export function parseAgentCard(text: string, file: string): { ok: true; card: AgentCard } | { ok: false; reason: string } {
  const parts = splitFrontMatter(text);
  if (!parts) return { ok: false, reason: 'no YAML front matter (the file must start with a "---" line)' };
  let data: unknown;
  try {
    data = parseYaml(parts.yaml);
  } catch (err) {
    return { ok: false, reason: `front matter is not valid YAML: ${(err as Error).message.split('\n', 1)[0]}` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'front matter is not a mapping' };
  // An empty key (`model:`) means absent, as in pi's own parser.
  const fields = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null));
  for (const key of Object.keys(fields)) {
    const meant = misspeltKey(key);
    if (meant) return { ok: false, reason: `unknown key "${key}" (did you mean "${meant}"?)` };
  }
  const parsed = FrontMatterSchema.safeParse(fields);
  if (!parsed.success) return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'card'}: ${i.message}`).join('; ') };
  const f = parsed.data;
  const unguardable = pathsError(f.allowed_paths, f.forbidden_paths);
  if (unguardable) return { ok: false, reason: unguardable };
  const card: AgentCard = { name: f.name, description: f.description, guard: f.guard !== false, prompt: parts.body.trim(), file };
  // Given empty, a card asks for no tools (a talker, a planner that only answers); pi's
  // subagent example took it for pi's defaults, which gave such a card bash and write.
  if (f.tools) card.tools = [...new Set(f.tools)];
  if (f.model) card.model = f.model;
  if (f.allowed_paths) card.allowedPaths = f.allowed_paths;
  if (f.forbidden_paths) card.forbiddenPaths = f.forbidden_paths;
  return { ok: true, card };
}

/**
 * Why the guard cannot honour a card's paths ("~/notes", an empty entry), in the card's key; null
 * when it can. Such a card was offered, and its start failed on a "guard setting" it does not have.
 * Whether an entry is honoured does not depend on the folder it is rooted in.
 */
function pathsError(allowed: string[] | undefined, forbidden: string[] | undefined): string | null {
  for (const [key, part] of [['allowed_paths', { allowed }], ['forbidden_paths', { forbidden }]] as const) {
    try {
      policyFromSettings(part, path.resolve('/'));
    } catch (error) {
      return `${key}: ${(error as Error).message.replace(/^guard setting /, '')}`;
    }
  }
  return null;
}

function readCard(file: string): { ok: true; card: AgentCard } | { ok: false; reason: string } {
  try {
    const read = readRegularFileHead(file, MAX_CARD_BYTES);
    if (!read.ok) return read;
    return read.whole ? parseAgentCard(read.head.toString('utf8'), file) : { ok: false, reason: `larger than ${MAX_CARD_BYTES} bytes` };
  } catch (err) {
    return { ok: false, reason: `cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
}

/** Cards from `dirs`, in order; the first card of a name wins. A bad card never stops the rest. */
export function loadAgentCards(dirs: string[]): LoadedCards {
  const out: LoadedCards = { cards: [], errors: [], shadowed: [] };
  const byName = new Map<string, AgentCard>();
  for (const dir of new Set(dirs.map((d) => path.resolve(d)))) {
    let names: string[];
    try {
      names = fs.readdirSync(dir, { withFileTypes: true })
        .filter((e) => isCardFileName(e.name) && (e.isFile() || e.isSymbolicLink()))
        .map((e) => e.name)
        .sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') out.errors.push({ file: dir, reason: `cannot list (${(err as NodeJS.ErrnoException).code})` });
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const r = readCard(file);
      if (!r.ok) {
        out.errors.push({ file, reason: r.reason });
        continue;
      }
      const first = byName.get(r.card.name);
      if (first) out.shadowed.push({ name: r.card.name, file, by: first.file });
      else {
        byName.set(r.card.name, r.card);
        out.cards.push(r.card);
      }
    }
  }
  return out;
}

// Where cards are looked for: in a module of its own, which the launch check reads at activation.
export { defaultAgentDirs } from './agentDirs';

/**
 * `errors`: the cards that did not load, named after the others: the one asked for may be among
 * them, and "unknown" alone sent the person looking for a typo in a card that was there.
 */
export function findCard(cards: AgentCard[], name: string, errors: readonly CardError[] = []): { ok: true; card: AgentCard } | { ok: false; error: string } {
  const card = cards.find((c) => c.name === name);
  if (card) return { ok: true, card };
  const available = cards.map((c) => c.name).sort();
  const notLoaded = errors.length > 0 ? `; not loaded: ${errors.map((e) => `${e.file}: ${e.reason}`).join('; ')}` : '';
  return {
    ok: false,
    error: (available.length > 0
      ? `unknown agent ${JSON.stringify(name)}; available: ${available.join(', ')}`
      : `unknown agent ${JSON.stringify(name)}; ${errors.length > 0 ? 'no agent card loaded' : 'no agent cards were found'}`) + notLoaded,
  };
}

/** The card's guard as a spec for a workspace folder; false when the card turns it off. */
export function cardGuard(card: AgentCard, workspaceFolder: string): GuardSpec | false {
  if (!card.guard) return false;
  const spec = policyFromSettings({ allowed: card.allowedPaths, forbidden: card.forbiddenPaths }, workspaceFolder);
  // `allowed_paths: []` says the card may write nowhere (a reviewer), as `tools: []` is no tools;
  // the settings' empty list, the default, means the folder, which gave it the whole workspace.
  return card.allowedPaths?.length === 0 ? { ...spec, allowedPaths: [] } : spec;
}
