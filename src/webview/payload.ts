// Reading an event's payload on the page: the bounds of what an entry keeps, guards, the origin
// of a prompt, a tool call's changes and terminals. The text of a tool result or a message is
// read as the Markdown export reads it (protocol/eventText.ts); everything else is in the
// model's names, said so by the dialects.
import type { PageEvent } from '../protocol/messages';
import type { Change, Origin } from './entries';

/** How much of one text (a prompt, a message, thinking) and of one tool's output an entry keeps. */
export const MAX_TEXT = 512 * 1024;
export const MAX_OUTPUT = 256 * 1024;
/** Events that carry nothing a person reads beyond what other entries show. */
export const QUIET = new Set(['turn_start', 'turn_end', 'message_start', 'stderr', 'side_completion_start', 'side_completion_update', 'side_completion_end',
  // Read into the worker's row and the log's header (usage, commands, options, title), not rows.
  'usage_update', 'commands_changed', 'config_changed', 'session_info']);

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export function capTail(text: string, max: number): string {
  return text.length > max ? `[… ${text.length - max} earlier characters not kept]\n${text.slice(text.length - max)}` : text;
}

/** Who sent a prompt or began a turn: `source`, the one the host stamped on the turn's opening (its `turn.origin`) for a turn. */
export function provOf(e: PageEvent, source: string | null): Origin {
  const c = obj(e.correlation);
  const lines = Array.isArray(c?.lines) && c!.lines.length === 2 && c!.lines.every((n) => typeof n === 'number') ? (c!.lines as [number, number]) : null;
  return { source, submitter: e.submitter ?? null, submissionId: e.submission_id ?? null, action: str(c?.action), file: str(c?.file), lines };
}

/** The file changes a tool event carries (`diffs`), those well formed. */
export function changesOf(v: unknown): Change[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((d) => {
    const o = obj(d);
    return o && typeof o.path === 'string' && typeof o.newText === 'string' ? [{ path: o.path, oldText: str(o.oldText), newText: o.newText }] : [];
  });
}

/** The host terminals a tool event names (its data's `terminals` and `terminalId`). */
export function terminalsOf(data: unknown): string[] {
  const d = obj(data);
  return [...(Array.isArray(d?.terminals) ? d.terminals : []), d?.terminalId].filter((x): x is string => typeof x === 'string');
}
