// vscode-jsonrpc MessageReader over a worker's stdout: LF framing, JSON parsing, the dialect's
// decode, and the lean event path. Nothing received is dropped silently: every line that is
// not a protocol message is reported through `onProtocolError` with its first bytes.
import type { DialectName } from '../api';
import type { Readable } from 'node:stream';
import { AbstractMessageReader, type DataCallback, type Disposable, type ResponseMessage } from 'vscode-jsonrpc/node';
import type { AgentEvent } from '../events/agentEvent';
import type { Decoded, WireCodec } from './codec';
import { LineFramer, PREVIEW_BYTES, type FramedLine } from './lineFramer';
import { droppedAnswerError, droppedRequestError, headMembers } from './droppedAnswer';

export interface ProtocolError {
  reason: string;
  /** The start of the offending line, escaped. */
  preview: string;
  bytes: number;
  /** The line is a message of the other known dialect: the worker was started with the wrong one. */
  otherDialect?: DialectName;
}

export interface JsonlReaderOptions {
  maxLineBytes: number;
  codec: WireCodec;
  /**
   * Receives events synchronously, in arrival order. A returned promise pauses reading until it
   * settles: a slow consumer slows the worker (through the pipe) instead of growing a queue.
   * `line`: the bytes of the line the event came in, a view of the read buffer that is valid
   * only during the call (copy what is kept).
   */
  onEvent: (event: AgentEvent, line?: Buffer) => void | Promise<void>;
  onProtocolError: (error: ProtocolError) => void;
  /**
   * Sends the host's answer to a request of the worker's that was dropped for its size (the
   * reader has no writer: the worker's process wires it to its own). Unset, such a request is
   * only reported, and the worker waits for its answer for ever.
   */
  answerWorker?: (answer: ResponseMessage) => void;
  /** Every received value, before decoding (protocol trace); unset costs nothing. */
  onReceive?: (value: unknown) => void;
  /**
   * Longest a read callback may run before the rest waits for the next turn (ms). A flood's
   * chunk holds thousands of lines: read in one go it would hold the editor's thread for tens
   * of milliseconds. While the rest waits the stream is paused, so the worker is held by its pipe.
   */
  sliceMs?: number;
}

/** Lines read between clock checks: the clock costs more than a short line. */
const LINES_PER_CHECK = 32;
/**
 * 1 ms: under eight floods at once the event-loop delay's p99 was 9-11 ms at 4 ms and 6-9 ms at
 * 2 on one machine; on a slower one 10.3-13 ms at 2 and 8.0-9.1 ms at 1, for the same
 * main-thread CPU per event (bench/stall.mjs; bench/lib/ab-events.mjs: 0.95-1.06 of it).
 */
const DEFAULT_SLICE_MS = 1;
const BOM = 0xfeff;

/**
 * Reading time spent in this turn of the event loop by every reader together: eight workers'
 * pipes are read in one poll phase, so a budget per reader alone would let them stall eight times
 * as long. Reset on the next turn, once it is worth a reset: a real worker writes one event per
 * write, and an immediate per read (an extra turn of the loop, an extra poll) cost more than the
 * read itself. Until then the time of earlier turns counts too, which only makes the slice
 * shorter, by at most RESET_AFTER_MS.
 */
const RESET_AFTER_MS = 1;
const turn = { used: 0, resetting: false };
function spend(ms: number): void {
  turn.used += ms;
  if (turn.resetting || turn.used < RESET_AFTER_MS) return;
  turn.resetting = true;
  setImmediate(() => {
    turn.used = 0;
    turn.resetting = false;
  });
}

export class JsonlMessageReader extends AbstractMessageReader {
  private readonly framer: LineFramer;
  private callback: DataCallback | undefined;
  /** Messages read before `listen` was called. */
  private early: Parameters<DataCallback>[0][] = [];
  private backlog: Buffer | undefined;
  private waiting = false;
  /** The stream ended while lines still waited: the close comes after them. */
  private ended = false;
  private readonly sliceMs: number;
  /** A line was framed: a byte order mark is the output's first character or a fault. */
  private begun = false;

  constructor(private readonly stream: Readable, private readonly options: JsonlReaderOptions) {
    super();
    this.framer = new LineFramer(options.maxLineBytes);
    this.sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
    stream.on('data', (chunk: Buffer) => this.onData(chunk));
    stream.on('end', () => {
      this.ended = true;
      if (!this.waiting) this.finish();
    });
    stream.on('error', (error) => this.fireError(error));
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const early = this.early;
    this.early = [];
    for (const message of early) callback(message);
    return { dispose: () => (this.callback = undefined) };
  }

