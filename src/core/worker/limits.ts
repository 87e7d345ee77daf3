// The host's limits and the checks on what a caller hands it. Each broken rule is said in a
// sentence that names the rule, and nothing is started.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import type { SupervisorLimits, WorkerSpec } from '../api';
import { GuardSpecSchema } from '../guard/policy';
import { DEFAULT_LIMITS as DEFAULTS } from './defaultLimits';
import { DIALECT_ERROR, DIALECT_NAMES } from '../dialectName';
import { nonEmptyText, provenanceFields } from '../../protocol/shapes';
import { plural } from '../../protocol/words';

export const COMMAND_TIMEOUT_RANGE = { min: 1_000, max: 600_000 } as const;

export const DEFAULT_LIMITS: Readonly<SupervisorLimits> = DEFAULTS;

const positiveInt = z.number().int().positive();
export const limitsSchema = z.object({
  maxWorkers: positiveInt.max(64),
  maxPromptBytes: positiveInt,
  commandTimeoutMs: z.number().int().min(COMMAND_TIMEOUT_RANGE.min, 'command timeout must be at least 1 s').max(COMMAND_TIMEOUT_RANGE.max, 'command timeout must be at most 10 min'),
  settleTimeoutMs: z.number().int().min(COMMAND_TIMEOUT_RANGE.min, 'settle timeout must be at least 1 s').max(COMMAND_TIMEOUT_RANGE.max, 'settle timeout must be at most 10 min'),
  killGraceMs: positiveInt.max(60_000),
  maxLineBytes: positiveInt.min(1024),
  ringLines: positiveInt.max(100_000),
  eventStoreSize: positiveInt.max(1_000_000),
  resyncMs: z.number().int().min(50, 'resync interval must be at least 50 ms').max(60_000, 'resync interval must be at most 1 min'),
  inputProbeMs: z.number().int().min(1, 'input probe interval must be at least 1 ms').max(60_000, 'input probe interval must be at most 1 min'),
});

export function resolveLimits(partial: Partial<SupervisorLimits> | undefined): SupervisorLimits {
  const parsed = limitsSchema.safeParse({ ...DEFAULT_LIMITS, ...partial });
  if (!parsed.success) throw new RangeError(`invalid host limits: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}


// spawn throws on a NUL byte in the program, an argument or the environment: a start would
// reject instead of answering with an error.
const noNul = (s: string) => !s.includes('\0');
const NUL = 'must not contain a NUL byte';

export const workerSpecSchema = z.object({
  dialect: z.enum(DIALECT_NAMES, { error: DIALECT_ERROR }),
  command: z.string({ error: 'command is required' }).trim().min(1, 'command is required').refine(noNul, NUL),
  args: z.array(z.string().refine(noNul, NUL)).optional(),
  cwd: z
    .string({ error: 'cwd is required' })
    .refine(isAbsolute, { error: 'cwd must be an absolute path', abort: true })
    // Named: a resumed session's folder (a worktree discarded since, say) is not the one in view.
    .refine((p) => existsSync(p), { error: (i) => `cwd ${String(i.input)} does not exist`, abort: true })
    .refine((p) => statSync(p).isDirectory(), { error: (i) => `cwd ${String(i.input)} is not a directory` }),
  env: z.record(z.string().refine(noNul, NUL), z.string().refine(noNul, NUL)).optional(),
  // A blank name asked for is none: the default, not a worker with a blank row.
  name: z.string().trim().optional().transform((n) => n || undefined),
  model: z.string().optional(),
  task: z.string().optional(),
  taskProvenance: z.object(provenanceFields(false)).optional(),
  agent: z.string().optional(),
  agentDirs: z.array(z.string().refine(isAbsolute, 'agentDirs must be absolute paths')).optional(),
  guard: z.union([z.boolean(), GuardSpecSchema]).optional(),
  workspaceFolder: z.string().refine(isAbsolute, 'workspaceFolder must be an absolute path').optional(),
  onViolation: z.enum(['abort', 'flag']).optional(),
  sessionDir: z.string().refine(isAbsolute, 'sessionDir must be an absolute path').optional(),
  turnsBefore: z.number().int().min(0).optional(),
  resume: z.object({ id: z.string().min(1).nullable(), file: z.string().refine(isAbsolute, 'resume.file must be an absolute path').nullable() })
    .refine((r) => r.id !== null || r.file !== null, 'resume names neither a session id nor a file').optional(),
  discovery: z.boolean().optional(),
  tools: z.array(z.string()).optional(),
  appendSystemPrompt: z.string().optional(),
  mode: z.optional(nonEmptyText('mode must not be empty', 'mode must be a string')),
  clientFiles: z.boolean().optional(),
});

export function checkSpec(spec: unknown): { ok: true; spec: WorkerSpec } | { ok: false; error: string } {
  const parsed = workerSpecSchema.safeParse(spec);
  if (parsed.success) return { ok: true, spec: parsed.data as WorkerSpec };
  const issue = inUnion(parsed.error.issues[0]);
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, error: `invalid worker spec: ${where}${typeWords(issue) ?? issue.message}` };
}

const KINDS: Record<string, string> = { string: 'a string', number: 'a number', boolean: 'true or false', array: 'a list', object: 'an object', record: 'an object' };

/**
 * A field of the wrong type said in words ("model must be a string"), as the extension's API and
 * the settings say it, where the schema gives none of its own (zod's: "Invalid input: expected
 * string, received number"). null: the issue's own message stands.
 */
function typeWords(issue: z.core.$ZodIssue): string | null {
  if (!issue.message.startsWith('Invalid input') || !issue.path.length) return null;
  if (issue.code === 'invalid_union') {
    // Of no shape the field takes (guard: 'yes'): the shapes, each as its own type says it.
    const kinds = issue.errors.map((branch) => branch.find((e) => e.code === 'invalid_type' && e.path.length === 0));
    if (kinds.some((k) => k === undefined)) return null;
    return `${issue.path.join('.')} must be ${kinds.map((k) => (k?.code === 'invalid_type' ? (KINDS[k.expected] ?? k.expected) : '')).join(', or ')}`;
  }
  if (issue.code !== 'invalid_type') return null;
  return `${issue.path.join('.')} must be ${KINDS[issue.expected] ?? issue.expected}`;
}

/**
 * A union's issue (guard: a boolean or a guard spec) where the value has the shape of one branch
 * (an object) but is wrong inside it: that branch's own first issue, under the union's path, is
 * what to say. zod says only "Invalid input" of the union.
 */
function inUnion(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  const inside = issue.errors.filter((branch) => !branch.some((e) => e.code === 'invalid_type' && e.path.length === 0));
  const first = inside.length === 1 ? inside[0]![0] : undefined;
  return first ? inUnion({ ...first, path: [...issue.path, ...first.path] } as z.core.$ZodIssue) : issue;
}

export function checkPrompt(message: unknown, limits: SupervisorLimits): string | null {
  if (typeof message !== 'string' || message.trim().length === 0) return 'the message is empty';
  const bytes = Buffer.byteLength(message, 'utf8');
  if (bytes > limits.maxPromptBytes) return `the message is ${bytes} bytes; prompts are limited to ${limits.maxPromptBytes} bytes`;
  return null;
}

/** Why a start is refused at the limit: "1 worker is running" when the limit is one. */
export function atLimitError(live: number, maxWorkers: number): string {
  return `${plural(live, 'worker')} ${live === 1 ? 'is' : 'are'} running; the limit is ${maxWorkers} (stop one first)`;
}
