// The event store's bytes (eventStore.ts): the worker's lines, written one after another into
// blocks. A full block is sealed and packed by the codec off the main thread (node:zlib's async
// API runs on libuv's threadpool); when the packed bytes arrive they replace the raw ones. The
// open block, and a sealed one still waiting or being packed, are read raw; a packed one is
// unpacked synchronously when read, the last one kept so a reading in order unpacks each block
// once. A block goes when the last of its lines is evicted.
//
// Why: τ's lines are about forty fields, most of them null, the same keys on every line; packed
// in blocks they take a twentieth to a fortieth of their bytes (README, Performance). Packing
// costs the threadpool about half a nanosecond a byte with brotli at quality 1, which packs
// better and faster than deflate at level 1 on these lines (measured, see the commits). A
// flood is not packed while it lasts (QUIET_MS): the main thread pays nothing for it then.
import zlib from 'node:zlib';

/** Packs a sealed block (asynchronously, off the main thread) and unpacks it (synchronously). */
export interface BlockCodec {
  pack(raw: Uint8Array): Promise<Uint8Array>;
  unpack(packed: Uint8Array): Uint8Array;
}

const BROTLI_FAST = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };

export const brotliCodec: BlockCodec = {
  pack: (raw) => new Promise((resolve, reject) => zlib.brotliCompress(raw, BROTLI_FAST, (error, out) => (error ? reject(error) : resolve(out)))),
  unpack: (packed) => zlib.brotliDecompressSync(packed),
};

/**
 * A block's size. Each packing costs the main thread about 100 µs whatever the size (node:zlib's
 * stream around the native call): at 512 KiB that is about 0.15 µs per line of τ's (about 650
 * lines a block). While blocks keep coming, the memory of a block packed or evicted is kept to
 * be the next open one (`spare`): a flood then allocates no block per 650 lines; after
 * SPARE_REST_MS at rest it is let go. The open block is raw: about 50 B a line of a 10,000-event store.
 */
export const BLOCK_BYTES = 512 * 1024;
const FIRST_BLOCK_BYTES = 64 * 1024;
/**
 * Blocks being packed at once. More would queue on the threadpool (where file reads and writes
 * wait too) and hold their raw bytes meanwhile; the rest wait, raw, and the newest of them is
 * packed next (the oldest are the nearest to eviction).
 */
export const MAX_PACKING = 2;
/**
 * Sealed blocks wait, raw, until no block has been sealed for this long, then are packed. Each
 * packing costs the main thread about 100 µs (node:zlib's stream around the native call), and
 * the threadpool's work competes for the same cores: under a full-speed flood that was 6-9% more
 * main-thread CPU per event (bench/lib/ab-events.mjs). A flood seals a block every few
 * milliseconds, so it packs nothing until it pauses (its blocks, bounded by the store's count
 * and bytes, stay raw, and most are evicted unpacked); a real worker's stream (a block every
 * tenth of a second or slower) has each block packed soon after it is sealed.
 */
export const QUIET_MS = 50;
/**
 * ...or, at a seal, once the oldest sealed block has waited this long: a stream that never pauses for
 * QUIET_MS (pi 1.6.0 at its real 19,000 events/s seals a block about every 50 ms) still has its
 * blocks packed, about once a second, and a long flood packs what is left of the last second's
 * blocks (most were evicted unpacked): a few blocks a second, well under 1% of a core.
 */
export const MAX_WAIT_MS = 1000;
/**
 * The spare block is let go once the blocks have been at rest (nothing waiting or being packed)
 * this long. A stream at a real pace is at rest between its blocks: pi 1.6.0 at 19,000 events/s
 * seals one about every 60 ms, each packed in the quiet after it. Let go at each of those rests,
 * a fresh block was allocated for each next one (69 of 512 KiB in 4 s of pi's pace, 5 since),
 * its pages faulted in as lines were copied in on the main thread, the old one left to the
 * collector.
 */
export const SPARE_REST_MS = 2000;

