// How far the person has come in the Getting Started walkthrough, read from what the workers did
// (not from which buttons were pressed: a step done from the palette, the log's composer or an
// editor counts the same). No vscode import: the unit tests drive it with plain states.
import type { WorkerState } from '../../core/api';

/** The walkthrough's context keys (package.json `contributes.walkthroughs` completes on them). */
export const WALKTHROUGH_KEYS = {
  demoStarted: 'rpcWorkers.walkthrough.demoStarted',
  demoStreamed: 'rpcWorkers.walkthrough.demoStreamed',
  demoRedirected: 'rpcWorkers.walkthrough.demoRedirected',
  agentStarted: 'rpcWorkers.walkthrough.agentStarted',
} as const;

export type WalkthroughStep = keyof typeof WALKTHROUGH_KEYS;

type Seen = Pick<WorkerState, 'command' | 'args' | 'status' | 'turns'>;

/** The built-in demo worker: the extension's own dist/demo-worker.js, whatever it was named. */
export function isDemoWorker(s: Pick<WorkerState, 'command' | 'args'>): boolean {
  return [s.command, ...s.args].some((a) => /(^|[\\/])demo-worker\.js$/.test(a));
}

/**
 * The steps this worker's state shows done. Started: it ran. Streamed: a turn of it ended (the
 * person watched one stream). Redirected: a turn was aborted and another one began after it
 * (Redirect does both; Abort and then a new prompt is the same lesson). A worker that is not the
 * demo and ran counts as the real agent.
 */
export function stepsDone(s: Seen): WalkthroughStep[] {
  // Running once is enough (the keys stay set); a program that exits as it starts never ran.
  const ran = s.status === 'running' || s.turns.length > 0;
  if (!ran) return [];
  if (!isDemoWorker(s)) return ['agentStarted'];
  const out: WalkthroughStep[] = ['demoStarted'];
  if (s.turns.some((t) => t.endedAt !== null && t.endReason !== 'aborted' && !t.error)) out.push('demoStreamed');
  const aborted = s.turns.findIndex((t) => t.endReason === 'aborted');
  if (aborted >= 0 && s.turns.slice(aborted + 1).length > 0) out.push('demoRedirected');
  return out;
}
