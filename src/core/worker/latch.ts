// Something that happens to a worker's process at most once (its exit, the loss of its output, of
// its input): whether it happened, with what, and who waits for it. The process's own listener
// (`first`) hears it before any waiter, so what the worker says of it comes before what a
// released wait says.
export class Latch<T> {
  private happened: { value: T } | null = null;
  /** No waiter is taken any more: it fired, or it never will (closed). */
  private over = false;
  private readonly waiters = new Set<(value: T) => void>();

  constructor(private readonly first: (value: T) => void = () => {}) {}

  get fired(): boolean {
    return this.happened !== null;
  }

  /** What it happened with; undefined until then. */
  get value(): T | undefined {
    return this.happened?.value;
  }

  /** The first call wins; later ones, and any once closed, do nothing. */
  fire(value: T): void {
    if (this.happened || this.over) return;
    this.happened = { value };
    this.first(value);
    // The waiters there are once `first` returned (it may add one); one a waiter adds is not called.
    const waiters = [...this.waiters];
    this.over = true;
    this.waiters.clear();
    for (const waiter of waiters) waiter(value);
  }

  /**
   * Calls `waiter` once when it fires; the returned function takes it back. Not called if it
   * fired already, or never will: callers ask `fired` first.
   */
  once(waiter: (value: T) => void): () => void {
    if (this.over) return () => {};
    this.waiters.add(waiter);
    return () => this.waiters.delete(waiter);
  }

  /** It will not happen now: its waiters are let go uncalled, and `fire` does nothing. */
  close(): void {
    this.over = true;
    this.waiters.clear();
  }
}
