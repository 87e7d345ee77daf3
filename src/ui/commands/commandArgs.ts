// What a command accepts as its argument: `{ workerId, message }` (and a few more) from a
// keybinding, a task or another extension; a Sessions tree node from a menu; a Uri from the
// editor's context menu; or nothing from the Command Palette.
import * as z from 'zod/mini';
import { lazySchema, type LazyInfer } from '../../protocol/lazySchema';
import type { Source } from '../../protocol/words';

const str = (what: string) => z.optional(z.string({ error: `${what} must be a string` }));
export const commandArgSchema = lazySchema(() => z.looseObject({
  workerId: z.optional(z.string({ error: 'must be a worker id (a string)' }).check(z.minLength(1, { error: 'must not be empty' }))),
  message: str('message'),
  /** Start Worker: a profile by name; Start / Start Demo: the first task and a name. */
  profile: str('profile'),
  task: str('task'),
  // Blank is no name, trimmed, as the host has it (workerSpecSchema): here too, so that a profile's
  // start keeps its profile's name and a worktree is not made for a blank one.
  name: z.optional(z.pipe(z.string({ error: 'name must be a string' }), z.transform((n) => n.trim() || undefined))),
  /** Start Worker from Agent Card: the card by name, and the workspace folder to run in. */
  agent: str('agent'),
  workspaceFolder: str('workspaceFolder'),
  /** Send Selection / Prompt while streaming: how to queue it. */
  streamingBehavior: z.optional(z.enum(['steer', 'followUp'], { error: 'must be "steer" or "followUp"' })),
  /** Provenance a caller may state; otherwise the path the command came by is used. */
  source: str('source'),
  submitter: str('submitter'),
  /** Forget Always-Allowed Actions: one rule by its key, or all of them. */
  key: str('key'),
  all: z.optional(z.boolean({ error: 'all must be true or false' })),
  /** The event log composer's request a result answers (EventLog.act makes it; nobody else needs it). */
  reply: str('reply'),
  /** A Sessions tree node carries its kind. */
  kind: str('kind'),
}));
export type CommandArg = LazyInfer<typeof commandArgSchema>;

export interface ParsedArg {
  arg: CommandArg;
  source: Source | string;
  submitter: string;
  /** The caller said what to do (an argument object, not a menu or the palette). */
  programmatic: boolean;
  error?: string;
}

/**
 * `defaultSource` is where a call without an argument comes from (the palette, or the editor for
 * the selection commands).
 */
export function parseCommandArg(raw: unknown, defaultSource: Source): ParsedArg {
  if (raw === undefined || raw === null || typeof raw !== 'object' || isUriLike(raw)) {
    return { arg: {}, source: defaultSource, submitter: 'user', programmatic: false };
  }
  const parsed = commandArgSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { arg: {}, source: defaultSource, submitter: 'user', programmatic: true, error: `invalid command argument: ${issue.path.join('.') || 'argument'}: ${issue.message}` };
  }
  const arg = parsed.data;
  if (arg.kind) return { arg: { workerId: arg.workerId }, source: 'tree', submitter: 'user', programmatic: false };
  return { arg, source: arg.source ?? (defaultSource === 'editor' ? 'editor' : 'api'), submitter: arg.submitter ?? (defaultSource === 'editor' ? 'user' : 'unknown'), programmatic: true };
}

function isUriLike(v: object): boolean {
  const o = v as Record<string, unknown>;
  return typeof o.scheme === 'string' && typeof o.path === 'string' && typeof o.fsPath === 'string';
}
