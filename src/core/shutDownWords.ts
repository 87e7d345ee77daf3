// What a start (or a read of the history) asked for after the worker host was shut down is answered:
// a script's words, and the extension's (its window closed). A leaf that imports nothing, so the
// activation bundle's stand-in (ui/host/lazySupervisor.ts) answers the same words as the
// supervisor without loading the core.
/** The host's end, said alone (a read of the history after it). */
export const HOST_SHUT_DOWN = 'the worker host was shut down (the window closed or reloaded)';
/** Why a start after `dispose()` is refused, to a script (which has no window to close). */
export const DISPOSED = 'the supervisor was disposed';
/** A start refused once the host ended, `reason` saying how it ended. */
export const shutDownError = (reason: string) => `${reason} before the worker started; nothing was started`;
export const SHUT_DOWN_ERROR = shutDownError(HOST_SHUT_DOWN);
