// The Event Log page validates every batch; by the thousand that is affordable only on the
// schema's fast path. Every event the host delivers (stamped, slimmed as the page gets it) must
// take it: an event that steps aside costs the full zod parse (the bench once showed the page
// validating 100,000 events slower than it drew them, because the turn stamp stepped aside).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MISS, fastParser } from '../../src/protocol/fastParse';
import { hostMessageSchema, type PageEvent } from '../../src/protocol/hostMessages';
import { slimEvent } from '../../src/protocol/messages';
import { hostStream } from '../fixtures/hostStream';
import { ROOT } from '../helpers/supervisor';

const fast = fastParser(hostMessageSchema)!;
const STREAMS = path.join(ROOT, 'test/fixtures/streams');

describe('the page\'s fast path takes every event the host delivers', () => {
  for (const file of ['pi-0.73.1-retry.jsonl', 'pi-1.6.0-retry.jsonl', 'tau-0.15.0-compaction.jsonl']) {
    it(`${file}: no stamped, slimmed event steps aside to the full schema`, () => {
      const events = readFileSync(path.join(STREAMS, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PageEvent);
      const delivered = hostStream({ sendsSettled: file.includes('1.6.0') ? true : null }).push(events).map((e) => slimEvent(e as Parameters<typeof slimEvent>[0]));
      assert.ok(delivered.some((e) => e.turn?.opens) && delivered.some((e) => e.turn?.ends), 'the stream has stamps');
      const missed = delivered.filter((e) => fast({ type: 'events', workerId: 'w', events: [e] }) === MISS).map((e) => e.type);
      assert.deepEqual(missed, []);
      // And the fast path's answer is the schema's.
      const message = { type: 'events', workerId: 'w', events: delivered };
      assert.deepEqual(fast(message), hostMessageSchema.parse(message));
    });
  }
});
