// A reply in the Markdown export: the model's own Markdown, kept as such (its code blocks, lists
// and emphasis are what it means), but its HTML shown as the text it wrote, and a code block it
// left open closed.

/** A code fence's line; at any indent, as a list item's fence is (an agent's steps with code). */
const FENCE = /^[ \t]*(`{3,}|~{3,})([^]*)$/;

/**
 * Outside code, what a viewer would take for HTML: a `<` (a tag, a comment) and an `&` that spells
 * an entity. Kept as they are: code spans (CommonMark's: a run of backticks to the next run of the
 * same length, within a paragraph), autolinks, and a backslash's escape (its `\<` is text already).
 */
const HTML_OUTSIDE_CODE = /(?<!`)(`+)(?!`)(?:[^\n]|\n(?![ \t]*(?:\n|$)))*?[^`]\1(?!`)|<(?:https?|mailto):[^\s<>]*>|\\[^]|<|&(?=#?[\p{L}\p{N}]+;)/gu;

/**
 * The reply's text outside its code blocks with its HTML shown: raw, an unclosed `<details>`
 * folded the rest of the document away, and a `<script>` or a tag the agent named vanished.
 */
const htmlShown = (prose: string) => prose.replace(HTML_OUTSIDE_CODE, (m) => (m === '<' ? '&lt;' : m === '&' ? '&amp;' : m));

/**
 * A reply cut off inside a code block (a turn aborted or stopped mid-reply, a worker still
 * streaming) would leave its fence open, and every turn after it would read as that block's
 * code: the open fence is closed (CommonMark's rule: the same character, at least as long,
 * nothing after it). Its line endings are the worker's (CRLF, a lone CR), kept.
 */
export function replyMarkdown(text: string): string {
  // Lines at even places, the line ending after each at odd ones.
  const parts = text.split(/(\r\n?|\n)/);
  let open: { ch: string; len: number } | null = null;
  let out = '';
  let prose = '';
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i]! + (parts[i + 1] ?? '');
    const m = FENCE.exec(parts[i]!);
    if (open) {
      out += line;
      if (m && m[1]![0] === open.ch && m[1]!.length >= open.len && m[2]!.trim() === '') open = null;
    } else if (m && !(m[1]![0] === '`' && m[2]!.includes('`'))) {
      // A backtick fence's info string holds no backtick (else it is inline code, not a fence).
      out += htmlShown(prose) + line;
      prose = '';
      open = { ch: m[1]![0]!, len: m[1]!.length };
    } else prose += line;
  }
  out += htmlShown(prose);
  return open ? `${out}\n${open.ch.repeat(open.len)}` : out;
}
