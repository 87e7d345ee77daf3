// A process that outlives the host, to end its workers' process trees if the host dies without
// stopping them (SIGKILL, the OOM killer, a crash). Measured with pi 0.73.1: when pi's stdin
// closes, pi exits but leaves the tool process it was running (in a process group of its own)
// alive, re-parented to init; so the host cannot rely on its workers, and a dead host cannot act.
//
// The watchdog is spawned lazily at the first start, detached (a session of its own, so what
// signals the host's group does not reach it), with a pipe from the host as its stdin. The host
// tells it each worker's pid and start stamp as it spawns it, and to forget the worker once
// stopped; and each command the host runs for a worker (an ACP terminal, the host's child, not
// the worker's), as another root of that worker's tree. Every 250 ms it reads each watched
// worker's tree from the process table, so it knows the descendants while they are still
// parented (afterwards they cannot be found). When its stdin
// ends, or the host's pid is no longer the same process, it freezes (SIGSTOP) every recorded
// process and group, re-reads the table until nothing new appears under them, then SIGKILLs them
// all and exits. `dispose` forgets every worker and closes the pipe: the watchdog then exits
// having killed nothing.
//
// The program itself is watchdogProgram.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { startStamp } from './processTree';
import { WATCHDOG_SOURCE } from './watchdogProgram';

export const WATCHDOG_POLL_MS = 250;

const isWindows = process.platform === 'win32';

/** The host's side: spawns the watchdog on first use and keeps it told. A no-op on Windows. */
export class Watchdog {
  private child: ChildProcess | null = null;
  private readonly watched = new Map<number, { start: string; cgroup: string | null; adopted: Map<number, string> }>();
  /** Stops waiting for the watchdog to say it ended a worker (pid -> resolve). */
  private readonly ending = new Map<number, () => void>();
  private replies = '';
  private closed = false;
  /** When the last respawns happened: a watchdog that keeps dying is not respawned in a loop. */
  private respawns: number[] = [];

  constructor(private readonly pollMs = WATCHDOG_POLL_MS) {}

  /** The watchdog's pid, once it runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * `cgroup`: the worker's cgroup folder, killed too if the host dies. Returns the start stamp
   * watched, which `end` and `forget` must name.
   */
  watch(pid: number, cgroup: string | null = null): string | undefined {
    if (isWindows || this.closed) return undefined;
    const start = startStamp(pid);
    if (start === undefined) return undefined;
    this.watched.set(pid, { start, cgroup, adopted: new Map() });
    // A watchdog spawned now is told of every watched worker, this one included.
    if (this.child) this.send({ watch: pid, start, cgroup });
    else this.ensure();
    return start;
  }

  /**
   * A process the host spawned for a watched worker (a command in an ACP terminal): its tree is
   * ended with the worker's, on Stop and when the host dies.
   */
  adopt(owner: number, pid: number): void {
    const w = this.watched.get(owner);
    const start = startStamp(pid);
    if (!w || start === undefined) return;
    w.adopted.set(pid, start);
    this.send({ adopt: pid, start, owner });
  }

  /**
   * Has the watchdog end every process it ever saw of the worker (and their process groups),
   * then forget it. Stop calls it after the worker's own stop: a tool's background job whose
   * shell has exited is no longer in the worker's tree, but the watchdog recorded it while it
   * was. Resolves when the watchdog says it is done, or after `timeoutMs` if it does not.
   * `start` is what `watch` returned: a worker that exited may have left its pid to another
   * worker since, watched under another start, whose tree this must not end.
   */
  end(pid: number, start: string, timeoutMs = 3_000): Promise<void> {
    if (this.watched.get(pid)?.start !== start) return Promise.resolve();
    if (!this.child) return Promise.resolve(this.forget(pid, start));
    this.watched.delete(pid);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.ending.delete(pid);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.ending.get(pid)?.();
      this.ending.set(pid, done);
      this.send({ end: pid, start });
    });
  }

  forget(pid: number, start: string): void {
    if (this.watched.get(pid)?.start !== start) return;
    this.watched.delete(pid);
    this.send({ forget: pid, start });
  }

  /** Forgets every worker and lets the watchdog go (it exits on its stdin's end). */
  close(): void {
    this.closed = true;
    for (const [pid, w] of [...this.watched]) this.forget(pid, w.start);
    this.child?.stdin?.end();
    this.child = null;
  }

  /** Spawns the watchdog when none runs (again, if one died), telling it every watched worker. */
  private ensure(): boolean {
    if (this.child) return true;
    const hostStart = startStamp(process.pid) ?? '';
    // Electron (VS Code's extension host) runs as plain Node with ELECTRON_RUN_AS_NODE.
    const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1', RPC_WORKERS_WATCHDOG_SOURCE: WATCHDOG_SOURCE };
    delete env.NODE_OPTIONS;
    let child: ChildProcess;
    try {
      // A small heap: the watchdog keeps a few maps, and its garbage (the process table read
      // every 250 ms) is collected early instead of letting V8 grow the heap (an unbounded
      // default let its RSS climb by 20-35 MiB over a thousand worker starts).
      const args = ['--max-old-space-size=16', '--max-semi-space-size=1', '-e', 'eval(process.env.RPC_WORKERS_WATCHDOG_SOURCE)', 'rpc-workers-watchdog', String(process.pid), hostStart, String(this.pollMs)];
      child = spawn(process.execPath, args, {
        detached: true,
        stdio: ['pipe', 'pipe', 'ignore'],
        env,
        windowsHide: true,
      });
    } catch {
      return false;
    }
    this.child = child;
    child.on('error', () => {
      if (this.child === child) this.child = null;
    });
    child.on('exit', () => {
      if (this.child !== child) return;
      this.child = null;
      for (const done of [...this.ending.values()]) done();
      // Killed while the host lives: a new one is told of every watched worker at once.
      const now = Date.now();
      this.respawns = this.respawns.filter((t) => now - t < 60_000);
      if (!this.closed && this.watched.size > 0 && this.respawns.length < 5) {
        this.respawns.push(now);
        this.ensure();
      }
    });
    // A write to a watchdog that died is an error of its pipe, never an uncaught exception.
    child.stdin!.on('error', () => {});
    // Neither keeps the host's event loop alive: a host that ends closes the pipe, which is the
    // signal to end what it left behind.
    child.unref();
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.onReply(chunk));
    child.stdout!.on('error', () => {});
    (child.stdout as unknown as { unref?: () => void }).unref?.();
    for (const [pid, w] of this.watched) {
      this.send({ watch: pid, start: w.start, cgroup: w.cgroup });
      for (const [a, start] of w.adopted) this.send({ adopt: a, start, owner: pid });
    }
    return true;
  }

  private onReply(chunk: string): void {
    this.replies += chunk;
    let nl: number;
    while ((nl = this.replies.indexOf('\n')) !== -1) {
      const line = this.replies.slice(0, nl);
      this.replies = this.replies.slice(nl + 1);
      try {
        const m = JSON.parse(line) as { ended?: unknown };
        if (typeof m.ended === 'number') this.ending.get(m.ended)?.();
      } catch {
        // Not a reply.
      }
    }
    if (this.replies.length > 4096) this.replies = '';
  }

  private send(message: object): void {
    const stdin = this.child?.stdin;
    if (stdin && !stdin.destroyed && !stdin.writableEnded) stdin.write(JSON.stringify(message) + '\n');
  }
}
