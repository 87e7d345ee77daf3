// What a start asked for after the worker host was shut down is answered. A leaf that imports
// nothing, so the activation bundle's stand-in (ui/host/lazySupervisor.ts) answers the same words
// as the supervisor without loading the core.
export const SHUT_DOWN_ERROR = 'the worker host was shut down (the window closed or reloaded) before the worker started; nothing was started';
