// What a screen reader hears of the new rows of a streaming turn (announce.ts), on a clock the
// test turns: one polite line now and then, never one per event, and nothing unless the person
// is in the log and following its end.
import * as assert from 'node:assert/strict';
import { Announcer, GATHER_MS, SAY_EVERY_MS, entryWords, inLog, type AnnounceClock } from '../../src/webview/announce';
import type { Entry } from '../../src/webview/entries';
import { TurnedClock } from '../fixtures/turnedClock';

class FakeClock extends TurnedClock implements AnnounceClock {
  constructor() {
    super(5_000);
  }
}

let ids = 0;
const base = () => ({ id: ++ids, time: 0, version: 0 });
const tool = (name: string): Entry => ({ ...base(), kind: 'tool', toolCallId: null, name, title: null, changes: [], args: {}, output: '', result: null, startedAt: 0, endedAt: null, isError: false, blocked: false, blockedBy: null, reason: null, violation: null });
const reply = (): Entry => ({ ...base(), kind: 'assistant', text: '', streaming: true, stopReason: null });
const retry = (): Entry => ({ ...base(), kind: 'retry', phase: 'start', text: 'Retrying' });

const setup = () => {
  const clock = new FakeClock();
  const said: string[] = [];
  const state = { listening: true };
  const announcer = new Announcer(clock, () => state.listening, (t) => said.push(t));
  return { clock, said, state, announcer };
};

describe('ui event log: new rows said to a screen reader', () => {
  it('a burst is said once, counted, its first rows named', () => {
    const { clock, said, announcer } = setup();
    announcer.added([tool('read_file'), reply()]);
    announcer.added([tool('bash')]);
    assert.deepEqual(said, [], 'not at once: the rest of the burst is gathered');
    clock.advance(GATHER_MS);
    assert.deepEqual(said, ['3 new entries: tool call read_file, reply, tool call bash']);
    announcer.added([reply()]);
    clock.advance(SAY_EVERY_MS);
    assert.deepEqual(said.slice(1), ['1 new entry: reply']);
  });

  it('a flood (thousands of rows, a batch a frame) is said at most once every SAY_EVERY_MS, never once per row', () => {
    const { clock, said, announcer } = setup();
    const start = clock.now();
    const times: number[] = [];
    let total = 0;
    // 10 s of frames, 100 rows each: 60,000 rows.
    for (let frame = 0; frame < 600; frame++) {
      announcer.added(Array.from({ length: 100 }, retry));
      total += 100;
      const before = said.length;
      clock.advance(1000 / 60);
      if (said.length > before) times.push(clock.now() - start);
    }
    clock.advance(SAY_EVERY_MS);
    assert.ok(said.length <= 10_000 / SAY_EVERY_MS + 1, `${said.length} announcements in 10 s`);
    for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] >= SAY_EVERY_MS - 1, `said ${times[i] - times[i - 1]} ms after the one before`);
    assert.match(said[0], /^\d[\d,]* new entries: retry, retry, retry, …$/);
    const counted = said.reduce((n, s) => n + Number(s.split(' ')[0].replace(/,/g, '')), 0);
    assert.equal(counted, total, 'every row is counted once');
  });

  it('nothing is said while the person is not in the log or has scrolled up, nor later for what came then', () => {
    const { clock, said, state, announcer } = setup();
    state.listening = false;
    announcer.added([tool('bash')]);
    clock.advance(SAY_EVERY_MS * 3);
    assert.deepEqual(said, []);
    assert.deepEqual(clock.pending, [], 'no timer waits for it');
    // Rows gathered, then the person leaves the log before they are said.
    state.listening = true;
    announcer.added([tool('grep')]);
    state.listening = false;
    clock.advance(GATHER_MS);
    assert.deepEqual(said, []);
    // Back: only what comes from now on.
    state.listening = true;
    announcer.added([reply()]);
    clock.advance(GATHER_MS);
    assert.deepEqual(said, ['1 new entry: reply']);
  });

  it('stopped (the log shows another worker, or another page of its log): its timer is cleared and nothing gathered is kept or said', () => {
    const { clock, said, announcer } = setup();
    announcer.added([tool('read_file'), tool('bash')]);
    assert.equal(clock.pending.length, 1, 'gathering');
    announcer.stop();
    assert.deepEqual(clock.pending, [], 'no timer waits for what was gathered');
    clock.advance(SAY_EVERY_MS * 3);
    assert.deepEqual(said, []);
    announcer.stop();
    // The next worker's new rows are counted from none.
    announcer.added([reply()]);
    clock.advance(GATHER_MS);
    assert.deepEqual(said, ['1 new entry: reply']);
  });

  it('the person is in the log only while its page has the focus: the focus left on a row as they type in the editor, or in a hidden tab, is not it', () => {
    const row = { id: 'row' } as unknown as Element;
    const log = { contains: (n: Node | null) => n === (row as unknown as Node) };
    assert.equal(inLog({ activeElement: row, hasFocus: () => true }, log), true);
    assert.equal(inLog({ activeElement: row, hasFocus: () => false }, log), false, 'the page lost the focus: its live region would still be read out');
    assert.equal(inLog({ activeElement: null, hasFocus: () => true }, log), false);
  });

  it('a row is named by its kind and what tells it apart, a long title cut', () => {
    assert.equal(entryWords(tool('read_file')), 'tool call read_file');
    assert.equal(entryWords({ ...base(), kind: 'end', reason: 'max_turns', error: null, willRetry: false }), 'turn ended: the turn limit was reached');
    const long = entryWords({ ...base(), kind: 'warning', title: 'x'.repeat(200), text: '' });
    assert.ok(long.length <= 60 && long.endsWith('…'));
  });
});
