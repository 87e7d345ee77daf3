// The floor under the host's event path, for bench/events.mjs: the product's own LF framer (which
// also hands each line's bytes, as the store needs them) and its dialect's codec (the JSON.parse
// and the validation every event must pass), and nothing after them: no turn stamp, no store,
// no delivery. Whatever else the host does beyond the bare reader, this much it does first for
// every event, so its ratio to the bare reader is the least the host's ratio can be while it
// frames and validates as it does.
// Bundled by the bench (not a product bundle); the decode thread of bench/handover.mjs reads with it too.
import type { Message } from 'vscode-jsonrpc/node';
import type { DialectName } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { lineStandsFor } from '../../src/core/events/workerLine';
import { HistoryStore } from '../../src/core/history/store';
import { DIALECTS } from '../../src/core/wire/dialects';
import { LineFramer } from '../../src/core/wire/lineFramer';
import { DEFAULT_LIMITS } from '../../src/core/worker/defaultLimits';
import { EventStore } from '../../src/core/worker/eventStore';

/** What the reader's codec is told of the requests sent (ACP's reads an answer by its request, and its session by session/new's). */
export type FloorReader = ((chunk: Buffer) => void) & { encode(message: Message): void };

/** A stdout chunk reader: `onEvent` gets each decoded event, `onOther` every other parsed value, each with its line (and an event its line's bytes, a view valid only during the call). */
export function floorReader(dialect: DialectName, onEvent: (event: unknown, text: string, bytes: Buffer) => void, onOther: (value: unknown, text: string) => void): FloorReader {
  const codec = DIALECTS[dialect].createCodec();
  const framer = new LineFramer(DEFAULT_LIMITS.maxLineBytes);
  const read = (chunk: Buffer): void => {
    framer.push(chunk, (framed) => {
      if (framed.kind !== 'line') return true;
      let value: unknown;
      try {
        value = JSON.parse(framed.text);
      } catch {
        return true;
      }
      const decoded = codec.decode(value);
      if (decoded.kind === 'event') onEvent(decoded.event, framed.text, framed.bytes);
      else onOther(value, framed.text);
      return true;
    });
  };
  return Object.assign(read, { encode: (message: Message) => void codec.encode(message) });
}

/**
 * The product's history store keeping one session, as the host keeps a worker's: each event
 * appended with its line where the line stands for it. The floor with a history (bench/events.mjs)
 * adds this to the framer and codec, and still no turn stamp, event store or delivery.
 */
export function floorHistory(dir: string, dialect: DialectName): { append(event: unknown, bytes: Buffer): void; flush(): Promise<void>; close(): Promise<void> } {
  const created = HistoryStore.create({ dir });
  if (!created.ok) throw new Error(created.error);
  const store = created.store;
  const opened = store.open({ workerId: 'floor', name: 'floor', dialect, cwd: dir, command: 'floor' });
  if (!opened.ok) throw new Error(opened.error);
  const id = opened.sessionId;
  return {
    append: (event, bytes) => store.append(id, event as AgentEvent, lineStandsFor(event as AgentEvent, bytes) ? bytes : undefined),
    flush: () => store.flush(),
    close: () => store.close(),
  };
}

/**
 * The product's event store keeping every event as a worker's store keeps it (worker.ts): the
 * worker's line where the line stands for it, else the event itself, in a store of the default
 * size. The floor with the store (bench/events.mjs) adds this to the framer and codec, and still
 * no turn stamp or delivery: the least the host can cost while it validates and keeps every
 * event as it does (the event log opens on what this store holds).
 */
export function floorStore(): (event: unknown, bytes: Buffer) => void {
  const store = new EventStore(DEFAULT_LIMITS.eventStoreSize, () => {
    throw new Error('the floor reads nothing back');
  });
  return (event, bytes) => store.push(event as AgentEvent, lineStandsFor(event as AgentEvent, bytes) ? bytes : undefined);
}

/** The one stamp the delivery floor gives every event, as the host gives every event inside a turn its turn's one frozen stamp (turns.ts). */
const FLOOR_STAMP = Object.freeze({ index: 1 });

/**
 * The least delivery the host can do for an event: stamp it with its turn and hand it to its
 * listeners, each kept from stopping the others if it throws. The host does at least this for
 * each event it reads, after the floor's other steps: turns.ts stamps every event inside a turn
 * with that turn's one frozen stamp, and the supervisor hands each event to every listener in a
 * try/catch (supervisorFanout.ts). So a floor with it is still below the host, which also folds
 * the event into its turns, keeps its own bus and bookkeeping, and yields its thread.
 * `listeners`: the benchmark's count, which the host's side is handed too.
 */
export function floorDelivery(listeners: Array<(event: unknown) => void>): { stamp(event: unknown): void; deliver(event: unknown): void } {
  return {
    // Before the stores, as the host's fold stamps an event before it is kept.
    stamp: (event) => {
      (event as AgentEvent).turn = FLOOR_STAMP;
    },
    deliver: (event) => {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          process.emitWarning(`floor listener threw: ${String(error)}`);
        }
      }
    },
  };
}
