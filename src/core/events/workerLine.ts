// When the line a worker sent can stand for the event the host made of it, so that the event
// store and the history keep the line (copied as it came) instead of the event (kept as objects,
// or serialised again): decoding the line again must give the event back, and the line must not
// be much longer than the event.
import type { AgentEvent } from './agentEvent';

/** How much longer than its event a line may be and still stand for it (its bytes, or characters). */
const SLACK = 1024;

/**
 * An event that opens or ends a turn carries the host's own additions (the origin it recorded,
 * how the turn ended), which its line does not have. Every other event keeps what its line
 * carries, but for a text delta: pi 0.73.1 repeats the whole message so far on every delta,
 * which its event drops, so such a line is kept only while it is short.
 */
export function lineStandsFor(event: AgentEvent, line: { length: number }): boolean {
  // The replay mark is the host's: the line alone does not say it.
  if (event.replayed) return false;
  const turn = event.turn;
  if (turn !== undefined && (turn.opens === true || turn.ends === true)) return false;
  return event.type !== 'message_update' || line.length <= SLACK + 2 * (event.delta?.length ?? 0);
}
