// The channel to one event log page (ui/eventLog/pageChannel.ts) over a webview the test plays:
// validation before any handler, one handler per message, replies that carry the request id
// back, and the pacing of what is posted.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../../src/protocol/messages';
import { MAX_IN_FLIGHT, PageChannel, type PageHandlers } from '../../src/ui/eventLog/pageChannel';

function setup() {
  const posted: HostMessage[] = [];
  const deliveries: Array<() => void> = [];
  const webview = {
    postMessage: (m: HostMessage) => {
      posted.push(m);
      return new Promise<boolean>((resolve) => deliveries.push(() => resolve(true)));
    },
  } as unknown as vscode.Webview;
  const handled: WebviewMessage[] = [];
  const warnings: string[] = [];
  const heard: WebviewMessage['type'][] = [];
  const handler = (m: WebviewMessage) => {
    handled.push(m);
  };
  const handlers = Object.fromEntries(
    ['ready', 'loading', 'loadFailed', 'send', 'redirect', 'abort', 'compact', 'stop', 'selectWorker', 'rendered'].map((t) => [t, handler]),
  ) as unknown as PageHandlers;
  const channel = new PageChannel(
    webview,
    handlers,
    (m) => warnings.push(m),
    (m) => heard.push(m.type),
  );
  /** Lets the webview deliver what it holds, and the promise callbacks run. */
  const deliver = async () => {
    for (const d of deliveries.splice(0)) d();
    await new Promise((r) => setImmediate(r));
  };
  return { channel, posted, handled, warnings, heard, deliver };
}

describe('ui event log page channel', () => {
  it('acts on nothing invalid: it is counted, said in the log, and no handler runs', () => {
    const { channel, handled, warnings, heard } = setup();
    channel.receive({ type: 'send', workerId: 'w1', text: 'x', mode: 'shout' });
    channel.receive('not even an object');
    channel.receive({ type: 'abort', workerId: 'w1', req: -1 });
    assert.equal(channel.stats.invalidFromWebview, 3);
    assert.equal(warnings.length, 3);
    assert.match(warnings[0], /^ignored an invalid message from the event log webview: mode: /);
    assert.deepEqual(handled, []);
    assert.deepEqual(heard, []);
  });

  it('each valid message goes to its handler, then is heard; a render report is kept, not counted as received', () => {
    const { channel, handled, heard } = setup();
    channel.receive({ type: 'ready' });
    channel.receive({ type: 'abort', workerId: 'w1', req: 3 });
    channel.receive({ type: 'rendered', workerId: 'w1', events: 1, entries: 1, rows: 1, domNodes: 10 });
    assert.deepEqual(
      handled.map((m) => m.type),
      ['ready', 'abort', 'rendered'],
    );
    assert.deepEqual(handled[1], { type: 'abort', workerId: 'w1', req: 3 });
    assert.deepEqual(heard, ['ready', 'abort', 'rendered']);
    assert.deepEqual(channel.stats.received, ['ready', 'abort']);
    assert.equal(channel.stats.rendered?.domNodes, 10);
  });

  it('a reply carries the request id back as seq; news carries none', () => {
    const { channel, posted } = setup();
    const result = { type: 'result' as const, workerId: 'w1', action: 'prompt', status: 'accepted', message: 'Prompt accepted', tone: 'ok' as const };
    channel.reply(7, result);
    channel.reply(undefined, result);
    assert.deepEqual(posted, [{ ...result, seq: 7 }, result]);
  });

  it(`at most ${MAX_IN_FLIGHT} messages in flight, the rest in order as each is delivered; a page gone frees no slot of the next`, async () => {
    const { channel, posted, deliver } = setup();
    for (let i = 0; i < 10; i++) channel.post({ type: 'prefill', workerId: 'w1', text: String(i) });
    assert.equal(posted.length, MAX_IN_FLIGHT);
    await deliver();
    assert.equal(posted.length, MAX_IN_FLIGHT * 2);
    assert.deepEqual(
      posted.map((m) => (m as { text: string }).text),
      ['0', '1', '2', '3', '4', '5', '6', '7'],
    );
    assert.equal(channel.stats.maxInFlight, MAX_IN_FLIGHT);
    channel.pageGone();
    for (let i = 10; i < 20; i++) channel.post({ type: 'prefill', workerId: 'w1', text: String(i) });
    assert.equal(posted.length, MAX_IN_FLIGHT * 3, "the new page waits for the old page's deliveries");
    await deliver();
    assert.equal(posted.length, MAX_IN_FLIGHT * 4);
    assert.equal(channel.stats.maxInFlight, MAX_IN_FLIGHT, "the old page's deliveries freed slots of the new one");
  });

  it('a log shown afresh drops the events, states and lists waiting, not an answer the page waits for (issue: "Prompt sent…" for ever, the message lost)', async () => {
    const { channel, posted, deliver } = setup();
    for (let i = 0; i < MAX_IN_FLIGHT; i++) channel.post({ type: 'events', workerId: 'w1', events: [] });
    channel.post({ type: 'events', workerId: 'w1', events: [] });
    channel.post({ type: 'workers', workers: [], selected: 'w1' } as unknown as HostMessage);
    channel.reply(42, { type: 'result', workerId: 'w1', action: 'prompt', status: 'error', message: 'the worker refused it', tone: 'error' });
    channel.post({ type: 'prefill', workerId: 'w1', text: 'from the worker' });
    channel.dropWaiting();
    await deliver();
    assert.deepEqual(
      posted.slice(MAX_IN_FLIGHT).map((m) => [m.type, (m as { seq?: number }).seq ?? null]),
      [
        ['result', 42],
        ['prefill', null],
      ],
    );
  });
});
