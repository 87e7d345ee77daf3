// What a start (or a read of the history) asked for after the worker host was shut down is answered. A leaf that imports
// nothing, so the activation bundle's stand-in (ui/host/lazySupervisor.ts) answers the same words
// as the supervisor without loading the core.
/** The host's end, said alone (a read of the history after it). */
export const HOST_SHUT_DOWN = 'the worker host was shut down (the window closed or reloaded)';
export const SHUT_DOWN_ERROR = `${HOST_SHUT_DOWN} before the worker started; nothing was started`;
