// Workers that outlived a crashed host. Seed 003: "a crashed host leaves no adoption path for a
// worker: its process tree may survive ... the new session's registry cannot know the old
// worker." So a host given `registryFile` records each live worker there (pid, start stamp,
// process group, and its own pid and start stamp), and the next activation reads it:
// `findSurvivors` lists the workers that are still the same process (not a reused pid) while
// the host that started them is gone, and `stopSurvivors` ends their trees.
//
// Several hosts (one per window) share the registry. Each writes a file of its own in
// `<file>.d/` (atomically: a temporary file renamed over it), as one shared file rewritten by
// every host lost the entries of whichever host wrote at the same moment. `<file>` itself is
// still read: versions before this one write it.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isSameLiveProcess, mergeTrees, procInfo, processTree, signalTree, startStamp, stillAlive, type ProcInfo } from './processTree';

export interface RegistryEntry {
  workerId: string;
  pid: number;
  /** The worker's start stamp: the same for the same process, different for a reused pid. */
  start: string;
  pgid: number;
  command: string;
  args: string[];
  cwd: string;
  hostPid: number;
  hostStart: string;
  /** ms since the epoch. */
  recordedAt: number;
}

const entrySchema = z.object({
  workerId: z.string(),
  pid: z.number().int().positive(),
  start: z.string(),
  pgid: z.number().int(),
  command: z.string(),
  args: z.array(z.string()),
  cwd: z.string(),
  hostPid: z.number().int().positive(),
  hostStart: z.string(),
  recordedAt: z.number(),
});
const fileSchema = z.object({ version: z.literal(1), workers: z.array(z.unknown()) });

/** The folder of the hosts' own files beside the registry file `file`. */
export const hostFilesOf = (file: string) => `${file}.d`;

/**
 * Every well-formed entry of the registry: of `file`, and of each host's file beside it. A host
 * file whose host is gone and whose workers are all gone names nothing: it is removed, unread.
 */
export function readRegistry(file: string): RegistryEntry[] {
  const out = readFile(file);
  const dir = hostFilesOf(file);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    // No host has written one.
  }
  for (const name of names) {
    const entries = readFile(path.join(dir, name));
    if (entries.length > 0 && entries.every((e) => !hostAlive(e) && !workerAlive(e))) rmSync(path.join(dir, name), { force: true });
    else out.push(...entries);
  }
  return out;
}

/** A missing or unreadable file has no entries. */
function readFile(file: string): RegistryEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) return [];
  const out: RegistryEntry[] = [];
  for (const w of parsed.data.workers) {
    const e = entrySchema.safeParse(w);
    if (e.success) out.push(e.data);
  }
  return out;
}

function writeRegistry(file: string, entries: RegistryEntry[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ version: 1, workers: entries }, null, 1) + '\n', { mode: 0o600 });
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

const workerAlive = (e: RegistryEntry) => isSameLiveProcess({ pid: e.pid, start: e.start });
const hostAlive = (e: Pick<RegistryEntry, 'hostPid' | 'hostStart'>) => isSameLiveProcess({ pid: e.hostPid, start: e.hostStart });

/** One host's entries, in a file of its own beside the registry file. */
export class WorkerRegistry {
  private readonly mine = new Map<string, RegistryEntry>();
  private readonly hostStart = startStamp(process.pid) ?? '';
  /** Its own per instance: two supervisors of one process must not overwrite each other's. */
  private readonly own: string;
  private warned = false;

  constructor(readonly file: string) {
    const tag = `${process.pid}-${this.hostStart.replace(/[^0-9A-Za-z]+/g, '_')}-${randomUUID().slice(0, 8)}`;
    this.own = path.join(hostFilesOf(file), `${tag}.json`);
  }

