// The attention of every worker, kept for the UI: each worker's seen mark and last attention.
// Feed it each WorkerState as it comes (host.onState); it answers with the change, if any, which
// decideNotification then judges. Holds no timers and does no I/O.
import type { WorkerState } from '../api';
import { attentionOf, NOTHING_SEEN, seenNow, waitingCount, type Attention, type AttentionInfo, type SeenMark } from './attention';
import type { AttentionChange } from './notify';

interface Entry {
  seen: SeenMark;
  info: AttentionInfo;
  state: WorkerState;
  /** The last turn whose end (done, or its error) this board has reported (TurnSummary.index; 0: none). */
  told: number;
}

export class AttentionBoard {
  private readonly entries = new Map<string, Entry>();

  /**
   * A new state of a worker: its attention now, and the change when there is one. `looking`:
   * the person has its log in view, so a turn that ends is seen as it ends (never "done").
   */
  update(state: WorkerState, { looking = false }: { looking?: boolean } = {}): { info: AttentionInfo; change: AttentionChange | null } {
    const was = this.entries.get(state.workerId);
    const seen = this.seenFor(state, looking);
    const info = attentionOf(state, seen);
    const told = was?.told ?? 0;
    this.entries.set(state.workerId, { seen, info, state, told: Math.max(told, info.turn ?? 0) });
    const from = was?.info.attention ?? null;
    // A worker that had failed and fails anew (its turn's error unseen, then its process crashed;
    // its input lost, then it died) is news again, though its state's word is the same.
    const again = from === 'failed' && info.attention === 'failed' && was?.info.reason !== info.reason;
    if (from === info.attention && !again) return { info, change: null };
    // Back to a turn's end reported before (a question asked after it, then answered): the row
    // says it again, but it is no news.
    const retold = info.turn !== undefined && info.turn <= told;
    return { info, change: { workerId: state.workerId, name: state.name, from, to: info, ...(again ? { again: true as const } : {}), ...(retold ? { retold: true as const } : {}) } };
  }

  /** The person looked at the worker: what ended so far is no longer news. */
  markSeen(workerId: string): { info: AttentionInfo; change: AttentionChange | null } | null {
    const e = this.entries.get(workerId);
    if (!e) return null;
    return this.update(e.state, { looking: true });
  }

  /** The attention update(state, { looking }) would give, without keeping anything (for a listener that runs before update). */
  peek(state: WorkerState, { looking = false }: { looking?: boolean } = {}): AttentionInfo {
    return attentionOf(state, this.seenFor(state, looking));
  }

  private seenFor(state: WorkerState, looking: boolean): SeenMark {
    return looking ? seenNow(state) : this.entries.get(state.workerId)?.seen ?? NOTHING_SEEN;
  }

  get(workerId: string): AttentionInfo | null {
    return this.entries.get(workerId)?.info ?? null;
  }

  forget(workerId: string): void {
    this.entries.delete(workerId);
  }

  counts(): Record<Attention, number> {
    const out: Record<Attention, number> = { 'needs-input': 0, working: 0, failed: 0, done: 0, stopped: 0, idle: 0 };
    for (const e of this.entries.values()) out[e.info.attention]++;
    return out;
  }

  /** The badge on the view container: workers waiting for the person's answer. */
  badge(): number {
    return waitingCount([...this.entries.values()].map((e) => e.info.attention));
  }
}
