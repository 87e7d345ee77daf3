// The words a result is said in: the notification, the status bar and the event log's composer
// use the same sentence. Pure, for the unit tests.

export type AnyResult = { status: string; workerId?: string; error?: string; note?: string; performed?: boolean; compactionCancelled?: boolean | null; alreadyExited?: boolean; handled?: boolean };

export type Action = 'start' | 'prompt' | 'steer' | 'followUp' | 'abort' | 'redirect' | 'compact' | 'stop' | 'stopAll';

const DONE: Record<Action, string> = {
  start: 'Started', prompt: 'Prompt accepted by', steer: 'Steer queued for', followUp: 'Follow-up queued for', abort: 'Aborted the turn of',
  redirect: 'Redirected', compact: 'Compacted', stop: 'Stopped', stopAll: 'Stopped',
};

const HANDLED: Partial<Record<Action, string>> = { prompt: 'prompt', steer: 'steer', followUp: 'follow-up' };

export const QUIET_STATUSES = new Set(['started', 'accepted', 'aborted', 'redirected', 'compacted', 'stopped']);

/** One line for a result: the same words the event log's composer shows. */
export function resultSentence(action: Action, name: string, r: AnyResult): string {
  if (abortMissedCompaction(action, r)) return `${name}'s compaction ran to its end before the abort reached it`;
  if (QUIET_STATUSES.has(r.status)) {
    if (action === 'compact' && r.status === 'aborted') return `The compaction of ${name} was cancelled`;
    if (action === 'abort' && r.compactionCancelled) return `Aborted ${name}: its compaction was cancelled`;
    // What the log's compaction row says too: a compaction the worker did not perform compacted nothing.
    // A Stop of a worker that had exited ended no process: it took the row away, and says so.
    if (action === 'stop' && r.alreadyExited) return `Removed ${name} (it had already exited)`;
    // pi 1.x: an extension consumed the message (disposition "handled"); "accepted"/"queued" read as if a turn would take it.
    const message = HANDLED[action];
    if (r.handled && message) return `${name}'s extension handled the ${message}; ${action === 'prompt' ? 'no turn started' : 'nothing was queued for the turn'}`;
    if (action === 'compact' && r.performed === false) return `Nothing to compact in ${name}${r.note ? ` (${r.note})` : ''}`;
    return `${DONE[action]} ${name}`;
  }
  if (action === 'stop' && r.status === 'not_found') return `${name} is already stopped`;
  if (r.status === 'not_streaming') return `${name} is not streaming: there was no turn to abort${r.note ? ` (${r.note})` : ''}`;
  if (r.status === 'not_found') return `${name} is no longer there (it was stopped)`;
  return `${actionWord(action)} ${name} failed: ${r.error ?? 'no detail'}`;
}

/**
 * The result for an id no worker of this window ever had (a keybinding's or a task's from an
 * earlier window, where ids are given anew, or a typo): not "already stopped" or "no longer there".
 */
export function unknownWorkerSentence(workerId: string): string {
  return `No worker has the id ${workerId}: worker ids are given anew in each window`;
}

/**
 * What Stop All did: the workers it stopped, counted before it ran (`live`: running or starting);
 * an exited or failed one it clears from the list was not running, and is not counted as stopped.
 * null: there was nothing to stop or clear.
 */
export function stopAllSentence(live: number, listed: number): string | null {
  if (live > 0) return `$(check) Stopped ${live} worker${live === 1 ? '' : 's'}`;
  return listed > 0 ? 'No worker was running' : null;
}

function actionWord(action: Action): string {
  return { start: 'Starting', prompt: 'Prompting', steer: 'Steering', followUp: 'Queueing a follow-up for', abort: 'Aborting', redirect: 'Redirecting', compact: 'Compacting', stop: 'Stopping', stopAll: 'Stopping' }[action];
}


/**
 * A start that failed: the notification's sentence and the buttons it offers, in order.
 * `loginHint`: how this agent takes a key or login, said when it refused for want of one.
 */
export function startFailure(name: string, r: { error: string; stderrTail?: string[]; atLimit?: true; needsLogin?: true; login?: { label: string; line: string } }, install: string | null, hasOutput: boolean, loginHint: string | null = null): { message: string; login: string | null; buttons: string[] } {
  const tail = r.stderrTail?.filter((l) => l.trim()).slice(-5).join('\n');
  const limit = r.atLimit ? '; or raise rpcWorkers.maxWorkers (it takes effect after a window reload)' : '';
  const key = r.needsLogin ? loginWords(name, loginHint) : '';
  const message = `Could not start ${name}: ${r.error}${limit}${install ? `. Install it: ${install}` : ''}${key}${tail && !r.error.includes(tail) ? `\nstderr:\n${tail}` : ''}`;
  const login = r.login ? loginButton(r.login) : null;
  const buttons = [...(login ? [login] : []), ...(r.atLimit ? [OPEN_LIMIT] : []), ...(hasOutput ? ['Show Output'] : [])];
  return { message, login, buttons };
}

export const OPEN_LIMIT = 'Open Setting';

/** The settings changed that apply only after a reload (full ids), said in one sentence. */
export function reloadSentence(settings: readonly string[]): string {
  return `RPC Workers: ${settings.join(', ')} ${settings.length === 1 ? 'takes' : 'take'} effect after the window reloads.`;
}

/**
 * The button that runs a login the agent names (loginTerminal.ts runLogin), on a refused start's
 * notification and a refused turn's: the line itself where it is short enough to read, else its label.
 */
export function loginButton(login: { label: string; line: string }): string {
  return `Run ${login.line.length > 40 ? login.label : `"${login.line}"`}`;
}

/**
 * How a known agent takes its key or login (profiles.ts `loginHint`), added to a refusal for want
 * of one: a start's, or a turn's (Claude starts without a key and refuses its first prompt).
 */
export function loginWords(name: string, loginHint: string | null): string {
  const said = loginSentence(name, loginHint);
  return said ? `. ${said}` : '';
}

/** The same words as a sentence of their own (the Event Log's "Turn ended" row); null for an agent without a hint. */
export function loginSentence(name: string, loginHint: string | null): string | null {
  return loginHint ? `For ${name}: ${loginHint}` : null;
}

/**
 * An abort that met only a compaction, which ran to its end before the abort reached it: the host
 * answers `not_streaming` (nothing was aborted), and "no turn to abort" would not say what ran.
 * One that also aborted a turn answers `aborted`, and is said so.
 */
function abortMissedCompaction(action: Action, r: AnyResult): boolean {
  return action === 'abort' && r.status === 'not_streaming' && r.compactionCancelled === false;
}

/** How a result is shown: done as asked, information (nothing was wrong), or an error. */
export function resultTone(action: Action, r: AnyResult): 'ok' | 'info' | 'error' {
  if (abortMissedCompaction(action, r)) return 'info';
  if (QUIET_STATUSES.has(r.status)) return 'ok';
  if (r.status === 'not_streaming' || r.status === 'cancelled' || (action === 'stop' && r.status === 'not_found')) return 'info';
  return 'error';
}
