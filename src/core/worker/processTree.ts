// Knowing a worker's whole process tree, and ending it. Once a process dies its children are
// re-parented to init and "the children of the dead worker" can no longer be found, so the
// tree is read while the worker is alive and every member is recorded with its start time
// (a pid alone may be reused). pi runs its bash tool in a process group of its own, so one
// group kill is not enough: each recorded process and each recorded group is signalled.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// The extension bundles this file for its exit-time kill (ui/extension.ts killAllSync), so
// node:child_process is required when a tree is first read, not when the extension loads:
// loading it costs activation ~2 ms.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
const childProcess = () => require('node:child_process') as typeof import('node:child_process');

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Opaque start stamp: equal for the same process, different for a reused pid. */
  start: string;
  zombie: boolean;
}

const isLinux = process.platform === 'linux';

function readProcStat(pid: number): ProcInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may itself contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19], zombie: fields[0] === 'Z' || fields[0] === 'X' };
}

export function listProcesses(): ProcInfo[] {
  if (isLinux) {
    const out: ProcInfo[] = [];
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid)) continue;
      const info = readProcStat(pid);
      if (info) out.push(info);
    }
    return out;
  }
  if (process.platform === 'win32') return [];
  const text = childProcess().execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,lstart='], { encoding: 'utf8' });
  const table = text.split('\n').filter(Boolean).map((line) => {
    const [pid, ppid, pgid, stat, ...start] = line.trim().split(/\s+/);
    return { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), start: start.join(' '), zombie: stat.startsWith('Z') };
  });
  seenOwnGroup = table.find((p) => p.pid === process.pid)?.pgid ?? seenOwnGroup;
  return table;
}

/**
 * The host's process group as the last table from `ps` gave it (off Linux): a tree is read from
 * such a table, so signalTree knows the group to spare even when `ps` fails by the time it signals.
 */
let seenOwnGroup: number | undefined;

/** The process and everything below it, from one reading of the process table. */
export function processTree(rootPid: number, table = listProcesses()): ProcInfo[] {
  const byParent = new Map<number, ProcInfo[]>();
  let root: ProcInfo | undefined;
  for (const p of table) {
    if (p.pid === rootPid) root = p;
    const siblings = byParent.get(p.ppid);
    if (siblings) siblings.push(p);
    else byParent.set(p.ppid, [p]);
  }
  if (!root) return [];
  const out: ProcInfo[] = [];
  const queue = [root];
  while (queue.length) {
    const p = queue.shift()!;
    out.push(p);
    for (const child of byParent.get(p.pid) ?? []) queue.push(child);
  }
  return out;
}

/** Alive and still the process that was recorded (not a zombie, not a reused pid). */
export function isSameLiveProcess(p: Pick<ProcInfo, 'pid' | 'start'>): boolean {
  if (isLinux) {
    const now = readProcStat(p.pid);
    return !!now && !now.zombie && now.start === p.start;
  }
  return liveIn(listProcesses(), p);
}

/** `p` is in `table`, alive and the process recorded (not a zombie, not a reused pid). */
const liveIn = (table: ProcInfo[], p: Pick<ProcInfo, 'pid' | 'start'>): boolean => table.some((q) => q.pid === p.pid && !q.zombie && q.start === p.start);

/** The process table, or undefined when it cannot be read (`ps` failing off Linux). */
export function readableTable(): ProcInfo[] | undefined {
  try {
    return listProcesses();
  } catch {
    return undefined;
  }
}

/**
 * Those of `procs` alive and still the processes recorded, from one reading of the table off Linux
 * (a `ps` for all, not one each: the waits after a kill poll this). When `ps` fails, all of them:
 * none is known to be gone, so a wait goes on to its deadline and a report names them.
 */
export function stillAlive<T extends Pick<ProcInfo, 'pid' | 'start'>>(procs: T[]): T[] {
  if (procs.length === 0 || isLinux) return procs.filter(isSameLiveProcess);
  const table = readableTable();
  return table ? procs.filter((p) => liveIn(table, p)) : procs;
}

/**
 * A process that wrote down who it is (its pid, and its start where startStamp knew it) still runs:
 * a history session's writer, a worktree's holder. Without its start, any process of that pid counts
 * (EPERM: one of another user's, alive all the same), as a pid is all it left.
 */
