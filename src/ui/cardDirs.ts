// Which card directories the host searches for the start in progress. The core takes one
// HostOptions.agentDirs for the whole host, but the directories depend on the start's workspace
// folder and on rpcWorkers.agentDirs; without this, a card the picker offered from an extra
// directory would be "unknown" to the host. The host reads `agentDirs` while start() builds the
// launch, synchronously, so `during` sets it around exactly that call. If that ever stops being
// synchronous, the getter answers undefined and the core searches its defaults (workspace
// .pi/agents, then pi's own): never a directory of another start.
export class CardDirs {
  private dirs: string[] | undefined;

  get current(): string[] | undefined {
    return this.dirs;
  }

  during<T>(dirs: string[] | undefined, fn: () => T): T {
    this.dirs = dirs;
    try {
      return fn();
    } finally {
      this.dirs = undefined;
    }
  }
}
