// "Needs input" from real workers: a real pi (both supported versions) whose extension asks a
// confirm dialog before a write, and real τ 0.15.0 whose extension leaves a request standing
// after each turn. The worker's state lists what waits (pendingInput) and the attention derived
// from it says needs-input, then working / done once answered.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UiRequest, UiResponse, Supervisor, WorkerState } from '../../src/core/api';
import { AttentionBoard, attentionOf } from '../../src/core/attention';
import { createSupervisor } from '../../src/core/supervisor';
import { ofType, ROOT, waitFor } from '../helpers/supervisor';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import { makePiAgentDir, PI_VERSIONS, piEnv, removePiAgentDir } from '../fixtures/pi-env.mjs';
import { makeTauHome, removeTauHome, requireTau, tauEnv, tauSessionDir } from '../fixtures/tau-env.mjs';

const PI_EXT = path.join(ROOT, 'test/fixtures/pi-ext/confirm-writes.mjs');
const TAU_EXT = path.join(ROOT, 'test/fixtures/tau-ext/review_gate.py');

/** The worker's state once `match` holds (now or at a later onState), bounded. */
function stateWhen(supervisor: Supervisor, id: string, match: (s: WorkerState) => boolean, what: string, timeoutMs = 30_000): Promise<WorkerState> {
  return new Promise((resolve, reject) => {
    const now = supervisor.state(id);
    if ('state' in now && match(now.state)) return resolve(now.state);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
    const off = supervisor.onState((s) => {
      if (s.workerId !== id || !match(s)) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });
}

/** A person who answers when the test says so. */
function person() {
  const asked: UiRequest[] = [];
  const waiting: Array<(r: UiResponse) => void> = [];
  let onAsk: (() => void) | null = null;
  return {
    asked,
    answer: (r: UiResponse) => waiting.shift()!(r),
    nextAsk: () => new Promise<void>((resolve) => (onAsk = resolve)),
    onUiRequest: (req: UiRequest) => new Promise<UiResponse>((resolve) => {
      asked.push(req);
      waiting.push(resolve);
      onAsk?.();
    }),
  };
}

describe('needs input, from real workers', function () {
  this.timeout(90_000);
  let llm: MockLlm;
  let supervisor: Supervisor;
  let cwd: string;
  before(async () => (llm = await startMockLlm()));
  after(() => llm.close());
  beforeEach(() => (cwd = mkdtempSync(path.join(tmpdir(), 'rpcw-attn-'))));
  afterEach(async () => {
    await supervisor?.dispose();
    rmSync(cwd, { recursive: true, force: true });
    // A reply an aborted or stopped turn left untaken must not answer the next test's worker (a
    // leftover write once landed in the repository, where the τ tests run).
    llm.unscript();
  });

  for (const pi of PI_VERSIONS) describe(`real pi ${pi.version}`, () => {
    let dir: string;
    before(async () => (dir = await makePiAgentDir({ baseUrl: llm.baseUrl })));
    after(() => removePiAgentDir(dir));

    /** A pi with the asking extension, prompted to write `file`; resolves once the dialog is up. */
    async function promptToWrite(you: ReturnType<typeof person>, file: string, content: string): Promise<string> {
      const started = await supervisor.start({ dialect: 'pi', command: pi.command(), args: ['-e', PI_EXT], cwd, model: 'mock/mock-1', env: piEnv(dir) as Record<string, string>, name: 'asker' });
      if (started.status !== 'started') return assert.fail(started.error);
      llm.script([{ toolCalls: [{ name: 'write', arguments: { path: file, content } }] }, { text: 'Done.' }]);
      const asked = you.nextAsk();
      assert.equal((await supervisor.prompt(started.workerId, `write ${file}`)).status, 'accepted');
      await asked;
      return started.workerId;
    }

    it('a dialog open mid-turn is needs-input; answered, the turn goes on and ends done', async () => {
      const you = person();
      supervisor = createSupervisor({ onUiRequest: you.onUiRequest });
      const board = new AttentionBoard();
      const seen: string[] = [];
      supervisor.onState((s) => {
        const { change } = board.update(s);
        if (change) seen.push(change.to.attention);
      });
      const id = await promptToWrite(you, 'x.txt', 'hello\n');
      const waiting = await stateWhen(supervisor, id, (s) => s.pendingInput.length > 0, 'the dialog in the state');
      assert.deepEqual(waiting.pendingInput.map((p) => [p.kind, p.method, p.title]), [['dialog', 'confirm', 'Write a file?']]);
      const shown = supervisor.events(id).filter(ofType('ui_dialog'));
      assert.deepEqual(shown.map((e) => [e.title, e.data]), [['Write a file?', { id: you.asked[0].id, method: 'confirm', message: 'The agent wants to write x.txt', options: ['Yes', 'No'] }]]);
      assert.equal(waiting.streaming, true);
      assert.equal(attentionOf(waiting).attention, 'needs-input');
      assert.equal(board.get(id)?.attention, 'needs-input');
      assert.equal(board.badge(), 1);

      const settled = waitFor(supervisor, id, ofType('agent_settled'), 30_000);
      const ended = waitFor(supervisor, id, ofType('ui_dialog_end'), 30_000);
      you.answer({ confirmed: true });
      // The log has the question and its answer.
      assert.deepEqual((await ended).data, { id: you.asked[0].id, outcome: 'answered', answer: 'Yes', note: null });
      await settled;
      const after = await stateWhen(supervisor, id, (s) => !s.streaming, 'the settled state');
      assert.deepEqual(after.pendingInput, []);
      assert.equal(attentionOf(after).attention, 'done');
      assert.equal(readFileSync(path.join(cwd, 'x.txt'), 'utf8'), 'hello\n');
      assert.deepEqual(seen, ['working', 'idle', 'working', 'needs-input', 'working', 'done'], 'starting, started, the prompt, the dialog, the answer, the end');
      assert.equal(board.badge(), 0);
    });

    it('a declined dialog closes too: the write is blocked and nothing waits', async () => {
      const you = person();
      supervisor = createSupervisor({ onUiRequest: you.onUiRequest });
      const id = await promptToWrite(you, 'no.txt', 'x');
      await stateWhen(supervisor, id, (s) => attentionOf(s).attention === 'needs-input', 'needs-input');
      const settled = waitFor(supervisor, id, ofType('agent_settled'), 30_000);
      you.answer({ cancelled: true });
      await settled;
      const after = await stateWhen(supervisor, id, (s) => !s.streaming, 'the settled state');
      assert.deepEqual(after.pendingInput, []);
      assert.equal(existsSync(path.join(cwd, 'no.txt')), false);
    });

    // pi's abort waits for the extension, and the extension waits for the dialog: unless the
    // host closes the dialog, Abort gets no answer and the turn never ends.
    for (const verb of ['abort', 'redirect'] as const) it(`${verb} while a dialog is open closes it, answered cancelled, and lands at once`, async () => {
      const you = person();
      supervisor = createSupervisor({ onUiRequest: you.onUiRequest });
      const id = await promptToWrite(you, 'moot.txt', 'x');
      const [asked] = you.asked;
      assert.equal(asked.signal?.aborted, false, 'the dialog comes with a signal, not yet aborted');
      const ended = waitFor(supervisor, id, ofType('ui_dialog_end'), 30_000);
      const result = verb === 'abort' ? await supervisor.abort(id) : await supervisor.redirect(id, 'do something else');
      assert.deepEqual((await ended).data, { id: asked.id, outcome: 'closed', answer: null, note: `closed: the turn was ${verb === 'abort' ? 'aborted' : 'redirected'}` });
      assert.equal(result.status, verb === 'abort' ? 'aborted' : 'redirected', JSON.stringify(result));
      assert.equal(asked.signal?.aborted, true, 'the dialog was told it is moot');
      assert.match(String(asked.signal?.reason), verb === 'abort' ? /aborted/ : /redirected/);
      const after = await stateWhen(supervisor, id, (s) => !s.streaming && s.pendingInput.length === 0, 'the turn over, nothing waiting');
      assert.equal(attentionOf(after).attention, 'done');
      assert.equal(existsSync(path.join(cwd, 'moot.txt')), false, 'the cancelled dialog did not let the write through');
    });

    it('a dialog open when the worker stops is closed too', async () => {
      const you = person();
      supervisor = createSupervisor({ onUiRequest: you.onUiRequest });
      const id = await promptToWrite(you, 'stopped.txt', 'x');
      assert.equal((await supervisor.stop(id)).status, 'stopped');
      assert.equal(you.asked[0].signal?.aborted, true, 'the dialog of a stopped worker was left open');
      // The person's Stop ended it: said as the Stop, not as an exit of the worker's own.
      assert.match(String(you.asked[0].signal?.reason), /the worker was stopped/);
    });
  });

  describe('real τ 0.15.0', () => {
    let home: string;
    before(async () => (home = await makeTauHome({ baseUrl: llm.baseUrl })));
    after(() => removeTauHome(home));
    const spec = () => ({ dialect: 'tau' as const, command: requireTau(), args: ['-e', TAU_EXT], cwd: ROOT, env: tauEnv(home), sessionDir: tauSessionDir(home), name: 'gated τ' });

    it('a standing request is needs-input while asked, after a dismissal too, and ends once answered', async () => {
      const you = person();
      supervisor = createSupervisor({ onUiRequest: you.onUiRequest });
      const started = await supervisor.start(spec());
      if (started.status !== 'started') return assert.fail(started.error);
      const id = started.workerId;
      llm.script([{ text: 'Turn done.' }]);
      let asked = you.nextAsk();
      assert.equal((await supervisor.prompt(id, 'do it')).status, 'accepted');
      await asked;
      const asking = await stateWhen(supervisor, id, (s) => s.pendingInput.length > 0, 'the request in the state');
      assert.deepEqual(asking.pendingInput.map((p) => [p.kind, p.asking, p.title]), [['extension_request', true, 'Extension review_gate requires a response: Review the last turn before the next prompt.']]);
      assert.equal(attentionOf(asking).attention, 'needs-input');

      // Dismissed: τ still refuses prompts, so the worker still needs the person.
      const dismissed = waitFor(supervisor, id, (e) => e.type === 'extension_request_end' && e.data?.status === 'dismissed', 30_000);
      you.answer({ cancelled: true });
      await dismissed;
      const standing = await stateWhen(supervisor, id, (s) => s.pendingInput[0]?.asking === false, 'the request standing, not asked');
      assert.equal(attentionOf(standing).attention, 'needs-input');

      // A refused prompt puts it to the person again; answered, nothing waits.
      asked = you.nextAsk();
      assert.equal((await supervisor.prompt(id, 'again')).status, 'error');
      await asked;
      const answered = waitFor(supervisor, id, (e) => e.type === 'extension_request_end' && e.data?.status === 'answered', 30_000);
      you.answer({ value: 'fine' });
      await new Promise<void>((resolve) => {
        if (you.asked.length >= 3) return resolve();
        void you.nextAsk().then(resolve);
      });
      you.answer({ value: 'Approve' });
      await answered;
      const free = await stateWhen(supervisor, id, (s) => s.pendingInput.length === 0, 'nothing waiting');
      assert.equal(attentionOf(free).attention, 'done');
    });

    it('headless: the request stands unanswered, and the state says so', async () => {
      supervisor = createSupervisor();
      const started = await supervisor.start(spec());
      if (started.status !== 'started') return assert.fail(started.error);
      const id = started.workerId;
      llm.script([{ text: 'Done.' }]);
      const end = waitFor(supervisor, id, ofType('extension_request_end'), 30_000);
      assert.equal((await supervisor.prompt(id, 'one thing')).status, 'accepted');
      assert.equal((await end).data?.status, 'unanswered');
      const s = await stateWhen(supervisor, id, (x) => x.pendingInput.length > 0, 'the standing request');
      assert.equal(s.pendingInput[0].asking, false);
      assert.equal(attentionOf(s).attention, 'needs-input');
      const stopped = new Promise<WorkerState>((resolve) => supervisor.onState((x) => x.workerId === id && x.status === 'stopped' && resolve(x)));
      await supervisor.stop(id);
      const last = await stopped;
      assert.deepEqual(last.pendingInput, [], 'a stopped worker waits for nothing');
      assert.equal(attentionOf(last).attention, 'stopped');
    });
  });
});
