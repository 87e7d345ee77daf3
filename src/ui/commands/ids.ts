// The names package.json declares and the code refers to: command ids and the context keys
// that `when` clauses read. A leaf: it imports nothing, so any room can name a command without
// importing the room that implements it.

export const COMMANDS = {
  startWorker: 'rpcWorkers.startWorker',
  startDemoWorker: 'rpcWorkers.startDemoWorker',
  startAgentWorker: 'rpcWorkers.startAgentWorker',
  prompt: 'rpcWorkers.prompt',
  steer: 'rpcWorkers.steer',
  followUp: 'rpcWorkers.followUp',
  abort: 'rpcWorkers.abort',
  redirect: 'rpcWorkers.redirect',
  redirectWithSelection: 'rpcWorkers.redirectWithSelection',
  sendSelection: 'rpcWorkers.sendSelection',
  compact: 'rpcWorkers.compact',
  stop: 'rpcWorkers.stop',
  stopAll: 'rpcWorkers.stopAll',
  showEventLog: 'rpcWorkers.showEventLog',
  openEventLogPanel: 'rpcWorkers.openEventLogPanel',
  showOutput: 'rpcWorkers.showOutput',
  copyPid: 'rpcWorkers.copyPid',
  /** Internal: a tool call's change in the diff editor (the Event Log's Open diff). */
  openChange: 'rpcWorkers.openChange',
  forgetAllowed: 'rpcWorkers.forgetAllowed',
  /** The agents' questions put aside, on screen again (questionQueue.ts). */
  answerQuestions: 'rpcWorkers.answerQuestions',
  /** Internal: a host terminal's output in a VS Code terminal (the Event Log's Show in Terminal). */
  showHostTerminal: 'rpcWorkers.showHostTerminal',
  /**
   * Internal: a click on a worker's row in Sessions. A click on the row the tree already shows
   * selected reports no selection change (its row can stay highlighted while a start moved the
   * log to the new worker): the click itself says the person chose it.
   */
  selectWorker: 'rpcWorkers.selectWorker',
} as const;

/** The commands the Commands class registers: all but those other rooms register. */
export const COMMANDS_OF_COMMANDS: readonly string[] = Object.values(COMMANDS).filter(
  (id) => id !== COMMANDS.openChange && id !== COMMANDS.answerQuestions && id !== COMMANDS.showHostTerminal,
);

/** The context keys `when` clauses read. */
export const KEYS = {
  hasWorkers: 'rpcWorkers.hasWorkers',
  hasRunningWorkers: 'rpcWorkers.hasRunningWorkers',
  /** A live worker that still reads its input: the commands that send it something. */
  anyReadsInput: 'rpcWorkers.anyReadsInput',
  anyStreaming: 'rpcWorkers.anyStreaming',
  anyIdle: 'rpcWorkers.anyIdle',
  anyForks: 'rpcWorkers.anyForks',
  anySwitchesModel: 'rpcWorkers.anySwitchesModel',
  /** An idle worker that compacts, and one that lists session modes: Compact and Switch Mode… in the palette. */
  anyCompacts: 'rpcWorkers.anyCompacts',
  anySwitchesMode: 'rpcWorkers.anySwitchesMode',
} as const;
