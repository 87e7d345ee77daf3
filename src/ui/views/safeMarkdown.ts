// Text from a worker put into a tooltip's Markdown: escaped, never markup, and wrapping.
import * as vscode from 'vscode';
import { breakableSpaces } from './tooltipText';

/**
 * appendText's escaping (and `<` as an entity, so no tag survives), with the spaces it makes
 * unbreakable breakable again: a long error or path wraps in the hover instead of running off it.
 */
export function appendSafe(md: vscode.MarkdownString, value: string): vscode.MarkdownString {
  const escaped = new vscode.MarkdownString(undefined, md.supportThemeIcons).appendText(value.replace(/</g, '&lt;')).value;
  return md.appendMarkdown(breakableSpaces(escaped));
}
