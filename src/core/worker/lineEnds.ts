// The line ends of a file the host writes for an agent that is not open in the editor. Agents
// read a CRLF file with its \r\n and write it back with \n; through an open document VS Code
// keeps the document's line ends, and Zed's ACP client writes through its buffer, which keeps the
// file's. The host's own write does the same, so a one-line change is not a whole-file diff.

const CR = 0x0d;
const LF = 0x0a;
/** A \n with no \r before it. */
const LONE_LF = /(?<!\r)\n/g;

/**
 * The file's line ends are CRLF, as VS Code decides a document's when it opens the file: more than
 * half of its line ends hold a \r (a lone \r counts with \r\n). No line end: not CRLF (VS Code
 * would take files.eol, which the core does not know; the text is written as given).
 * Read from the bytes: in UTF-8 no other character holds a \r or \n byte.
 */
export function crlfFile(bytes: Uint8Array): boolean {
  let withCr = 0;
  let lf = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === CR) {
      withCr++;
      if (bytes[i + 1] === LF) i++;
    } else if (bytes[i] === LF) lf++;
  }
  return withCr > (withCr + lf) / 2;
}

/** The text holds a \n that is not part of a \r\n: a CRLF file's write would change its line ends. */
export const hasLoneLf = (text: string): boolean => text.search(LONE_LF) !== -1;

/** `text` as written over a file that holds `present`: its lone \n made \r\n if the file is CRLF. */
export function keepLineEnds(text: string, present: Uint8Array): string {
  return crlfFile(present) ? text.replace(LONE_LF, '\r\n') : text;
}
