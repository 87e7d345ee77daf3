// Backtick runs, for Markdown that quotes text it does not control: a selection sent as a prompt
// (ui/commands/selection.ts) and a session's export (core/export/markdown.ts). Both layers may
// load the protocol; it imports nothing.

/**
 * The longest run of backticks in `text`. Counted in a loop: a tool's output (a minified bundle
 * read) can hold more runs than Math.max takes as arguments, and the export threw.
 */
export function longestTicks(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) if (m[0].length > longest) longest = m[0].length;
  return longest;
}

/** A code fence longer than any run of backticks in `text` (three at the least), so the text cannot close it. */
export function fenceFor(text: string): string {
  return '`'.repeat(Math.max(3, longestTicks(text) + 1));
}
