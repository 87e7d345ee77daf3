// Events a session recorded before the host typed them, read back as the host types them now, so
// that an old session (Open Log, Resume, Export) reads in words like a new one, not as raw JSON.
import type { AgentEvent } from '../events/agentEvent';

// ACP's modules are required when an old ACP event is read, not with the history (see
// wire/dialects.ts); the name is checked against acpProtocol.ts's by its type.
const AUTH_STATUS: typeof import('../wire/acpProtocol').AUTH_STATUS = '_auth/status_update';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- on first use, see above
const acpEvents = () => require('../wire/acpEvents') as typeof import('../wire/acpEvents');

/**
 * By the old event's type: the event it is now, from its `data`; null (of another shape) keeps it
 * as it was. Each is what the host kept of a message it did not know yet: `{ params }` (workerRequests.ts).
 */
const UPGRADES = new Map<string, (data: AgentEvent['data']) => AgentEvent | null>([
  // Claude's and Codex's sign-in notice, an "Other" row before the codec typed it (6 Dec 2026).
  [AUTH_STATUS, (data) => acpEvents().authStatusEvent(data?.params)],
]);

/** The event as the host would make it today, with the time and turn it was recorded with. */
export function upgradeOldEvent(e: AgentEvent): AgentEvent {
  const now = UPGRADES.get(e.type)?.(e.data);
  if (!now) return e;
  now.timestamp = e.timestamp;
  if (e.turn) now.turn = e.turn;
  return now;
}
