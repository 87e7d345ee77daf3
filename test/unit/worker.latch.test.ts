// The once-latch behind a worker process's exit and the loss of its output or input
// (workerProcess.ts): what Waits (waits.ts) relies on of each.
import assert from 'node:assert/strict';
import { Latch } from '../../src/core/worker/latch';

describe('worker: a once-latch (exit, output lost, input lost)', () => {
  it('fires once, with the first value; its own listener hears it before any waiter', () => {
    const heard: string[] = [];
    const latch = new Latch<number>((n) => heard.push(`first ${n}`));
    latch.once((n) => heard.push(`waiter ${n}`));
    assert.deepEqual([latch.fired, latch.value], [false, undefined]);
    latch.fire(3);
    latch.fire(4);
    assert.deepEqual([latch.fired, latch.value], [true, 3]);
    assert.deepEqual(heard, ['first 3', 'waiter 3']);
  });

  it('a waiter taken back, or added once it fired, is not called; one its own listener adds is', () => {
    const heard: string[] = [];
    const latch: Latch<void> = new Latch<void>(() => latch.once(() => heard.push('added by first')));
    const off = latch.once(() => heard.push('taken back'));
    off();
    latch.fire();
    latch.once(() => heard.push('too late'));
    assert.deepEqual(heard, ['added by first']);
  });

  it('closed, it lets its waiters go uncalled and does not fire', () => {
    const heard: string[] = [];
    const latch = new Latch<void>(() => heard.push('first'));
    latch.once(() => heard.push('waiter'));
    latch.close();
    latch.fire();
    assert.deepEqual([latch.fired, heard], [false, []]);
  });
});
