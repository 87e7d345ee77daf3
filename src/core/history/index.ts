// The persisted history of sessions: what the core gives the UI layer.
export { HistoryStore, parseEvents, type HistoryOptions, type SessionStart, type WorkerEnd } from './store';
export { SessionPages, SLICE_BYTES } from './pages';
export type { PagesResult } from './store';
export { DEFAULT_HISTORY_LIMITS, resolveHistoryLimits } from './format';
export type { EditResult, HistoryError, HistoryLimits, HistoryListing, LogGaps, ReadResult, SessionStatus, SessionSummary } from './format';
export type { SessionSnapshot } from './sessionWriter';
