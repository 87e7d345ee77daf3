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
  const emitState = (worker: Worker) => {
    history?.state(worker);
    if (stateListeners.length === 0) return;
    const state = worker.state();
    for (const listener of stateListeners) {
      try {
        listener(state);
      } catch (error) {
        process.emitWarning(`onState listener threw: ${(error as Error).stack ?? error}`);
      }
    }
  };
  const emitOutput: OutputListener = (workerId, kind, text) => {
    for (const listener of outputListeners) {
      try {
        listener(workerId, kind, text);
      } catch (error) {
        process.emitWarning(`onOutput listener threw: ${(error as Error).stack ?? error}`);
      }
    }
  };

  const emitRemoved: RemovedListener = (workerId) => {
    for (const listener of removedListeners) {
      try {
        listener(workerId);
      } catch (error) {
        process.emitWarning(`onRemoved listener threw: ${(error as Error).stack ?? error}`);
      }
    }
  };
  return { eventListeners, stateListeners, outputListeners, removedListeners, subscribe, emitEvent, emitState, emitOutput, emitRemoved };
}
