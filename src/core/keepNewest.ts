// A set or map that remembers what it was told most recently, up to a bound: insertion order is
// age, so the oldest entries are the first keys.

/** Forgets the oldest entries of `kept` until at most `most` are left. */
export function keepNewest(kept: Set<unknown> | Map<unknown, unknown>, most: number): void {
  for (const oldest of kept.keys()) {
    if (kept.size <= most) return;
    kept.delete(oldest);
  }
}
