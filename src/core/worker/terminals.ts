// Terminals the host owns (ACP terminal/*): an agent's command runs as the host's child, in a
// process group of its own, with its cwd confined to the worker's folder; its output streams
// into the row of the tool call that names the terminal; kill, release, an abort and a stop end
// the command's whole tree (its group and every descendant, whatever it did to leave the group).
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ResponseError } from 'vscode-jsonrpc/node';
import type { AgentEvent, Untimed } from '../events/agentEvent';
import { physicalPath } from '../guard/paths';
import { pathWithin } from '../pathWithin';
import { shellLine } from '../shellLine';
import { mergeTrees, processTree, readableTable, signalTree, treeNow, type ProcInfo } from './processTree';
import { REFUSED } from './clientFiles';
import { spawnProgram } from './launchCommand';
import { GUARD_NAME, SHELL_ALLOWED_BY } from '../guard/veto';

export interface TerminalCreate {
  command: string;
  args: string[];
  env: Array<{ name: string; value: string }>;
  cwd: string | null;
  outputByteLimit: number | null;
}

export interface TerminalsSite {
  root: string;
  cwd: string;
  /** The worker's own environment, under the request's. */
  env: Record<string, string>;
  emit(event: Untimed): void;
  killGraceMs: number;
  /** Under a guard without bash, a command cannot be confined by path: refused as pi's guard drops bash. */
  shellBlocked: boolean;
  report(event: Untimed): void;
  /** A command was spawned: the supervisor puts it with the worker (its cgroup, its watchdog entry). */
  spawned?: (pid: number) => void;
}

type ExitStatus = { exitCode: number | null; signal: string | null };

/** How often output is said in the tool's row at most; a chatty command is not an event per chunk. */
const STREAM_MS = 50;
/** After the command's exit, how long its output may take to drain when something else still holds the pipe. */
const DRAIN_MS = 100;
/**
 * The output kept when the agent sets no outputByteLimit: its tail, said truncated. Unbounded, a
 * chatty command (`yes`, a verbose build) grew the host's memory, and every update re-sent it all.
 */
export const HOST_OUTPUT_LIMIT = 1024 * 1024;

class Terminal {
  private text = '';
  /** The text's size in UTF-8 bytes, kept as it grows: measuring it per chunk was quadratic. */
  private bytes = 0;
  /** Characters cut from the output's front so far: a viewer appends only what is new after a cut. */
  dropped = 0;
  truncated = false;
  exit: ExitStatus | null = null;
  /** The command itself ended, and its output drained (or DRAIN_MS passed): wait_for_exit's answer. */
  readonly exited: Promise<ExitStatus>;
  /** Nothing holds its output any more: the command and every process that kept its stdout ended. */
  private readonly closed: Promise<void>;
  private isClosed = false;
  /** The descendants seen so far, so that one that left the group is still ended. */
  private seen: ProcInfo[] = [];
  toolCallId: string | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(readonly id: string, readonly command: string, private readonly child: ChildProcess, private readonly limit: number, private readonly say: (t: Terminal) => void) {
    // Each stream decodes its own bytes: a character split across two reads stays one character.
    child.stdout?.setEncoding('utf8');
    child.stderr?.setEncoding('utf8');
    const take = (chunk: string) => this.append(chunk);
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.closed = new Promise((resolve) => {
      const done = () => {
        this.isClosed = true;
        resolve();
      };
      child.on('close', done);
      child.on('error', done);
    });
    this.exited = new Promise((resolve) => {
      // On the command's own exit, not its output's close: a job it left in the background
      // (`server &`) keeps the output open for as long as it runs, and a terminal's command has
      // exited when its process has. Output still in the pipe comes first.
      child.on('exit', (code, signal) => {
        const status = { exitCode: code, signal };
        void Promise.race([this.closed, new Promise((r) => setTimeout(r, DRAIN_MS).unref())]).then(() => {
          this.exit = status;
          this.flush();
          resolve(status);
        });
      });
      child.on('error', (error) => {
        this.append(`${error.message}\n`);
        this.exit = { exitCode: null, signal: null };
        resolve(this.exit);
      });
    });
  }

