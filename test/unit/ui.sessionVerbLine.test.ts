// A session verb (New Session, Fork Session, Switch Model…, Switch Mode…) from a row's menu or the
// palette says what came of it on the line under the Event Log's composer, as Prompt and Abort do:
// the walk's New Session left "Prompt accepted by …" there, the line of the action before it.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { HistoryCommands, type HistoryServices } from '../../src/ui/history/historyCommands';

describe('session verbs: the line under the composer', () => {
  beforeEach(() => vscodeStub.reset());
  const quiet = () => undefined;
  const w = { workerId: 'w1', name: 'W', status: 'running', streaming: false, compacting: false, pid: 1, cwd: '/w', dialect: 'acp', mode: 'default', modes: [{ id: 'default', name: 'Ask' }, { id: 'yolo', name: 'Allow all' }] } as unknown as WorkerState;

  function commands(answers: Partial<Record<'newSession' | 'setMode' | 'setModel', unknown>>) {
    const lines: Array<{ workerId: string; action: string; status: string; message: string; tone: string }> = [];
    const supervisor = {
      list: () => [w],
      state: () => ({ status: 'running', state: w }),
      newSession: async () => answers.newSession,
      setMode: async () => answers.setMode,
      setModel: async () => answers.setModel,
    } as unknown as Supervisor;
    const eventLog = { result: (workerId: string, r: { action: string; status: string; message: string; tone: string }) => lines.push({ workerId, ...r }) };
    const h = new HistoryCommands({ supervisor, eventLog, selection: { current: undefined, set: quiet }, log: { info: quiet, warn: quiet, error: quiet } } as unknown as HistoryServices);
    return { h, lines };
  }

  it('New Session says the worker started one; a refusal says why, in the tone of its notification', async () => {
    const { h, lines } = commands({ newSession: { status: 'created', workerId: 'w1', session: null, model: null, ms: 1 } });
    await h.verb({ workerId: 'w1' }, 'New Session');
    assert.deepEqual(lines.map((l) => [l.workerId, l.message, l.tone]), [['w1', 'W started a new session', 'ok']]);
    h.dispose();
    const refused = commands({ newSession: { status: 'error', workerId: 'w1', error: 'the agent refused session/new (-32603): boom', ms: 1 } });
    await refused.h.verb({ workerId: 'w1' }, 'New Session');
    assert.deepEqual(refused.lines.map((l) => [l.message, l.tone]), [['New Session for W failed: the agent refused session/new (-32603): boom', 'error']]);
    refused.h.dispose();
  });

  it('Switch Mode… says the mode by its name', async () => {
    const { h, lines } = commands({ setMode: { status: 'mode_set', workerId: 'w1', mode: 'yolo', ms: 1 } });
    await h.switchMode({ workerId: 'w1', mode: 'yolo' });
    assert.deepEqual(lines.map((l) => [l.message, l.tone]), [['W is in mode Allow all', 'ok']]);
    h.dispose();
  });

  it('Switch Model… says the model it runs now', async () => {
    const { h, lines } = commands({ setModel: { status: 'model_set', workerId: 'w1', model: 'sonnet', ms: 1 } });
    await h.verb({ workerId: 'w1', model: 'sonnet' }, 'Switch Model');
    assert.deepEqual(lines.map((l) => [l.message, l.tone]), [['W now runs sonnet', 'ok']]);
    h.dispose();
  });
});
