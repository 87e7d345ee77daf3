// The words both bundles say, from src/protocol/words.ts: the tree's sentence and the log's
// heading name a source from the same table.
import * as assert from 'node:assert/strict';
import { duration, sourceInfo, sourceLabel, workerPhase } from '../../src/protocol/words';

describe('protocol words', () => {
  it('names a source for a heading and inside a sentence, from one table', () => {
    assert.deepEqual(sourceInfo('editor'), { icon: 'edit', label: 'Editor', cls: 'src-editor' });
    assert.equal(sourceLabel('editor'), 'editor');
    assert.equal(sourceLabel('api'), 'extension API');
    assert.equal(sourceLabel('palette'), 'Command Palette');
    assert.equal(sourceLabel('event-log'), 'event log composer');
    assert.deepEqual([sourceInfo(null).label, sourceLabel(null), sourceLabel('')], ['Unknown source', 'unknown source', 'unknown source']);
    assert.deepEqual([sourceInfo('my-tool').label, sourceInfo('my-tool').cls, sourceLabel('my-tool')], ['my-tool', 'src-other', 'my-tool']);
  });

  it('says a duration and a phase the same way on both sides', () => {
    assert.deepEqual([duration(-3), duration(850), duration(2500), duration(65_000)], ['0 ms', '850 ms', '2.5 s', '1 min 5 s']);
    // Rounded before the units are split: no "1000 ms", "60.0 s" or "1 min 60 s".
    assert.deepEqual([duration(999.7), duration(59_960), duration(119_600), duration(3_599_700)], ['1.0 s', '1 min 0 s', '2 min 0 s', '60 min 0 s']);
    assert.equal(workerPhase({ status: 'running', streaming: true, compacting: true }), 'compacting');
    assert.equal(workerPhase({ status: 'running', streaming: false, compacting: false }), 'idle');
    assert.equal(workerPhase({ status: 'stopped', streaming: false, compacting: false }), 'stopped');
  });
});
