// The decode thread of bench/handover.mjs: what "decode off the extension host's thread" would
// move there, with the product's own pieces (its LF framer, its dialect's codec, its line cap:
// floor-reader.ts), so that only the handover back to the main thread is left to measure.
// Bundled by the bench.
import { parentPort, workerData } from 'node:worker_threads';
import type { DialectName } from '../../src/core/api';
import { floorReader } from './floor-reader';

const { dialect, lines } = workerData as { dialect: DialectName; lines: boolean };
const port = parentPort!;

// One message per stdout chunk, as [event, line, event, line, ...]. The line goes with an event
// only when asked (`lines`), because the product's store and history keep the line, not the event
// (core/events/workerLine.ts), so a real split would have to send both; a line that is not an
// event (an answer, a request) always goes back, as text, for the main thread's correlation.
let out: unknown[] = [];
const read = floorReader(dialect, (event, text) => out.push(event, lines ? text : null), (_value, text) => out.push(null, text));
port.on('message', (chunk: Uint8Array) => {
  read(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  port.postMessage(out);
  out = [];
});
