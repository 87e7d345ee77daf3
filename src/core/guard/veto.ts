// pi sends no "blocked" flag: a vetoed call ends as an ordinary error whose text is the reason.
// The host recognises its own guard's veto by this marker at the very start of that text. Any
// failing tool could print the marker too, so it marks a veto; it does not prove one.
export const GUARD_MARKER = '[rpc-workers guard]';
/** What a host puts in `blocked_by` for a veto of this guard. */
export const GUARD_NAME = 'rpc-workers-guard';

/**
 * Said of every shell the guard refuses: the setting that would allow it, and what that costs, so a
 * person does not have to look for why the worker cannot run `npm test`.
 */
export const SHELL_ALLOWED_BY = '(rpcWorkers.guard.allowBash allows it, and what a shell writes is then not confined)';

/** First line: marker and rule, so a host can parse it; the rest is for the model. */
export function formatGuardVeto(rule: string, detail: string): string {
  return `${GUARD_MARKER} ${rule.replace(/[\r\n]+/g, ' ')}\n${detail}`;
}

/** The rule of a guard veto, from a failed tool call's result text; null if it is none. */
export function parseGuardVeto(resultText: unknown): { rule: string } | null {
  if (typeof resultText !== 'string' || !resultText.startsWith(GUARD_MARKER)) return null;
  const rule = (resultText.slice(GUARD_MARKER.length).split('\n', 1)[0] as string).trim();
  return rule.length > 0 ? { rule } : null;
}
