// The composer's messages on their way, each until the host's reply to its request comes: a
// message whose send failed goes back to the person, even when the log was switched to another
// worker meanwhile. Kept per request, apart from the DOM (composerPanel.ts applies it), so the
// tests hold it. The worker shown is answered as before (composer.ts's afterResult); a worker not
// shown gets its failed message back in its draft, and its line says so when it is shown again.
// Once one `pendingSend` per page was kept, and switching workers threw it away: a send that then
// failed was lost for good, with nothing said.
import type { HostMessage } from '../protocol/messages';
import { afterResult, giveBack, pendingLine, type Line, type Pending } from './composer';
import type { Drafts } from './drafts';

type Result = Extract<HostMessage, { type: 'result' }>;

/** Messages awaited at once, and lines kept for workers not shown; the oldest goes first (a reply that never came). */
export const MAX_PENDING = 20;

/** What a reply does to the worker shown: the line it says, and the text back in the box (null: none). */
export interface Shown {
  line: Line;
  restore: string | null;
}

export class PendingSends {
  /** By the request id (`req`) that sent each: its reply carries it back as `seq`. */
  private readonly sends = new Map<number, { workerId: string; pending: Pending }>();
  /** What the line says when the worker is shown again: its message came back while it was not. */
  private readonly notes = new Map<string, Line>();

  constructor(private readonly drafts: Pick<Drafts, 'get' | 'set'>) {}

  get size(): number {
    return this.sends.size;
  }

  /** `pending` was sent to `workerId` by request `req`. */
  sent(workerId: string, pending: Pending, req: number): void {
    this.sends.set(req, { workerId, pending });
    bound(this.sends);
  }

  /**
   * A result while `shown` is shown. For it: what it does to the box and line, as afterResult says
   * (only the reply to its own send gives the message back). For another worker: null, always (its
   * result is not this line's); but the reply to a send of this page that failed puts the message
   * back into that worker's draft, and keeps what its line says when it is shown again.
   */
  reply(shown: string | null, msg: Result, boxValue: string): Shown | null {
    const entry = msg.seq === undefined ? undefined : this.sends.get(msg.seq);
    const own = entry !== undefined && entry.workerId === msg.workerId;
    if (own) this.sends.delete(msg.seq!);
    const r = { action: msg.action, status: msg.status, message: msg.message, tone: msg.tone, own };
    if (msg.workerId === shown) {
      const after = afterResult(own ? entry.pending : null, r, boxValue);
      return { line: after.line, restore: after.restore };
    }
    if (!own) return null;
    // Whether it failed is afterResult's rule (an empty box: the draft is merged below).
    const back = afterResult(entry.pending, r, '').restore;
    if (back === null) return null;
    const draft = this.drafts.get(msg.workerId);
    this.drafts.set(msg.workerId, giveBack(back, draft));
    this.notes.set(msg.workerId, notSentLine(msg.message, draft !== ''));
    bound(this.notes);
    return null;
  }

  /** The line `workerId` starts with when shown again: a message given back (said once), one on its way, or none. */
  shownAgain(workerId: string): Line | null {
    const note = this.notes.get(workerId);
    if (note) {
      this.notes.delete(workerId);
      return note;
    }
    let waiting: Pending | undefined;
    for (const s of this.sends.values()) if (s.workerId === workerId) waiting = s.pending;
    return waiting ? pendingLine(waiting.action as Parameters<typeof pendingLine>[0]) : null;
  }
}

function notSentLine(message: string, merged: boolean): Line {
  return { text: `Your message was not sent (${message}): it is back in the box${merged ? ', above what you typed since' : ''}.`, cls: 'error' };
}

function bound<K, V>(map: Map<K, V>): void {
  for (const oldest of map.keys()) {
    if (map.size <= MAX_PENDING) break;
    map.delete(oldest);
  }
}
