// The host knows what a worker is doing only from its events. When it has reason to doubt that
// picture (a line the worker sent was lost while a turn ran, and with it perhaps the turn's end;
// or the worker accepted a prompt and no turn began), it asks the worker itself, after a pause
// and again while the doubt lasts, until the events clear it or the worker's answer does.
import type { Untimed } from '../events/agentEvent';
import type { Dialect } from '../wire/dialect';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { TurnTracker } from './turns';

export interface Doubt {
  /** What made the host doubt, said to the person if the worker's answer proves it right. */
  reason: string;
  /** Whether later events have cleared it (the turn ended, the turn began). */
  cleared(): boolean;
}

export class Resync {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private doubts: Doubt[] = [];
  private checking = false;

  /**
   * `check` asks the worker: `again` while it is still busy (the turn may yet end normally),
   * `answered` once the picture is right or has been corrected.
   */
  constructor(private readonly everyMs: number, private readonly check: (doubt: Doubt) => Promise<'again' | 'answered'>) {}

  doubt(d: Doubt): void {
    this.doubts.push(d);
    this.arm();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.doubts = [];
  }

  private arm(): void {
    if (this.timer || this.checking) return;
    this.timer = setTimeout(() => void this.fire(), this.everyMs);
    this.timer.unref?.();
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    this.doubts = this.doubts.filter((d) => !d.cleared());
    const first = this.doubts[0];
    if (!first) return;
    this.checking = true;
    let answer: 'again' | 'answered';
    try {
      answer = await this.check(first);
    } finally {
      this.checking = false;
    }
    // The worker's answer covers every doubt raised so far.
    if (answer === 'answered') this.doubts = [];
    if (this.doubts.length) this.arm();
  }
}

/** What the state check reads and does in its worker. */
export interface StateCheckPort {
  readonly dialect: Dialect;
  readonly cwd: string;
  readonly connection: MessageConnection;
  readonly turns: TurnTracker;
  live(): boolean;
  /** Turns settled so far. */
  settles(): number;
  /** A request to the worker, bounded by the command timeout and by its exit. */
  request<T>(pending: Promise<T>, what: string): Promise<T>;
  /** A line for the worker's protocol output. */
  say(text: string): void;
  /** A host event; state_resync goes through the turn fold, which ends what the correction settles. */
  emit(event: Untimed): void;
}

/** Asks the worker whether it is still busy; corrects the host's picture if it is not. */
export async function checkState(w: StateCheckPort, doubt: Doubt): Promise<'again' | 'answered'> {
  // Resync drops a doubt the events cleared before it asks; after the answer, any start or
  // settle since the question stands for that.
  if (!w.live() || !w.turns.streaming) return 'answered';
  const starts = w.turns.agentStarts;
  const settles = w.settles();
  let streaming: boolean;
  try {
    // A dialect without a state verb (ACP) knows from its own open prompt; the others are asked.
    streaming = w.dialect.streaming ? w.dialect.streaming(w.connection) : (await w.request(w.dialect.probe(w.connection, { cwd: w.cwd }), 'the state check')).streaming;
  } catch (error) {
    // Gone, or the turn in doubt ended meanwhile (the host ends it when the worker's output is lost).
    if (!w.live() || !w.turns.streaming) return 'answered';
    w.say(`could not ask the worker what it is doing: ${(error as Error).message}`);
    return 'again';
  }
  // Events that came with or after the answer win over it.
  if (!w.live() || w.turns.agentStarts !== starts || w.settles() !== settles) return 'answered';
  if (streaming) return 'again';
  const error = `the host took the worker for busy, but it is idle: ${doubt.reason}`;
  w.say(error);
  w.emit({ type: 'state_resync', is_error: true, error, data: { reason: doubt.reason } });
  return 'answered';
}
