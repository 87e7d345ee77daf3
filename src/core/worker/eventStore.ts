// A worker's recent events, the newest `capacity`, for a log opened later and for exports.
// An event the worker sent is kept as the line it came in, with its timestamp and turn stamp
// beside it in typed and shared storage, and is decoded again when read. The lines lie in
// blocks (eventBlocks.ts) that are packed off the main thread once full: τ's lines, forty
// fields and most of them null, take a twentieth of their bytes or less that way, so a store
// of 10,000 events costs well under the lines themselves. Kept as objects, 10,000 events
// survived a scavenge or two each and were copied field by field every time: under a flood
// that was most of the collector's work on the event path. (A line kept as a string would do
// the same, and would keep alive the whole chunk of text it was sliced from.) The events the
// host made or changed (a turn's opening and ending events, its own findings) are few and are
// kept as the objects they are, and so is an event whose line is much longer than it
// (events/workerLine.ts decides, for the history too).
import type { AgentEvent, TurnStamp } from '../events/agentEvent';
import { approxChars } from '../events/cutEvent';
import { BLOCK_BYTES, EventBlocks, type BlockCodec, type BlockWait } from './eventBlocks';

/** The blocks may hold this (packed, plus raw at their full size), then older events give way before the count bound. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
/**
 * What the events kept as objects may hold, in characters of their strings (about as many bytes,
 * twice that for text outside Latin-1), before older ones give way. Each such event is itself
 * bounded (events/cutEvent.ts), so this and the blocks' bound bound a worker's store in bytes.
 */
const MAX_OBJECT_CHARS = 16 * 1024 * 1024;
/** A fixed charge per object event for its keys and structure. */
const OBJECT_OVERHEAD = 256;

/** Reads a stored line back into the event it was (the worker's codec, which is pure for events). */
export type Redecode = (line: string) => AgentEvent;

export interface EventStoreOptions {
  /** Bounds the blocks' bytes; blocks are BLOCK_BYTES, or an eighth of a smaller bound. */
  maxLineBytes?: number;
  /** Bounds what the events kept as objects hold, in characters (MAX_OBJECT_CHARS). */
  maxObjectChars?: number;
  /** Packs and unpacks the blocks (brotli by default; a test gives a failing one). */
  codec?: BlockCodec;
  /** How long sealed blocks wait before they are packed, and the spare block is kept at rest (eventBlocks.ts). */
  wait?: BlockWait;
}

export class EventStore {
  /** The event itself, for a slot not kept as a line. */
  private readonly objects: (AgentEvent | undefined)[];
  /** A line's turn stamp: shared by the events of a turn, so keeping it costs no object. */
  private readonly stamps: (TurnStamp | undefined)[];
  /** A line's block, and where in it the line starts. */
  private readonly blockOf: Int32Array;
  private readonly offsets: Int32Array;
  /** A line's bytes; -1 for a slot kept as its event. */
  private readonly lengths: Int32Array;
  private readonly times: Float64Array;
  /** What each slot kept as an object was charged (approxChars), and the sum. */
  private readonly charged: Float64Array;
  private objectChars = 0;
  private size = 0;
  /** Events pushed out so far: also the arrival number of the oldest kept, whose slot is that modulo capacity. */
  private evictedCount = 0;
  /** The lines' bytes. Exposed for tests and the memory bench (idle, sealOpen, bytes). */
  readonly blocks: EventBlocks;
  private readonly maxLineBytes: number;
  private readonly maxObjectChars: number;

  constructor(readonly capacity: number, private readonly redecode: Redecode, options: EventStoreOptions = {}) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`event store capacity must be a positive integer, got ${capacity}`);
    this.objects = new Array(capacity);
    this.stamps = new Array(capacity);
    this.blockOf = new Int32Array(capacity);
    this.offsets = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity).fill(-1);
    this.times = new Float64Array(capacity);
    this.charged = new Float64Array(capacity);
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.maxObjectChars = options.maxObjectChars ?? MAX_OBJECT_CHARS;
    this.blocks = new EventBlocks(Math.min(BLOCK_BYTES, Math.max(64, Math.floor(this.maxLineBytes / 8))), options.codec, options.wait);
  }

  /** Keeps `event`; `line` is the bytes of the worker's line that stands for it (lineStandsFor), if any. */
  push(event: AgentEvent, line?: Uint8Array): void {
    if (this.size === this.capacity) this.evictOldest();
    const slot = (this.evictedCount + this.size) % this.capacity;
    this.size++;
    if (line === undefined || line.length > this.maxLineBytes) {
      this.objects[slot] = event;
      const chars = OBJECT_OVERHEAD + approxChars(event, this.maxObjectChars);
      this.charged[slot] = chars;
      this.objectChars += chars;
      // The newest is always kept, however large; older ones give way until the rest fits.
      while (this.objectChars > this.maxObjectChars && this.size > 1) this.evictOldest();
      return;
    }
    // The worker's bytes, copied as they came: no text is encoded again.
    this.offsets[slot] = this.blocks.write(line);
    this.blockOf[slot] = this.blocks.current;
    this.lengths[slot] = line.length;
    this.times[slot] = event.timestamp;
    this.stamps[slot] = event.turn;
    // The slot being filled is counted already: it is never the one to go.
    while (this.blocks.bytes > this.maxLineBytes && this.size > 1) this.evictOldest();
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
    try {
      for (let i = 0; i < this.size; i++) out[i] = this.read((this.evictedCount + i) % this.capacity);
    } finally {
      this.blocks.forgetView();
    }
    return out;
  }

  private read(slot: number): AgentEvent {
    const len = this.lengths[slot];
    if (len < 0) return this.objects[slot]!;
    const at = this.offsets[slot];
    const event = this.redecode(this.blocks.view(this.blockOf[slot]).toString('utf8', at, at + len));
    event.timestamp = this.times[slot];
    const stamp = this.stamps[slot];
    if (stamp) event.turn = stamp;
    return event;
  }

  private evictOldest(): void {
    const slot = this.evictedCount % this.capacity;
    if (this.lengths[slot] >= 0) this.blocks.release(this.blockOf[slot]);
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
}
