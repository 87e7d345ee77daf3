// What differs between the τ protocol majors the host knows, kept in this one place. The host
// speaks the newest names (`leaf`, `cursor_id`) to everything above the dialect; a worker on an
// older major has its names translated here, on the way in.
//
//   1.x  (as 1.5)         entry id `cursor`; the session's lane `lane` (1.8 renamed it `cursor_id`)
//   2.x                   entry id `leaf` everywhere (MAJOR bump: a renamed field); 2.1 added `$defs`
//   3.x  (τ 0.15.0 sends 3.1, which its PyPI package calls current; no change list is published)
//                         as 2.x for every field the host reads; adds suspensions (a turn may wait
//                         for a host that declared itself a responder; this host does not, so τ
//                         refuses those waits instead of hanging) and `lock_changed` /
//                         `follow_ups_dropped` / `provider_retry` events
//
// Verbs, event types and limits are not in this table: the host learns them from
// `get_capabilities` at start (see tau.ts).

export interface TauProtocol {
  major: number;
  /** The field that names the session entry the conversation is at. */
  entryId: 'cursor' | 'leaf';
  /** Whether the worker may raise suspensions (answered with `answer_suspension`). */
  suspensions: boolean;
}

export const TAU_PROTOCOLS: Readonly<Record<number, TauProtocol>> = {
  1: { major: 1, entryId: 'cursor', suspensions: false },
  2: { major: 2, entryId: 'leaf', suspensions: false },
  3: { major: 3, entryId: 'leaf', suspensions: true },
};

export const KNOWN_TAU_MAJORS = Object.keys(TAU_PROTOCOLS).map(Number);

/** The protocol a worker's `protocol_version` names, or an error that says what the host knows. */
export function tauProtocol(version: string): TauProtocol | { error: string } {
  const major = Number(version.split('.')[0]);
  const known = TAU_PROTOCOLS[major];
  if (known) return known;
  const knows = KNOWN_TAU_MAJORS.map((m) => `${m}.x`).join(', ');
  return { error: `τ speaks protocol ${version}; this host knows ${knows} and sends nothing more to an unknown MAJOR (update RPC Workers, or run a τ that speaks one of those)` };
}

/**
 * The current name of an event's field `key` (the same rule as currentNames), for the copy the
 * event path makes of the fields it does not type: renaming in place would `delete` from the
 * parsed object, which turns it into a slow dictionary for every later read (a τ 1.x flood cost
 * twice a 3.x one).
 */
export function currentKey(raw: Record<string, unknown>, key: string): string {
  if (key === 'cursor') return raw.leaf === undefined && typeof raw.cursor === 'string' ? 'leaf' : key;
  if (key === 'lane') return raw.cursor_id === undefined ? 'cursor_id' : key;
  return key;
}

/**
 * Older names brought to the current ones, in place, on an object τ sent (an event's params, a
 * compaction_end, a get_state answer). A 1.x worker's `cursor` is the entry id (`leaf` today) and
 * its `lane` the session's cursor (`cursor_id` today); from 2.0 on, neither old name is sent.
 */
export function currentNames(raw: Record<string, unknown>): void {
  if (raw.leaf === undefined && typeof raw.cursor === 'string') {
    raw.leaf = raw.cursor;
    delete raw.cursor;
  }
  if (raw.cursor_id === undefined && raw.lane !== undefined) {
    raw.cursor_id = raw.lane;
    delete raw.lane;
  }
}