export function isRecordedProcessAlive(p: { pid: number; start: string | null }): boolean {
  if (p.start !== null) return isSameLiveProcess({ pid: p.pid, start: p.start });
  try {
    process.kill(p.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One process's entry in the process table, if it exists. */
export function procInfo(pid: number): ProcInfo | undefined {
  return isLinux ? readProcStat(pid) : listProcesses().find((q) => q.pid === pid);
}

export function startStamp(pid: number): string | undefined {
  return isLinux ? readProcStat(pid)?.start : listProcesses().find((q) => q.pid === pid)?.start;
}

/** The process and everything below it now; null when the table cannot be read (`ps` failing off Linux). */
export function treeNow(pid: number): ProcInfo[] | null {
  const table = readableTable();
  return table ? processTree(pid, table) : null;
}

/**
 * A child of this process leading a group of its own (spawned detached), signalled with that group
 * without the process table: its pid is no other process's until this process has reaped it.
 */
export function signalOwnChild(child: Pick<ChildProcess, 'pid' | 'exitCode' | 'signalCode' | 'kill'>, sig: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  signal(-child.pid, sig);
  child.kill(sig);
}

/**
 * SIGKILLs the trees of these children of this process (each spawned detached, leading a group of
 * its own), for the host's exit, when there is no time for a graceful stop. When the table cannot
 * be read (`ps` failing off Linux), each child and the group it leads: a child's pid is no other
 * process's until this process has reaped it. Returns how many signals landed.
 */
export function killChildTreesSync(pids: number[]): number {
  const table = readableTable();
  let n = 0;
  for (const pid of pids) {
    if (table) n += signalTree(processTree(pid, table), 'SIGKILL', table);
    else n += Number(signal(-pid, 'SIGKILL')) + Number(signal(pid, 'SIGKILL'));
  }
  return n;
}

function signal(target: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(target, sig);
    return true;
  } catch {
    return false;
  }
}

/**
 * Signals every recorded group (never the host's own: off Linux too, where `ps` names it, as a
 * command spawned without a group of its own shares the host's) and every recorded process still
 * alive. Off Linux the table is read once for the whole tree (a `ps` each, the editor waited for
 * every member); when `ps` fails, the groups are still signalled (the host's as the tree's reading
 * gave it is spared) and no single pid is, as none can be told from a reused one. `table`: off
 * Linux, the one the caller has just read; read here when none is given.
 */
export function signalTree(tree: ProcInfo[], sig: NodeJS.Signals, table = isLinux ? undefined : readableTable()): number {
  const own = isLinux ? readProcStat(process.pid)?.pgid : (table?.find((p) => p.pid === process.pid)?.pgid ?? seenOwnGroup);
  const alive = (p: ProcInfo) => (isLinux ? isSameLiveProcess(p) : !!table && liveIn(table, p));
  let reached = 0;
  const groups = new Set(tree.map((p) => p.pgid));
  for (const g of groups) {
    if (g > 1 && own !== undefined && g !== own && g !== process.pid && signal(-g, sig)) reached++;
  }
  for (const p of tree) {
    if (p.pid !== process.pid && alive(p) && signal(p.pid, sig)) reached++;
  }
  return reached;
}

/** Windows has no graceful signal: `taskkill /T` asks, `/F` forces. */
export function taskkill(pid: number, { force }: { force: boolean }): void {
  try {
    childProcess().execFileSync('taskkill', ['/pid', String(pid), '/T', ...(force ? ['/F'] : [])], { stdio: 'ignore' });
  } catch {
    // Already gone.
  }
}

/** Merges readings of the same tree, keeping every process seen in any of them. */
export function mergeTrees(...trees: ProcInfo[][]): ProcInfo[] {
  const seen = new Map<string, ProcInfo>();
  for (const tree of trees) for (const p of tree) seen.set(`${p.pid}:${p.start}`, p);
  return [...seen.values()];
}

/** A process's command line, for saying what the host ended ("sleep 600"); null where unknown. */
export function commandLine(pid: number): string | null {
  if (!isLinux) return null;
  try {
    const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return text.split('\0').filter(Boolean).join(' ') || null;
  } catch {
    return null;
  }
}

/** The executable's short name (`bash`), Linux only. */
export function commandName(pid: number): string | null {
  if (!isLinux) return null;
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() || null;
  } catch {
    return null;
  }
}
