// The level a worker's stderr line is logged at in its output channel. Workers write their
// chatter to stderr (stdout is the protocol): "demo worker ready", pi's and the ACP agents'
// notes, τ's logging. Logged as warnings, all of it, the channel's level filter could not hide it.
// A line is a warning only when it reads as one or as an error, as the programs and their
// runtimes write them: Node (pi, the ACP agents: `TypeError: …`, its `    at f (file:1:2)` stack,
// `(node:12) UnhandledPromiseRejectionWarning`), Python (τ: `Traceback (most recent call last):`,
// `  File "…", line N`, `ValueError: …`), Rust and Go (`panicked at`, `panic:`, `fatal error:`),
// and the log levels a logger prints (`[ERROR]`, `FATAL:`, `level=error`, `"level":"error"`,
// `Warning:`). Copilot's `Error: Authentication failed …` (docs/real-workers.md) is one; its
// `Info: Request failed due to a transient API error. Retrying...` is not.

const LOOKS_WRONG: readonly RegExp[] = [
  // An exception's name at the start of its line: Error, TypeError, ValueError, IOException.
  /^\s*(?:\w+\.)*\w*(?:Error|Exception)\b/,
  // A level word closed by a colon or a bracket, or set as a field: error:, [warn], level=fatal.
  /\b(?:error|fatal|panic|critical|warn(?:ing)?)\s*[:\]]/i,
  /\blevel"?\s*[=:]\s*"?(?:error|fatal|panic|critical|warn(?:ing)?)\b/i,
  // A logger's level in capitals anywhere on the line.
  /\b(?:ERROR|FATAL|CRITICAL|PANIC|WARN|WARNING)\b/,
  /\bpanicked at\b/,
  /\bUnhandled\w*/,
  /^Traceback \(most recent call last\)/,
  // The lines of a stack under the error, so the trace reads as one with it.
  /^\s+at .+:\d+(?::\d+)?\)?$/,
  /^\s+File ".+", line \d+/,
];

export function stderrLevel(line: string): 'info' | 'warn' {
  return LOOKS_WRONG.some((re) => re.test(line)) ? 'warn' : 'info';
}
