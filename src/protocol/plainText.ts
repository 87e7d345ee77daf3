// Text a worker made for a terminal, for VS Code's plain-text places (the status bar, a
// notification, a dialog) and the event log's page: pi's extensions colour what they set with
// their theme (`theme.fg(...)`, ANSI escape codes, which pi's RPC mode passes on as they are), and
// VS Code would show the codes. Shared by the host and the page; no vscode import.

/** CSI (colours, cursor), OSC (links, titles) and the other two-character escapes; then the C0 controls left. */
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f]/g;

export function plainText(text: string): string {
  return text.replace(ESCAPES, '');
}