  private onData(chunk: Buffer): void {
    if (this.waiting) {
      // Data that was already in flight when the stream was paused.
      this.backlog = this.backlog ? Buffer.concat([this.backlog, chunk]) : chunk;
      return;
    }
    this.feed(chunk);
  }

  private finish(): void {
    this.framer.end((line) => void this.handle(line));
    this.fireClose();
  }

  private feed(chunk: Buffer): void {
    const t0 = performance.now();
    const budget = this.sliceMs - turn.used;
    let lines = 0;
    const rest = this.framer.push(chunk, (line) => {
      const pending = this.handle(line);
      if (pending) {
        this.wait();
        pending.then(() => this.resume(), () => this.resume());
        return false;
      }
      if (++lines % LINES_PER_CHECK !== 0 || performance.now() - t0 < budget) return true;
      this.wait();
      setImmediate(() => this.resume());
      return false;
    });
    spend(performance.now() - t0);
    if (rest) this.backlog = this.backlog ? Buffer.concat([rest, this.backlog]) : rest;
  }

  private wait(): void {
    this.waiting = true;
    this.stream.pause();
  }

  private resume(): void {
    this.waiting = false;
    const backlog = this.backlog;
    this.backlog = undefined;
    if (backlog) this.feed(backlog);
    if (this.waiting) return;
    if (this.ended) this.finish();
    else this.stream.resume();
  }

  private handle(line: FramedLine): Promise<void> | undefined {
    const first = !this.begun;
    this.begun = true;
    if (line.kind === 'oversized') {
      const reason = line.complete
        ? `line of ${line.bytes} bytes is over the ${this.options.maxLineBytes}-byte cap`
        : `line passed the ${this.options.maxLineBytes}-byte cap without ending (${line.bytes} bytes so far); skipped through its end`;
      this.options.onProtocolError({ reason, preview: line.preview, bytes: line.bytes });
      const members = headMembers(line.head.toString('utf8'));
      // The answer a verb waits for fails it now, saying why, instead of at its timeout.
      const answer = this.options.codec.answerDropped?.(members, droppedAnswerError(this.options.maxLineBytes, line.bytes));
      if (answer?.kind === 'message') this.deliver(answer);
      // A request of the worker's is refused, saying why, instead of never answered.
      const refusal = this.options.answerWorker && this.options.codec.requestDropped?.(members, droppedRequestError(this.options.maxLineBytes, line.bytes));
      if (refusal) this.options.answerWorker!(refusal);
      return undefined;
    }
    if (line.kind === 'invalid_utf8') {
      this.options.onProtocolError({ reason: 'line is not valid UTF-8', preview: line.preview, bytes: line.bytes });
      return undefined;
    }
    if (line.text.charCodeAt(0) === BOM) {
      // A program that writes UTF-8 "with signature" (.NET, Python's utf-8-sig) starts its output
      // with one; JSON may not begin with it, and a preview does not show it.
      if (!first) {
        this.options.onProtocolError({ reason: 'line begins with a byte order mark (U+FEFF), which is allowed only at the start of the output', preview: '\\ufeff' + head(line.text.slice(1)), bytes: line.bytes.length });
        return undefined;
      }
      line = { kind: 'line', text: line.text.slice(1), bytes: line.bytes.subarray(3) };
      if (/^[ \t]*$/.test(line.text)) return undefined;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      this.options.onProtocolError({ reason: 'line is not JSON', preview: head(line.text), bytes: line.bytes.length });
      return undefined;
    }
    this.options.onReceive?.(value);
    const decoded = this.options.codec.decode(value);
    switch (decoded.kind) {
      case 'event': {
        const pending = this.options.onEvent(decoded.event, decoded.lineStands === false ? undefined : line.bytes);
        // As a message's event is: at once, after the line's own.
        const also = decoded.then && this.options.onEvent(decoded.then);
        return pending instanceof Promise ? pending : also instanceof Promise ? also : undefined;
      }
      case 'message':
        if (decoded.protocolError) this.options.onProtocolError({ reason: decoded.protocolError, preview: head(line.text), bytes: line.bytes.length });
        this.deliver(decoded);
        return undefined;
      case 'invalid':
        this.options.onProtocolError({ reason: decoded.reason, preview: head(line.text), bytes: line.bytes.length, otherDialect: decoded.otherDialect });
        return undefined;
    }
  }

  private deliver(decoded: Extract<Decoded, { kind: 'message' }>): void {
    // The event first: whoever the answer resolves then sees the turn already ended.
    if (decoded.event) void this.options.onEvent(decoded.event);
    if (this.callback) this.callback(decoded.message);
    else this.early.push(decoded.message);
  }
}

function head(text: string): string {
  const cut = text.length > PREVIEW_BYTES ? text.slice(0, PREVIEW_BYTES) + '…' : text;
  return JSON.stringify(cut).slice(1, -1);
}
