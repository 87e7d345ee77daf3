// How a worker, a turn and a tool call are said in the UI: words and icon names, no vscode
// import, so the tree, the status bar and the tests share them.
import type { TurnSummary, WorkerState } from '../../core/api';
import { shellLine } from '../../core/shellLine';
import { workerPhase, duration, INPUT_LOST_ADVICE, INPUT_LOST_WORD, sourceLabel } from '../../protocol/words';
import { KEYS } from '../commands/ids';
import { callEnd, callEndWords, FLAGGED_BY_THE_GUARD, type CallEnd } from '../../protocol/callEnd';

/** Running, or starting: the commands offer a starting worker and wait for it to run (pickers.ts). */
export const isLive = (s: Pick<WorkerState, 'status'>): boolean => s.status === 'running' || s.status === 'starting';

type InputState = Pick<WorkerState, 'status'> & Partial<Pick<WorkerState, 'inputLost'>>;

/** Live, and it still reads its input: what is sent can reach it (see WorkerState.inputLost). */
export const readsInput = (s: InputState): boolean => isLive(s) && !s.inputLost;

/** Running, but it no longer reads its input: only Stop ends it (see WorkerState.inputLost). */
export const isDeaf = (s: InputState): boolean => s.status === 'running' && !!s.inputLost;

/** Running, and what a verb sends can reach it. */
export const runsAndReads = (s: InputState): boolean => s.status === 'running' && !s.inputLost;

/**
 * `contextValue` of a worker's tree item: `rpcWorker.<phase>`, plus `.live` when it can be driven
 * and `.asks` while a question of its waits for the person (an agent's permission question, a
 * pi dialog): the row offers Answer Open Questions… then. `.noCompact` (an agent without
 * compaction) and `.modes` (an agent that lists modes) keep Compact and Switch Mode… off the
 * rows where they cannot work: offered there, each only failed with a message; `.noFork` and
 * `.noModel` (an ACP agent: no fork in ACP v1, and one that lists no model choice) do the same for
 * Fork Session and Switch Model…. A worker that no
 * longer reads its input is `rpcWorker.deaf.live` whatever it runs: no row command that sends it
 * something matches (each would only fail), while Stop, its log, output, pid and Export still do.
 */
export function workerContextValue(s: Pick<WorkerState, 'status' | 'streaming' | 'compacting'> & Partial<Pick<WorkerState, 'pendingInput' | 'compactUnavailable' | 'modes' | 'inputLost' | 'forkUnavailable' | 'modelUnavailable'>>): string {
  const live = isLive(s);
  if (live && s.inputLost) return 'rpcWorker.deaf.live';
  const phase = workerPhase(s);
  const asks = live && (s.pendingInput ?? []).some((p) => p.kind === 'dialog');
  const noCompact = live && !!s.compactUnavailable;
  const modes = live && (s.modes ?? []).length > 0;
  const noFork = live && !!s.forkUnavailable;
  const noModel = live && !!s.modelUnavailable;
  return `rpcWorker.${phase}${live ? '.live' : ''}${asks ? '.asks' : ''}${noCompact ? '.noCompact' : ''}${modes ? '.modes' : ''}${noFork ? '.noFork' : ''}${noModel ? '.noModel' : ''}`;
}

/**
 * What a worker is doing first, in the words of the log's chip ("idle", "streaming", "compacting
 * after its turn"; a worker that is not running, its status and how it ended), then its model:
 * a narrow side bar cuts the end off. One that no longer reads its input says that first.
 */
