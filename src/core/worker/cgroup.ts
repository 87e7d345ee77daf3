// Containing a worker on Linux: a cgroup (v2) of its own, under the host's cgroup. A process
// that double-forks into a new session leaves the worker's tree and every recorded process
// group, but it cannot leave its cgroup (only a process with write access to another cgroup's
// `cgroup.procs` can move it), so `cgroup.kill` ends it. Nothing is limited: no controller is
// enabled, the cgroup only holds.
//
// Used where the host may create cgroups below its own (root, or a delegated systemd scope);
// elsewhere `cgroupSupport()` says why not and the watchdog's records are what Stop has.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processTree } from './processTree';
import { pathWithin } from '../pathWithin';

export type CgroupSupport = { ok: true; root: string } | { ok: false; reason: string };

let support: CgroupSupport | null = null;
/** Folders this process made and has not removed yet. */
const made = new Set<string>();
let exitHooked = false;

/** Where cgroup v2 is mounted, by /proc/self/mountinfo (its mount root, its mount point). */
function cgroup2Mount(): { root: string; point: string } | null {
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [left, right] = line.split(' - ');
    if (!right || right.split(' ')[0] !== 'cgroup2') continue;
    const f = left.split(' ');
    return { root: f[3], point: f[4].replace(/\\040/g, ' ') };
  }
  return null;
}

/**
 * Whether this host can contain workers in cgroups, and the folder (its own, created once per
 * host) their cgroups go in. Decided once per process.
 */
export function cgroupSupport(): CgroupSupport {
  if (support) return support;
  support = probe();
  return support;
}

function probe(): CgroupSupport {
  if (process.platform !== 'linux') return { ok: false, reason: `no cgroups on ${process.platform}` };
  try {
    const mount = cgroup2Mount();
    if (!mount) return { ok: false, reason: 'no cgroup v2 hierarchy is mounted' };
    const own = /^0::(.*)$/m.exec(readFileSync('/proc/self/cgroup', 'utf8'))?.[1];
    if (own === undefined) return { ok: false, reason: 'this process is in no cgroup v2' };
    // Linux only, so the platform's path is POSIX's.
    const rel = pathWithin(mount.root, own);
    if (rel === null) return { ok: false, reason: `this process's cgroup ${own} is outside the mounted ${mount.root}` };
    const parent = path.join(mount.point, rel);
    sweep(parent);
    const root = path.join(parent, `rpc-workers-${process.pid}-${randomUUID().slice(0, 8)}`);
    mkdirSync(root);
    if (!existsSync(path.join(root, 'cgroup.procs'))) {
      rmdirSync(root);
      return { ok: false, reason: `${mount.point} is not a cgroup v2 file system` };
    }
    made.add(root);
    if (made.size === 1 && !exitHooked) {
      exitHooked = true;
      // Empty by then if every worker was stopped; a host that exits without dispose leaves none.
      process.once('exit', () => {
        for (const r of made) {
          try {
            rmdirSync(r);
          } catch {
            // Still holds a worker's cgroup (the watchdog removes those) or already removed.
          }
        }
      });
    }
    return { ok: true, root };
  } catch (error) {
    return { ok: false, reason: `cannot create a cgroup under this process's: ${(error as Error).message}` };
  }
}

/**
 * Empty folders left by hosts that died without a watchdog (their cgroups hold nothing once
 * their processes are gone: rmdir refuses any that still hold one).
 */
function sweep(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = Number(/^rpc-workers-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || existsSync(`/proc/${pid}`)) continue;
    const dir = path.join(parent, name);
    try {
      for (const sub of readdirSync(dir, { withFileTypes: true })) if (sub.isDirectory()) rmdirSync(path.join(dir, sub.name));
      rmdirSync(dir);
    } catch {
      // Still holds a process, or another host removed it first.
    }
  }
}

/** Removes the host's folder of cgroups once empty (at dispose); its workers' are gone by then. */
export function releaseCgroupRoot(): void {
  if (!support?.ok) return;
  try {
    rmdirSync(support.root);
    made.delete(support.root);
    support = null;
  } catch {
    // A worker's cgroup still holds something; the next dispose tries again.
  }
}

const readPids = (dir: string): number[] => {
  try {
    return readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

export class WorkerCgroup {
  private constructor(readonly dir: string) {}

  /** A cgroup for one worker, holding it and what it has started so far; null where unsupported. */
  static contain(workerId: string, pid: number): WorkerCgroup | null {
    const s = cgroupSupport();
    if (!s.ok) return null;
    const dir = path.join(s.root, workerId.replace(/[^\w.-]/g, '_'));
    try {
      mkdirSync(dir);
      const group = new WorkerCgroup(dir);
      // The worker first, then anything it forked in the moment since its spawn (a child forked
      // before the move stays where it was; one forked after is born inside).
      group.move(pid);
      for (const p of processTree(pid)) if (p.pid !== pid) group.move(p.pid);
      return group;
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // Never made.
      }
      return null;
    }
  }

  /** A process the host spawned for the worker (an ACP terminal's command) joins its cgroup; false: it could not. */
  adopt(pid: number): boolean {
    try {
      this.move(pid);
      for (const p of processTree(pid)) if (p.pid !== pid) this.move(p.pid);
      return true;
    } catch {
      return false;
    }
  }

  private move(pid: number): void {
    writeFileSync(path.join(this.dir, 'cgroup.procs'), String(pid));
  }

  /** The processes in it now. */
  pids(): number[] {
    return readPids(this.dir);
  }

  /**
   * Kills everything in it (`cgroup.kill`, or a SIGKILL to each member on kernels before 5.14)
   * and removes it once empty. Resolves with the pids still in it after `graceMs` (none, normally).
   */
  async kill(graceMs = 2_000): Promise<number[]> {
    const killFile = path.join(this.dir, 'cgroup.kill');
    const deadline = performance.now() + graceMs;
    let left = this.pids();
    let first = true;
    while (left.length > 0) {
      if (first && existsSync(killFile)) {
        try {
          writeFileSync(killFile, '1');
        } catch {
          // Gone meanwhile.
        }
      } else if (!existsSync(killFile)) {
        for (const pid of left) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Gone.
          }
        }
      }
      first = false;
      if (performance.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
      left = this.pids();
    }
    if (left.length > 0) return left;
    // A killed process leaves the cgroup when reaped; rmdir fails (EBUSY) until the last one is.
    for (;;) {
      try {
        rmdirSync(this.dir);
        return [];
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return [];
        if (code !== 'EBUSY' || performance.now() > deadline) return this.pids();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  }
}
