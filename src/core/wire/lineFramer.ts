// LF framing over a byte stream, as both pi and τ define it: a line ends only at byte 0x0A,
// one trailing CR is stripped, blank lines are skipped, U+2028/U+2029 are ordinary characters.
// Lines are decoded only once whole, so a chunk boundary inside a multi-byte character is
// harmless. Received lines have no protocol limit (τ's capabilities answer alone is over
// 64 KiB), only a safety cap; a line over it is reported and skipped through its next LF.

const LF = 0x0a;
const CR = 0x0d;
/** How much of a bad line a report quotes. */
export const PREVIEW_BYTES = 200;
/** How much of a line over the cap is kept to tell whether it answered the host (droppedAnswer.ts). */
export const HEAD_BYTES = 1024;
/**
 * Whole lines are decoded this much at a time. A reader whose time slice runs out stops in the
 * middle of a chunk (jsonlReader.ts) and frames the rest again on its next turn: the text decoded
 * past the stop is decoded again, up to a whole 64 KiB read at once, about a third more decoding
 * under a flood. A piece bounds that waste; its own cost is a decode call per piece.
 */
const PIECE_BYTES = 8 * 1024;

export type FramedLine =
  // `bytes`: the line as it came (a view of the read buffer, valid only while the line is
  // handled): kept by the store and the history without encoding the text again.
  | { kind: 'line'; text: string; bytes: Buffer }
  // `head`: the line's first bytes, a view valid only while the line is handled.
  | { kind: 'oversized'; bytes: number; complete: boolean; preview: string; head: Buffer }
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
    // A line begun in an earlier chunk is finished byte-wise.
    if (this.partBytes > 0 || this.skipping >= 0) {
      const lf = chunk.indexOf(LF);
      if (lf === -1) {
        this.hold(chunk, 0, chunk.length, emit);
        return undefined;
      }
      const framed = this.take(chunk, 0, lf);
      start = lf + 1;
      if (framed && !emit(framed)) return start < chunk.length ? chunk.subarray(start) : undefined;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= start) {
      const stopped = this.region(chunk, start, last, emit);
      if (stopped !== undefined) return stopped < chunk.length ? chunk.subarray(stopped) : undefined;
      start = last + 1;
    }
    if (start < chunk.length) this.hold(chunk, start, chunk.length, emit);
    return undefined;
  }

  /** Whole lines from `start` to the LF at `last`, in pieces of about PIECE_BYTES. Returns where it stopped, if `emit` asked it to. */
  private region(chunk: Buffer, start: number, last: number, emit: (line: FramedLine) => boolean): number | undefined {
    while (start <= last) {
      let end = last;
      if (last - start > PIECE_BYTES) {
        end = chunk.lastIndexOf(LF, start + PIECE_BYTES);
        // One line longer than a piece: the piece is that line.
        if (end < start) end = chunk.indexOf(LF, start + PIECE_BYTES);
      }
      const stopped = this.piece(chunk, start, end, emit);
      if (stopped !== undefined) return stopped;
      start = end + 1;
    }
    return undefined;
  }

  /**
   * Whole lines from `start` to the LF at `last`: decoded in one call (an LF never falls inside
   * a multi-byte character, so the piece is whole characters), then split. Only a piece with
   * a replacement character is re-read line by line to tell bad bytes from a real U+FFFD.
   * Returns where it stopped, if `emit` asked it to.
   */
  private piece(chunk: Buffer, start: number, last: number, emit: (line: FramedLine) => boolean): number | undefined {
    const text = chunk.toString('utf8', start, last);
    if (text.includes('\uFFFD')) return this.regionBytewise(chunk, start, last, emit);
    // Each LF is one '\n' in the text and one 0x0A in the bytes: both are walked side by side,
    // and where the text is ASCII (as long as its bytes) the one position serves for both.
    const ascii = text.length === last - start;
    let from = 0;
    let at = start;
    while (from <= text.length) {
      let lf = text.indexOf('\n', from);
      const byteLf = lf === -1 ? last : ascii ? start + lf : chunk.indexOf(LF, at);
      if (lf === -1) lf = text.length;
      let line = text.slice(from, lf);
      let bytes = chunk.subarray(at, byteLf);
      from = lf + 1;
      at = byteLf + 1;
      if (line.endsWith('\r')) {
        line = line.slice(0, -1);
        bytes = bytes.subarray(0, bytes.length - 1);
      }
      let framed: FramedLine | undefined;
      if (bytes.length > this.maxLineBytes) framed = oversized(bytes, bytes.length, true);
      else if (!isBlank(line)) framed = { kind: 'line', text: line, bytes };
      if (framed && !emit(framed)) return at;
    }
    return undefined;
  }

  private regionBytewise(chunk: Buffer, start: number, last: number, emit: (line: FramedLine) => boolean): number | undefined {
    while (start <= last) {
      const lf = chunk.indexOf(LF, start);
      const framed = this.decode(chunk.subarray(start, lf));
      start = lf + 1;
      if (framed && !emit(framed)) return start;
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
    // One byte past the cap may be the CR of a CRLF line of exactly the cap, which a whole
    // chunk takes: decode() strips it and judges the rest when the LF comes.
    if (this.partBytes > this.maxLineBytes + 1) {
      const head = Buffer.concat(this.parts, this.partBytes);
      emit(oversized(head, this.partBytes, false));
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
    if (end > this.maxLineBytes) return oversized(bytes, end, true);
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
    return { kind: 'line', text, bytes: bytes.subarray(0, end) };
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

function oversized(bytes: Buffer, length: number, complete: boolean): FramedLine {
  return { kind: 'oversized', bytes: length, complete, preview: preview(bytes), head: bytes.subarray(0, HEAD_BYTES) };
}

/** The first bytes of a line, printable, for error reports. */
export function preview(bytes: Buffer): string {
  const slice = bytes.subarray(0, PREVIEW_BYTES);
  const head = slice.toString('utf8');
  // Bytes that are not UTF-8 are shown as \xNN: a replacement character would hide them.
  const shown = head.includes('\uFFFD') ? escapeInvalid(slice) : JSON.stringify(head).slice(1, -1);
  return shown + (bytes.length > PREVIEW_BYTES ? '…' : '');
}

function escapeInvalid(bytes: Buffer): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len > 0 && i + len <= bytes.length) {
      try {
        out += JSON.stringify(strictUtf8.decode(bytes.subarray(i, i + len))).slice(1, -1);
        i += len;
        continue;
      } catch {
        // Not a whole character: the byte is escaped below.
      }
    }
    out += `\\x${b.toString(16).padStart(2, '0')}`;
    i++;
  }
  return out;
}
