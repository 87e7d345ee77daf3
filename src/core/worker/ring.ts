// A fixed-capacity ring: the newest `capacity` items, oldest first. What falls out is counted,
// so a view can say how much history it no longer holds.
export class Ring<T> {
  private items: (T | undefined)[];
  private head = 0;
  private size = 0;
  private evictedCount = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be a positive integer, got ${capacity}`);
    this.items = new Array(capacity);
  }

  push(item: T): void {
    this.items[(this.head + this.size) % this.capacity] = item;
    if (this.size < this.capacity) this.size++;
    else {
      this.head = (this.head + 1) % this.capacity;
      this.evictedCount++;
    }
  }

  get length(): number {
    return this.size;
  }

  /** How many items were pushed out by newer ones. */
  get evicted(): number {
    return this.evictedCount;
  }

  toArray(): T[] {
    const out: T[] = new Array(this.size);
    for (let i = 0; i < this.size; i++) out[i] = this.items[(this.head + i) % this.capacity] as T;
    return out;
  }

  /** The newest `n` items, oldest first. */
  tail(n: number): T[] {
    const all = this.toArray();
    return n >= all.length ? all : all.slice(all.length - n);
  }
}
