// A command and its arguments as one line a shell would run as they ran: what the person reads
// of a command (a worker's, an agent's host terminal's) must not read as another one.

// C0, DEL and C1: a terminal acts on C1 as on its escape form (0x9b is CSI, ESC [).
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;
const ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\\': '\\\\', "'": "\\'" };

/**
 * `word` as any POSIX shell reads it back unchanged: bare when plainly safe, else in single quotes.
 * What an ACP agent's login line says (acpState.ts): the person's terminal may run a plain sh.
 */
export function posixWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `arg` as bash reads it back unchanged, on one line and with no control character written raw. */
export function shellQuote(arg: string): string {
  // A script's newline (sh -c 'a\nb') broke the line, its next line read as a command of its own,
  // and a terminal acts on an escape written raw ($ … in the host terminal's header): such an
  // argument is said as bash's printf %q says it, in $'…', on one line.
  if (CONTROL.test(arg)) {
    // A C1 character is said as its UTF-8 bytes (what the command is given), as bash's own
    // printf %q does: \u would be read in the reading shell's locale.
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    return `$'${arg.replace(/[\x00-\x1f\x7f-\x9f\\']/g, (c) => ESCAPES[c] ?? [...Buffer.from(c, 'utf8')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''))}'`;
  }
  return posixWord(arg);
}

export function shellLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}