  record(workerId: string, pid: number, launch: { command: string; args: string[]; cwd: string }): void {
    const info = procInfo(pid);
    const start = info?.start;
    if (start === undefined) return;
    this.mine.set(workerId, {
      workerId, pid, start, pgid: info?.pgid ?? pid, command: launch.command, args: launch.args, cwd: launch.cwd,
      hostPid: process.pid, hostStart: this.hostStart, recordedAt: Date.now(),
    });
    this.write();
  }

  remove(workerId: string): void {
    if (this.mine.delete(workerId)) this.write();
  }

  private write(): void {
    try {
      if (this.mine.size > 0) writeRegistry(this.own, [...this.mine.values()]);
      else rmSync(this.own, { force: true });
    } catch (error) {
      // The registry is a help after a crash, never a reason for a verb to fail.
      if (!this.warned) process.emitWarning(`could not write the worker registry ${this.file}: ${(error as Error).message}`);
      this.warned = true;
    }
  }
}

/**
 * Workers recorded in `file` that outlived their host: still the same process (pid and start
 * stamp), while the host that recorded them is not.
 */
export function findSurvivors(file: string): RegistryEntry[] {
  return readRegistry(file).filter((e) => workerAlive(e) && !hostAlive(e));
}

export interface SurvivorStop {
  workerId: string;
  pid: number;
  /** `stopped`: it and its tree are gone; `gone`: it had already ended; `refused`: its host lives; `failed`: see `remaining`. */
  status: 'stopped' | 'gone' | 'refused' | 'failed';
  /** SIGKILL was needed for the worker itself. */
  killed: boolean;
  /** Pids of its tree still alive afterwards. */
  remaining: number[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stopOne(e: RegistryEntry, graceMs: number): Promise<SurvivorStop> {
  const base = { workerId: e.workerId, pid: e.pid, killed: false, remaining: [] as number[] };
  if (!workerAlive(e)) return { ...base, status: 'gone' };
  if (hostAlive(e)) return { ...base, status: 'refused' };
  const self: ProcInfo = { pid: e.pid, ppid: 0, pgid: e.pgid, start: e.start, zombie: false };
  // The tree is read while the worker lives (its descendants are parented only until it dies).
  let tree = mergeTrees([self], processTree(e.pid));
  signalTree([self], 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (workerAlive(e) && performance.now() < deadline) {
    tree = mergeTrees(tree, processTree(e.pid));
    await pause(20);
  }
  const killed = workerAlive(e);
  signalTree(tree, 'SIGKILL');
  const gone = performance.now() + graceMs;
  let remaining = stillAlive(tree);
  while (remaining.length > 0 && performance.now() < gone) {
    await pause(10);
    remaining = stillAlive(remaining);
  }
  return { ...base, killed, remaining: remaining.map((p) => p.pid), status: remaining.length ? 'failed' : 'stopped' };
}

/**
 * Ends each survivor's process tree: SIGTERM to the worker (pi ends its tools then), SIGKILL to
 * whatever of the tree is left after the grace. With `registryFile`, the entries of those that
 * are gone are removed from it.
 */
export async function stopSurvivors(entries: RegistryEntry[], options: { registryFile?: string; graceMs?: number } = {}): Promise<SurvivorStop[]> {
  if (process.platform === 'win32') return entries.map((e) => ({ workerId: e.workerId, pid: e.pid, status: 'failed', killed: false, remaining: [e.pid] }));
  const results = await Promise.all(entries.map((e) => stopOne(e, options.graceMs ?? 2_000)));
  if (options.registryFile) {
    const ended = new Set(results.filter((r) => r.status === 'stopped' || r.status === 'gone').map((r) => `${r.workerId}:${r.pid}`));
    try {
      // What an older version wrote; the files of hosts whose workers are all gone now go as read.
      const old = readFile(options.registryFile);
      const kept = old.filter((e) => !ended.has(`${e.workerId}:${e.pid}`));
      if (kept.length < old.length) writeRegistry(options.registryFile, kept);
      readRegistry(options.registryFile);
    } catch {
      // Already reported by whoever could not write it; the entries are dead and ignored anyway.
    }
  }
  return results;
}
