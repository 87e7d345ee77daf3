// The tree and the Event Log read one meaning of the stream: on the recorded streams of the real
// programs (test/fixtures/streams, made by record.ts), the turns the core's fold finds (what the
// Sessions tree and the verbs show) and the turns the log draws are the same turns, with the same
// numbers, origins and ends — also when the host's store has evicted the stream's start.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { piTraits } from '../../src/core/wire/piVersion';
import { slimEvent, type PageEvent } from '../../src/protocol/messages';
import type { EndEntry, TurnEntry } from '../../src/webview/entries';
import { LogModel } from '../../src/webview/model';
import { hostStream } from '../fixtures/hostStream';
import { ROOT } from '../helpers/supervisor';

const STREAMS = path.join(ROOT, 'test/fixtures/streams');
const load = (file: string): PageEvent[] => readFileSync(path.join(STREAMS, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PageEvent);

const RECORDINGS = [
  // pi 1.x says at agent_end that it retries: the retry is part of the turn.
  { file: 'pi-1.6.0-retry.jsonl', sendsSettled: piTraits('1.6.0').sendsSettled, turns: [['palette', 'done'], ['editor', 'done'], ['webview', 'done']] },
  // pi 0.73.1 says it only after the agent_end that ended the turn: the retry is a turn the worker began.
  { file: 'pi-0.73.1-retry.jsonl', sendsSettled: piTraits('0.73.1').sendsSettled, turns: [['palette', 'error'], ['retry', 'done'], ['editor', 'done'], ['webview', 'done']] },
  // τ brackets its compaction in an agent_start/agent_end of its own: not a turn.
  { file: 'tau-0.15.0-compaction.jsonl', sendsSettled: null, turns: [['palette', 'done'], ['editor', 'done'], ['webview', 'done']] },
];

/** The turns as the log draws them: each turn's number and origin, and how it ended. */
function logTurns(events: readonly PageEvent[]): Array<{ index: number; source: string | null; endReason: string | null }> {
  const log = new LogModel();
  log.apply(events.map((e) => slimEvent(e as Parameters<typeof slimEvent>[0])));
  const out: Array<{ index: number; source: string | null; endReason: string | null }> = [];
  for (const entry of log.all()) {
    if (entry.kind === 'turn') out.push({ index: (entry as TurnEntry).index, source: (entry as TurnEntry).prov.source, endReason: null });
    else if (entry.kind === 'end' && !(entry as EndEntry).willRetry && out.length) out[out.length - 1].endReason = (entry as EndEntry).reason;
  }
  return out;
}

describe('one meaning of the stream: the tree and the Event Log agree on recorded real streams', () => {
  for (const rec of RECORDINGS) {
    it(`${rec.file}: the same turns, numbers, origins and ends`, () => {
      const stream = hostStream({ sendsSettled: rec.sendsSettled });
      const delivered = stream.push(load(rec.file));
      const tree = stream.tracker.turns.map((t) => ({ index: t.index, source: t.source, endReason: t.endReason }));
      assert.deepEqual(tree.map((t) => [t.source, t.endReason]), rec.turns, 'the fold found other turns than the recording holds');
      assert.deepEqual(logTurns(delivered), tree);
      // Every turn ends with exactly one ending event, and the fold stamped it.
      const ends = delivered.filter((e) => e.turn?.ends).map((e) => e.turn!.index);
      assert.deepEqual(ends, tree.map((t) => t.index));
    });

    it(`${rec.file}: after eviction of any prefix, the log numbers the turns that remain as the tree does`, () => {
      const stream = hostStream({ sendsSettled: rec.sendsSettled });
      const delivered = stream.push(load(rec.file));
      const tree = stream.tracker.turns.map((t) => ({ index: t.index, source: t.source, endReason: t.endReason }));
      const opensAt = new Map(delivered.flatMap((e, i) => (e.turn?.opens ? [[e.turn.index, i] as const] : [])));
      for (let cut = 1; cut < delivered.length; cut++) {
        const kept = tree.filter((t) => opensAt.get(t.index)! >= cut);
        assert.deepEqual(logTurns(delivered.slice(cut)), kept, `with the first ${cut} events evicted`);
      }
    });
  }
});
