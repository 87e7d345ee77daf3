// A steer or follow-up the worker took and queued, then its exit: pi answers a follow-up
// `accepted` when it queues it, so the exit is where it is lost. The exit says so (its event, the
// Event Log's line, the export), not a last Queue row that still lists it as if it waited.
import assert from 'node:assert/strict';
import { createSupervisor } from '../../src/core/supervisor';
import type { Supervisor } from '../../src/core/api';
import { sessionMarkdown } from '../../src/core/export/markdown';
import { exitLine as exitEntry } from '../../src/webview/notices';

const exitLine = (e: Parameters<typeof exitEntry>[0], t: number) => exitEntry(e, t) as { text: string };
import { fakeSpec, ofType, waitFor } from '../helpers/supervisor';

describe('a queued message at the worker\'s exit', () => {
  let supervisor: Supervisor;
  afterEach(async () => supervisor?.dispose());

  it('pi: a follow-up it queued (answered accepted) and never ran is said by the exit as never delivered', async () => {
    supervisor = createSupervisor();
    const started = await supervisor.start(fakeSpec('pi'));
    assert.equal(started.status, 'started');
    const id = started.status === 'started' ? started.workerId : '';
    const tool = waitFor(supervisor, id, ofType('tool_execution_start'));
    await supervisor.prompt(id, 'bash sleep 1\nexit 3');
    await tool;
    const exited = waitFor(supervisor, id, ofType('worker_exit'));
    const queued = waitFor(supervisor, id, (e) => e.type === 'queue_update' && Array.isArray(e.data?.followUp) && e.data.followUp.length === 1);
    assert.equal((await supervisor.prompt(id, 'say later', { streamingBehavior: 'followUp' })).status, 'accepted');
    await queued;
    const exit = await exited;
    assert.equal(exit.data?.undelivered, 1, JSON.stringify(exit));
    assert.match(exitLine(exit as unknown as Parameters<typeof exitEntry>[0], 0).text, /^Worker failed \(exit code 3\): .*\. A queued message \(steer or follow-up\) was never delivered$/s);
    assert.match(sessionMarkdown([exit], { title: 'w' }), /> The worker failed: .* \(1 queued message never delivered\)/);
  });

  it('an exit with nothing queued says nothing of it', () => {
    const exit = { type: 'worker_exit', timestamp: 0, is_error: false, error: null, data: { code: 0, signal: null, status: 'exited' } };
    assert.equal(exitLine(exit, 0).text, 'Worker exited (exit code 0)');
  });
});
