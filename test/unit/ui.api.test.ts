// The API other extensions get (activate()'s return): an argument of the wrong kind is answered
// `error` with the reason, never thrown back as a TypeError, nor sent on to the worker.
import * as assert from 'node:assert/strict';
import { createApi } from '../../src/ui/host/api';
import type { Supervisor } from '../../src/core/api';

function api() {
  const called: string[] = [];
  const took = (verb: string) => async (...args: unknown[]) => (called.push(`${verb} ${JSON.stringify(args)}`), { status: 'ok', workerId: String(args[0]), ms: 0 });
  const supervisor = new Proxy({}, { get: (_t, verb: string) => took(verb) }) as unknown as Supervisor;
  return { api: createApi(supervisor, { trusted: () => true, untrustedError: 'untrusted' }), called };
}
type Any = never;

describe('the extension API\'s arguments', () => {
  it('a start with no spec, or a task provenance that is no object, is answered error, not thrown', async () => {
    const { api: a, called } = api();
    for (const spec of [undefined, null, 'pi', []]) {
      const r = await a.start(spec as Any);
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /invalid worker spec: the spec must be an object/);
    }
    const r = await a.start({ dialect: 'pi', command: 'pi', cwd: '/w', task: 'go', taskProvenance: 'me' as Any });
    assert.match(r.status === 'error' ? r.error : '', /invalid worker spec: taskProvenance: the provenance must be an object/);
    assert.deepEqual(called, []);
  });

  it('a verb\'s argument of the wrong kind is answered error with the reason, and the worker is not asked', async () => {
    const { api: a, called } = api();
    const answers = await Promise.all([
      a.setModel('w1', 42 as Any),
      a.setModel('w1', '  '),
      a.setMode('w1', undefined as Any),
      a.exportHtml('w1', { path: '/x' } as Any),
      a.compact('w1', { instructions: 7 } as Any),
      a.fork('w1', 'entry' as Any),
      a.prompt('w1', 'hi', { streamingBehavior: 'now' } as Any),
      a.redirect('w1', 'hi', 'me' as Any),
    ]);
    assert.deepEqual(answers.map((r) => [r.status, r.workerId, 'error' in r ? r.error : null]), [
      ['error', 'w1', 'invalid argument: the model must be a string'],
      ['error', 'w1', 'invalid argument: the model must not be empty'],
      ['error', 'w1', 'invalid argument: the mode must be a string'],
      ['error', 'w1', 'invalid argument: the output path must be a string'],
      ['error', 'w1', 'invalid argument: instructions must be a string'],
      ['error', 'w1', 'invalid argument: the options must be an object'],
      ['error', 'w1', 'invalid argument: streamingBehavior must be "steer" or "followUp"'],
      ['error', 'w1', 'invalid argument: the provenance must be an object'],
    ]);
    assert.deepEqual(called, []);
  });

  it('good arguments go through, the provenance said as api', async () => {
    const { api: a, called } = api();
    await a.setModel('w1', 'anthropic/x');
    await a.exportHtml('w1');
    await a.compact('w1');
    await a.prompt('w1', 'hi', { streamingBehavior: 'steer' });
    assert.equal(called.length, 4);
    assert.match(called[3] ?? '', /"streamingBehavior":"steer","source":"api","submitter":"unknown"/);
  });
});
