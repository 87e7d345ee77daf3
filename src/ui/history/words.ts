// Words for past sessions and token usage (pure: unit-tested without VS Code).
import type { WorkerUsage } from '../../core/api';

interface EndFacts {
  status: 'live' | 'ended' | 'interrupted' | 'evicted';
  endReason: string | null;
  exit: { code: number | null; signal: string | null } | null;
}

/** How a session ended, as a person would say it. */
export function endWords(s: EndFacts): string {
  switch (s.status) {
    case 'live': return 'running in another window';
    case 'interrupted': return 'interrupted by reload';
    case 'evicted': return 'removed by the history bound';
    case 'ended': {
      // A stop's own signal or exit code (143 after SIGTERM) says nothing the word does not.
      if (s.endReason === 'stopped') return 'stopped';
      const how = s.exit?.signal ? ` (${s.exit.signal})` : s.exit?.code !== null && s.exit?.code !== undefined && s.exit.code !== 0 ? ` (exit code ${s.exit.code})` : '';
      return `${s.endReason ?? 'ended'}${how}`;
    }
  }
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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function pastDescription(s: EndFacts & { turns: number; filesTouched: string[]; startedAt: number; endedAt: number | null; archived: boolean }, resumedInto: string | null, now: number): string {
  const parts = [resumedInto ? 'resumed' : endWords(s), plural(s.turns, 'turn')];
  if (s.filesTouched.length) parts.push(plural(s.filesTouched.length, 'file'));
  parts.push(ago(s.endedAt ?? s.startedAt, now));
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
