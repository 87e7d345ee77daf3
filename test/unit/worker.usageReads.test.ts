// ACP's usage readouts (usage_update, in about every third line of claude-agent-acp's turns) are
// read in one go USAGE_READ_MS after the first of them, the last always read, and not after the
// worker is gone; on timers the test moves (node:test's mock timers).
import * as assert from 'node:assert/strict';
import { mock } from 'node:test';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { WorkerSpec } from '../../src/core/api';
import type { Dialect } from '../../src/core/wire/dialect';
import { USAGE_READ_MS, WorkerSessions } from '../../src/core/worker/sessions';

function sessionsWithUsage() {
  let used = 0;
  const seen = { reads: 0, changes: 0, said: [] as string[] };
  const dialect = {
    sessions: {
      usage: () => {
        seen.reads++;
        return Promise.resolve({ scope: 'session', input: null, output: null, cacheRead: null, cacheWrite: null, contextTokens: used, contextWindow: 1000, cost: null, at: 0 });
      },
    },
  } as unknown as Dialect;
  const sessions = new WorkerSessions({
    id: 'w1', spec: { dialect: 'acp', command: 'agent' } as WorkerSpec, dialect,
    request: (send) => send({} as MessageConnection), busy: () => null, emit: () => {},
    changed: () => void seen.changes++, output: (text) => void seen.said.push(text),
  });
  return { sessions, seen, setUsed: (n: number) => (used = n) };
}

/** Lets the read's promise chain run out. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('ACP usage readouts', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('a burst of readouts is read once, after USAGE_READ_MS, with the last readout', async () => {
    const { sessions, seen, setUsed } = sessionsWithUsage();
    for (let i = 1; i <= 50; i++) {
      setUsed(i);
      sessions.usageUpdated();
    }
    mock.timers.tick(USAGE_READ_MS - 1);
    await settle();
    assert.equal(seen.reads, 0, 'not read before its time');
    mock.timers.tick(1);
    await settle();
    assert.equal(seen.reads, 1);
    assert.equal(seen.changes, 1);
    assert.equal(sessions.usage?.contextTokens, 50);
    // A readout after the read is read in its turn.
    setUsed(51);
    sessions.usageUpdated();
    mock.timers.tick(USAGE_READ_MS);
    await settle();
    assert.equal(seen.reads, 2);
    assert.equal(sessions.usage?.contextTokens, 51);
  });

  it('readouts that keep coming are read while they come, not only once they stop', async () => {
    const { sessions, seen, setUsed } = sessionsWithUsage();
    for (let i = 1; i <= 10; i++) {
      setUsed(i);
      sessions.usageUpdated();
      mock.timers.tick(USAGE_READ_MS / 2);
      await settle();
    }
    assert.equal(seen.reads, 5);
    assert.equal(sessions.usage?.contextTokens, 10);
  });

  it('a read still due when the worker exits is not made', async () => {
    const { sessions, seen } = sessionsWithUsage();
    sessions.usageUpdated();
    sessions.ended();
    mock.timers.tick(USAGE_READ_MS * 10);
    await settle();
    assert.equal(seen.reads, 0);
    assert.deepEqual(seen.said, []);
  });

  it('a readout read from the output after the exit starts no read (the output can outlast the exit)', async () => {
    const { sessions, seen } = sessionsWithUsage();
    sessions.ended();
    sessions.usageUpdated();
    mock.timers.tick(USAGE_READ_MS * 10);
    await settle();
    assert.equal(seen.reads, 0);
  });
});