export function workerDescription(s: WorkerState): string {
  const parts: string[] = [];
  if (isDeaf(s)) parts.push(INPUT_LOST_WORD);
  if (s.status !== 'running') parts.push(s.status);
  else if (s.compacting) parts.push(s.afterTurn === 'compaction' ? 'compacting after its turn' : 'compacting');
  else if (s.afterTurn) parts.push(AFTER_TURN[s.afterTurn]);
  else parts.push(s.streaming ? 'streaming' : 'idle');
  if (s.status === 'failed' && s.exitCode !== null) parts.push(`exit ${s.exitCode}`);
  if (s.signal) parts.push(s.signal);
  // A mode the person switched to (Allow all, Plan) changes what the agent does unasked: the row
  // says it. The first mode listed is the one it starts in, and is not spent room on.
  const mode = s.status === 'running' && s.mode && s.modes?.length && s.mode !== s.modes[0].id ? s.modes.find((m) => m.id === s.mode)?.name ?? s.mode : null;
  if (mode) parts.push(`mode: ${mode}`);
  if (s.model) parts.push(s.model);
  // A TreeItem description cannot show a codicon, so the word says it (the tooltip has the shield).
  if (s.guarded) parts.push('guarded');
  return parts.join(' · ');
}

/** What is wrong with a worker and what to do, first in its tooltip; null when nothing is. */
export function tooltipWarning(s: InputState): string | null {
  return isDeaf(s) ? INPUT_LOST_ADVICE : null;
}

/**
 * The worker's process id while its process lives ('none' before it has one); null once it
 * exited: that process is gone and its number may be another's by now. The tooltip and the
 * worker pickers leave it out then, as the log's chip and Copy PID do.
 */
export function pidWords(s: Pick<WorkerState, 'status' | 'pid'>): string | null {
  if (!isLive(s)) return null;
  return s.pid === null ? 'none' : String(s.pid);
}

/** A worker picker's second line: its pid while it lives, and its folder. */
export function workerPickDetail(s: Pick<WorkerState, 'status' | 'pid' | 'cwd'>): string {
  const pid = pidWords(s);
  return pid === null ? s.cwd : `pid ${pid} · ${s.cwd}`;
}

/** Post-turn work (pi 1.x, between agent_end and agent_settled), said as such and not as a running turn. */
const AFTER_TURN: Record<NonNullable<WorkerState['afterTurn']>, string> = {
  retry: 'retrying after its turn',
  compaction: 'compacting after its turn',
  continuation: 'going on with queued messages',
  settling: 'settling its turn',
};

/** The dialect and, where the host learned it, the worker's version: "pi 1.6.0". */
export function dialectLine(s: Pick<WorkerState, 'dialect' | 'workerVersion'>): string {
  return s.workerVersion ? `${s.dialect} ${s.workerVersion}` : `${s.dialect} (version not known)`;
}

/** How the guard holds the worker: before a write, or after it was reported. */
export const WRITE_GUARD_WORDS: Record<NonNullable<WorkerState['writeGuard']>, string> = {
  vetoed: 'writes are vetoed: one outside the allowed paths is refused before it happens',
  audited: 'writes are audited after the fact: one outside the allowed paths is flagged once reported, not prevented',
};

/** What a worker may do, for its tooltip: its card, whether the guard confines it, its tools. */
export function trustLines(s: Pick<WorkerState, 'agent' | 'guarded' | 'tools' | 'dialect'> & Partial<Pick<WorkerState, 'writeGuard' | 'guardAllowsBash'>>): { guard: string; lines: string[] } {
  const lines: string[] = [];
  if (s.agent) lines.push(`agent card: ${s.agent}`);
  if (s.tools) lines.push(`tools: ${s.tools.length ? s.tools.join(', ') : 'none'}`);
  if (!s.guarded) return { guard: 'not guarded: the worker has the trust of your own tools', lines };
  // pi's guard drops bash unless allowed; a τ worker keeps its tools and the host audits each call.
  if (s.tools && !s.tools.includes('bash')) lines.push('bash: off (the guard cannot confine a shell)');
  // A shell the guard lets run writes anywhere: "confined" must not be said of such a worker.
  const shell = s.guardAllowsBash === true;
  if (shell && s.dialect === 'pi') lines.push('bash: on (rpcWorkers.guard.allowBash): the guard cannot confine what a shell writes');
  if (s.writeGuard) lines.push(WRITE_GUARD_WORDS[s.writeGuard]);
  // τ and others: an audit after the call, which says what it checks (tools it does not know are
  // flagged); an ACP agent that asks or writes through the host meets a wall before the write.
  if (s.dialect !== 'pi') {
    const unchecked = shell ? '; a shell command passes unchecked (bash is allowed)' : '';
    if (!s.tools) lines.push("tools: the worker's own; the host checks each call after it is made and may abort the turn");
    if (s.writeGuard === 'vetoed') return { guard: `guarded: writes outside the allowed paths are refused before they happen${unchecked}`, lines };
    return { guard: `guarded (audited after the call): write and edit paths are checked, any other tool but read, grep, find, ls is flagged${unchecked}`, lines };
  }
  if (shell) return { guard: 'guarded: write and edit are confined to the allowed paths; bash is on, and what a shell writes is not', lines };
  return { guard: 'guarded: writes are confined to the allowed paths', lines };
}

