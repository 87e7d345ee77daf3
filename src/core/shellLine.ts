// A command and its arguments as one line a shell would run as they ran: what the person reads
// of a command (a worker's, an agent's host terminal's) must not read as another one.

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(shellQuote).join(' ');
}
