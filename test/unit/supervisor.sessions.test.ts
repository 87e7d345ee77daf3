// Sessions on the real programs, driven offline by the mock LLM: pi 0.73.1 and 1.6.0 keep their
// session in a folder the caller gives (never the person's own), and a worker started again on
// it sends the earlier turns with its next request; τ 0.15.0 the same through --session-dir and
// switch_session. Then the session verbs (new, fork, model, export) and the worker's own token
// accounting, read when a turn settles.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SessionRef, Supervisor, WorkerSpec, WorkerState } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, ROOT, waitFor } from '../helpers/supervisor';
import { startMockLlm, type ChatRequest, type MockLlm } from '../fixtures/mock-llm.mjs';
import { makePiAgentDir, PI_VERSIONS, piEnv, removePiAgentDir } from '../fixtures/pi-env.mjs';
import { makeTauHome, removeTauHome, requireTau, tauEnv } from '../fixtures/tau-env.mjs';

const said = (content: unknown): string =>
  typeof content === 'string' ? content
    : Array.isArray(content) ? content.map((c: { text?: unknown }) => (typeof c?.text === 'string' ? c.text : '')).join('')
      : JSON.stringify(content);
/** What one request to the model carries, as role: text lines (the system prompt left out). */
const conversation = (r: ChatRequest) => (r.messages as Array<{ role: string; content: unknown }>)
  .filter((m) => m.role !== 'system' && m.role !== 'developer').map((m) => `${m.role}: ${said(m.content)}`);

/** The state once `ready` holds for it, waited for on the host's state changes (never on a clock). */
function stateWhen(supervisor: Supervisor, workerId: string, ready: (s: WorkerState) => boolean, timeoutMs = 20_000): Promise<WorkerState> {
  const now = supervisor.state(workerId);
  if (now.status !== 'not_found' && ready(now.state)) return Promise.resolve(now.state);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for the worker's state; last: ${JSON.stringify(supervisor.state(workerId))}`));
    }, timeoutMs);
    const off = supervisor.onState((s) => {
      if (s.workerId !== workerId || !ready(s)) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });
}

async function started(supervisor: Supervisor, spec: WorkerSpec) {
  const r = await supervisor.start(spec);
  if (r.status !== 'started') return assert.fail(`the worker did not start: ${r.error}`);
  return r;
}

/** One prompt, answered by `reply`, waited for until the turn settled. */
async function turn(supervisor: Supervisor, llm: MockLlm, workerId: string, text: string, reply: string, usage?: { prompt_tokens: number; completion_tokens: number }) {
  llm.script([{ text: reply, ...(usage ? { usage } : {}) }]);
  const settled = waitFor(supervisor, workerId, ofType('agent_settled'), 30_000, `the end of "${text}"`);
  const p = await supervisor.prompt(workerId, text);
  assert.equal(p.status, 'accepted', JSON.stringify(p));
  return settled;
}

