// The embedding API (`dist/core.js`): a worker host for any Node program, no VS Code needed.
export { createWorkerHost } from './host';
export type * from './api';
export type { AgentEvent } from './events/agentEvent';
export { EventBus } from './events/eventBus';
export { DEFAULT_LIMITS } from './worker/limits';
export { findSurvivors, readRegistry, stopSurvivors, type RegistryEntry, type SurvivorStop } from './worker/survivors';
export { loadAgentCards, defaultAgentDirs } from './cards/agentCards';
export { policyFromSettings } from './guard/policy';
export * as worktree from './worktree';
export * as attention from './attention';
