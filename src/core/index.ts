// The embedding API (`dist/core.js`): a supervisor of workers for any Node program, no VS Code
// needed.
export { createSupervisor } from './supervisor';
export type * from './api';
export type { AgentEvent, KnownEvent, ForeignEvent, EventFields, TurnStamp } from './events/agentEvent';
export { isKnownEvent } from './events/agentEvent';
export { EventBus } from './events/eventBus';
export { DEFAULT_LIMITS } from './worker/limits';
/** The event store's block codec and block size: the memory bench packs the recordings with them. */
export { brotliCodec as eventBlockCodec, BLOCK_BYTES as EVENT_BLOCK_BYTES } from './worker/eventBlocks';
export { findSurvivors, readRegistry, stopSurvivors, type RegistryEntry, type SurvivorStop } from './worker/survivors';
export { loadAgentCards, defaultAgentDirs } from './cards/agentCards';
export { policyFromSettings } from './guard/policy';
export { HistoryStore, DEFAULT_HISTORY_LIMITS, parseEvents } from './history';
export type { EditResult, HistoryError, HistoryLimits, HistoryListing, ReadResult, SessionStatus, SessionSummary } from './history';
export { sessionMarkdown, toolDetailsFromMessages, type MarkdownMeta, type ToolDetail } from './export/markdown';
export * as worktree from './worktree';
export * as attention from './attention';