/** A turn with a real bash call, then the session's events as Markdown. */
async function markdownAfterTool(supervisor: Supervisor, llm: MockLlm, workerId: string): Promise<string> {
  llm.script([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo tool-said-this' } }] }, { text: 'done with the tool' }]);
  const settled = waitFor(supervisor, workerId, ofType('agent_settled'), 30_000, 'the tool turn');
  assert.equal((await supervisor.prompt(workerId, 'run a command', { source: 'palette', submitter: 'tester' })).status, 'accepted');
  await settled;
  const exported = await supervisor.exportMarkdown(workerId);
  const md = exported.status === 'exported' ? exported.markdown : assert.fail(exported.error);
  if (process.env.SHOW_MD) console.log(md);
  assert.match(md, /## Turn 1\n\n\*\*Prompt\*\*[^\n]*\n\n```\nfirst question\n```\n\n\*\*Reply\*\*\n\nfirst answer\n\n_Turn ended: done_/);
  assert.match(md, /> Forked into session[\s\S]*second question[\s\S]*> New session[\s\S]*> Model: [^\n]*mock-2[\s\S]*hello again/);
  assert.match(md, /\*\*Prompt\*\* \(from palette, by tester\)/);
  assert.match(md, /\*\*Tool call\*\* `bash`[\s\S]*\*\*Result\*\* of `bash` \(ok\)\n\n```\ntool-said-this\n```\n\n\*\*Reply\*\*\n\ndone with the tool\n\n_Turn ended: done_/);
  return md;
}

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []);

for (const pi of PI_VERSIONS) {
  describe(`sessions on real pi ${pi.version}`, function () {
    this.timeout(90_000);
    let llm: MockLlm;
    let agentDir: string;
    let storage: string;
    let supervisor: Supervisor;
    let spec: WorkerSpec;

    beforeEach(async () => {
      llm = await startMockLlm();
      agentDir = await makePiAgentDir({ baseUrl: llm.baseUrl });
      // A second model, for set_model.
      const models = JSON.parse(readFileSync(path.join(agentDir, 'models.json'), 'utf8'));
      models.providers.mock.models.push({ id: 'mock-2' });
      writeFileSync(path.join(agentDir, 'models.json'), JSON.stringify(models));
      storage = realpathSync(mkdtempSync(path.join(tmpdir(), 'rpcw-storage-')));
      supervisor = createSupervisor();
      spec = { dialect: 'pi', command: pi.command(), cwd: ROOT, model: 'mock/mock-1', env: piEnv(agentDir) as Record<string, string>, name: 'pi', sessionDir: storage };
    });
    afterEach(async () => {
      await supervisor.dispose();
      await llm.close();
      await removePiAgentDir(agentDir);
      rmSync(storage, { recursive: true, force: true });
    });

    it('keeps its session in the given folder only, and resumed, sends the earlier turns with the next request', async () => {
      const first = await started(supervisor, spec);
      assert.ok(first.state.args.includes('--session-dir') && !first.state.args.includes('--no-session'), first.state.args.join(' '));
      const ref = first.state.session;
      assert.ok(ref?.id && ref.file, `pi names its session: ${JSON.stringify(ref)}`);
      assert.equal(path.dirname(ref.file), storage, 'the session file is in the caller\'s folder');
      await turn(supervisor, llm, first.workerId, 'remember the word kumquat', 'Noted: kumquat.', { prompt_tokens: 120, completion_tokens: 7 });
      const counted = await stateWhen(supervisor, first.workerId, (s) => s.usage !== null);
      assert.deepEqual([counted.usage!.scope, counted.usage!.input, counted.usage!.output], ['session', 120, 7], JSON.stringify(counted.usage));
      assert.ok((counted.usage!.contextWindow ?? 0) > 0, `pi says its context window: ${JSON.stringify(counted.usage)}`);
      await supervisor.stop(first.workerId);
      assert.ok(existsSync(ref.file), 'pi wrote the session file');
      assert.deepEqual(files(path.join(agentDir, 'sessions')), [], 'nothing in pi\'s own session folder');

      const marks: string[] = [];
      supervisor.onEvent((_, e) => { if (e.type === 'session_resumed') marks.push(JSON.stringify(e.data?.session)); });
      const again = await started(supervisor, { ...spec, resume: ref });
      assert.ok(again.state.args.includes('--session') && again.state.args.includes(ref.file), again.state.args.join(' '));
      assert.deepEqual(again.state.session, ref, 'the same session, by id and file');
      assert.deepEqual(marks, [JSON.stringify(ref)], 'one "resumed" mark');
      assert.equal(again.state.usage?.input, 120, 'the resumed session\'s tokens are known before its next turn');
      const before = llm.requests.length;
      await turn(supervisor, llm, again.workerId, 'which word was it?', 'kumquat', { prompt_tokens: 200, completion_tokens: 3 });
      assert.deepEqual(conversation(llm.requests[before]), ['user: remember the word kumquat', 'assistant: Noted: kumquat.', 'user: which word was it?']);
      // Read again when that turn settled: pi counts the whole session, both runs of it.
      const total = await stateWhen(supervisor, again.workerId, (s) => s.usage?.input === 320);
      assert.equal(total.usage!.output, 10);
    });

    it('refuses a resume it could not honour, before anything is spawned', async () => {
      const missing = await supervisor.start({ ...spec, resume: { id: null, file: path.join(storage, 'gone.jsonl') } });
      assert.equal(missing.status, 'error');
      assert.match(missing.status === 'error' ? missing.error : '', /no session file at .*gone\.jsonl/);
      const outside = await supervisor.start({ ...spec, resume: { id: null, file: path.join(agentDir, 'models.json') } });
      assert.match(outside.status === 'error' ? outside.error : '', /not inside sessionDir/);
      const noDir = await supervisor.start({ ...spec, sessionDir: undefined, resume: { id: 'x', file: path.join(storage, 'a.jsonl') } });
      assert.match(noDir.status === 'error' ? noDir.error : '', /resume needs the sessionDir/);
      assert.deepEqual(supervisor.list(), []);
    });

    it('forks (the whole conversation), starts a new session, switches model and exports HTML', async () => {
      const s = await started(supervisor, spec);
      const id = s.workerId;
      await turn(supervisor, llm, id, 'first question', 'first answer');
      const origin = s.state.session as SessionRef;

      const forked = await supervisor.fork(id);
      assert.equal(forked.status, 'forked', JSON.stringify(forked));
      const fork = forked.status === 'forked' ? forked.session! : assert.fail();
      assert.notEqual(fork.id, origin.id);
      assert.equal(path.dirname(fork.file!), storage, 'the fork is kept in the same folder');
      const now = supervisor.state(id);
      assert.deepEqual(now.status !== 'not_found' && now.state.session, fork);
      let at = llm.requests.length;
      await turn(supervisor, llm, id, 'second question', 'second answer');
      assert.deepEqual(conversation(llm.requests[at]), ['user: first question', 'assistant: first answer', 'user: second question'], 'the fork carries the conversation');

      const fresh = await supervisor.newSession(id);
      assert.equal(fresh.status, 'created', JSON.stringify(fresh));
      assert.ok(fresh.status === 'created' && fresh.session?.id && fresh.session.id !== fork.id);
      const modelSet = await supervisor.setModel(id, 'mock/mock-2');
      assert.deepEqual(modelSet.status === 'model_set' && modelSet.model, 'mock/mock-2', JSON.stringify(modelSet));
      at = llm.requests.length;
      await turn(supervisor, llm, id, 'hello again', 'hi');
      assert.deepEqual(conversation(llm.requests[at]), ['user: hello again'], 'a new session starts empty');
      assert.equal(llm.requests[at].model, 'mock-2', 'the next turn goes to the model set');
      const unknown = await supervisor.setModel(id, 'mock/none');
      assert.equal(unknown.status, 'error');
      assert.match(unknown.status === 'error' ? unknown.error : '', /Model not found/);
      // pi's events carry the tool call's arguments.
      assert.match(await markdownAfterTool(supervisor, llm, id), /\*\*Tool call\*\* `bash`\n\n```json\n\{\n {2}"command": "echo tool-said-this"\n\}\n```/);

      const out = path.join(storage, 'export.html');
      const exported = await supervisor.exportHtml(id, out);
      assert.deepEqual(exported, { ...exported, status: 'exported', path: out });
      // pi embeds the session as base64 JSON in <script id="session-data">.
      const page = readFileSync(out, 'utf8');
      const data = page.match(/<script id="session-data" type="application\/json">([^<]+)<\/script>/)?.[1];
      assert.ok(data, 'the page carries its session');
      assert.match(Buffer.from(data, 'base64').toString('utf8'), /hello again/);
    });
  });
}

describe('sessions on real τ 0.15.0', function () {
  this.timeout(90_000);
  let command: string;
  let llm: MockLlm;
  let home: string;
  let storage: string;
  let ws: string;
  let supervisor: Supervisor;
  let spec: WorkerSpec;

  before(() => (command = requireTau()));
  beforeEach(async () => {
    llm = await startMockLlm();
    home = await makeTauHome({ baseUrl: llm.baseUrl });
    // A second config model, for set_model.
    const configFile = path.join(home, '.tau', 'config.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    config.models.mock2 = { ...config.models.mock, model: 'mock-2' };
    writeFileSync(configFile, JSON.stringify(config));
    storage = realpathSync(mkdtempSync(path.join(tmpdir(), 'rpcw-storage-')));
    ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'rpcw-ws-')));
    supervisor = createSupervisor();
    spec = { dialect: 'tau', command, cwd: ws, env: tauEnv(home), name: 'τ', sessionDir: storage };
  });
  afterEach(async () => {
    await supervisor.dispose();
    await llm.close();
    await removeTauHome(home);
    for (const d of [storage, ws]) rmSync(d, { recursive: true, force: true });
  });

  it('resumed through switch_session, sends the earlier turns with the next request', async () => {
    const first = await started(supervisor, spec);
    const ref = first.state.session;
    assert.ok(ref?.id, `τ names its session: ${JSON.stringify(ref)}`);
    assert.ok(ref.file?.startsWith(storage + path.sep), `τ's session file is in the caller's folder: ${ref.file}`);
    await turn(supervisor, llm, first.workerId, 'remember the word kumquat', 'Noted: kumquat.', { prompt_tokens: 120, completion_tokens: 7 });
    const counted = await stateWhen(supervisor, first.workerId, (s) => s.usage !== null);
    assert.deepEqual([counted.usage!.scope, counted.usage!.input, counted.usage!.output, counted.usage!.contextWindow], ['last_call', 120, 7, 32768], JSON.stringify(counted.usage));
    assert.ok((counted.usage!.contextTokens ?? 0) > 0);
    await supervisor.stop(first.workerId);

    const marks: string[] = [];
    supervisor.onEvent((_, e) => { if (e.type === 'session_resumed') marks.push(String((e.data?.session as SessionRef).id)); });
    const again = await started(supervisor, { ...spec, resume: { id: ref.id, file: null } });
    assert.equal(again.state.session?.id, ref.id, 'on the earlier session');
    assert.deepEqual(marks, [ref.id]);
    const before = llm.requests.length;
    await turn(supervisor, llm, again.workerId, 'which word was it?', 'kumquat', { prompt_tokens: 200, completion_tokens: 3 });
    assert.deepEqual(conversation(llm.requests[before]), ['user: remember the word kumquat', 'assistant: Noted: kumquat.', 'user: which word was it?']);
    // Read again when that turn settled: τ says its last call only.
    const last = await stateWhen(supervisor, again.workerId, (s) => s.usage?.input === 200);
    assert.equal(last.usage!.output, 3);
  });

  it('fails the start when the session to resume is not there, instead of going on in a fresh one', async () => {
    const r = await supervisor.start({ ...spec, resume: { id: 'no-such-session', file: null } });
    assert.equal(r.status, 'error');
    assert.match(r.status === 'error' ? r.error : '', /switch_session/);
    assert.deepEqual(supervisor.list(), []);
  });

  it('forks, starts a new session and switches model; says plainly what it does not offer', async () => {
    const s = await started(supervisor, spec);
    const id = s.workerId;
    await turn(supervisor, llm, id, 'first question', 'first answer');
    const forked = await supervisor.fork(id);
    assert.equal(forked.status, 'forked', JSON.stringify(forked));
    assert.ok(forked.status === 'forked' && forked.session?.id && forked.session.id !== s.state.session?.id);
    let at = llm.requests.length;
    await turn(supervisor, llm, id, 'second question', 'second answer');
    assert.deepEqual(conversation(llm.requests[at]), ['user: first question', 'assistant: first answer', 'user: second question']);

    const fresh = await supervisor.newSession(id);
    assert.equal(fresh.status, 'created', JSON.stringify(fresh));
    const modelSet = await supervisor.setModel(id, 'mock2');
    assert.equal(modelSet.status, 'model_set', JSON.stringify(modelSet));
    assert.equal(modelSet.status === 'model_set' && modelSet.model, 'openai/mock-2');
    at = llm.requests.length;
    await turn(supervisor, llm, id, 'hello again', 'hi');
    assert.deepEqual(conversation(llm.requests[at]), ['user: hello again']);
    assert.equal(llm.requests[at].model, 'mock-2');

    // τ's events carry no arguments: they come from its messages.
    assert.match(await markdownAfterTool(supervisor, llm, id), /\*\*Tool call\*\* `bash`\n\n```json\n\{\n {2}"command": "echo tool-said-this"\n\}\n```/);
    const html = await supervisor.exportHtml(id, path.join(storage, 'x.html'));
    assert.equal(html.status, 'unsupported');
    assert.match(html.status === 'unsupported' ? html.error : '', /declines export_html/);
    const at2 = await supervisor.fork(id, { entryId: 'e1' });
    assert.equal(at2.status, 'unsupported');
  });
});

