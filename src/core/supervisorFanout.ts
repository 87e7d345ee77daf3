// The supervisor's fan-out: event, state and output listeners, each run synchronously on the
// event path; one that throws is reported and the others still run. Events and states are
// written to the history first.
import type { EventListener, OutputListener, RemovedListener, StateListener } from './api';
import type { AgentEvent } from './events/agentEvent';
import { describeCut } from './events/cutEvent';
import type { SupervisorHistory } from './history/supervisorHistory';
import type { Worker } from './worker/worker';

export interface Fanout {
  eventListeners: EventListener[];
  stateListeners: StateListener[];
  outputListeners: OutputListener[];
  removedListeners: RemovedListener[];
  subscribe<T>(list: T[], listener: T): () => void;
  emitEvent(worker: Worker, event: AgentEvent, line?: Buffer): void;
  emitState(worker: Worker): void;
  emitOutput: OutputListener;
  emitRemoved: RemovedListener;
}

export function createFanout(history: SupervisorHistory | null): Fanout {
  const eventListeners: EventListener[] = [];
  const stateListeners: StateListener[] = [];
  const outputListeners: OutputListener[] = [];
  const removedListeners: RemovedListener[] = [];
  const subscribe = <T>(list: T[], listener: T) => {
    list.push(listener);
    return () => {
      const i = list.indexOf(listener);
      if (i !== -1) list.splice(i, 1);
    };
  };

  const emitEvent = (worker: Worker, event: AgentEvent, line?: Buffer) => {
    history?.event(worker, event, line);
    // A very long line kept as a preview (events/cutEvent.ts) is said in the worker's output too.
    if (event.cut) emitOutput(worker.id, 'protocol', `kept a preview only: ${describeCut(event.type, event.cut)}`);
    for (const listener of eventListeners) {
      try {
        listener(worker.id, event);
      } catch (error) {
        process.emitWarning(`onEvent listener threw: ${(error as Error).stack ?? error}`);
      }
    }
  };
  /** Every listener of `list` with `args`; one that throws is reported as `what`'s, and the others still run. */
  const tell = <A extends unknown[]>(list: ((...args: A) => void)[], what: string, ...args: A) => {
    for (const listener of list) {
      try {
        listener(...args);
      } catch (error) {
        process.emitWarning(`${what} listener threw: ${(error as Error).stack ?? error}`);
      }
    }
  };
  const emitState = (worker: Worker) => {
    history?.state(worker);
    if (stateListeners.length > 0) tell(stateListeners, 'onState', worker.state());
  };
  const emitOutput: OutputListener = (workerId, kind, text) => tell(outputListeners, 'onOutput', workerId, kind, text);
  const emitRemoved: RemovedListener = (workerId) => tell(removedListeners, 'onRemoved', workerId);
  return { eventListeners, stateListeners, outputListeners, removedListeners, subscribe, emitEvent, emitState, emitOutput, emitRemoved };
}
