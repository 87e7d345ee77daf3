// The context keys `when` clauses read: set as the host's workers change, and at activation only
// what VS Code does not already read as false.
import { vscodeStub } from '../helpers/vscodeStub';
import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { ContextKeys } from '../../src/ui/views/contextKeys';
import type { Supervisor } from '../../src/core/api';

/** A host with the given workers, whose removal event the test fires. */
function host(list: unknown[]): { supervisor: Supervisor; remove(): void } {
  const events = new EventEmitter();
  const supervisor = {
    list: () => list,
    onState: () => () => {},
    onRemoved: (fn: () => void) => (events.on('removed', fn), () => events.off('removed', fn)),
  } as unknown as Supervisor;
  return { supervisor, remove: () => { list.length = 0; events.emit('removed'); } };
}

const setContexts = () => vscodeStub.executed.filter((c) => c[0] === 'setContext').map((c) => [c[1], c[2]]);
const running = { workerId: 'w1', status: 'running', streaming: false, compacting: false, pid: 1 };

describe('ui context keys', () => {
  afterEach(() => vscodeStub.reset());

  it('in a window that holds none of them yet, sets none at activation while every one is false', () => {
    const keys = new ContextKeys(host([]).supervisor, true);
    assert.deepEqual(setContexts(), []);
    assert.equal(keys.value('rpcWorkers.hasWorkers'), false);
  });

  it('where an earlier extension host may have left them set, sets every one, false as well', () => {
    new ContextKeys(host([]).supervisor, false);
    assert.equal(setContexts().length, 9);
    assert.ok(setContexts().every(([, v]) => v === false));
  });

  it('sets what is true at once, and what turns false as the workers go', () => {
    const h = host([running]);
    const keys = new ContextKeys(h.supervisor, true);
    assert.deepEqual(setContexts().find(([k]) => k === 'rpcWorkers.hasWorkers'), ['rpcWorkers.hasWorkers', true]);
    assert.ok(setContexts().every(([, v]) => v === true), 'only the true ones');
    vscodeStub.executed.length = 0;
    h.remove();
    assert.deepEqual(setContexts().find(([k]) => k === 'rpcWorkers.hasWorkers'), ['rpcWorkers.hasWorkers', false]);
    assert.equal(keys.value('rpcWorkers.hasWorkers'), false);
  });
});