/** A codicon id (with ~spin where it moves) and a theme colour id, by phase; a warning for a worker that no longer reads its input. */
export function workerIcon(s: Pick<WorkerState, 'status' | 'streaming' | 'compacting'> & Partial<Pick<WorkerState, 'inputLost'>>): { id: string; color?: string } {
  if (isDeaf(s)) return { id: 'warning', color: 'problemsWarningIcon.foreground' };
  switch (workerPhase(s)) {
    case 'starting': return { id: 'loading~spin' };
    case 'streaming': return { id: 'sync~spin', color: 'charts.blue' };
    case 'compacting': return { id: 'fold~spin', color: 'charts.purple' };
    case 'idle': return { id: 'circle-filled', color: 'testing.iconPassed' };
    case 'exited': return { id: 'circle-outline' };
    case 'stopped': return { id: 'debug-stop' };
    case 'failed': return { id: 'error', color: 'errorForeground' };
  }
}

export function turnIcon(t: TurnSummary): { id: string; color?: string } {
  if (t.endedAt === null && t.endReason === null) return { id: 'sync~spin' };
  switch (t.endReason) {
    case 'done': return t.error ? { id: 'error', color: 'errorForeground' } : { id: 'check', color: 'testing.iconPassed' };
    case 'aborted': return { id: 'circle-slash', color: 'problemsWarningIcon.foreground' };
    case 'max_turns': return { id: 'warning', color: 'problemsWarningIcon.foreground' };
    case 'error': return { id: 'error', color: 'errorForeground' };
    default: return { id: 'circle-outline' };
  }
}

export function turnDescription(t: TurnSummary): string {
  const parts: string[] = [];
  parts.push(t.endReason ?? (t.endedAt === null ? 'streaming' : 'ended'));
  if (t.source) parts.push(`from ${sourceLabel(t.source)}`);
  if (t.endedAt !== null) parts.push(duration(t.endedAt - t.startedAt));
  // A call the guard flagged after it ran (τ's audit) was not blocked: its write landed.
  const blocked = t.tools.filter((x) => x.blocked).length;
  const flagged = t.tools.filter((x) => !x.blocked && x.violation).length;
  if (t.tools.length) parts.push(`${t.tools.length} tool${t.tools.length === 1 ? '' : 's'}${blocked ? `, ${blocked} blocked` : ''}${flagged ? `, ${flagged} ${FLAGGED_BY_THE_GUARD}` : ''}`);
  return parts.join(' · ');
}

/**
 * A tool call's row in the tree: its end (the one judgement, protocol/callEnd.ts) and its
 * description in the words the Event Log and the export say it with: `⛔ blocked by NAME`,
 * `⚠ ok, flagged by the guard: finding`, `stopped`, `error`, `ok`, `running`.
 */
