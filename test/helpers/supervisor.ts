// Shared by the core's integration tests: a host per test, the fake worker's spec, and waits
// that end on an event (never on a clock), each bounded so a broken test fails instead of
// hanging.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Supervisor, WorkerSpec, WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';

export const ROOT = path.resolve(__dirname, '../..');
export const FAKE_WORKER = path.join(ROOT, 'test/fixtures/fake-worker.mjs');

export function fakeSpec(dialect: 'pi' | 'tau', flags: string[] = [], extra: Partial<WorkerSpec> = {}): WorkerSpec {
  return { dialect, command: process.execPath, args: [FAKE_WORKER, '--dialect', dialect, ...flags], cwd: ROOT, ...extra };
}

export function waitFor(supervisor: Supervisor, workerId: string, match: (e: AgentEvent) => boolean, timeoutMs = 15_000, what = 'event'): Promise<AgentEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const off = supervisor.onEvent((id, e) => {
      if (id !== workerId || !match(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

export const ofType = (type: string) => (e: AgentEvent) => e.type === type;

/** τ's own compaction's agent_start or agent_end: the only such events that name no submission. */
export const unstampedPair = (type: 'agent_start' | 'agent_end') => (e: AgentEvent) => e.type === type && !e.submission_id;

/** A listed worker's state (throws if it is gone). */
export function stateOf(supervisor: Supervisor, workerId: string): WorkerState {
  const s = supervisor.state(workerId);
  if (s.status === 'not_found') throw new Error('the worker is gone');
  return s.state;
}

/** Every event of one worker, as it arrives. */
export function record(supervisor: Supervisor, workerId: () => string | undefined): AgentEvent[] {
  const out: AgentEvent[] = [];
  supervisor.onEvent((id, e) => {
    if (id === workerId()) out.push(e);
  });
  return out;
}

/** Live, non-zombie processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[2]) === pgid && f[0] !== 'Z') out.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Live processes (but this one) whose command line holds `token`, from the process table. */
export function withToken(token: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(token) && isAlive(Number(entry))) out.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return out;
}

/**
 * Resolves once `ok()` holds, checked every 25 ms (a bounded poll for what no event announces:
 * processes, files); rejects after `ms`. `what` may be a function, read when the wait times out,
 * so that it can say what was seen then.
 */
export async function waitUntil(ok: () => boolean, what: string | (() => string), ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function text(events: AgentEvent[]): string {
  return events.filter((e) => e.type === 'message_update' && e.block_type === 'text').map((e) => e.delta).join('');
}
