// What decides how the next worker starts (profiles, guard settings, agent cards), watched for
// changes made while a worker ran. Such a change may be the worker's own (an unguarded worker,
// or one whose guard allowed it), so the next start that would use it asks the person first.
// A change made while no worker ran is the person's and passes silently.
//
// The sources are read, not watched: `observe` is called at each start and whenever a worker
// ends, which is enough to place every change either inside or outside the time a worker ran.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { MAX_CARD_BYTES, isCardFileName, readRegularFileHead } from '../regularFile';

/** One thing that configures workers: `read` gives its content, or null when it is absent. */
export interface ConfigSource {
  label: string;
  read(): string | null;
}

// node:crypto is required on the first digest (a worker's start), not when the extension loads:
// loading it costs activation ~2 ms.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
const sha256 = (text: string) => (require('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(text).digest('hex');
const digest = (text: string | null) => (text === null ? 'absent' : sha256(text));

function readOrNull(file: string): string | null {
  try {
    // Read at every start and every worker's end, on the host's thread; a FIFO or a device reads
    // as the reason it was not read. A file over the card reader's cap is refused by it, so what
    // a worker could change of it to matter is its first bytes or its size (it would shrink it
    // under the cap): those, and its time, stand for it, not its whole text.
    const read = readRegularFileHead(file, MAX_CARD_BYTES);
    if (!read.ok) return read.reason;
    if (read.whole) return read.head.toString('utf8');
    return `larger than ${MAX_CARD_BYTES} bytes: ${read.size} bytes, modified ${read.mtimeMs}, beginning ${read.head.toString('latin1')}`;
  } catch {
    return null;
  }
}

/** A file's content. */
export function fileSource(file: string, label = file): ConfigSource {
  return { label, read: () => readOrNull(file) };
}

/** Every agent card (`*.md`) of a folder, one source per card, plus one for the set of names (a new card shadows). */
export function cardFolderSources(dir: string): ConfigSource[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter(isCardFileName).sort();
  } catch {
    // Absent: the listing source below says so.
  }
  return [
    { label: `${dir}${path.sep} (its cards)`, read: () => { try { return readdirSync(dir).filter(isCardFileName).sort().join('\n'); } catch { return null; } } },
    ...names.map((n) => fileSource(path.join(dir, n))),
  ];
}

/**
 * What a watch keeps across windows (labels and digests, never content), so that a reload does
 * not take a worker's change as the person's baseline.
 */
export interface WatchState {
  /** The last reading. */
  baseline: Record<string, string>;
  /** The changes held for confirmation, each with the digest the person last had. */
  changed: Record<string, string>;
  /** A worker ran since the last reading (it may still run, a survivor of a crash). */
  ran: boolean;
}

/** Where a watch's state is kept between windows; `load` gives undefined when there is none (or it is unreadable). */
export interface WatchStore {
  load(): WatchState | undefined;
  save(state: WatchState): void;
}

export class LaunchConfigWatch {
  private baseline = new Map<string, string>();
  /** Pending sources, each with the content (digest) it had when the person last had it. */
  private readonly changed = new Map<string, string>();
  /** A worker ran at some time since the baseline was taken. */
  private ran = false;
  /** Restored from the store and not read since: the first reading compares with an earlier window's. */
  private restored = false;
  private saved: string | undefined;

  constructor(private readonly sources: () => ConfigSource[], private readonly store?: WatchStore) {
    const state = store?.load();
    if (state) {
      // Not read here: the first observe (a start, a worker's end) does, so that this costs nothing more.
      this.baseline = new Map(Object.entries(state.baseline));
      for (const [label, was] of Object.entries(state.changed)) this.changed.set(label, was);
      this.ran = state.ran;
      this.restored = true;
    } else {
      this.baseline = this.read();
      this.save();
    }
  }

  private read(): Map<string, string> {
    const out = new Map<string, string>();
    for (const s of this.sources()) out.set(s.label, digest(s.read()));
    return out;
  }

  private save(): void {
    if (!this.store) return;
    const state: WatchState = { baseline: Object.fromEntries(this.baseline), changed: Object.fromEntries(this.changed), ran: this.ran };
    const text = JSON.stringify(state);
    if (text === this.saved) return;
    this.saved = text;
    this.store.save(state);
  }

  /**
   * Compares the sources with the last reading; what differs is held for confirmation if a
   * worker ran since then. `liveWorkers`: how many run now.
   */
  observe(liveWorkers: number): void {
    const now = this.read();
    for (const label of new Set([...now.keys(), ...this.baseline.keys()])) {
      const was = this.baseline.get(label) ?? 'absent';
      const is = now.get(label) ?? 'absent';
      if (is === was) continue;
      if (this.ran && !this.changed.has(label)) this.changed.set(label, was);
    }
    // Put back as it was: nothing left to confirm for it.
    for (const [label, was] of this.changed) if ((now.get(label) ?? 'absent') === was) this.changed.delete(label);
    this.baseline = now;
    this.ran = liveWorkers > 0;
    this.restored = false;
    this.save();
  }

  /** A worker was started: from now on a change is made while it runs. */
  started(): void {
    // What changed since an earlier window's reading is placed first, by whether a worker ran then.
    if (this.restored) this.observe(0);
    if (this.ran) return;
    this.ran = true;
    // Kept at once: should the window end without a worker's end being observed (a crash, a
    // reload), the next window still knows a worker ran since the reading.
    this.save();
  }

  /** The sources that changed while a worker ran and are not confirmed yet. */
  pending(): string[] {
    return [...this.changed.keys()].sort();
  }

  /** The person accepted the changes. */
  confirm(): void {
    this.changed.clear();
    this.save();
  }
}