// The fake workers speak pi 0.73.1's and τ 1.5's verbs only: no session verbs, no stats.
describe('sessions on workers without the verbs', () => {
  let supervisor: Supervisor;
  beforeEach(() => (supervisor = createSupervisor()));
  afterEach(() => supervisor.dispose());

  for (const dialect of ['pi', 'tau'] as const) {
    it(`${dialect}: says unsupported for each verb, shows no usage, and says nothing on the output about it`, async () => {
      const said: string[] = [];
      supervisor.onOutput((_, kind, text) => { if (kind === 'protocol') said.push(text); });
      const s = await started(supervisor, fakeSpec(dialect));
      assert.ok(s.state.session?.id, 'the session id is still known (get_state)');
      const settled = waitFor(supervisor, s.workerId, ofType('agent_settled'));
      assert.equal((await supervisor.prompt(s.workerId, 'hello')).status, 'accepted');
      await settled;
      for (const r of [await supervisor.newSession(s.workerId), await supervisor.fork(s.workerId), await supervisor.setModel(s.workerId, 'p/m')]) {
        assert.equal(r.status, 'unsupported', JSON.stringify(r));
      }
      // The usage read at the settle has been answered by now: the verbs above queued behind it.
      const now = supervisor.state(s.workerId);
      assert.equal(now.status !== 'not_found' && now.state.usage, null);
      assert.deepEqual(said, []);
    });
  }
});
