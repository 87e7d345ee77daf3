// The host knows what a worker is doing only from its events. When it has reason to doubt that
// picture (a line the worker sent was lost while a turn ran, and with it perhaps the turn's end;
// or the worker accepted a prompt and no turn began), it asks the worker itself, after a pause
// and again while the doubt lasts, until the events clear it or the worker's answer does.

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
