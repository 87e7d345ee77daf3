// The page's render scheduler, with a clock the test turns: it folds in bounded chunks within
// a frame's budget, draws until no row waits, runs a frame once whether the animation frame or
// the background timer comes first, and says when everything is drawn.
import * as assert from 'node:assert/strict';
import type { PageEvent } from '../../src/protocol/messages';
import { RenderScheduler, type Clock } from '../../src/webview/scheduler';

class TestClock implements Clock {
  t = 0;
  frames: Array<() => void> = [];
  timers: Array<() => void> = [];
  now(): number { return this.t; }
  requestFrame(run: () => void): void { this.frames.push(run); }
  setTimeout(run: () => void, _ms: number): void { this.timers.push(run); }
  /** Run the animation frames asked for so far. */
  frame(): void { const f = this.frames; this.frames = []; for (const run of f) run(); }
  timer(): void { const t = this.timers; this.timers = []; for (const run of t) run(); }
}

const events = (n: number): PageEvent[] => Array.from({ length: n }, (_, i) => ({ type: 'x', timestamp: i }));

describe('ui event log scheduler', () => {
  it('folds a big batch in chunks, draws until no row waits, then says it settled', () => {
    const clock = new TestClock();
    const folded: number[] = [];
    let rowsWaiting = 2;
    let draws = 0;
    let settled = 0;
    const s = new RenderScheduler({
      fold: (b) => { folded.push(b.length); clock.t += 1; },
      draw: () => { draws++; return rowsWaiting-- > 0; },
      settled: () => settled++,
    }, clock);
    s.push(events(1200));
    assert.equal(clock.frames.length, 1);
    s.push(events(10));
    assert.equal(clock.frames.length, 1, 'one frame is asked for however many batches wait');
    clock.frame();
    assert.deepEqual(folded, [500, 500, 200, 10]);
    assert.equal(settled, 0);
    clock.frame();
    clock.frame();
    assert.equal(draws, 3);
    assert.equal(settled, 1);
    assert.equal(clock.frames.length, 0, 'nothing left to do asks for no frame');
    assert.equal(s.frames, 3);
    assert.equal(s.rafFrames, 3);
  });

  it('stops folding when the frame budget is spent and goes on in the next frame', () => {
    const clock = new TestClock();
    const folded: number[] = [];
    let draws = 0;
    const s = new RenderScheduler({ fold: (b) => { folded.push(b.length); clock.t += 5; }, draw: () => { draws++; clock.t += 50; return false; }, settled: () => {} }, clock);
    s.push(events(3000));
    clock.frame();
    assert.deepEqual(folded, [500, 500], 'two chunks spend the 8 ms folding budget');
    assert.equal(draws, 1);
    clock.frame();
    assert.deepEqual(folded, [500, 500, 500, 500]);
    assert.equal(draws, 1, 'a slow draw earns a pause while events still wait');
    clock.frame();
    clock.frame();
    assert.equal(folded.length, 6);
    assert.equal(draws, 2, 'once all is folded the page draws');
  });

  it('a frame runs once when both the animation frame and the background timer fire', () => {
    const clock = new TestClock();
    let draws = 0;
    const s = new RenderScheduler({ fold: () => {}, draw: () => { draws++; return false; }, settled: () => {} }, clock);
    s.push(events(1));
    clock.timer();
    clock.frame();
    assert.equal(draws, 1);
    assert.equal(s.frames, 1);
    assert.equal(s.rafFrames, 1);
  });

  it('clear drops what waits to be folded', () => {
    const clock = new TestClock();
    let folded = 0;
    const s = new RenderScheduler({ fold: (b) => { folded += b.length; }, draw: () => false, settled: () => {} }, clock);
    s.push(events(3));
    s.clear();
    clock.frame();
    assert.equal(folded, 0);
  });
});
