// A git worktree per worker, with the git CLI: detect, create, list changes, diff sides, merge,
// discard. No vscode import: the UI layer adapts these.
export { detectRepository, listWorktreeEntries, type Repository, type RepositoryCheck, type WorktreeEntry } from './repo';
export { slugFor } from './names';
export {
  createWorktree, defaultWorktreesDir, DEFAULT_BRANCH_PREFIX, listWorkerWorktrees, openWorktree,
  type CreateOptions, type CreateResult, type OpenResult, type WorkerWorktree,
} from './create';
export { baseOf, contentAt, countKinds, listChanges, workerChanges, type ChangeCounts, type ChangedFile, type ChangeKind, type ChangesResult, type ContentResult } from './changes';
export { abortMerge, commitAll, conflictedFiles, finishMerge, mergeWorktree, type ConflictedFile, type FinishResult, type MergeOptions, type MergeResult } from './merge';
export { mergedInto, type MergedInto } from './merged';
export { specInWorktree } from './spec';
export { discardWorktree, previewDiscard, type DiscardOptions, type DiscardPreview, type DiscardResult, type PreviewResult } from './discard';
export { heldElsewhere, holderHere, holdWorktree, passHold, releaseWorktree, type HeldBy, type WorktreeHolder } from './hold';
export { watchHold } from './holdWatch';
