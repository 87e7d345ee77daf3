// The stand-in supervisor the extension starts with (src/ui/host/lazySupervisor.ts): once shut
// down, a start is refused as the supervisor refuses it, and no core is loaded for it, nor for a
// read of the history (pastSessions.ts).
import * as assert from 'node:assert/strict';
import '../helpers/vscodeStub';
import { LazySupervisor } from '../../src/ui/host/lazySupervisor';
import type { Supervisor } from '../../src/core/api';

describe('the lazy supervisor after shutdown', () => {
  it('a start after dispose(), the core never loaded, is refused in the supervisor\'s words and loads no host', async () => {
    let loads = 0;
    // A host that would start anything: only the stand-in's own refusal keeps it unloaded.
    const host = new Proxy({}, { get: (_t, k: string) => (k.startsWith('on') ? () => () => undefined : async () => ({ status: 'started', workerId: 'w1', ms: 0 })) }) as unknown as Supervisor;
    const lazy = new LazySupervisor(() => (loads++, host), {});
    await lazy.dispose();
    const r = await lazy.start({ dialect: 'pi', command: 'pi', cwd: '/w' });
    assert.deepEqual(r, { status: 'error', error: 'the worker host was shut down (the window closed or reloaded) before the worker started; nothing was started', ms: 0 });
    assert.equal(loads, 0, 'a host loaded now would outlive the window: nothing disposes it');
    assert.equal(lazy.loaded, false);
  });

  it('a read of the history after dispose(), the core never loaded, loads no host: no history, the shut-down words', async () => {
    const { PastSessions } = await import('../../src/ui/history/pastSessions');
    let loads = 0;
    // A host whose history would open a store: only the shutdown keeps it unloaded.
    const host = new Proxy({}, { get: (_t, k: string) => (k === 'history' ? { store: { list: async () => ({ sessions: [] }) }, sessionOf: () => null } : k.startsWith('on') ? () => () => undefined : () => null) }) as unknown as Supervisor;
    const lazy = new LazySupervisor(() => (loads++, host), {});
    const memento = { get: (_k: string, d: unknown) => d, update: async () => undefined } as never;
    const past = new PastSessions(lazy, memento, true);
    await lazy.dispose();
    assert.equal(past.store(), null);
    await past.load();
    assert.deepEqual(past.sessions(), []);
    assert.equal(past.error, 'the worker host was shut down (the window closed or reloaded)');
    assert.equal(loads, 0, 'a host loaded now would open a history store that nothing closes');
    assert.throws(() => lazy.host(), /the worker host was shut down/);
    assert.equal(loads, 0);
    past.dispose();
  });
});
