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

/** A message in flight as the page's state keeps it: VS Code builds a hidden log's page anew when it is shown again. */
export interface SavedSend {
  req: number;
  workerId: string;
  action: string;
  text: string;
}

const SENDS = new Set(['prompt', 'steer', 'followUp', 'redirect']);

/** What the page's state held (anything: it is checked). */
function savedSends(saved: unknown): SavedSend[] {
  if (!Array.isArray(saved)) return [];
  return saved.filter((s): s is SavedSend => {
    const o = (s && typeof s === 'object' ? s : {}) as Record<string, unknown>;
    return Number.isInteger(o.req) && typeof o.workerId === 'string' && typeof o.action === 'string' && SENDS.has(o.action) && typeof o.text === 'string';
  });
}

export class PendingSends {
  /** By the request id (`req`) that sent each: its reply carries it back as `seq`. */
  private readonly sends = new Map<number, { workerId: string; pending: Pending }>();
  /** What the line says when the worker is shown again: its message came back while it was not. */
  private readonly notes = new Map<string, Line>();

  /**
   * Messages that came with the page's state: the page before this one sent them, and their
   * replies, which the host keeps for a page not loaded, may still come. They give a failed message
   * back, but say no "sent…" line: after a window's reload no reply comes for them.
   */
  private readonly restored = new Set<number>();

  /** `saved`: the messages in flight the page's state held; `save`: keeps them there, as they change. */
  constructor(private readonly drafts: Pick<Drafts, 'get' | 'set'>, saved?: unknown, private readonly save: (sends: SavedSend[]) => void = () => {}) {
    for (const s of savedSends(saved).slice(-MAX_PENDING)) {
      this.sends.set(s.req, { workerId: s.workerId, pending: { action: s.action, text: s.text } });
      this.restored.add(s.req);
    }
  }

  get size(): number {
    return this.sends.size;
  }

  /** `pending` was sent to `workerId` by request `req`. */
  sent(workerId: string, pending: Pending, req: number): void {
    this.sends.set(req, { workerId, pending });
    bound(this.sends);
    this.keep();
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
    if (own) {
      this.sends.delete(msg.seq!);
      this.restored.delete(msg.seq!);
      this.keep();
    }
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
    for (const [req, s] of this.sends) if (s.workerId === workerId && !this.restored.has(req)) waiting = s.pending;
    return waiting ? pendingLine(waiting.action as Parameters<typeof pendingLine>[0]) : null;
  }

  private keep(): void {
    for (const req of this.restored) if (!this.sends.has(req)) this.restored.delete(req);
    this.save([...this.sends].map(([req, s]) => ({ req, workerId: s.workerId, action: s.pending.action, text: s.pending.text })));
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