  private append(text: string): void {
    this.text += text;
    this.bytes += Buffer.byteLength(text);
    // Cut now and then, not per chunk: each cut copies the whole kept output. Read, it is exact.
    if (this.bytes > 2 * this.limit + 64 * 1024) this.cut();
    if (!this.timer) this.timer = setTimeout(() => this.flush(), STREAM_MS);
  }

  /** The output kept: at most the limit's bytes, its front cut. */
  get output(): string {
    if (this.bytes > this.limit) this.cut();
    return this.text;
  }

  /** Cuts the front to the limit, on a character boundary, as ACP asks. */
  private cut(): void {
    const buf = Buffer.from(this.text);
    let start = buf.length - this.limit;
    while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++;
    const kept = buf.subarray(start).toString('utf8');
    this.dropped += this.text.length - kept.length;
    this.text = kept;
    this.bytes = buf.length - start;
    this.truncated = true;
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // A table that cannot be read (`ps` failing off Linux) adds no one: the output is said all the same.
    if (this.child.pid && this.exit === null) this.seen = mergeTrees(this.seen, treeNow(this.child.pid) ?? []);
    this.say(this);
  }

  /** Something of it may still run: the command, or a job it left holding its output. */
  get running(): boolean {
    return !this.isClosed;
  }

  /** Its ending under way, or done: one ending signals once, and a second caller waits on the first. */
  private ending: Promise<void> | null = null;

  get endBegun(): boolean {
    return this.ending !== null;
  }

  /** Ends the group and every descendant seen: TERM, then KILL after the grace. */
  end(graceMs: number): Promise<void> {
    return (this.ending ??= this.endNow(graceMs));
  }

  private async endNow(graceMs: number): Promise<void> {
    const pid = this.child.pid;
    if (!pid) return;
    // Its group is ended whole even when the table cannot be read (`ps` failing off Linux).
    const tree = mergeTrees(this.seen, treeNow(pid) ?? []);
    const group = (sig: NodeJS.Signals) => {
      try {
        process.kill(-pid, sig);
      } catch {
        // The group is gone.
      }
    };
    group('SIGTERM');
    signalTree(tree, 'SIGTERM');
    if (await this.closedWithin(graceMs)) return;
    // A descendant that ignored TERM or left the group is killed all the same.
    group('SIGKILL');
    // One reading for the tree and for the signals' check of who is still alive.
    const table = readableTable();
    signalTree(mergeTrees(tree, table ? processTree(pid, table) : []), 'SIGKILL', table);
    if (await this.closedWithin(graceMs)) return;
    // The close waits for the output pipes too, and a process that left the group unseen (setsid)
    // holds them for as long as it lives: the output ends here, so that Stop goes on (to the
    // worker's cgroup, which ends that process where there is one).
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
    await this.closed;
  }

