// The walkthrough's steps tick themselves off from what the workers did (src/ui/walkthrough/progress.ts).
import assert from 'node:assert/strict';
import { isDemoWorker, stepsDone } from '../../src/ui/walkthrough/progress';
import type { TurnSummary } from '../../src/core/api';

const DEMO = { command: '/usr/bin/node', args: ['/ext/dist/demo-worker.js', '--session-dir', '/s'] };
const PI = { command: 'pi', args: [] as string[] };

function turn(index: number, over: Partial<TurnSummary> = {}): TurnSummary {
  return { index, submissionId: null, source: 'palette', submitter: null, startedAt: index, endedAt: index + 1, endReason: 'end_turn', error: null, tools: [], ...over };
}

describe('walkthrough progress', () => {
  it('tells the demo worker by its program, whatever it is named', () => {
    assert.equal(isDemoWorker(DEMO), true);
    assert.equal(isDemoWorker({ command: 'C:\\ext\\dist\\demo-worker.js', args: [] }), true);
    assert.equal(isDemoWorker(PI), false);
    assert.equal(isDemoWorker({ command: 'node', args: ['my-demo-worker.js.bak'] }), false);
  });

  it('a demo that is still starting, or exited as it started, has done nothing', () => {
    assert.deepEqual(stepsDone({ ...DEMO, status: 'starting', turns: [] }), []);
    assert.deepEqual(stepsDone({ ...DEMO, status: 'failed', turns: [] }), []);
    assert.deepEqual(stepsDone({ ...PI, status: 'exited', turns: [] }), []);
  });

  it('a running demo is started; a turn that ended is streamed; an aborted one is not', () => {
    assert.deepEqual(stepsDone({ ...DEMO, status: 'running', turns: [] }), ['demoStarted']);
    assert.deepEqual(stepsDone({ ...DEMO, status: 'running', turns: [turn(1, { endedAt: null, endReason: null })] }), ['demoStarted']);
    assert.deepEqual(stepsDone({ ...DEMO, status: 'running', turns: [turn(1, { endReason: 'aborted' })] }), ['demoStarted']);
    assert.deepEqual(stepsDone({ ...DEMO, status: 'running', turns: [turn(1, { error: 'boom' })] }), ['demoStarted']);
    assert.deepEqual(stepsDone({ ...DEMO, status: 'running', turns: [turn(1)] }), ['demoStarted', 'demoStreamed']);
  });

  it('redirected: a turn aborted and another begun after it', () => {
    const aborted = turn(1, { endReason: 'aborted' });
    assert.ok(!stepsDone({ ...DEMO, status: 'running', turns: [turn(0), aborted] }).includes('demoRedirected'));
    assert.ok(stepsDone({ ...DEMO, status: 'running', turns: [aborted, turn(2, { endedAt: null, endReason: null })] }).includes('demoRedirected'));
    assert.ok(!stepsDone({ ...DEMO, status: 'running', turns: [turn(0), turn(2)] }).includes('demoRedirected'));
  });

  it('a worker that is not the demo and ran is the real agent, and says nothing about the demo steps', () => {
    assert.deepEqual(stepsDone({ ...PI, status: 'running', turns: [] }), ['agentStarted']);
    assert.deepEqual(stepsDone({ ...PI, status: 'stopped', turns: [turn(1, { endReason: 'aborted' }), turn(2)] }), ['agentStarted']);
  });
});
