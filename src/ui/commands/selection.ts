// The message "Redirect with Selection" and "Send Selection" send: the instruction, the
// workspace-relative path and line range, and the code quoted in a fenced block. Pure, so it is
// unit-tested without an editor.
import { fenceFor } from '../../protocol/backticks';

export interface SelectionInput {
  /** Workspace-relative path (or the document's name when it has no file). */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The editor's language id, used as the fence's info string when it is a plain word. */
  languageId?: string;
  code: string;
  /** What the person typed; empty means the default instruction. */
  instruction?: string;
}

export const DEFAULT_INSTRUCTION = 'Look at this code and continue with it in mind.';

export function lineRange(startLine: number, endLine: number): string {
  return startLine === endLine ? `line ${startLine}` : `lines ${startLine}-${endLine}`;
}

export function buildSelectionMessage(input: SelectionInput): string {
  const instruction = input.instruction?.trim() || DEFAULT_INSTRUCTION;
  const fence = fenceFor(input.code);
  const lang = input.languageId && /^[\w+#.-]+$/.test(input.languageId) && input.languageId !== 'plaintext' ? input.languageId : '';
  const code = input.code.endsWith('\n') ? input.code : `${input.code}\n`;
  return `${instruction}\n\nFrom \`${input.path}\`, ${lineRange(input.startLine, input.endLine)}:\n\n${fence}${lang}\n${code}${fence}\n`;
}

/**
 * Which lines a selection covers, 0-based in and 1-based out. An empty selection is the cursor's
 * line; a selection that ends at column 0 of a later line does not include that line.
 */
export function selectedLines(sel: { start: { line: number; character: number }; end: { line: number; character: number }; isEmpty: boolean }): { startLine: number; endLine: number; wholeLines: boolean } {
  if (sel.isEmpty) return { startLine: sel.start.line + 1, endLine: sel.start.line + 1, wholeLines: true };
  let end = sel.end.line;
  if (sel.end.character === 0 && end > sel.start.line) end--;
  return { startLine: sel.start.line + 1, endLine: end + 1, wholeLines: false };
}
