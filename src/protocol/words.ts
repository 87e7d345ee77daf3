// The words the tree, the status bar and the event log page all say: a worker's phase and
// whether it needs the person, where a turn came from, how long something took. Both bundles import this file, so it imports
// nothing (the page must not pull in zod's full build, vscode or node).

/** What a worker is doing, in one word: what menus key on and what the page shows. */
export type WorkerPhase = 'starting' | 'idle' | 'streaming' | 'compacting' | 'exited' | 'stopped' | 'failed';

export function workerPhase(s: { status: 'starting' | 'running' | 'exited' | 'stopped' | 'failed'; streaming: boolean; compacting: boolean }): WorkerPhase {
  if (s.status === 'running') return s.compacting ? 'compacting' : s.streaming ? 'streaming' : 'idle';
  return s.status;
}

/**
 * Whether a worker needs the person (derived in core/attention from WorkerState and what the
 * person has seen). Listed here so that the tree, the tab titles and the page say it alike.
 */
export const ATTENTION_STATES = ['needs-input', 'working', 'failed', 'done', 'stopped', 'idle'] as const;
export type Attention = typeof ATTENTION_STATES[number];

const ATTENTION_WORDS: Record<Attention, string> = {
  'needs-input': 'needs input', working: 'working', failed: 'failed', done: 'done', stopped: 'stopped', idle: 'idle',
};

export function attentionWord(a: Attention): string {
  return ATTENTION_WORDS[a];
}

/**
 * The word for an attention state that is news to the person (it waits for an answer, its turn
 * ended unseen, it failed): said first, before the phase, on the worker's row and in its log's
 * status chip. null: nothing new, the phase says enough.
 */
export function newsWord(a: Attention | null | undefined): string | null {
  return a === 'needs-input' || a === 'done' || a === 'failed' ? ATTENTION_WORDS[a] : null;
}

/**
 * A worker that no longer reads its input (its stdin closed while it runs on: WorkerState.inputLost)
 * is said to be this first, on its row and in its log's chip: its phase alone ("idle",
 * "streaming") read as if all were well, and the person learnt it only when a verb failed.
 */
export const INPUT_LOST_WORD = 'not reading its input';

/** What it means and what to do, in its row's tooltip and its chip's. */
export const INPUT_LOST_ADVICE = 'It no longer reads its input (its stdin closed) while its process runs on: nothing sent can reach it, so a prompt, steer, abort or compaction only fails. Stop it (Stop Worker); its log, output and Export to Markdown still work.';

/** "1 turn", "2 turns": a count with its noun, singular for one. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "event", "2 events": after "the first" or "the oldest", where "the first 1 events" was said. */
export const theCount = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : `${n} ${many}`);

/** "850 ms", "2.5 s", "1 min 5 s". */
export function duration(ms: number): string {
  // Rounded first, then split: 119.6 s is "2 min 0 s", never "1 min 60 s".
  const whole = Math.max(0, Math.round(ms));
  if (whole < 1000) return `${whole} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Where a message to a worker came from (a Provenance's `source`). */
export type Source = 'palette' | 'event-log' | 'editor' | 'api' | 'tree' | 'task' | 'retry';

/** Each source's codicon and name; `proper` names keep their capitals inside a sentence. */
const SOURCES: Record<Source, { icon: string; label: string; proper?: true }> = {
  palette: { icon: 'terminal', label: 'Command Palette', proper: true },
  'event-log': { icon: 'comment', label: 'Event log composer' },
  editor: { icon: 'edit', label: 'Editor' },
  api: { icon: 'extensions', label: 'Extension API' },
  tree: { icon: 'list-tree', label: 'Sessions view', proper: true },
  task: { icon: 'tasklist', label: 'First task' },
  // A run the worker began itself, retrying one that failed (pi 0.73.1 says so only after the turn ended).
  retry: { icon: 'refresh', label: 'The worker\'s own retry' },
};

/** A source as a heading says it ("Editor"), with its icon and a CSS class; a source the host does not know keeps its own word. */
export function sourceInfo(source: string | null | undefined): { icon: string; label: string; cls: string } {
  if (!source) return { icon: 'question', label: 'Unknown source', cls: 'src-unknown' };
  const known = (SOURCES as Record<string, { icon: string; label: string } | undefined>)[source];
  return known ? { icon: known.icon, label: known.label, cls: `src-${source}` } : { icon: 'plug', label: source, cls: 'src-other' };
}

/** A source as a sentence says it: "from editor", "from Command Palette". */
export function sourceLabel(source: string | null | undefined): string {
  const known = source ? (SOURCES as Record<string, { label: string; proper?: true } | undefined>)[source] : undefined;
  if (source && !known) return source;
  const label = known ? known.label : 'Unknown source';
  return known?.proper ? label : label[0].toLowerCase() + label.slice(1);
}

/**
 * Whom an agent signs in as (core/events/agentEvent.ts AuthStatusEvent's data, WorkerState's
 * `signIn`), for the log's row and the worker's tooltip alike: `signedIn` false for kind `none`;
 * `what`: its label and detail ("Anthropic API key (ANTHROPIC_API_KEY)").
 */
export function signInWords(s: { kind?: unknown; label?: unknown; detail?: unknown }): { signedIn: boolean; what: string } {
  const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
  if (s.kind === 'none') return { signedIn: false, what: '' };
  const detail = text(s.detail);
  return { signedIn: true, what: `${text(s.label) ?? text(s.kind) ?? ''}${detail ? ` (${detail})` : ''}` };
}

/** Why events never reached the history: its writer's last error, or, with none, a queue that was full. */
export const neverWritten = (lastError: string | null): string => (lastError ? `the last error: ${lastError}` : 'events came faster than the disk took them');
