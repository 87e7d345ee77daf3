// A worker's child process, owned by its Worker: the spawn, the JSON-RPC connection over its
// stdin/stdout, its stderr lines, its exit, and the stop that ends its whole process tree.
import type { ChildProcess } from 'node:child_process';
import { createMessageConnection, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import type { AgentEvent } from '../events/agentEvent';
import { CUT_LINE_CHARS, cutEvent } from '../events/cutEvent';
import type { WireCodec } from '../wire/codec';
import { JsonlMessageReader, type ProtocolError } from '../wire/jsonlReader';
import { JsonlMessageWriter } from '../wire/jsonlWriter';
import { whichOnPath } from '../wire/piVersion';
import type { Launch } from './launch';
import { spawnProgram } from './launchCommand';
import { isPathCommand } from '../pathExt';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve as pathResolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { commandLine, commandName, listProcesses, procInfo, mergeTrees, processTree, readableTable, signalOwnChild, signalTree, stillAlive, taskkill, type ProcInfo } from './processTree';
import { Ring } from './ring';
import { StderrLines } from './stderrLines';
import { Latch } from './latch';

/** What ran below a worker at one moment (see WorkerProcess.baseline). */
export interface Baseline {
  keys: Set<string>;
  names: Set<string>;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** What the process tells its worker. */
export interface ProcessListeners {
  /**
   * `line`: the line the event was decoded from; absent when the event is not that line's
   * whole content (a very long line's event, its long fields cut to a preview: cutEvent.ts), or
   * has no line of its own (ACP: a prompt's answer, a prompt sent).
   */
  onEvent: (event: AgentEvent, line?: Buffer) => void | Promise<void>;
  onProtocolError: (error: ProtocolError) => void;
  /** `token`: cancelled when the worker withdraws the request (vscode-jsonrpc's, fed by the codec). */
  onRequest: (method: string, params: unknown, token?: CancellationToken) => Promise<unknown>;
  onNotification: (method: string, params: unknown) => void;
  /** A complete stderr line, or the reason the program could not be started. */
  onStderr: (line: string) => void;
  /** The connection's own trouble (a failed write, a broken stream). */
  onConnectionError: (text: string) => void;
  /** Once, when the process is gone (or never started); before any exit waiter. */
  onExit: (exit: Exit) => void;
  /** Once, when its output ended and it did not exit within the kill grace (see outputLost); before any waiter. */
  onOutputLost: () => void;
  /** Once, when a write to its stdin (or a probe of it) failed and it did not exit soon after (see inputLost); before any waiter. */
  onInputLost: () => void;
}

export interface ProcessOptions {
  cwd: string;
  codec: WireCodec;
  maxLineBytes: number;
  ringLines: number;
  killGraceMs: number;
  /** How often its stdin is probed while nothing is written (see probeInput). */
  inputProbeMs: number;
  trace?: (direction: 'send' | 'receive', message: unknown) => void;
  /** The dialect's reading of a failed start's stderr, in plain words. */
  explainStartFailure?: (stderr: string) => string | null | undefined;
}

const isWindows = process.platform === 'win32';
const MARK = 'RPC_WORKERS_WORKER';
const keyOf = (p: ProcInfo) => `${p.pid}:${p.start}`;
/** Longest the exit's report waits for the worker's next line once it exited (see exitAfterOutput). */
const OUTPUT_GRACE_MS = 500;
/** Longest it waits in all, for lines that keep coming (a grandchild writing to the inherited pipe). */
const OUTPUT_WAIT_MAX_MS = 30_000;

/** The shells agents run their commands in. */
const SHELL = /^(ba|da|z|k|fi|tc|c)?sh$|^pwsh$/;

export class WorkerProcess {
  readonly connection: MessageConnection;
  readonly stderr: Ring<string>;
  private readonly child: ChildProcess;
  private readonly writer: JsonlMessageWriter;
  /** How it ended; the worker hears it before any waiter. */
  private readonly exited = new Latch<Exit>((exit) => this.listeners.onExit(exit));
  /** Set once the reader has handled the worker's last line (its stdout ended). */
  private outputEnded = false;
  /** Events read from stdout so far: after the exit, a sign that its lines are still coming. */
  private linesRead = 0;
  private afterOutput: (() => void) | null = null;
  /**
   * Its output ended, and it did not exit within the kill grace, nor was it stopped: it runs on,
   * and nothing it says reaches the host, so nothing the host waits to hear will come.
   */
  private readonly lost = new Latch<void>(() => this.listeners.onOutputLost());
  private lostTimer: NodeJS.Timeout | undefined;
  /**
   * A write to its stdin, or a probe of it, failed (a broken pipe: it closed its input), and it did not exit within
   * the output grace, nor was it stopped: it runs on, and may still be heard, but reads nothing.
   * Its value: the number of the first message its stdin did not take.
   */
  private readonly deaf = new Latch<number>(() => this.listeners.onInputLost());
  private deafTimer: NodeJS.Timeout | undefined;
  /** Probes its stdin while it runs (see probeInput); cleared once it is deaf, stopped or gone. */
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  /** stop() began: the exit it brings says how the worker ended, not the loss of its output. */
  private stopping = false;
  /** Why the program never started (spawn's error, in words), or null. */
  spawnError: string | null = null;
  /** It never started because there is no such program (not its interpreter, not its mode). */
  programMissing = false;
  private readonly stderrLines = new StderrLines((line) => {
    this.stderr.push(line);
    this.listeners.onStderr(line);
  });
  /** Every process seen in the tree while it was alive (pids die; their children are re-parented). */
  private tree: ProcInfo[] = [];

  /** The value of MARK in this worker's environment, and so in its descendants'. */
  private readonly mark = `${process.pid}-${randomUUID()}`;

  constructor(private readonly launch: Launch, private readonly options: ProcessOptions, private readonly listeners: ProcessListeners) {
    this.stderr = new Ring(options.ringLines);
    const { trace } = options;
    this.child = spawnProgram(launch.command, launch.args, {
      cwd: options.cwd,
      // Every process the worker starts inherits the mark, so that one that left its tree (a
      // command Codex runs detached) is still known as the worker's.
      env: { ...process.env, ...launch.env, [MARK]: this.mark },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so that stop reaches what the worker started.
      detached: !isWindows,
      windowsHide: true,
    });
    this.child.on('error', (error) => this.onSpawnError(error));
    this.child.on('exit', (code, signal) => this.exitAfterOutput({ code, signal }));
    this.child.stderr!.on('data', (chunk: Buffer) => this.stderrLines.push(chunk));
    // Its last words may come after the exit is reported (stderr is not waited for, stdout is).
    this.child.stderr!.on('end', () => this.stderrLines.end());
    const reader = new JsonlMessageReader(this.child.stdout!, {
      maxLineBytes: options.maxLineBytes,
      codec: options.codec,
      // The length test is all a normal line costs; a very long one is rebuilt, bounded.
      onEvent: (event, line) => {
        this.linesRead++;
        if (line === undefined || line.length <= CUT_LINE_CHARS) return listeners.onEvent(event, line);
        const kept = cutEvent(event, line.length);
        return kept.cut ? listeners.onEvent(kept.event) : listeners.onEvent(event, line);
      },
      onProtocolError: listeners.onProtocolError,
      // Straight to the writer (made below, before any line is read): the request never reached the connection.
      answerWorker: (answer) => void this.writer.write(answer),
      onReceive: trace ? (value) => trace('receive', value) : undefined,
    });
    reader.onClose(() => {
      this.outputEnded = true;
      this.afterOutput?.();
      // A worker whose output ends is normally on its way out, and its exit will say why; one
      // that lives on can no longer be heard (a broken pipe, a closed stdout).
      if (!this.exited.fired && !this.stopping) this.lostTimer = setTimeout(() => this.onOutputLost(), options.killGraceMs);
    });
    this.writer = new JsonlMessageWriter(this.child.stdin!, options.codec, trace ? (value) => trace('send', value) : undefined, (event) => void listeners.onEvent(event));
    this.writer.onError(([error]) => {
      listeners.onConnectionError(`write to the worker failed: ${error.message}`);
      this.inputBroke();
    });
    // Node tells nothing of a reader gone from a pipe until something is written to it: an idle
    // worker that closed its stdin would look ready until the person's next message was refused.
    // Not on Windows, whose pipes are not the socketpairs measured (docs/real-workers.md).
    if (!isWindows) this.probeTimer = setInterval(() => this.probeInput(), options.inputProbeMs).unref();
    this.connection = createMessageConnection(reader, this.writer);
    this.connection.onRequest(listeners.onRequest);
    this.connection.onNotification(listeners.onNotification);
    this.connection.onError(([error]) => listeners.onConnectionError(`connection error: ${error.message}`));
    this.connection.listen();
  }

  get pid(): number | null {
    return this.child.pid ?? null;
  }

  /** How it ended; null while it runs. */
  get exit(): Exit | null {
    return this.exited.value ?? null;
  }

  /** Calls `waiter` once when the process exits; the returned function takes it back. */
  onceExit(waiter: (e: Exit) => void): () => void {
    return this.exited.once(waiter);
  }

  /** Its output ended while it runs on (see `lost`): nothing it says can be heard any more. */
  get outputLost(): boolean {
    return this.lost.fired && !this.exited.fired;
  }

  /** Calls `waiter` once when its output is lost (see `lost`); the returned function takes it back. */
  onceOutputLost(waiter: () => void): () => void {
    return this.lost.once(waiter);
  }

  /** Its stdin broke while it runs on (see `deaf`): nothing sent can reach it any more. */
  get inputLost(): boolean {
    return this.deaf.fired && !this.exited.fired;
  }

  /** Messages written so far, in order (a wait's own request is the last one written before it began). */
  get messagesSent(): number {
    return this.writer.written;
  }

  /** The number of the first message its stdin did not take, or null (see JsonlMessageWriter.firstFailed). */
  get firstUnsent(): number | null {
    return this.writer.firstFailed;
  }

  /** Calls `waiter` once when its input is lost, with the first message that failed; the returned function takes it back. */
  onceInputLost(waiter: (firstFailed: number) => void): () => void {
    return this.deaf.once(waiter);
  }

  /** What a verb refused, or a wait released, by the loss of its input says. */
  inputLostDescription(): string {
    return `the worker no longer reads its input (its stdin closed) while its process${this.pid === null ? '' : ` ${this.pid}`} runs on: nothing sent can reach it; stop it`;
  }

  /** What a wait released by the loss of its output says. */
  outputLostDescription(): string {
    return `the worker's output ended (its stdout closed) while its process${this.pid === null ? '' : ` ${this.pid}`} runs on: nothing more it says can be heard; stop it`;
  }

  /** The exit, or null if it has not come within `ms`. */
  waitExit(ms: number): Promise<Exit | null> {
    if (this.exit) return Promise.resolve(this.exit);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        off();
        resolve(null);
      }, ms);
      const off = this.onceExit((e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
  }

  /**
   * SIGTERM first (pi ends its running tools on SIGTERM, not when its stdin closes), then close
   * stdin, then SIGKILL for everything recorded in the tree that is still alive after the grace.
   */
  async stop(): Promise<{ exit: Exit | null; killed: boolean }> {
    if (this.exit) {
      await this.reapOrphans();
      return { exit: this.exit, killed: false };
    }
    this.stopping = true;
    clearTimeout(this.lostTimer);
    clearTimeout(this.deafTimer);
    clearInterval(this.probeTimer);
    const { killGraceMs } = this.options;
    const pid = this.pid;
    if (pid !== null) this.signalWorker(pid, 'SIGTERM', true);
    this.writer.end();
    let exit = await this.waitExit(killGraceMs);
    let killed = false;
    if (!exit && pid !== null) {
      killed = true;
      this.signalWorker(pid, 'SIGKILL', false);
      exit = await this.waitExit(killGraceMs);
    }
    await this.reapOrphans();
    this.connection.dispose();
    return { exit, killed };
  }

  /**
   * Reads the worker's tree again and signals it (`alone`: the worker and its group only). A tree
   * never read (`ps` failing off Linux, as a full process table makes it) does not stop Stop: the
   * worker is this process's child, signalled with the group it leads without the table.
   */
  private signalWorker(pid: number, sig: 'SIGTERM' | 'SIGKILL', alone: boolean): void {
    // One reading for the tree and for the signals' check of who is still alive.
    const table = readableTable();
    this.tree = mergeTrees(this.tree, table ? processTree(pid, table) : []);
    if (isWindows) taskkill(pid, { force: sig === 'SIGKILL' });
    else if (!table && !this.tree.some((p) => p.pid === pid)) signalOwnChild(this.child, sig);
    else signalTree(alone ? this.tree.filter((p) => p.pid === pid) : this.tree, sig, table);
  }

  /** The processes below the worker now (the worker itself left out): who they are and what runs. */
  baseline(): Baseline {
    const pid = this.pid;
    const keys = new Set<string>();
    const names = new Set<string>();
    if (pid === null || this.exit || isWindows) return { keys, names };
    for (const p of this.ownProcesses(pid)) {
      keys.add(keyOf(p));
      const name = commandName(p.pid);
      if (name) names.add(name);
    }
    return { keys, names };
  }

  /** The worker's descendants, and the processes that left its tree but carry its mark (Linux). */
  private ownProcesses(pid: number): ProcInfo[] {
    const table = listProcesses();
    const whole = processTree(pid, table);
    const tree = whole.slice(1);
    if (process.platform !== 'linux') return tree;
    const inTree = new Set(tree.map((p) => p.pid));
    const needle = `${MARK}=${this.mark}\0`;
    // Only what the worker started carries its mark, so nothing started before it need be read
    // (Linux's start stamps are clock ticks since boot): reading every process's environment
    // took 5-15 ms of the thread at each turn's start (ACP's baseline for its after-abort sweep).
    const since = whole.length > 0 ? Number(whole[0].start) : NaN;
    for (const p of table) {
      if (p.pid === pid || inTree.has(p.pid) || p.zombie || Number(p.start) < since) continue;
      try {
        if (readFileSync(`/proc/${p.pid}/environ`, 'latin1').includes(needle)) tree.push(p);
      } catch {
        // Gone, or not ours to read.
      }
    }
    return tree;
  }

  /**
   * Ends what appeared below the worker since `before` (or left its tree carrying its mark) and
   * still runs after `graceMs`, the worker's own time to end it: each new subtree whole, but for
   * one whose top runs a program the worker already ran (its own helpers: Claude's `claude auth
   * status`, Codex's sandboxed `codex`), unless that is a shell or left the worker's tree (its
   * parent gone: a helper of the agent's stays below it; Codex's sandbox, cancelled as it started
   * the command, once left the command's inner `codex` running, orphaned). Returns the tops it
   * ended, with their command lines.
   */
  async endCommandsSince(before: Baseline, graceMs: number): Promise<Array<{ pid: number; command: string | null }>> {
    const pid = this.pid;
    if (pid === null || this.exit || isWindows) return [];
    const fresh = () => {
      const tree = [...processTree(pid).slice(0, 1), ...this.ownProcesses(pid)].filter((p) => !p.zombie);
      const isNew = (p: ProcInfo) => !before.keys.has(keyOf(p));
      const byPid = new Map(tree.map((p) => [p.pid, p]));
      const tops = tree.slice(1).filter((p) => {
        if (!isNew(p)) return false;
        const parent = byPid.get(p.ppid);
        if (parent && parent.pid !== pid && isNew(parent)) return false;
        if (!parent) return true;
        const name = commandName(p.pid) ?? '';
        return SHELL.test(name) || !before.names.has(name);
      });
      const below = new Map<number, ProcInfo[]>();
      for (const p of tree) below.set(p.ppid, [...(below.get(p.ppid) ?? []), p]);
      const all: ProcInfo[] = [];
      const queue = [...tops];
      while (queue.length) {
        const p = queue.shift()!;
        all.push(p);
        queue.push(...(below.get(p.pid) ?? []));
      }
      return { tops, all };
    };
    const deadline = performance.now() + graceMs;
    let left = fresh();
    while (left.all.length > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      left = fresh();
    }
    if (left.all.length === 0) return [];
    const ended = left.tops.map((p) => ({ pid: p.pid, command: commandLine(p.pid) }));
    const workerGroup = procInfo(pid)?.pgid;
    for (const p of left.all) {
      try {
        // A group of the command's own (pi-style shells) is ended whole; never the worker's group.
        if (p.pgid !== workerGroup && p.pgid === p.pid) process.kill(-p.pgid, 'SIGKILL');
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    const until = performance.now() + this.options.killGraceMs;
    let alive = stillAlive(left.all);
    while (alive.length > 0 && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      alive = stillAlive(alive);
    }
    return ended;
  }

  /** The host stopped it (a Stop, Stop All, the host's end): its exit is that Stop's, not its own. */
  get stopRequested(): boolean {
    return this.stopping;
  }

  /** Why it is gone: code or signal, the dialect's reading of stderr, and stderr's tail. */
  exitDescription(): string {
    const e = this.exit;
    if (!e) return 'the worker is running';
    if (this.spawnError) return this.spawnError;
    const how = e.signal ? `was killed by ${e.signal}` : `exited with code ${e.code}`;
    const tail = this.stderr.tail(10).join('\n').trim();
    const why = this.options.explainStartFailure?.(this.stderr.tail(40).join('\n'));
    return `the worker ${how}${why ? `: ${why}` : ''}${tail ? `; stderr:\n${tail}` : ' (stderr was empty)'}`;
  }

  /**
   * Descendants that outlived the worker (re-parented to init) are ended too. A SIGKILL lands
   * when its target next runs, so stop waits (within the kill grace) until they are gone.
   */
  private async reapOrphans(): Promise<void> {
    if (isWindows || this.tree.length === 0) return;
    const orphans = this.tree.filter((p) => p.pid !== this.pid);
    signalTree(orphans, 'SIGKILL');
    const deadline = performance.now() + this.options.killGraceMs;
    let left = stillAlive(orphans);
    while (left.length > 0 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      left = stillAlive(left);
    }
  }

  private onSpawnError(error: Error): void {
    const failure = spawnFailure(this.launch.command, error, { cwd: this.options.cwd, path: this.launch.env.PATH ?? process.env.PATH ?? '' });
    const said = `could not start ${this.launch.command}: ${failure.why}`;
    this.programMissing = failure.missing;
    this.listeners.onStderr(said);
    this.stderr.push(said);
    this.spawnError = said;
    if (!this.exit) this.onExit({ code: null, signal: null });
  }

  /**
   * Node's 'exit' can come before the reader has handled the worker's last lines (still in the
   * pipe, or held across a yield): reported then, they would land after the worker's exit, out of
   * order. So the exit waits for the output's end, but no longer than OUTPUT_GRACE_MS without a
   * line, since a grandchild that inherited stdout can hold the pipe open long after the worker is gone.
   */
  private exitAfterOutput(exit: Exit): void {
    if (this.outputEnded) return this.onExit(exit);
    // The grace is of silence, not of the whole wait: a reader still behind on a flood (a busy
    // editor, a slow listener) goes on delivering the worker's lines, each one rearming it.
    const grace = Math.min(OUTPUT_GRACE_MS, this.options.killGraceMs / 2);
    const until = performance.now() + OUTPUT_WAIT_MAX_MS;
    let seen = this.linesRead;
    const check = () => {
      if (this.linesRead === seen || performance.now() > until) return this.onExit(exit);
      seen = this.linesRead;
      timer = setTimeout(check, grace);
    };
    let timer = setTimeout(check, grace);
    this.afterOutput = () => {
      clearTimeout(timer);
      this.onExit(exit);
    };
  }

  /** A write of no bytes: one its stdin refuses (it closed it) is taken as a failed write. */
  private probeInput(): void {
    if (this.probing || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.probing = true;
    void this.writer.probe().then((result) => {
      this.probing = false;
      if (result === 'broken') this.inputBroke();
    });
  }

  /** Its stdin refused a write or a probe; a worker on its way out breaks the pipe too: its exit, if it comes soon, says why instead. */
  private inputBroke(): void {
    clearInterval(this.probeTimer);
    if (!this.deaf.fired && !this.deafTimer && !this.exited.fired && !this.stopping) {
      this.deafTimer = setTimeout(() => this.onInputLost(), Math.min(OUTPUT_GRACE_MS, this.options.killGraceMs / 2));
    }
  }

  // Neither is fired once the exit came (it closes them) or stop() began: the exit says how it ended.
  private onOutputLost(): void {
    if (!this.stopping) this.lost.fire();
  }

  private onInputLost(): void {
    // Node saw it exit, and its exit waits for the last of its output (exitAfterOutput): it is gone, not deaf.
    if (this.stopping || this.child.exitCode !== null || this.child.signalCode !== null) return;
    // Set before the write's error that started the timer (jsonlWriter.ts).
    this.deaf.fire(this.writer.firstFailed ?? 0);
  }

  private onExit(exit: Exit): void {
    if (this.exited.fired) return;
    clearTimeout(this.lostTimer);
    clearTimeout(this.deafTimer);
    clearInterval(this.probeTimer);
    this.lost.close();
    this.deaf.close();
    this.stderrLines.end();
    this.exited.fire(exit);
  }
}

/**
 * Why a program did not start, in words, then Node's (`spawn x ENOENT` names neither cause), and
 * whether the program itself is missing. `where`: the worker's folder and PATH, as spawn searched them.
 */
export function spawnFailure(command: string, error: Error, where: { cwd?: string; path: string }): { why: string; missing: boolean } {
  const code = (error as NodeJS.ErrnoException).code;
  const bare = !isPathCommand(command);
  // No shell runs the command: a `~` stays a folder named "~" under the worker's folder, so the
  // program may well be there, and "install it" would send the person the wrong way.
  if (code === 'ENOENT' && /^~(?=$|[/\\])/.test(command)) return { why: `a leading "~" is not expanded (no shell runs the command): write the full path (${error.message})`, missing: false };
  // Is the file there, where spawn looked for it: a bare name on the PATH, another path from the folder?
  const target = pathResolve(where.cwd ?? '.', command);
  const found = bare ? whichOnPath(command, where.path) !== null : existsSync(target);
  // "pi --mode rpc" in the command: one program's name, its words belong in args.
  const first = command.trim().split(/\s+/)[0] as string;
  const withArgs = code === 'ENOENT' && !found && first !== command.trim() && (isPathCommand(first) ? isFile(pathResolve(where.cwd ?? '.', first)) : whichOnPath(first, where.path) !== null);
  const missing = code === 'ENOENT' && !found && !withArgs;
  const relative = !bare && !isAbsolute(command) ? ` (relative to the worker's folder ${where.cwd ?? process.cwd()})` : '';
  const words = code === 'ENOENT'
    // The file is there: what its #! line names is not (a pipx shim whose venv is gone, say).
    ? found ? 'the interpreter its first line (#!) names was not found'
      : withArgs ? `there is no program named ${JSON.stringify(command)}; the command names the program alone (${JSON.stringify(first)} is there), its arguments go in args`
        : bare ? 'no program of that name is on the PATH this window has' : `there is no such file${relative}`
    : code === 'EACCES' ? (!bare && isFolder(target) ? 'it is a folder, not a program' : 'it is not executable (or a folder on its path is closed to this user)')
      : null;
  return { why: words ? `${words} (${error.message})` : error.message, missing };
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
