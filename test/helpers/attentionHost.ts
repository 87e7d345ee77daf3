// The attention room on a host stub whose states the test emits, synchronously, as the supervisor
// reports them; the room's other services are quiet unless a test gives its own.
import type { Supervisor, WorkerState } from '../../src/core/api';
import { decideNotification } from '../../src/core/attention';
import { WorkerAttention, type AttentionServices } from '../../src/ui/attention/workerAttention';

export function attentionHost(first: WorkerState, services: Partial<AttentionServices> = {}): { supervisor: Supervisor; attention: WorkerAttention; emit: (s: WorkerState) => void } {
  const listeners: Array<(s: WorkerState) => void> = [];
  let current = first;
  const emit = (s: WorkerState) => {
    current = s;
    for (const l of listeners) l(s);
  };
  const supervisor = {
    list: () => [current],
    state: () => ({ status: current.status, workerId: current.workerId, state: current }),
    onState: (l: (s: WorkerState) => void) => (listeners.push(l), () => {}),
    onRemoved: () => () => {},
    onEvent: () => () => {},
  } as unknown as Supervisor;
  const attention = new WorkerAttention({
    supervisor, setting: () => 'all', visibleLogs: () => new Set(), onDidChangeLooking: () => ({ dispose() {} }),
    decide: decideNotification, openLog: () => undefined, label: () => undefined, setBadge: () => undefined, ...services,
  });
  return { supervisor, attention, emit };
}
