// After an aborted turn: the shell commands the agent started during it and left running are
// ended by the host, and the log says which.
import type { Untimed } from '../events/agentEvent';
import type { Dialect } from '../wire/dialect';
import type { Terminals } from './terminals';
import type { Baseline, WorkerProcess } from './workerProcess';

/** What of its worker the sweep uses. */
export interface SweepSite {
  terminals: Terminals;
  /** The processes below the worker when the aborted turn began (null: not taken). */
  baseline(): Baseline | null;
  dialect: Dialect;
  process: WorkerProcess;
  killGraceMs: number;
  say(text: string): void;
  /** A host event, through the turn fold. */
  emit(event: Untimed): void;
}

export async function sweepAfterAbort(w: SweepSite): Promise<void> {
  await w.terminals.endAll('abort');
  const baseline = w.baseline();
  if (!baseline || !w.dialect.sweepsAfterAbort) return;
  const ended = await w.process.endCommandsSince(baseline, Math.min(w.killGraceMs, 1000));
  if (ended.length === 0) return;
  const list = ended.map((p) => `${p.command ?? 'a process'} (pid ${p.pid})`).join(', ');
  w.say(`after the abort, the agent had left ${ended.length === 1 ? 'a command' : `${ended.length} commands`} running; the host ended ${list}`);
  w.emit({ type: 'processes_ended', data: { reason: 'abort', processes: ended } });
}