  private closedWithin(ms: number): Promise<boolean> {
    return Promise.race([this.closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
  }
}

export class Terminals {
  private readonly open = new Map<string, Terminal>();
  /** Tool calls that name a terminal before or after it has output. */
  private readonly callOf = new Map<string, string>();
  private seq = 0;

  constructor(private readonly site: TerminalsSite) {}

  get count(): number {
    return this.open.size;
  }

  /** Learns which tool call shows which terminal (its content names the terminalId). */
  observe(event: AgentEvent): void {
    const ids = (event.data as { terminals?: unknown } | null | undefined)?.terminals;
    if (!event.tool_call_id || !Array.isArray(ids)) return;
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      this.callOf.set(id, event.tool_call_id);
      // An id the host never made (Codex names its own) is not looked up as the host's.
      const t = this.open.get(id);
      if (t && t.toolCallId === null) {
        t.toolCallId = event.tool_call_id;
        if (t.output) t.flush();
      }
    }
  }

  create(req: TerminalCreate): { terminalId: string } {
    const commandLine = [req.command, ...req.args].join(' ');
    if (this.site.shellBlocked) {
      const veto = `terminal command ${JSON.stringify(commandLine)} under the guard: a shell cannot be confined by path checks, and bash is not allowed ${SHELL_ALLOWED_BY}`;
      this.site.report({ type: 'guard_violation', tool_call_id: null, tool_name: 'terminal/create', is_error: true, error: veto, blocked: true, blocked_by: GUARD_NAME, data: { action: 'refused' } });
      throw new ResponseError(REFUSED, `the host's guard refused this command before it ran: ${veto}`);
    }
    const cwd = this.confine(req.cwd ?? this.site.cwd);
    const env: Record<string, string> = { ...process.env as Record<string, string>, ...this.site.env };
    for (const { name, value } of req.env) env[name] = value;
    const id = `term-${++this.seq}`;
    // A group of its own: the host ends it whole, and the agent's own exit does not. Agents ask
    // for `npm test` as a person would type it: on Windows npm is npm.cmd (launchCommand.ts).
    const child = spawnProgram(req.command, req.args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) this.site.spawned?.(child.pid);
    const t = new Terminal(id, shellLine(req.command, req.args), child, req.outputByteLimit ?? HOST_OUTPUT_LIMIT, (x) => this.say(x));
    t.toolCallId = this.callOf.get(id) ?? null;
    this.open.set(id, t);
    // Said for whoever shows the output (a VS Code terminal on the Event Log's click), with the
    // output: a command that ends before the agent names its tool call exits before its output
    // reaches that call's row.
    void t.exited.then((x) => this.site.emit({ type: 'terminal', data: { op: 'exit', terminalId: id, exitCode: x.exitCode, signal: x.signal, output: t.output, dropped: t.dropped } }));
    this.site.emit({ type: 'terminal', data: { op: 'create', terminalId: id, command: t.command, cwd, pid: child.pid ?? null } });
    return { terminalId: id };
  }

  output(id: string): { output: string; truncated: boolean; exitStatus?: ExitStatus } {
    const t = this.get(id);
    return { output: t.output, truncated: t.truncated, ...(t.exit ? { exitStatus: t.exit } : {}) };
  }

  async waitForExit(id: string): Promise<ExitStatus> {
    return this.get(id).exited;
  }

  async kill(id: string): Promise<Record<string, never>> {
    await this.get(id).end(this.site.killGraceMs);
    return {};
  }

  async release(id: string): Promise<Record<string, never>> {
    const t = this.get(id);
    this.open.delete(id);
    if (t.running) await t.end(this.site.killGraceMs);
    return {};
  }

  /** Every terminal's whole tree ended (an abort, a stop, the worker's exit); says which were running. */
  async endAll(reason: string): Promise<void> {
    const open = [...this.open.values()].filter((t) => t.running);
    // One whose ending is under way (the abort's own, when the sweep after the turn comes within
    // its grace) is waited on, and said by whoever began it.
    const running = open.filter((t) => !t.endBegun);
    await Promise.all(open.map((t) => t.end(this.site.killGraceMs)));
    if (reason !== 'abort') this.open.clear();
    if (running.length) this.site.emit({ type: 'terminal', data: { op: 'ended', reason, terminals: running.map((t) => ({ terminalId: t.id, command: t.command })) } });
  }

  private say(t: Terminal): void {
    if (!t.toolCallId) return;
    // Read first: reading the output cuts it to the limit, which counts what was dropped.
    const output = t.output;
    this.site.emit({ type: 'tool_execution_update', tool_call_id: t.toolCallId, result: { output }, replace: true, data: { terminalId: t.id, dropped: t.dropped } });
  }

  private get(id: string): Terminal {
    const t = this.open.get(id);
    if (!t) throw new ResponseError(-32602, `no terminal ${JSON.stringify(id)} of this host (created and not released)`);
    return t;
  }

  private confine(cwd: string): string {
    if (!path.isAbsolute(cwd)) throw new ResponseError(REFUSED, `terminal/create cwd ${JSON.stringify(cwd)} refused: ACP paths must be absolute`);
    // The folder checked is the one the command starts in: as given, `link/../x` is where the
    // kernel climbs out of the link's target, which need not be the `x` checked here.
    const checked = path.resolve(cwd);
    const real = physicalPath(checked);
    const root = physicalPath(this.site.root);
    if (!real.ok || !root.ok || pathWithin(root.path, real.path) === null) {
      const error = `terminal/create cwd ${JSON.stringify(cwd)} refused: it is outside the worker's folder ${this.site.root}`;
      this.site.emit({ type: 'terminal', is_error: true, error, data: { op: 'create', refused: true } });
      throw new ResponseError(REFUSED, error);
    }
    return checked;
  }
}
