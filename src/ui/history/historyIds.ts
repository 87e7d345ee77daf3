// The history commands' ids (declared in package.json): registered at activation, run by
// HistoryCommands, which is made on the first call (src/ui/laterCommands.ts).
export const HISTORY_COMMANDS = {
  openLog: 'rpcWorkers.history.openLog',
  resume: 'rpcWorkers.history.resume',
  rename: 'rpcWorkers.history.rename',
  archive: 'rpcWorkers.history.archive',
  unarchive: 'rpcWorkers.history.unarchive',
  delete: 'rpcWorkers.history.delete',
  exportMarkdown: 'rpcWorkers.history.exportMarkdown',
  showArchived: 'rpcWorkers.history.showArchived',
  hideArchived: 'rpcWorkers.history.hideArchived',
  newSession: 'rpcWorkers.newSession',
  fork: 'rpcWorkers.fork',
  switchModel: 'rpcWorkers.switchModel',
  switchMode: 'rpcWorkers.switchMode',
  exportWorker: 'rpcWorkers.exportMarkdown',
} as const;
