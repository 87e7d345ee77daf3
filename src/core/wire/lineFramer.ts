// LF framing over a byte stream, as both pi and τ define it: a line ends only at byte 0x0A,
// one trailing CR is stripped, blank lines are skipped, U+2028/U+2029 are ordinary characters.
// Lines are decoded only once whole, so a chunk boundary inside a multi-byte character is
// harmless. Received lines have no protocol limit (τ's capabilities answer alone is over
// 64 KiB), only a safety cap; a line over it is reported and skipped through its next LF.

const LF = 0x0a;
const CR = 0x0d;
/** How much of a bad line a report quotes. */
export const PREVIEW_BYTES = 200;

export type FramedLine =
  | { kind: 'line'; text: string }
  | { kind: 'oversized'; bytes: number; complete: boolean; preview: string }
  | { kind: 'invalid_utf8'; bytes: number; preview: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export class LineFramer {
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** Bytes of an over-cap line already reported, being skipped until its LF. */
  private skipping = -1;

  constructor(private readonly maxLineBytes: number) {}

  /** Frames one chunk. `emit` returns false to stop early; the unread rest is returned. */
  push(chunk: Buffer, emit: (line: FramedLine) => boolean): Buffer | undefined {
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      if (lf === -1) {
        this.hold(chunk, start, chunk.length, emit);
        return undefined;
      }
      const framed = this.take(chunk, start, lf);
      start = lf + 1;
      if (framed && !emit(framed)) return start < chunk.length ? chunk.subarray(start) : undefined;
    }
    return undefined;
  }

  /** At end of stream an unterminated last line still counts. */
  end(emit: (line: FramedLine) => void): void {
    if (this.skipping >= 0) {
      this.skipping = -1;
      return;
    }
    if (this.partBytes === 0) return;
    const framed = this.decode(Buffer.concat(this.parts, this.partBytes));
    this.parts = [];
    this.partBytes = 0;
    if (framed) emit(framed);
  }

  private hold(chunk: Buffer, start: number, end: number, emit: (line: FramedLine) => boolean): void {
    if (this.skipping >= 0) {
      this.skipping += end - start;
      return;
    }
    // A copy, because the stream may reuse the chunk's memory.
    this.parts.push(Buffer.from(chunk.subarray(start, end)));
    this.partBytes += end - start;
    if (this.partBytes > this.maxLineBytes) {
      const head = Buffer.concat(this.parts, this.partBytes);
      emit({ kind: 'oversized', bytes: this.partBytes, complete: false, preview: preview(head) });
      this.skipping = this.partBytes;
      this.parts = [];
      this.partBytes = 0;
    }
  }

  private take(chunk: Buffer, start: number, lf: number): FramedLine | undefined {
    if (this.skipping >= 0) {
      this.skipping = -1;
      return undefined;
    }
    if (this.partBytes === 0) return this.decode(chunk.subarray(start, lf));
    const whole = Buffer.concat([...this.parts, chunk.subarray(start, lf)], this.partBytes + lf - start);
    this.parts = [];
    this.partBytes = 0;
    return this.decode(whole);
  }

  private decode(bytes: Buffer): FramedLine | undefined {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    if (end > this.maxLineBytes) {
      return { kind: 'oversized', bytes: end, complete: true, preview: preview(bytes) };
    }
    const text = bytes.toString('utf8', 0, end);
    // toString replaces bad bytes with U+FFFD; only then is the strict (slower) check needed,
    // since a worker may also send a real U+FFFD.
    if (text.includes('\uFFFD')) {
      try {
        strictUtf8.decode(bytes.subarray(0, end));
      } catch {
        return { kind: 'invalid_utf8', bytes: end, preview: preview(bytes) };
      }
    }
    if (isBlank(text)) return undefined;
    return { kind: 'line', text };
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The first bytes of a line, printable, for error reports. */
export function preview(bytes: Buffer): string {
  const head = bytes.subarray(0, PREVIEW_BYTES).toString('utf8');
  return JSON.stringify(head).slice(1, -1) + (bytes.length > PREVIEW_BYTES ? '…' : '');
}
