// A worker's recent events, the newest `capacity`, for a log opened later and for exports.
// An event the worker sent is kept as the line it came in, in one off-heap byte arena, with its
// timestamp and turn stamp beside it in typed and shared storage, and is decoded again when
// read. Kept as objects, 10,000 events survived a scavenge or two each and were copied field by
// field every time: under a flood that was most of the collector's work on the event path. (A
// line kept as a string would do the same, and would keep alive the whole chunk of text it was
// sliced from.) The events the host made or changed (a turn's opening and ending events, its
// own findings) are few and are kept as the objects they are, and so is an event whose line is
// much longer than it (events/workerLine.ts decides, for the history too).
import type { AgentEvent, TurnStamp } from '../events/agentEvent';
import { approxChars } from '../events/cutEvent';

const FIRST_ARENA_BYTES = 256 * 1024;
/** The arena grows to this, then older events give way to newer ones before the count bound. */
const MAX_ARENA_BYTES = 64 * 1024 * 1024;
/**
 * What the events kept as objects may hold, in characters of their strings (about as many bytes,
 * twice that for text outside Latin-1), before older ones give way. Each such event is itself
 * bounded (events/cutEvent.ts), so this and the arena bound a worker's store in bytes.
 */
const MAX_OBJECT_CHARS = 16 * 1024 * 1024;
/** A fixed charge per object event for its keys and structure. */
const OBJECT_OVERHEAD = 256;

/** Reads a stored line back into the event it was (the worker's codec, which is pure for events). */
export type Redecode = (line: string) => AgentEvent;

export class EventStore {
  /** The event itself, for a slot not kept as a line. */
  private readonly objects: (AgentEvent | undefined)[];
  /** A line's turn stamp: shared by the events of a turn, so keeping it costs no object. */
  private readonly stamps: (TurnStamp | undefined)[];
  private readonly offsets: Int32Array;
  /** A line's bytes in the arena; -1 for a slot kept as its event. */
  private readonly lengths: Int32Array;
  private readonly times: Float64Array;
  /** What each slot kept as an object was charged (approxChars), and the sum. */
  private readonly charged: Float64Array;
  private objectChars = 0;
  private size = 0;
  /** Events pushed out so far: also the arrival number of the oldest kept, whose slot is that modulo capacity. */
  private evictedCount = 0;
  /** Where the oldest line is looked for, by arrival number. */
  private oldestLineFrom = 0;
  private arena: Buffer;
  private writeAt = 0;
  /** Slots kept as lines: their bytes are the arena's live part, in slot order. */
  private lines = 0;

