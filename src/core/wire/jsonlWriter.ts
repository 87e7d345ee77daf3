// vscode-jsonrpc MessageWriter onto a worker's stdin: the dialect's encode, one compact JSON
// value and an LF per message. A write to a stdin the worker already closed fails as an
// error of this writer (reported, never an uncaught exception that takes the host down).
import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message } from 'vscode-jsonrpc';
import type { WireCodec } from './codec';

export class JsonlMessageWriter extends AbstractMessageWriter {
  private closed = false;

  constructor(
    private readonly stream: Writable,
    private readonly codec: WireCodec,
    private readonly onSend?: (value: unknown) => void,
  ) {
    super();
    stream.on('error', (error) => {
      this.closed = true;
      this.fireError(error);
    });
    stream.on('close', () => {
      this.closed = true;
      this.fireClose();
    });
  }

  write(message: Message): Promise<void> {
    const value = this.codec.encode(message);
    if (value === undefined) return Promise.resolve();
    if (this.closed || this.stream.destroyed || this.stream.writableEnded) {
      return Promise.reject(new Error('the worker\'s stdin is closed'));
    }
    this.onSend?.(value);
    return new Promise((resolve, reject) => {
      this.stream.write(JSON.stringify(value) + '\n', (error) => (error ? reject(error) : resolve()));
    });
  }

  end(): void {
    if (!this.closed && !this.stream.writableEnded) this.stream.end();
  }
}
