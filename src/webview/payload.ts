// Reading an event's payload on the page: the text of a tool result in either dialect (and of a
// preview of one too big to send), a message's text or thinking, the origin of a prompt. What the
// dialects hand over normalised needs none of this (a compaction's outcome, for one: pi.ts says
// it in the model's names): it is kept apart from the fold so that each piece can go once the
// dialects normalise that payload themselves.
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

/** The readable text of a tool result in either dialect (a string, {output}, pi's {content:[{text}]}). */
export function resultText(result: unknown): string {
  if (result === undefined || result === null) return '';
  if (typeof result === 'string') return result;
  const o = obj(result);
  if (o) {
    if (o.truncated === true && typeof o.preview === 'string') return previewText(o.preview, typeof o.chars === 'number' ? o.chars : null);
    if (typeof o.output === 'string') return o.output;
    if (Array.isArray(o.content)) {
      const texts = o.content.map((c) => str(obj(c)?.text)).filter((t): t is string => t !== null);
      if (texts.length) return texts.join('\n');
    }
    if (typeof o.text === 'string') return o.text;
  }
  try {
    return JSON.stringify(result, null, 2);
  } catch {
    return String(result);
  }
}

/**
 * The readable text in the preview of a result too big to send whole: the preview is the
 * start of the result's JSON, cut anywhere. The text of its first output or text field is
 * decoded (escapes and all), so a big tool output reads as output, not as escaped JSON.
 */
export function previewText(preview: string, chars: number | null): string {
  const m = /"(output|text|stdout|content)"\s*:\s*"/.exec(preview);
  if (!m) return preview;
  const more = chars !== null && chars > preview.length ? `\n[… ${chars - preview.length} more characters not shown]` : '\n[… the rest is not shown]';
  let out = '';
  const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
  for (let i = m.index + m[0].length; i < preview.length; i++) {
    const c = preview[i];
    if (c === '"') return out;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = preview[i + 1];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = preview.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 5;
    } else {
      out += ESC[next] ?? next;
      i++;
    }
  }
  return out + more;
}

export function capTail(text: string, max: number): string {
  return text.length > max ? `[… ${text.length - max} earlier characters not kept]\n${text.slice(text.length - max)}` : text;
}

export function messageText(message: unknown, kind: 'text' | 'thinking'): string {
  const m = obj(message);
  if (!m) return '';
  if (typeof m.content === 'string') return kind === 'text' ? m.content : '';
  if (!Array.isArray(m.content)) return '';
  return m.content.map((c) => {
    const b = obj(c);
    if (!b) return '';
    if (kind === 'text' && b.type === 'text') return str(b.text) ?? '';
    if (kind === 'thinking' && b.type === 'thinking') return str(b.thinking) ?? str(b.text) ?? '';
    return '';
  }).join('');
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
