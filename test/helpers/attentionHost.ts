// The attention room on a host stub whose states (and events) the test emits, synchronously, as the
// supervisor reports them; the room's other services are quiet unless a test gives its own.
import type { Supervisor, WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { decideNotification } from '../../src/core/attention';
import { WorkerAttention, type AttentionServices } from '../../src/ui/attention/workerAttention';

export function attentionHost(first: WorkerState, services: Partial<AttentionServices> = {}): { supervisor: Supervisor; attention: WorkerAttention; emit: (s: WorkerState) => void; event: (e: AgentEvent) => void; remove: (workerId: string) => void } {
  const listeners: Array<(s: WorkerState) => void> = [];
  const eventListeners: Array<(workerId: string, e: AgentEvent) => void> = [];
  const removedListeners: Array<(workerId: string) => void> = [];
  let current = first;
  const emit = (s: WorkerState) => {
    current = s;
    for (const l of listeners) l(s);
  };
  const supervisor = {
    list: () => [current],
    state: () => ({ status: current.status, workerId: current.workerId, state: current }),
    onState: (l: (s: WorkerState) => void) => (listeners.push(l), () => {}),
    onEvent: (l: (workerId: string, e: AgentEvent) => void) => (eventListeners.push(l), () => {}),
    onRemoved: (l: (workerId: string) => void) => (removedListeners.push(l), () => {}),
  } as unknown as Supervisor;
  const attention = new WorkerAttention({
    supervisor, setting: () => 'all', visibleLogs: () => new Set(), onDidChangeLooking: () => ({ dispose() {} }),
    decide: decideNotification, openLog: () => undefined, label: () => undefined, setBadge: () => undefined, ...services,
  });
  /** An event of the current worker, as the supervisor reports it. */
  const event = (e: AgentEvent) => {
    for (const l of eventListeners) l(current.workerId, e);
  };
  /** The worker is no longer listed (its Remove, Clear Exited), as the supervisor reports it. */
  const remove = (workerId: string) => {
    for (const l of removedListeners) l(workerId);
  };
  return { supervisor, attention, emit, event, remove };
}
