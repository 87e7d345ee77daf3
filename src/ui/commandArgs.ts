// What a command accepts as its argument: `{ workerId, message }` (and a few more) from a
// keybinding, a task or another extension; a Sessions tree node from a menu; a Uri from the
// editor's context menu; or nothing from the Command Palette.
import { z } from 'zod';
import type { Source } from './provenance';

export const commandArgSchema = z.looseObject({
  workerId: z.string().min(1).optional(),
  message: z.string().optional(),
  /** Start Worker: a profile by name; Start / Start Demo: the first task and a name. */
  profile: z.string().optional(),
  task: z.string().optional(),
  name: z.string().optional(),
  /** Send Selection / Prompt while streaming: how to queue it. */
  streamingBehavior: z.enum(['steer', 'followUp']).optional(),
  /** Provenance a caller may state; otherwise the path the command came by is used. */
  source: z.string().optional(),
  submitter: z.string().optional(),
  /** A Sessions tree node carries its kind. */
  kind: z.string().optional(),
});
export type CommandArg = z.infer<typeof commandArgSchema>;

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
