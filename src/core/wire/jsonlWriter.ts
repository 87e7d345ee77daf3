// vscode-jsonrpc MessageWriter onto a worker's stdin: the dialect's encode, one compact JSON
// value and an LF per message. A write to a stdin the worker already closed fails as an
// error of this writer (reported, never an uncaught exception that takes the host down).
import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message } from 'vscode-jsonrpc/node';
import type { AgentEvent } from '../events/agentEvent';
import type { WireCodec } from './codec';

const NOTHING = Buffer.alloc(0);

export class JsonlMessageWriter extends AbstractMessageWriter {
  private closed = false;
  private failures = 0;
  /** Messages handed to this writer so far (each one's number, in order). */
  written = 0;
  /**
   * The number of the first message that could not be written, or null: the pipe broke there,
   * and every message after it fails too; one before it may have been read.
   */
  firstFailed: number | null = null;

  constructor(
    private readonly stream: Writable,
    private readonly codec: WireCodec,
    private readonly onSend?: (value: unknown) => void,
    /** What a sent message means for the turn, where the codec says (announce). */
    private readonly onAnnounce?: (event: AgentEvent) => void,
  ) {
    super();
    // The write callback reports the failure; this listener only keeps the stream's error
    // event from being an uncaught exception.
    stream.on('error', () => {
      this.closed = true;
    });
    stream.on('close', () => {
      this.closed = true;
      this.fireClose();
    });
  }

  // A failed write resolves: the failure is reported as this writer's error, and whoever waits
  // for an answer is released by the worker's exit or by the command timeout. A rejection here
  // would surface inside vscode-jsonrpc as an unhandled one.
  write(message: Message): Promise<void> {
    const value = this.codec.encode(message);
    if (value === undefined) return Promise.resolve();
    const n = ++this.written;
    if (this.closed || this.stream.destroyed || this.stream.writableEnded) {
      this.firstFailed ??= n;
      this.fireError(new Error("the worker's stdin is closed"), message, ++this.failures);
      return Promise.resolve();
    }
    this.onSend?.(value);
    const announced = this.codec.announce?.(message);
    if (announced) this.onAnnounce?.(announced);
    return new Promise((resolve) => {
      this.stream.write(JSON.stringify(value) + '\n', (error) => {
        if (error) {
          this.firstFailed ??= n;
          this.fireError(error, message, ++this.failures);
        }
        resolve();
      });
    });
  }

  /**
   * Whether the worker still holds its stdin, asked without telling it anything: a write of no
   * bytes, which a pipe whose reader is gone refuses at once (EPIPE), and a live reader never
   * sees (docs/real-workers.md, "A closed stdin, found without a message"). `skipped`: not asked,
   * as a write is still pending (its own callback says how it went) or the stream is already
   * over (its failure or the exit says so). `broken`: the next message is the first it cannot take.
   */
  probe(): Promise<'taken' | 'broken' | 'skipped'> {
    if (this.closed || this.stream.destroyed || this.stream.writableEnded || this.stream.writableLength > 0) return Promise.resolve('skipped');
    // Every message up to here left for the pipe (none is pending): any of them may have been read.
    const next = this.written + 1;
    return new Promise((resolve) => {
      this.stream.write(NOTHING, (error) => {
        if (!error) return resolve('taken');
        this.firstFailed ??= next;
        resolve('broken');
      });
    });
  }

  end(): void {
    if (!this.closed && !this.stream.writableEnded) this.stream.end();
  }
}