/** How long sealed blocks wait before they are packed, and the spare is kept at rest (the defaults above). */
export interface BlockWait {
  quietMs: number;
  maxWaitMs: number;
  spareRestMs?: number;
}

interface Block {
  readonly id: number;
  /** The bytes while the block is open, waiting, being packed, or kept raw (its packing failed or gained nothing). */
  raw: Buffer | undefined;
  packed: Uint8Array | undefined;
  used: number;
  /** Lines of it still kept. */
  live: number;
  /** The threadpool is reading its raw bytes. */
  packing: boolean;
  dropped: boolean;
}

export class EventBlocks {
  private readonly blocks = new Map<number, Block>();
  private open: Block | undefined;
  private nextId = 0;
  private storedBytes = 0;
  private packing = 0;
  /** Sealed blocks waiting for a quiet moment (or MAX_WAIT_MS), and those to pack now, newest last. */
  private readonly waiting: Block[] = [];
  private readonly toPack: Block[] = [];
  private waitingSince = 0;
  private cache: { id: number; bytes: Buffer } | undefined;
  /** A packed block's raw bytes, kept to be the next open block (counted in `bytes`). */
  private spare: Buffer | undefined;
  private idleWaiters: (() => void)[] = [];
  private restWaiters: (() => void)[] = [];
  private quiet: NodeJS.Timeout | undefined;
  private rest: NodeJS.Timeout | undefined;

  constructor(private readonly blockBytes: number, private readonly codec: BlockCodec = brotliCodec, private readonly wait: BlockWait = { quietMs: QUIET_MS, maxWaitMs: MAX_WAIT_MS }) {}

  /** What the blocks hold now: packed bytes, plus raw ones at their allocated size. */
  get bytes(): number {
    return this.storedBytes;
  }

  /** The block the last write went into. */
  get current(): number {
    return this.open!.id;
  }

  /** Copies `line` in; returns where in its block (`current`) it starts. No object per line: this runs for every event. */
  write(line: Uint8Array): number {
    let block = this.open;
    if (block && block.used + line.length > block.raw!.length) {
      this.seal(block);
      block = undefined;
    }
    // The first blocks are smaller (64 KiB, then doubling): a worker that says little keeps little.
    block ??= this.start(Math.max(Math.min(this.blockBytes, FIRST_BLOCK_BYTES * 2 ** Math.min(this.nextId, 16)), line.length));
    const at = block.used;
    block.raw!.set(line, at);
    block.used += line.length;
    block.live++;
    return at;
  }

