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

describe('the extension API\'s starts', () => {
  it('a start that names an agent card passes the launch configuration gate (cards a worker may have changed)', async () => {
    const called: string[] = [];
    const supervisor = { start: async () => (called.push('start'), { status: 'started' }) } as unknown as Supervisor;
    const gate = { ok: false as const, error: 'While a worker ran, what configures the next worker changed: .pi/agents/reviewer.md' };
    const a = createApi(supervisor, { trusted: () => true, untrustedError: '', confirmLaunch: async () => gate });
    const r = await a.start({ dialect: 'pi', command: 'pi', cwd: '/w', agent: 'reviewer' });
    assert.deepEqual([r.status, r.status === 'error' ? r.error : ''], ['error', gate.error]);
    assert.deepEqual(called, []);
    assert.equal((await a.start({ dialect: 'pi', command: 'pi', cwd: '/w' })).status, 'started', 'a spec of the caller\'s own reads no card');
  });
});

describe('the extension API\'s listeners', () => {
  async function lazyHost() {
    const { LazySupervisor } = await import('../../src/ui/host/lazySupervisor');
    const fire: Record<string, (...a: unknown[]) => void> = {};
    const real = new Proxy({}, { get: (_t, k: string) => (k.startsWith('on') ? (l: (...a: unknown[]) => void) => ((fire[k] = l), () => undefined) : undefined) }) as unknown as Supervisor;
    const warned: string[] = [];
    const lazy = new LazySupervisor(() => real, {}, { warn: (m) => void warned.push(m) });
    lazy.host();
    return { api: createApi(lazy, { trusted: () => true, untrustedError: '' }), fire: (...a: unknown[]) => fire.onEvent!(...a), warned };
  }

  it('the same function subscribed twice is two subscriptions: one disposer ends only its own', async () => {
    const { api: a, fire } = await lazyHost();
    const heard: string[] = [];
    const listener = (id: string) => void heard.push(id);
    const first = a.onEvent(listener);
    a.onEvent(listener);
    fire('w1', { type: 'x', timestamp: 1 });
    first();
    first();
    fire('w2', { type: 'x', timestamp: 1 });
    assert.deepEqual(heard, ['w1', 'w1', 'w2']);
  });

  it('an async listener\'s rejection is said, not left unhandled; no function is said once and not kept', async () => {
    const { api: a, fire, warned } = await lazyHost();
    a.onEvent(async () => { throw new Error('late boom'); });
    a.onEvent(undefined as Any);
    fire('w1', { type: 'x', timestamp: 1 });
    fire('w1', { type: 'x', timestamp: 1 });
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(warned.filter((w) => /^onEvent listener threw: Error: late boom/.test(w)).length, 2);
    assert.deepEqual(warned.filter((w) => !w.includes('late boom')), ['onEvent was given undefined, not a function: nothing was subscribed']);
  });
});
