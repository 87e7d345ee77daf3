// Words for past sessions and token usage (pure: unit-tested without VS Code).
import type { WorkerUsage } from '../../core/api';
import { endWords as turnEndWords } from '../../webview/entries';
import { plural } from '../../protocol/words';

/** A turn's end reason in words, as the Event Log says it ("worker exited", not "worker_exited"). */
export { turnEndWords };

interface EndFacts {
  status: 'live' | 'ended' | 'interrupted' | 'evicted';
  endReason: string | null;
  exit: { code: number | null; signal: string | null; started?: boolean } | null;
  /** The last turn's end; `stopped` when the worker's stop cut a running turn short. */
  lastTurnEndReason?: string | null;
}

/**
 * Interrupted by a reload that stopped the worker (its exit recorded): a running turn was cut
 * short, and its log says "Turn ended: the worker stopped". A host that died keeps no exit, and
 * whether a turn ran then is not known.
 */
function interruptedMidTurn(s: EndFacts): boolean | null {
  if (s.status !== 'interrupted' || !s.exit) return null;
  return s.lastTurnEndReason === 'stopped';
}

/** How a session ended, as a person would say it. */
export function endWords(s: EndFacts): string {
  switch (s.status) {
    case 'live': return 'running in another window';
    case 'interrupted': {
      const mid = interruptedMidTurn(s);
      return mid === null ? 'interrupted by reload' : mid ? 'interrupted mid-turn by reload' : 'interrupted by reload while idle';
    }
    case 'evicted': return 'removed by the history bound';
    case 'ended': {
      // A stop's own signal or exit code (143 after SIGTERM) says nothing the word does not.
      if (s.endReason === 'stopped') return 'stopped';
      // The host ended a start that failed (SIGTERM): the signal is the host's, the reason is in the error.
      if (s.exit?.started === false) return 'failed to start';
      const how = s.exit?.signal ? ` (${s.exit.signal})` : s.exit?.code !== null && s.exit?.code !== undefined && s.exit.code !== 0 ? ` (exit code ${s.exit.code})` : '';
      return `${s.endReason ?? 'ended'}${how}`;
    }
  }
}

/** How the last turn ended, in the log's words (null before any turn ended). */
export function lastTurnWords(s: EndFacts): string | null {
  if (!s.lastTurnEndReason) return null;
  if (interruptedMidTurn(s)) return `${turnEndWords('stopped')}: the reload cut it short`;
  return turnEndWords(s.lastTurnEndReason);
}

/** A past session's end, short enough for its row. */
function endShort(s: EndFacts): string {
  const mid = interruptedMidTurn(s);
  return mid === null ? endWords(s) : mid ? 'interrupted mid-turn' : 'interrupted while idle';
}

/** "5 min ago", "yesterday"-ish without a locale library. */
export function ago(at: number, now: number): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** When a session ran, in local time: "today 14:02", "yesterday 09:10", "Mon 14:02", "3 Dec 14:02", "3 Dec 2025". */
export function ranAt(at: number, now: number): string {
  const d = new Date(at);
  const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
  const midnight = (t: number) => { const x = new Date(t); x.setHours(0, 0, 0, 0); return x.getTime(); };
  const days = Math.round((midnight(now) - midnight(at)) / 86_400_000);
  if (days <= 0) return `today ${hm}`;
  if (days === 1) return `yesterday ${hm}`;
  if (days < 7) return `${DAYS[d.getDay()]} ${hm}`;
  if (d.getFullYear() === new Date(now).getFullYear()) return `${d.getDate()} ${MONTHS[d.getMonth()]} ${hm}`;
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
}

/**
 * A past session in one line, when it ran first: sessions of one name (from before names were
 * unique, or renamed alike) are told apart by it, and a narrow tree cuts the end off.
 */
export function pastDescription(s: EndFacts & { turns: number; filesTouched: string[]; startedAt: number; endedAt: number | null; archived: boolean }, resumedInto: string | null, now: number): string {
  const parts = [ranAt(s.startedAt, now), resumedInto ? 'resumed' : endShort(s), plural(s.turns, 'turn')];
  if (s.filesTouched.length) parts.push(plural(s.filesTouched.length, 'file'));
  if (s.archived) parts.push('archived');
  return parts.join(' · ');
}

/** 12345 → "12.3k". */
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * The worker's own accounting in one line: "ctx 3.2k/32k · 120 in, 7 out · $0.0012". τ reports
 * the last model call only, and the line says so; unknown parts are left out, never shown as 0.
 */
export function usageWords(u: WorkerUsage | null): string | null {
  if (!u) return null;
  const parts: string[] = [];
  if (u.contextTokens !== null && u.contextTokens !== undefined) {
    const share = u.contextWindow ? Math.round((u.contextTokens / u.contextWindow) * 100) : 0;
    // Under 1 % the share says nothing the numbers do not.
    const pct = share >= 1 ? ` (${share}%)` : '';
    parts.push(`ctx ${tokens(u.contextTokens)}${u.contextWindow ? `/${tokens(u.contextWindow)}` : ''}${pct}`);
  }
  const io: string[] = [];
  if (u.input !== null) io.push(`${tokens(u.input)} in`);
  if (u.output !== null) io.push(`${tokens(u.output)} out`);
  if (io.length) parts.push(`${u.scope === 'last_call' ? 'last call: ' : ''}${io.join(', ')}`);
  if (u.cost !== null && u.cost !== undefined) parts.push(`$${u.cost < 0.01 ? u.cost.toFixed(4) : u.cost.toFixed(2)}`);
  return parts.length ? parts.join(' · ') : null;
}

/** The Delete confirmation's detail: what goes and what stays. */
export function deleteDetail(s: { events: number; turns: number; removed?: unknown }): string {
  // An evicted session has no log left to delete: only its record goes.
  if (s.removed) return 'Its record is deleted from this workspace\'s history (the history bound removed its log already). The files it changed stay as they are.';
  return `Its log (${plural(s.events, 'event')}, ${plural(s.turns, 'turn')}) is deleted from this workspace's history. The files it changed stay as they are.`;
}

/** A past session in a picker: when it started (`when`, the locale's words), its turns, its dialect. */
export function pickDetail(s: { startedAt: number; turns: number; dialect: string }, when: (at: number) => string = (at) => new Date(at).toLocaleString()): string {
  return `${when(s.startedAt)} · ${plural(s.turns, 'turn')} · ${s.dialect}`;
}