export function toolRow(t: TurnSummary, tool: TurnSummary['tools'][number]): { end: CallEnd; description: string } {
  const end = callEnd(t, tool);
  const words = callEndWords(end, tool);
  if (end === 'blocked') return { end, description: `⛔ ${words}` };
  return { end, description: tool.violation ? `⚠ ${words}: ${tool.violation}` : words };
}

export function commandLine(s: Pick<WorkerState, 'command' | 'args'>): string {
  return shellLine(s.command, s.args);
}

/**
 * The status bar's count: workers running or starting, streaming, and (`waiting`, the view's badge: workers
 * whose rows say "needs input") those waiting for the person's answer, with the badge's bell;
 * null hides it.
 */
export function statusText(list: Pick<WorkerState, 'status' | 'streaming'>[], waiting = 0): { text: string; tooltip: string; waiting: boolean } | null {
  const live = list.filter(isLive);
  if (live.length === 0) return null;
  const streaming = live.filter((s) => s.streaming).length;
  const asks = waiting > 0 ? ` · $(bell-dot) ${waiting} need${waiting === 1 ? 's' : ''} input` : '';
  const text = `$(${streaming ? 'sync~spin' : 'server-process'}) ${live.length}${streaming ? ` · ${streaming} streaming` : ''}${asks}`;
  // A starting worker is in the bar's number (it shows as the worker is started), but it is not running yet.
  const running = live.filter((s) => s.status === 'running').length;
  const starting = live.length - running;
  const workers = (n: number) => `${n} worker${n === 1 ? '' : 's'}`;
  const counts = !running ? `${workers(starting)} starting` : `${workers(running)} running${starting ? `, ${starting} starting` : ''}, ${streaming} streaming`;
  const wait = waiting > 0 ? `, ${waiting} waiting for your answer` : '';
  const tooltip = `RPC Workers: ${counts}${wait}. Click to show the Sessions view.`;
  return { text, tooltip, waiting: waiting > 0 };
}

export function contextValues(list: WorkerState[]): Record<string, boolean> {
  // One that no longer reads its input is neither streaming nor idle to a verb: it takes none.
  const running = list.filter(runsAndReads);
  const idle = running.filter((s) => !s.streaming && !s.compacting);
  return {
    [KEYS.hasWorkers]: list.length > 0,
    // Copy PID, Forget Always-Allowed Actions: they send the worker nothing.
    [KEYS.hasRunningWorkers]: list.some(isLive),
    // A worker still starting counts, so Prompt is in the palette for the one just started.
    [KEYS.anyReadsInput]: list.some(readsInput),
    [KEYS.anyStreaming]: running.some((s) => s.streaming || s.compacting),
    [KEYS.anyIdle]: idle.length > 0,
    // Fork Session, Switch Model…: an idle worker that can take them at all (not an ACP agent's lack).
    [KEYS.anyForks]: idle.some((s) => !s.forkUnavailable),
    [KEYS.anySwitchesModel]: idle.some((s) => !s.modelUnavailable),
    // Compact, Switch Mode…: as their rows offer them (not an agent without compaction, or without modes).
    [KEYS.anyCompacts]: idle.some((s) => !s.compactUnavailable),
    [KEYS.anySwitchesMode]: idle.some((s) => (s.modes ?? []).length > 0),
  };
}

/**
 * The workers the event log offers: every live one, and the stopped ones it still keeps (their
 * logs stay readable), live first and each once. `status` says which is which. Each is listed
 * under the one name the host gave it when it started (never renumbered here), so the list,
 * the tree, the tab and the notifications agree.
 */
export function logWorkerList(live: ReadonlyArray<{ workerId: string; name: string; status: string }>, retired: ReadonlyArray<{ workerId: string; name: string; status: string }>): Array<{ workerId: string; name: string; status: string }> {
  const seen = new Set(live.map((w) => w.workerId));
  return [...live, ...retired.filter((w) => !seen.has(w.workerId))].map((w) => ({ workerId: w.workerId, name: w.name, status: w.status }));
}
