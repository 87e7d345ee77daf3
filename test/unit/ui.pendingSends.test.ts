// The composer's messages in flight, one per worker: a message sent to a worker and then left
// (the log switched to another before the host's reply came) is not lost when it fails. It goes
// back into that worker's draft, and the line says so when that worker is shown again; the
// worker shown meanwhile hears nothing of it.
import * as assert from 'node:assert/strict';
import type { HostMessage } from '../../src/protocol/messages';
import { Drafts } from '../../src/webview/drafts';
import { MAX_PENDING, PendingSends } from '../../src/webview/pendingSends';

type Result = Extract<HostMessage, { type: 'result' }>;
const failed = (workerId: string, seq: number | undefined, action = 'prompt'): Result => ({ type: 'result', workerId, action, status: 'error', message: `Prompting ${workerId} failed: busy`, tone: 'error', ...(seq === undefined ? {} : { seq }) });
const accepted = (workerId: string, seq: number): Result => ({ type: 'result', workerId, action: 'prompt', status: 'accepted', message: `Prompt accepted by ${workerId}`, tone: 'ok', seq });

function composer() {
  const drafts = new Drafts(undefined, () => {});
  return { drafts, pending: new PendingSends(drafts) };
}

describe('ui composer: a message in flight to a worker no longer shown', () => {
  it("send to A, switch to B, A's reply is a failure: A's draft holds the text, A's line says so once, B's box and line are untouched", () => {
    const { drafts, pending } = composer();
    pending.sent('A', { action: 'prompt', text: 'look at a.ts' }, 7);
    // The log switches to B, where the person has a draft of their own.
    drafts.set('B', 'for B');
    assert.equal(pending.shownAgain('B'), null, 'B starts with a blank line');
    const onB = pending.reply('B', failed('A', 7), 'for B');
    assert.equal(onB, null, "A's failure was said on B's line (or put in B's box)");
    assert.equal(drafts.get('B'), 'for B');
    assert.equal(drafts.get('A'), 'look at a.ts', 'the message that failed is lost');
    // Back on A: the line says it was not sent, why, and that it is back in the box; once.
    const line = pending.shownAgain('A');
    assert.equal(line?.cls, 'error');
    assert.match(line!.text, /not sent/);
    assert.match(line!.text, /Prompting A failed: busy/);
    assert.match(line!.text, /back in the box/);
    assert.equal(pending.shownAgain('A'), null, 'said once');
    assert.equal(pending.size, 0, 'the reply forgot the entry');
  });

  it('a failure for A puts the message in front of what the person typed for A since, never over it', () => {
    const { drafts, pending } = composer();
    pending.sent('A', { action: 'followUp', text: 'then run the tests' }, 3);
    drafts.set('A', 'and the lint');
    pending.reply('B', failed('A', 3, 'followUp'), '');
    assert.equal(drafts.get('A'), 'then run the tests\n\nand the lint');
    assert.match(pending.shownAgain('A')!.text, /above what you typed since/);
  });

  it('a reply that A accepted, while B is shown: nothing restored, nothing said on B or later on A', () => {
    const { drafts, pending } = composer();
    pending.sent('A', { action: 'prompt', text: 'hello' }, 9);
    assert.equal(pending.reply('B', accepted('A', 9), 'typed on B'), null);
    assert.equal(drafts.get('A'), '');
    assert.equal(pending.shownAgain('A'), null);
    assert.equal(pending.size, 0);
  });

  it("another worker's news, or the reply to another request of the page, is not this line's and brings nothing back", () => {
    const { drafts, pending } = composer();
    pending.sent('A', { action: 'prompt', text: 'hello' }, 9);
    assert.equal(pending.reply('B', failed('A', undefined), ''), null, 'news of A from the palette');
    assert.equal(pending.reply('B', failed('A', 10, 'abort'), ''), null, "an Abort of A's reply");
    assert.equal(drafts.get('A'), '');
    assert.equal(pending.size, 1, 'the message is still awaited');
    // Back on A before the reply: the line says it is on its way; the reply then comes as before.
    assert.deepEqual(pending.shownAgain('A'), { text: 'Prompt sent…', cls: 'pending' });
    assert.deepEqual(pending.reply('A', failed('A', 9), ''), { line: { text: 'Prompting A failed: busy', cls: 'error' }, restore: 'hello' });
    assert.equal(pending.size, 0);
  });

  it('the worker shown: as before, news says itself on the line and only its own reply gives the message back', () => {
    const { pending } = composer();
    pending.sent('A', { action: 'steer', text: 'look at b.ts' }, 4);
    assert.deepEqual(pending.reply('A', { ...failed('A', undefined), action: 'abort', message: 'Aborted A', status: 'aborted', tone: 'ok' }, ''), { line: { text: 'Aborted A', cls: 'ok' }, restore: null });
    assert.equal(pending.reply('A', failed('A', 4, 'steer'), 'typed since')?.restore, 'look at b.ts\n\ntyped since', 'above what was typed since');
    assert.equal(pending.size, 0);
  });

  it(`holds at most ${MAX_PENDING}: the oldest goes`, () => {
    const { drafts, pending } = composer();
    for (let i = 0; i <= MAX_PENDING; i++) pending.sent(`w${i}`, { action: 'prompt', text: `to ${i}` }, i);
    assert.equal(pending.size, MAX_PENDING);
    pending.reply(null, failed('w0', 0), '');
    assert.equal(drafts.get('w0'), '', 'the oldest was forgotten');
    pending.reply(null, failed('w1', 1), '');
    assert.equal(drafts.get('w1'), 'to 1');
    // Two sends to one worker before either reply: each is awaited, and each failure comes back.
    pending.sent('w2', { action: 'prompt', text: 'again' }, 100);
    pending.reply(null, failed('w2', 2), '');
    pending.reply(null, failed('w2', 100), '');
    assert.equal(drafts.get('w2'), 'again\n\nto 2');
  });
});

describe('ui composer: a message in flight when the page is loaded again', () => {
  it("the log's page reloaded (its tab hidden and shown) before the reply: a failure that then comes gives the message back", () => {
    const drafts = new Drafts(undefined, () => {});
    let kept: unknown;
    const before = new PendingSends(drafts, undefined, (sends) => (kept = JSON.parse(JSON.stringify(sends))));
    before.sent('A', { action: 'followUp', text: 'then run the tests' }, 41);
    // VS Code builds the hidden page anew when it is shown: only its saved state is left.
    const after = new PendingSends(drafts, kept, () => {});
    assert.equal(after.size, 1);
    assert.deepEqual(after.reply('A', failed('A', 41, 'followUp'), ''), { line: { text: 'Prompting A failed: busy', cls: 'error' }, restore: 'then run the tests' });
    assert.equal(after.size, 0);
  });

  it('what the state held is checked: anything else is no message in flight', () => {
    const drafts = new Drafts(undefined, () => {});
    for (const saved of [null, 'x', { 1: 'A' }, [{ req: 'x', workerId: 'A', action: 'prompt', text: 't' }, { req: 2, workerId: 'A', action: 'stop', text: 't' }, 7]]) {
      assert.equal(new PendingSends(drafts, saved, () => {}).size, 0, JSON.stringify(saved));
    }
  });
});
