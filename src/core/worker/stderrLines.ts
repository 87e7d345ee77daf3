// A worker's stderr bytes as lines: LF ends a line, one trailing CR is stripped, a line that
// never ends is cut at 64 KiB characters, and a character whose bytes come in two reads is held
// until it is whole (decoded per read, it was said as two U+FFFD).
import { StringDecoder } from 'node:string_decoder';

const LONGEST = 64 * 1024;

export class StderrLines {
  private partial = '';
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    const lines = (this.partial + this.decoder.write(chunk)).split('\n');
    this.partial = lines.pop() ?? '';
    if (this.partial.length > LONGEST) {
      lines.push(this.partial);
      this.partial = '';
    }
    for (const line of lines) this.line(line);
  }

  /** A last line with no newline is a line too: a crash's message often is one. */
  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest) this.line(rest);
  }

  private line(line: string): void {
    this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
  }
}
