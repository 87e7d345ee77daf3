// Limits and input checks: prompts over 32 KiB, timeouts outside 1 s..10 min, unknown worker ids,
// a verb on a stopped worker, an invalid spec. Each is a clear `error` that names the broken rule,
// and nothing is started (no process is spawned, nothing is sent).
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Supervisor, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ROOT } from '../helpers/supervisor';
import { childrenOf, cmdline, killAll, TAU_RESPONDER, tracedHost, verbOf, type Traffic } from '../fixtures/faults-helpers';

const KIB32 = 32 * 1024;
/** This process's children that a host would have started (workers, the watchdog). */
// Workers this process started. A watchdog is not one: an earlier test's host may respawn its
// own at any moment (it is meant to), which says nothing about the start being refused.
const myChildren = () => childrenOf().map((p) => `${p.pid} ${cmdline(p.pid)}`).filter((c) => /fake-worker|mini-worker|tau-responder|no-such-program/.test(c)).sort();

describe('faults: limits and input checks', () => {
  describe('prompts over 32 KiB', () => {
    let supervisor: Supervisor;
    let traffic: Traffic[];
    let id: string;
    let pid: number;
    before(async () => {
      ({ host: supervisor, traffic } = tracedHost());
      const r = await supervisor.start(fakeSpec('pi'));
      if (r.status !== 'started') throw new Error(r.error);
      ({ workerId: id, pid } = r);
    });
    after(async () => {
      await supervisor.dispose();
      killAll([pid]);
    });
    const prompts = () => traffic.filter((t) => t.direction === 'send' && ['prompt', 'steer', 'follow_up'].includes(verbOf(t.message)!)).length;

    it('refuses 32 KiB + 1 byte on prompt, steer and redirect, counting UTF-8 bytes, and sends nothing', async () => {
      assert.equal(supervisor.limits.maxPromptBytes, KIB32);
      const over = `say ${'x'.repeat(KIB32 - 3)}`;
      const accented = 'é'.repeat(KIB32 / 2 + 1); // 16,385 characters, 32,770 bytes
      for (const [verb, call, bytes] of [
        ['prompt', () => supervisor.prompt(id, over), KIB32 + 1],
        ['prompt (multi-byte)', () => supervisor.prompt(id, accented), KIB32 + 2],
        ['steer', () => supervisor.prompt(id, over, { streamingBehavior: 'steer' }), KIB32 + 1],
        ['redirect', () => supervisor.redirect(id, over), KIB32 + 1],
      ] as const) {
        const r = await call();
        assert.equal(r.status, 'error', verb);
        assert.equal('error' in r && r.error, `the message is ${bytes} bytes; prompts are limited to ${KIB32} bytes`, verb);
      }
      assert.equal(prompts(), 0);
      // Exactly at the limit is fine.
      const at = await supervisor.prompt(id, `say ${'y'.repeat(KIB32 - 4)}`);
      assert.equal(at.status, 'accepted', JSON.stringify(at));
      assert.equal(prompts(), 1);
    });

    it('refuses an empty message', async () => {
      const r = await supervisor.redirect(id, '   ');
      assert.deepEqual([r.status, 'error' in r && r.error], ['error', 'the message is empty']);
    });
  });

  describe('timeouts outside 1 s..10 min', () => {
    for (const [limit, value, rule] of [
      ['commandTimeoutMs', 999, 'command timeout must be at least 1 s'],
      ['commandTimeoutMs', 600_001, 'command timeout must be at most 10 min'],
      ['settleTimeoutMs', 999, 'settle timeout must be at least 1 s'],
      ['settleTimeoutMs', 600_001, 'settle timeout must be at most 10 min'],
    ] as const) {
      it(`${limit}: ${value} is refused, naming the rule`, () => {
        const before = myChildren();
        assert.throws(() => createSupervisor({ limits: { [limit]: value } }), (e: Error) => {
          assert.ok(e instanceof RangeError);
          assert.match(e.message, new RegExp(`^invalid host limits: (.|\\n)*${rule}(.|\\n)*${limit}`));
          return true;
        });
        assert.deepEqual(myChildren().filter((c) => !before.includes(c)), []);
      });
    }
    it('1 s and 10 min themselves are accepted', () => {
      const supervisor = createSupervisor({ limits: { commandTimeoutMs: 1_000, settleTimeoutMs: 600_000 } });
      assert.deepEqual([supervisor.limits.commandTimeoutMs, supervisor.limits.settleTimeoutMs], [1_000, 600_000]);
    });
  });

  describe('unknown ids, stopped workers, invalid specs', () => {
    let supervisor: Supervisor;
    let traffic: Traffic[];
    beforeEach(() => {
      ({ host: supervisor, traffic } = tracedHost());
    });
    afterEach(() => supervisor.dispose());

    async function everyVerb(id: string) {
      return {
        prompt: await supervisor.prompt(id, 'say hi'),
        abort: await supervisor.abort(id),
        redirect: await supervisor.redirect(id, 'say hi'),
        compact: await supervisor.compact(id),
        stop: await supervisor.stop(id),
        state: supervisor.state(id),
        events: supervisor.events(id),
      };
    }

    it('an unknown worker id: not_found on every verb, saying there is no such worker', async () => {
      const r = await everyVerb('w9-nosuch');
      for (const verb of ['prompt', 'abort', 'redirect', 'compact'] as const) {
        assert.deepEqual([r[verb].status, 'error' in r[verb] && r[verb].error], ['not_found', 'no worker with id w9-nosuch'], verb);
      }
      assert.equal(r.stop.status, 'not_found');
      assert.equal(r.state.status, 'not_found');
      assert.deepEqual(r.events, []);
    });

    it('a verb on a stopped worker: not_found, saying it was stopped; nothing is sent', async () => {
      const started = await supervisor.start(fakeSpec('tau'));
      if (started.status !== 'started') throw new Error(started.error);
      assert.equal((await supervisor.stop(started.workerId)).status, 'stopped');
      const sentBefore = traffic.filter((t) => t.direction === 'send').length;
      const r = await everyVerb(started.workerId);
      for (const verb of ['prompt', 'abort', 'redirect', 'compact'] as const) {
        assert.deepEqual([r[verb].status, 'error' in r[verb] && r[verb].error], ['not_found', `worker ${started.workerId} was stopped`], verb);
      }
      assert.equal(r.stop.status, 'not_found');
      assert.equal(r.state.status, 'not_found');
      assert.equal(traffic.filter((t) => t.direction === 'send').length, sentBefore);
    });

    const base = fakeSpec('tau');
    for (const [what, spec, error] of [
      ['a missing command', { ...base, command: undefined }, 'invalid worker spec: command: command is required'],
      ['an empty command', { ...base, command: '  ' }, 'invalid worker spec: command: command is required'],
      ['a relative cwd', { ...base, cwd: 'test/fixtures' }, 'invalid worker spec: cwd: cwd must be an absolute path'],
      ['a cwd that does not exist', { ...base, cwd: path.join(ROOT, 'no-such-directory') }, `invalid worker spec: cwd: cwd ${path.join(ROOT, 'no-such-directory')} does not exist`],
      ['a cwd that is a file', { ...base, cwd: path.join(ROOT, 'package.json') }, `invalid worker spec: cwd: cwd ${path.join(ROOT, 'package.json')} is not a directory`],
      // Every view names a worker by its name alone: an empty one left a row, a tab and a notification without one.
      ['an unknown dialect', { ...base, dialect: 'codex' }, 'invalid worker spec: dialect: dialect must be "pi", "tau" or "acp"'],
      ['a task over 32 KiB', { ...base, task: 'x'.repeat(KIB32 + 1) }, `invalid worker spec: task: the message is ${KIB32 + 1} bytes; prompts are limited to ${KIB32} bytes`],
      // spawn throws on these: the start rejected instead of answering.
      ['a NUL byte in an env value', { ...base, env: { X: 'a\0b' } }, 'invalid worker spec: env.X: must not contain a NUL byte'],
      ['a NUL byte in an argument', { ...base, args: [...(base.args ?? []), 'a\0b'] }, `invalid worker spec: args.${(base.args ?? []).length}: must not contain a NUL byte`],
      ['a NUL byte in the command', { ...base, command: `${base.command}\0` }, 'invalid worker spec: command: must not contain a NUL byte'],
    ] as const) {
      it(`an invalid spec, ${what}: error naming the rule, nothing started`, async () => {
        const before = myChildren();
        const r = await supervisor.start(spec as unknown as WorkerSpec);
        assert.equal(r.status, 'error');
        assert.equal(r.status === 'error' && r.error, error);
        assert.equal(r.status === 'error' && r.workerId, undefined);
        assert.deepEqual(supervisor.list(), []);
        assert.deepEqual(myChildren().filter((c) => !before.includes(c)), []);
        assert.equal(traffic.length, 0);
      });
    }

    it('a first task the worker refuses: started, taskAccepted false, and why (the task is what the person typed)', async () => {
      // The responder answers the readiness probe and refuses everything else, the prompt too.
      const r = await supervisor.start({ dialect: 'tau', command: TAU_RESPONDER, cwd: ROOT, task: 'fix the build' });
      assert.equal(r.status, 'started');
      assert.deepEqual(r.status === 'started' && [r.taskAccepted, typeof r.taskError], [false, 'string']);
      assert.match(r.status === 'started' ? r.taskError ?? '' : '', /Method not found/);
    });

    it('a command that cannot be spawned: error saying so, nothing left', async () => {
      const before = myChildren();
      const r = await supervisor.start({ ...base, command: path.join(ROOT, 'no-such-program'), args: [] });
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /no-such-program/);
      assert.match(r.status === 'error' ? r.error : '', /ENOENT/);
      assert.deepEqual(supervisor.list(), []);
      assert.deepEqual(myChildren().filter((c) => !before.includes(c)), []);
    });
  });
});
