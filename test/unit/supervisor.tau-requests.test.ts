// τ's extension requests through the host, on real τ 0.15.0 with a real extension
// (test/fixtures/tau-ext/review_gate.py locks the session after every turn and asks for a note
// and Approve / Reject): the host puts the ask to the person as dialogs and answers it; a
// headless host answers nothing in the person's name, and τ's refusal says why, at once.
import assert from 'node:assert/strict';
import path from 'node:path';
import type { UiRequest, Supervisor, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { ofType, ROOT, waitFor } from '../helpers/supervisor';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import { makeTauHome, removeTauHome, requireTau, tauEnv, tauSessionDir } from '../fixtures/tau-env.mjs';

const EXTENSION = path.join(ROOT, 'test', 'fixtures', 'tau-ext', 'review_gate.py');

describe('τ extension requests (real τ 0.15.0, a real extension)', function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let home: string;
  let spec: WorkerSpec;
  let supervisor: Supervisor;
  before(async () => {
    llm = await startMockLlm();
    home = await makeTauHome({ baseUrl: llm.baseUrl });
    spec = { dialect: 'tau', command: requireTau(), args: ['-e', EXTENSION], cwd: ROOT, env: tauEnv(home), sessionDir: tauSessionDir(home), name: 'gated τ' };
  });
  after(async () => {
    await llm.close();
    await removeTauHome(home);
  });
  afterEach(() => supervisor?.dispose());

  it('the ask becomes dialogs (the field, then the actions); the answer releases the lock and the next prompt is taken', async () => {
    const asked: UiRequest[] = [];
    supervisor = createSupervisor({
      onUiRequest: async (req) => {
        asked.push(req);
        return req.method === 'input' ? { value: 'looks good' } : { value: 'Approve' };
      },
    });
    const started = await supervisor.start(spec);
    assert.equal(started.status, 'started', started.status === 'error' ? started.error : '');
    if (started.status !== 'started') return;
    const id = started.workerId;
    llm.script([{ text: 'First turn done.' }]);
    const answered = waitFor(supervisor, id, ofType('extension_request_end'), 30_000);
    const raised = waitFor(supervisor, id, ofType('extension_request'), 30_000);
    assert.equal((await supervisor.prompt(id, 'do the first thing')).status, 'accepted');
    const req = await raised;
    assert.equal(req.data?.label, 'Extension review_gate requires a response');
    assert.equal(req.data?.sentence, 'Review the last turn before the next prompt.');
    const end = await answered;
    assert.equal(end.is_error, false, JSON.stringify(end));
    assert.deepEqual([end.data?.status, end.data?.action, end.data?.handled], ['answered', 'Approve', true]);
    assert.equal(end.data?.output, `approved: ${req.data?.request_id}`);
    assert.deepEqual(asked.map((a) => [a.method, a.workerId]), [['input', id], ['select', id]]);
    assert.equal(asked[0].message, 'Note');
    assert.deepEqual(asked[1].options, ['Approve', 'Reject']);

    llm.script([{ text: 'Second turn done.' }]);
    const second = waitFor(supervisor, id, (e) => e.type === 'agent_end' && e.end_reason === 'done', 30_000);
    const p = await supervisor.prompt(id, 'now the second thing');
    assert.equal(p.status, 'accepted', JSON.stringify(p));
    await second;
  });

  it('headless: the request stands, said in the log; a prompt is refused at once with the extension\'s own sentence', async () => {
    supervisor = createSupervisor();
    const started = await supervisor.start(spec);
    assert.equal(started.status, 'started', started.status === 'error' ? started.error : '');
    if (started.status !== 'started') return;
    const id = started.workerId;
    llm.script([{ text: 'Done.' }]);
    const end = waitFor(supervisor, id, ofType('extension_request_end'), 30_000);
    assert.equal((await supervisor.prompt(id, 'one thing')).status, 'accepted');
    const e = await end;
    assert.equal(e.data?.status, 'unanswered');
    assert.match(e.error ?? '', /no one to ask/);
    const refused = await supervisor.prompt(id, 'another thing');
    assert.equal(refused.status, 'error');
    assert.match(refused.status === 'error' ? refused.error : '', /Extension review_gate requires a response: Review the last turn before the next prompt/);
  });
});
