// Switch Mode…'s picker: a person reads each mode's name and the agent's description of it; the
// id (Copilot's are URLs) is only what the host passes on.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { HistoryCommands, type HistoryServices } from '../../src/ui/history/historyCommands';

const URL = 'https://agentclientprotocol.com/protocol/session-modes#';

function commands(worker: WorkerState) {
  const set: string[] = [];
  const quiet = () => undefined;
  const supervisor = {
    list: () => [worker],
    state: (id: string) => (id === worker.workerId ? { status: worker.status, workerId: id, state: worker } : { status: 'not_found', workerId: id }),
    setMode: async (id: string, mode: string) => (set.push(mode), { status: 'mode_set', workerId: id, session: null, model: null, mode, ms: 1 }),
  } as unknown as Supervisor;
  const s = { supervisor, eventLog: { result: quiet }, selection: { current: undefined, set: quiet }, log: { info: quiet, warn: quiet, error: quiet } } as unknown as HistoryServices;
  return { h: new HistoryCommands(s), set };
}

describe('UI Switch Mode picker', () => {
  beforeEach(() => vscodeStub.reset());

  it("describes each mode in the agent's words, never by its id, and passes the id on (Copilot's modes, as recorded)", async () => {
    // copilot-hello.jsonl's modes: the first has no description here, to show nothing stands in for one.
    const copilot = {
      workerId: 'w1', name: 'Copilot', status: 'running', dialect: 'acp', streaming: false, compacting: false, pid: 1, cwd: '/w', mode: `${URL}agent`,
      modes: [
        { id: `${URL}agent`, name: 'Agent', description: 'Default agent mode for conversational interactions' },
        { id: `${URL}plan`, name: 'Plan', description: 'Plan mode for creating and executing multi-step plans' },
        { id: `${URL}autopilot`, name: 'Autopilot' },
      ],
    } as unknown as WorkerState;
    const { h, set } = commands(copilot);
    let shown: Array<{ label: string; description?: string }> = [];
    vscodeStub.answers.push((items: Array<{ label: string; description?: string; id: string }>) => ((shown = items), items[1]));
    const r = await h.switchMode({ workerId: 'w1' });
    assert.equal(r.status, 'mode_set');
    assert.deepEqual(shown.map((i) => [i.label, i.description]), [
      ['Agent', 'current'],
      ['Plan', 'Plan mode for creating and executing multi-step plans'],
      ['Autopilot', undefined],
    ]);
    assert.deepEqual(set, [`${URL}plan`], 'the id is what is passed on');
    h.dispose();
  });
});
