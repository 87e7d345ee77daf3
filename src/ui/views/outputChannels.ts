// One LogOutputChannel per worker: its stderr, the stdout lines that were not protocol, the
// protocol errors, and (with rpcWorkers.trace) every message sent and received. Channels outlive
// their worker a while, so the output of one that failed to start can still be read.
// Levels, so the channel's filter can hide the chatter: stderr is info, a line of it that reads as
// an error a warning (stderrLevel.ts), and an exit nobody asked for says its last stderr lines
// again as an error: the tail the host keeps for the crash message, in the exit's own words.
import * as vscode from 'vscode';
import type { OutputKind, Supervisor } from '../../core/api';
import { Disposable, toDisposable } from '../disposable';
import { stderrLevel } from './stderrLevel';

const KEEP_RETIRED = 12;
const MAX_TRACE_CHARS = 8 * 1024;

export class OutputChannels extends Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();
  private readonly names = new Map<string, string>();

  constructor(private readonly supervisor: Supervisor) {
    super();
    this._register(toDisposable(supervisor.onOutput((id, kind, text) => this.write(id, kind, text))));
    // worker_exit is an error only for an exit nobody asked for (not a Stop, not code 0).
    this._register(toDisposable(supervisor.onEvent((id, e) => {
      if (e.type === 'worker_exit' && e.is_error && e.error) this.channel(id).error(`[exit] ${e.error}`);
    })));
    this._register(toDisposable(supervisor.onState((s) => {
      if (!this.names.has(s.workerId)) this.names.set(s.workerId, s.name);
    })));
    this._register({ dispose: () => { for (const c of this.channels.values()) c.dispose(); this.channels.clear(); } });
  }

  has(workerId: string): boolean {
    return this.channels.has(workerId);
  }

  channel(workerId: string, name?: string): vscode.LogOutputChannel {
    let ch = this.channels.get(workerId);
    if (!ch) {
      const label = name ?? this.names.get(workerId) ?? 'worker';
      ch = vscode.window.createOutputChannel(`RPC Worker: ${label} (${workerId})`, { log: true });
      this.channels.set(workerId, ch);
      this.prune();
    }
    return ch;
  }

  show(workerId: string): boolean {
    const ch = this.channels.get(workerId) ?? (this.supervisor.state(workerId).status !== 'not_found' ? this.channel(workerId) : undefined);
    if (!ch) return false;
    ch.show(true);
    return true;
  }

  write(workerId: string, kind: OutputKind, text: string): void {
    const ch = this.channel(workerId);
    switch (kind) {
      case 'stderr': ch[stderrLevel(text)](`[stderr] ${text}`); break;
      case 'stdout': ch.info(`[stdout] ${text}`); break;
      case 'protocol': ch.error(`[protocol] ${text}`); break;
      case 'trace': ch.info(`[trace] ${text}`); break;
    }
  }

  trace(workerId: string, direction: 'send' | 'receive', message: unknown): void {
    let json: string;
    try {
      json = JSON.stringify(message);
    } catch {
      json = String(message);
    }
    if (json.length > MAX_TRACE_CHARS) json = `${json.slice(0, MAX_TRACE_CHARS)}… (${json.length} characters)`;
    this.channel(workerId).info(`${direction === 'send' ? '→' : '←'} ${json}`);
  }

  /** Drop the oldest channels of workers the host no longer has, past KEEP_RETIRED. */
  private prune(): void {
    const live = new Set(this.supervisor.list().map((s) => s.workerId));
    const retired = [...this.channels.keys()].filter((id) => !live.has(id));
    for (const id of retired.slice(0, Math.max(0, retired.length - KEEP_RETIRED))) {
      this.channels.get(id)?.dispose();
      this.channels.delete(id);
    }
  }
}
