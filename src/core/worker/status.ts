// A worker's status and the one place it changes: whoever listens hears of a real change, once,
// and of a repeated value not at all.
import type { WorkerStatus } from '../api';

export class Status {
  constructor(private current: WorkerStatus, private readonly announce: () => void) {}

  get value(): WorkerStatus {
    return this.current;
  }

  /**
   * `alongside` runs after the change and before it is announced: what must be seen with the new
   * status first (the Event Log shows the events that came before a state change first).
   */
  set(next: WorkerStatus, alongside?: () => void): boolean {
    if (next === this.current) return false;
    this.current = next;
    alongside?.();
    this.announce();
    return true;
  }
}
