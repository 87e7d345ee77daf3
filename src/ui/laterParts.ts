// What dist/extension-later.js holds (src/ui/later.ts loads it): the classes a command makes on
// first use, what answers an agent's questions, dialogs and notices, and the bundle's own copy of
// trust's state, which later.ts links to the window's.
export { Commands } from './commands/commands';
export { HistoryCommands } from './history/historyCommands';
export { WorktreeActions } from './worktrees/worktreeActions';
export { answerUiRequest, handleUiNotice } from './host/extensionUi';
export { showQuestion } from './host/permissions';
export { trustState } from './settings/trust';
// The git side of worktrees: the first check of the workspace runs it at every window's start,
// without loading the core's 900 KB (dist/core.js) for it.
export * as worktree from '../core/worktree';
// The Sessions view's first listing of past sessions, at a window's start, for the same reason.
export { listSessions } from '../core/history/listing';
