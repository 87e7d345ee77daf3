/**
 * The automatic resume of interrupted sessions after a reload (rpcWorkers.history.resumeInterrupted),
 * run once. An untrusted window starts no worker, so there it waits for trust: the grant runs it,
 * with the setting read again then (an untrusted window reads only the user's value of it).
 */
export class InterruptedResume {
  /** The resume's run; restored Event Log tabs and the host tests await it. Ends at once while none runs. */
  done: Promise<unknown> = Promise.resolve([]);
  private ran = false;

  constructor(private readonly o: {
    isTrusted: () => boolean;
    /** The setting is on (and the history kept): read when the resume would run. */
    wanted: () => boolean;
    resume: () => Promise<unknown>;
    logError: (message: string) => void;
  }) {}

  /** After activation: the resume loads the core and starts workers, which activation itself does not. */
  activated(): void {
    this.done = new Promise((resolve) => setTimeout(resolve, 0)).then(() => this.run());
  }

  /** Call after the settings were read again for the trusted workspace. */
  trustGranted(): void {
    this.done = this.run();
  }

  private run(): Promise<unknown> {
    if (this.ran || !this.o.isTrusted() || !this.o.wanted()) return Promise.resolve([]);
    this.ran = true;
    return this.o.resume().catch((error: unknown) => this.o.logError(`could not resume interrupted sessions: ${(error as Error).message}`));
  }
}
