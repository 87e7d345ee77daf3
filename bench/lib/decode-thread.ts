// The decode thread of bench/handover.mjs: what "decode off the extension host's thread" would
// move there, with the product's own pieces (its LF framer, its dialect's codec, its line cap),
// so that only the handover back to the main thread is left to measure. Bundled by the bench.
import { parentPort, workerData } from 'node:worker_threads';
import type { DialectName } from '../../src/core/api';
import { DIALECTS } from '../../src/core/wire/dialects';
import { LineFramer } from '../../src/core/wire/lineFramer';
import { DEFAULT_LIMITS } from '../../src/core/worker/defaultLimits';

const { dialect, lines } = workerData as { dialect: DialectName; lines: boolean };
const codec = DIALECTS[dialect].createCodec();
const framer = new LineFramer(DEFAULT_LIMITS.maxLineBytes);
const port = parentPort!;

// One message per stdout chunk, as [event, line, event, line, ...]. The line goes with an event
// only when asked (`lines`), because the product's store and history keep the line, not the event
// (core/events/workerLine.ts), so a real split would have to send both; a line that is not an
// event (an answer, a request) always goes back, as text, for the main thread's correlation.
port.on('message', (chunk: Uint8Array) => {
  const out: unknown[] = [];
  framer.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength), (framed) => {
    if (framed.kind !== 'line') return true;
    let value: unknown;
    try {
      value = JSON.parse(framed.text);
    } catch {
      return true;
    }
    const decoded = codec.decode(value);
    if (decoded.kind === 'event') out.push(decoded.event, lines ? framed.text : null);
    else out.push(null, framed.text);
    return true;
  });
  port.postMessage(out);
});
