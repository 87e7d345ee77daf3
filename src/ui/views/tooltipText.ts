// Text from a worker in a tooltip's Markdown, as it should wrap. No vscode import, so the tests
// hold it.

/**
 * MarkdownString.appendText's output with its spaces breakable again. appendText escapes the
 * markup but writes every space and tab as `&nbsp;`, so in a hover a long error or path stays one
 * line and runs off the right edge behind a scroll bar. The spaces between words become one plain
 * space; a line's leading run (an indent would make a code block) and the one after a leading
 * `1.` (a list) stay as they were.
 */
export function breakableSpaces(escaped: string): string {
  return escaped
    .split('\n')
    .map((line) => {
      const kept = /^(?:&nbsp;)+|^\d{1,9}\.(?:&nbsp;)+/.exec(line)?.[0] ?? '';
      return kept + line.slice(kept.length).replace(/(?:&nbsp;)+/g, ' ');
    })
    .join('\n');
}