  constructor(readonly capacity: number, private readonly redecode: Redecode, private readonly maxArenaBytes = MAX_ARENA_BYTES, private readonly maxObjectChars = MAX_OBJECT_CHARS) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`event store capacity must be a positive integer, got ${capacity}`);
    this.objects = new Array(capacity);
    this.stamps = new Array(capacity);
    this.offsets = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity).fill(-1);
    this.times = new Float64Array(capacity);
    this.charged = new Float64Array(capacity);
    this.arena = Buffer.allocUnsafe(Math.min(FIRST_ARENA_BYTES, maxArenaBytes));
  }

  /** Keeps `event`; `line` is the bytes of the worker's line that stands for it (lineStandsFor), if any. */
  push(event: AgentEvent, line?: Uint8Array): void {
    if (this.size === this.capacity) this.evictOldest();
    const slot = (this.evictedCount + this.size) % this.capacity;
    this.size++;
    const at = line === undefined ? -1 : this.place(line.length);
    if (at < 0) {
      this.objects[slot] = event;
      const chars = OBJECT_OVERHEAD + approxChars(event, this.maxObjectChars);
      this.charged[slot] = chars;
      this.objectChars += chars;
      // The newest is always kept, however large; older ones give way until the rest fits.
      while (this.objectChars > this.maxObjectChars && this.size > 1) this.evictOldest();
      return;
    }
    // The worker's bytes, copied as they came: no text is encoded again.
    this.arena.set(line!, at);
    this.writeAt = at + line!.length;
    this.offsets[slot] = at;
    this.lengths[slot] = line!.length;
    this.times[slot] = event.timestamp;
    this.stamps[slot] = event.turn;
    this.lines++;
  }

  get length(): number {
    return this.size;
  }

  /** How many events were pushed out by newer ones. */
  get evicted(): number {
    return this.evictedCount;
  }

  /** The stored events, oldest first, as they were delivered. */
  toArray(): AgentEvent[] {
    const out: AgentEvent[] = new Array(this.size);
    for (let i = 0; i < this.size; i++) out[i] = this.read((this.evictedCount + i) % this.capacity);
    return out;
  }

  private read(slot: number): AgentEvent {
    const len = this.lengths[slot];
    if (len < 0) return this.objects[slot]!;
    const event = this.redecode(this.arena.toString('utf8', this.offsets[slot], this.offsets[slot] + len));
    event.timestamp = this.times[slot];
    const stamp = this.stamps[slot];
    if (stamp) event.turn = stamp;
    return event;
  }

  private evictOldest(): void {
    const slot = this.evictedCount % this.capacity;
    if (this.lengths[slot] >= 0) this.lines--;
    else {
      this.objectChars -= this.charged[slot];
      this.charged[slot] = 0;
    }
    this.objects[slot] = undefined;
    this.stamps[slot] = undefined;
    this.lengths[slot] = -1;
    this.size--;
    this.evictedCount++;
  }

  /** Where `need` free bytes start: the arena grows while it may, then the oldest events give way. */
  private place(need: number): number {
    if (need > this.maxArenaBytes) return -1;
    for (;;) {
      const at = this.free(need);
      if (at >= 0) return at;
      if (this.arena.length < this.maxArenaBytes) this.grow(need);
      // The slot being filled is counted already: it is never the one to go.
      else if (this.size > 1) this.evictOldest();
      else return -1;
    }
  }

  /** The start of `need` free bytes after the newest line (or, wrapping, at the arena's start), or -1. */
  private free(need: number): number {
    const size = this.arena.length;
    if (this.lines === 0) {
      this.writeAt = 0;
      return need <= size ? 0 : -1;
    }
    const oldest = this.offsets[this.oldestLineSlot()];
    if (this.writeAt > oldest) {
      // The live bytes are [oldest, writeAt): room after them, else before them.
      if (this.writeAt + need <= size) return this.writeAt;
      return need <= oldest ? 0 : -1;
    }
    // Wrapped: the live bytes are [oldest, end) and [0, writeAt).
    return this.writeAt + need <= oldest ? this.writeAt : -1;
  }

  /** Amortised O(1): the search only moves forward, past events kept as objects. */
  private oldestLineSlot(): number {
    if (this.oldestLineFrom < this.evictedCount) this.oldestLineFrom = this.evictedCount;
    const end = this.evictedCount + this.size;
    for (; this.oldestLineFrom < end; this.oldestLineFrom++) {
      const slot = this.oldestLineFrom % this.capacity;
      if (this.lengths[slot] >= 0) return slot;
    }
    throw new Error('event store: lines are counted but none is stored');
  }

  /** A larger arena, the live lines copied to its start in order. */
  private grow(need: number): void {
    let bytes = this.arena.length * 2;
    while (bytes < need * 2 && bytes < this.maxArenaBytes) bytes *= 2;
    const next = Buffer.allocUnsafe(Math.min(bytes, this.maxArenaBytes));
    let at = 0;
    for (let i = 0; i < this.size; i++) {
      const slot = (this.evictedCount + i) % this.capacity;
      const len = this.lengths[slot];
      if (len < 0) continue;
      this.arena.copy(next, at, this.offsets[slot], this.offsets[slot] + len);
      this.offsets[slot] = at;
      at += len;
    }
    this.arena = next;
    this.writeAt = at;
  }
}