  /** The bytes of `id`, in which a line kept there lies at the offset write gave. */
  view(id: number): Buffer {
    const block = this.blocks.get(id);
    if (!block) throw new Error(`event store: block ${id} is gone while a line in it is kept`);
    if (block.raw) return block.raw;
    if (this.cache?.id !== id) {
      const bytes = this.codec.unpack(block.packed!);
      this.cache = { id, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    }
    return this.cache.bytes;
  }

  /** Lets go of the unpacked block kept for reading in order. */
  forgetView(): void {
    this.cache = undefined;
  }

  /** One line of block `id` is evicted; the block goes with its last. */
  release(id: number): void {
    const block = this.blocks.get(id)!;
    if (--block.live > 0 || block === this.open) return;
    this.blocks.delete(id);
    block.dropped = true;
    // A raw block not being read by the threadpool may be the next open one.
    if (block.raw && !block.packing) this.spareOrFree(block.raw);
    else this.storedBytes -= block.raw ? block.raw.length : block.packed!.length;
    block.raw = block.packed = undefined;
    if (this.cache?.id === id) this.cache = undefined;
    this.settleIfIdle();
  }

  /** Resolves when no block is waiting or being packed (tests and the memory bench): at the latest QUIET_MS after the last seal, and the packing. */
  idle(): Promise<void> {
    if (this.packing === 0 && this.waiting.length === 0 && this.toPack.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Resolves once idle with no spare held (let go after SPARE_REST_MS at rest, or taken by a new block): the blocks as they stay (the memory bench, tests). */
  async rested(): Promise<void> {
    for (;;) {
      await this.idle();
      if (!this.spare) return;
      // Idle with a spare: the rest timer is running; whatever it finds, look again after it.
      await new Promise<void>((resolve) => this.restWaiters.push(resolve));
    }
  }

  /** Seals the open block now, so that it is packed (tests). */
  sealOpen(): void {
    if (this.open && this.open.used > 0) this.seal(this.open);
  }

  private start(size: number): Block {
    const reuse = this.spare?.length === size ? this.spare : undefined;
    if (reuse) this.spare = undefined;
    else this.storedBytes += size;
    const block: Block = { id: this.nextId++, raw: reuse ?? Buffer.allocUnsafeSlow(size), packed: undefined, used: 0, live: 0, packing: false, dropped: false };
    this.blocks.set(block.id, block);
    this.open = block;
    return block;
  }

  private seal(block: Block): void {
    this.open = undefined;
    if (block.live === 0) {
      block.live = 1;
      this.release(block.id);
      return;
    }
    this.waiting.push(block);
    if (!this.quiet) {
      this.waitingSince = Date.now();
      this.quiet = setTimeout(() => this.packNow(), this.wait.quietMs);
      this.quiet.unref();
    } else if (Date.now() - this.waitingSince < this.wait.maxWaitMs) this.quiet.refresh();
    else this.packNow();
  }

  /** Packs the waiting blocks now, without waiting for a quiet moment (tests). */
  packNow(): void {
    clearTimeout(this.quiet);
    this.quiet = undefined;
    this.toPack.push(...this.waiting.splice(0));
    this.pump();
  }

  private pump(): void {
    while (this.packing < MAX_PACKING && this.toPack.length > 0) {
      const block = this.toPack.pop()!;
      if (block.dropped) continue;
      block.packing = true;
      this.packing++;
      this.codec.pack(block.raw!.subarray(0, block.used)).then(
        (out) => this.packed(block, out),
        () => this.packed(block, undefined),
      );
    }
    this.settleIfIdle();
  }

  /** The packed bytes of `block`, or undefined when packing failed: then the block stays raw and loses nothing. */
  private packed(block: Block, out: Uint8Array | undefined): void {
    this.packing--;
    block.packing = false;
    // A failed or useless packing leaves the block raw.
    if (!block.dropped && out && out.length < block.used) {
      // zlib may hand back a view of a larger output chunk: keep only the packed bytes.
      const exact = out.byteLength === out.buffer.byteLength ? out : new Uint8Array(out);
      this.storedBytes += exact.length;
      this.spareOrFree(block.raw!);
      block.raw = undefined;
      block.packed = exact;
    }
    // Blocks sealed meanwhile wait for the next quiet moment.
    this.pump();
  }

  /** Lets the spare go once the blocks have stayed at rest for SPARE_REST_MS (each rest before that starts the wait again). */
  private letSpareGoAtRest(): void {
    if (this.rest) {
      this.rest.refresh();
      return;
    }
    const drop = () => {
      this.rest = undefined;
      if (this.spare && !this.quiet && this.packing === 0) {
        this.storedBytes -= this.spare.length;
        this.spare = undefined;
      }
      for (const resolve of this.restWaiters.splice(0)) resolve();
    };
    const ms = this.wait.spareRestMs ?? SPARE_REST_MS;
    if (ms <= 0) return drop();
    this.rest = setTimeout(drop, ms);
    this.rest.unref();
  }

  /** Raw bytes no block holds any more: kept as the next open block if none is, else let go. */
  private spareOrFree(raw: Buffer): void {
    if (!this.spare && raw.length === this.blockBytes) this.spare = raw;
    else this.storedBytes -= raw.length;
  }

  private settleIfIdle(): void {
    if (this.packing > 0 || this.toPack.some((b) => !b.dropped) || this.waiting.some((b) => !b.dropped)) return;
    // A flood (the quiet timer set) keeps reusing the spare; a stream at rest only between its blocks too.
    if (this.spare && !this.quiet) this.letSpareGoAtRest();
    if (this.idleWaiters.length === 0) return;
    this.waiting.length = 0;
    this.toPack.length = 0;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
