// What outlives a crash of the supervisor's process: a watchdog that ends the workers' trees
// when the process dies without stopping them, a registry from which the next activation learns
// of workers that outlived both, and on Linux, where cgroup v2 lets it, each worker in a cgroup
// of its own (what double-forks out of its tree and its groups is still in there).
import type { SupervisorOptions } from './api';
import { releaseCgroupRoot, WorkerCgroup } from './worker/cgroup';
import { WorkerRegistry } from './worker/survivors';
import { Watchdog } from './worker/watchdog';
import type { Worker } from './worker/worker';

export class Containment {
  private readonly watchdog: Watchdog | null;
  private readonly registry: WorkerRegistry | null;
  private readonly cgroups = new Map<string, WorkerCgroup>();
  /** The process the watchdog watches for each worker: its pid may be another worker's later. */
  private readonly watched = new Map<string, { pid: number; start: string }>();

  constructor(private readonly options: SupervisorOptions) {
    this.watchdog = options.watchdog === false ? null : new Watchdog();
    this.registry = options.registryFile ? new WorkerRegistry(options.registryFile) : null;
  }

  /** A started worker's process, watched, contained and recorded. */
  track(workerId: string, worker: Worker, record: { command: string; args: string[]; cwd: string }): void {
    if (worker.pid === null) return;
    const cgroup = this.options.cgroups === false ? null : WorkerCgroup.contain(workerId, worker.pid);
    if (cgroup) this.cgroups.set(workerId, cgroup);
    const start = this.watchdog?.watch(worker.pid, cgroup?.dir ?? null);
    if (start !== undefined) this.watched.set(workerId, { pid: worker.pid, start });
    this.registry?.record(workerId, worker.pid, record);
  }

  /**
   * A host terminal is the host's child, not the worker's: put with the worker, so that Stop (its
   * cgroup, what the watchdog saw) and a host that dies end it too.
   */
  adopt(workerId: string, worker: Worker, pid: number): void {
    this.cgroups.get(workerId)?.adopt(pid);
    if (worker.pid !== null) this.watchdog?.adopt(worker.pid, pid);
  }

  /** After the worker's own stop: what the watchdog saw of it, and its cgroup, are ended too. */
  async untrack(workerId: string): Promise<void> {
    const watched = this.watched.get(workerId);
    this.watched.delete(workerId);
    if (watched) await this.watchdog?.end(watched.pid, watched.start);
    await this.cgroups.get(workerId)?.kill();
    this.cgroups.delete(workerId);
    this.registry?.remove(workerId);
  }

  close(): void {
    this.watchdog?.close();
    if (this.cgroups.size === 0) releaseCgroupRoot();
  }
}
