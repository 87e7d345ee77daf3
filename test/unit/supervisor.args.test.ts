// The core as a script uses it (dist/core.js, plain JavaScript, no types to catch a slip): a
// verb's argument of the wrong kind is answered `error` naming it, never a TypeError's words nor
// a message sent on to the worker.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec } from '../helpers/supervisor';

type Any = never;

describe('the supervisor\'s verbs refuse an argument of the wrong kind', () => {
  let supervisor: Supervisor;
  const sent: unknown[] = [];
  beforeEach(() => {
    sent.length = 0;
    supervisor = createSupervisor({ trace: (_id, direction, message) => { if (direction === 'send') sent.push(message); } });
  });
  afterEach(() => supervisor.dispose());

  for (const dialect of ['pi', 'tau'] as const) {
    it(`names the field, and sends the worker nothing (${dialect})`, async () => {
      const r = await supervisor.start(fakeSpec(dialect));
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      const id = r.status === 'started' ? r.workerId : '';
      const before = sent.length;
      const answers = [
        await supervisor.setModel(id, 42 as Any),
        await supervisor.setModel(id, '  '),
        await supervisor.setMode(id, undefined as Any),
        await supervisor.exportHtml(id, { path: '/x' } as Any),
        await supervisor.compact(id, { instructions: 7 } as Any),
        await supervisor.fork(id, 'entry' as Any),
        await supervisor.prompt(id, 'hi', { streamingBehavior: 'followup' } as Any),
        await supervisor.prompt(id, 42 as Any),
        await supervisor.redirect(id, 'hi', 'me' as Any),
      ];
      assert.deepEqual(answers.map((a) => [a.status, 'error' in a ? a.error : null]), [
        ['error', 'invalid argument: the model must be a string'],
        ['error', 'invalid argument: the model must not be empty'],
        ['error', 'invalid argument: the mode must be a string'],
        ['error', 'invalid argument: the output path must be a string'],
        ['error', 'invalid argument: instructions must be a string'],
        ['error', 'invalid argument: the options must be an object'],
        ['error', 'invalid argument: streamingBehavior must be "steer" or "followUp"'],
        ['error', 'invalid argument: the message must be a string'],
        ['error', 'invalid argument: the provenance must be an object'],
      ]);
      assert.deepEqual(sent.slice(before), []);
    });
  }
});
