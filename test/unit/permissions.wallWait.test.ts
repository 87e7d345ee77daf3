import { strict as assert } from 'node:assert';
import type { PermissionRequest } from '../../src/core/api';
import type { Untimed } from '../../src/core/events/agentEvent';
import type { WallVerdict } from '../../src/core/guard/wall';
import { PendingInputs } from '../../src/core/worker/pendingInput';
import { Permissions } from '../../src/core/worker/permissions';

// The wall may take a while (it walks a folder a delete takes along, off the editor's thread):
// what happens to the turn meanwhile still decides the question, as it does without a wall.
describe('permissions: a question whose turn is cancelled while the wall judges it', () => {
  it('is answered cancelled, not put to the person, once the wall has judged it', async () => {
    let judged!: (verdict: WallVerdict) => void;
    let walled!: () => void;
    const walling = new Promise<void>((resolve) => (walled = resolve));
    const asked: PermissionRequest[] = [];
    const events: Untimed[] = [];
    const permissions = new Permissions({
      workerId: 'w1', emit: (event) => events.push(event), pending: new PendingInputs(() => {}),
      inTurn: () => true, turnsSettled: () => 0,
      ask: (req) => {
        asked.push(req);
        return Promise.resolve({ optionId: 'allow' });
      },
      wall: () => {
        walled();
        return new Promise<WallVerdict>((resolve) => (judged = resolve));
      },
    });
    let answered: string | null | undefined;
    const ask = {
      toolCallId: 'c1', title: 'Delete build', toolKind: 'delete', command: null, args: null, diffs: [], locations: [{ path: '/w/build', line: null }],
      options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' as const }, { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const }],
    };
    const handled = permissions.handle({ kind: 'permission', sessionId: 's', ask, answer: (optionId) => (answered = optionId), withdrawn: () => new Error('withdrawn') });
    await walling;
    permissions.cancelAll('the turn was aborted');
    judged({ veto: null, judged: true });
    await handled;
    assert.equal(asked.length, 0, 'the person was not asked');
    assert.equal(answered, null);
    const end = events.find((e) => e.type === 'permission_end');
    assert.match(String(end?.data?.note), /the turn was aborted \(asked as the cancel reached the agent\)/);
  });
});
