import assert from 'node:assert/strict';
import { EventBus } from '../../src/core/events/eventBus';
import { Ring } from '../../src/core/worker/ring';

type E = { type: string; n?: number };

describe('EventBus', () => {
  it('delivers to the type\'s handlers and to all, in subscription order', () => {
    const bus = new EventBus<E>();
    const seen: string[] = [];
    bus.on('all', (e) => void seen.push(`all:${e.type}`));
    bus.on('agent_start', () => void seen.push('own'));
    bus.emit({ type: 'agent_start' });
    bus.emit({ type: 'other' });
    assert.deepEqual(seen, ['own', 'all:agent_start', 'all:other']);
  });

  it('completes synchronously when every handler is synchronous', () => {
    const bus = new EventBus<E>();
    bus.on('all', () => {});
    assert.equal(bus.emit({ type: 'x' }), undefined);
  });

  it('awaits an async handler before running the next', async () => {
    const bus = new EventBus<E>();
    const seen: string[] = [];
    let release!: () => void;
    bus.on('x', () => new Promise<void>((r) => (release = () => (seen.push('first done'), r()))));
    bus.on('x', () => void seen.push('second'));
    const done = bus.emit({ type: 'x' });
    assert.ok(done instanceof Promise);
    assert.deepEqual(seen, []);
    release();
    await done;
    assert.deepEqual(seen, ['first done', 'second']);
  });

  it('reports a throwing or rejecting handler to on_error and runs the others', async () => {
    const bus = new EventBus<E>();
    const errors: string[] = [];
    const seen: number[] = [];
    bus.on_error((e, channel) => errors.push(`${channel}:${(e as Error).message}`));
    bus.on('x', () => {
      throw new Error('sync boom');
    });
    bus.on('x', async () => {
      throw new Error('async boom');
    });
    bus.on('x', (e) => void seen.push(e.n!));
    await bus.emit({ type: 'x', n: 1 });
    assert.deepEqual(errors, ['x:sync boom', 'x:async boom']);
    assert.deepEqual(seen, [1]);
  });

  it('unsubscribes with the returned function and with off, and emit_channel passes arguments', () => {
    const bus = new EventBus<E>();
    const seen: unknown[] = [];
    const h = (...a: unknown[]) => void seen.push(a);
    const off = bus.on('x', h);
    bus.on('custom', h);
    bus.emit_channel('custom', 1, 2);
    off();
    bus.off('custom', h);
    bus.emit({ type: 'x' });
    bus.emit_channel('custom', 3);
    assert.deepEqual(seen, [[1, 2]]);
    assert.equal(bus.listenerCount, 0);
  });
});

describe('Ring', () => {
  it('keeps the newest items and counts what fell out', () => {
    const r = new Ring<number>(3);
    for (let i = 1; i <= 5; i++) r.push(i);
    assert.deepEqual(r.toArray(), [3, 4, 5]);
    assert.deepEqual(r.tail(2), [4, 5]);
    assert.equal(r.evicted, 2);
    assert.throws(() => new Ring(0), /positive integer/);
  });
});
