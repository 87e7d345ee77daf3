// The host against real pi, driven offline by the mock LLM: pi 0.73.1 (a devDependency, the
// last @mariozechner release) and pi 1.x (@earendil-works, installed with its own Node 22 by
// scripts/ensure-workers.mjs). Where the two differ, each test says what each must do.
import assert from 'node:assert/strict';
import path from 'node:path';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import type { PromptResult, Supervisor, WorkerSpec } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { groupMembers, isAlive, ofType, ROOT, waitFor } from '../helpers/supervisor';
import { startMockLlm, type MockLlm } from '../fixtures/mock-llm.mjs';
import { makePiAgentDir, PI_VERSIONS, pi1PackageBin, piEnv, removePiAgentDir } from '../fixtures/pi-env.mjs';

const sleepCall = { toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] };
const said = (m: { content: unknown }) =>
  typeof m.content === 'string' ? m.content
    : Array.isArray(m.content) ? m.content.map((c: { text?: unknown }) => (typeof c?.text === 'string' ? c.text : '')).join('')
      : JSON.stringify(m.content);

for (const pi of PI_VERSIONS) {
  describe(`the host driving real pi ${pi.version}`, function () {
    this.timeout(60_000);
    let llm: MockLlm;
    let dir: string;
    let supervisor: Supervisor;
    let spec: WorkerSpec;

    before(async () => {
      llm = await startMockLlm();
      dir = await makePiAgentDir({ baseUrl: llm.baseUrl });
      spec = { dialect: 'pi', command: pi.command(), cwd: ROOT, model: 'mock/mock-1', env: piEnv(dir) as Record<string, string>, name: 'real pi' };
    });
    after(async () => {
      await llm.close();
      await removePiAgentDir(dir);
    });
    beforeEach(() => (supervisor = createSupervisor()));
    afterEach(() => supervisor.dispose());

    async function start(): Promise<{ id: string; pid: number }> {
      const started = await supervisor.start(spec);
      if (started.status !== 'started') return assert.fail(started.error);
      return { id: started.workerId, pid: started.pid };
    }

    it('knows which pi it runs, before the first turn', async () => {
      const started = await supervisor.start(spec);
      if (started.status !== 'started') return assert.fail(started.error);
      assert.equal(started.state.workerVersion, pi.version);
      assert.equal(started.state.afterTurn, null);
    });

    it('start → prompt → redirect → abort → stop, with a mid-tool abort that keeps history', async () => {
      const started = await supervisor.start(spec);
      assert.equal(started.status, 'started', started.status === 'error' ? started.error : '');
      if (started.status !== 'started') return;
      const id = started.workerId;
      assert.equal(started.state.model, 'mock/mock-1');

      llm.script([{ text: 'Hello from the mock model.' }]);
      const first = waitFor(supervisor, id, ofType('agent_settled'), 30_000);
      assert.equal((await supervisor.prompt(id, 'say hello')).status, 'accepted');
      assert.equal((await first).end_reason, 'done');

      // A real bash tool call, aborted while `sleep 30` runs.
      llm.script([sleepCall]);
      const tool = waitFor(supervisor, id, ofType('tool_execution_start'), 30_000);
      assert.equal((await supervisor.prompt(id, 'run the long command')).status, 'accepted');
      await tool;
      const aborted = await supervisor.abort(id);
      assert.equal(aborted.status, 'aborted', JSON.stringify(aborted));
      assert.ok(isAlive(started.pid), 'pi must survive the abort');

      // Redirect while idle: nothing to abort, and the prompt carries the earlier turns.
      llm.script([{ text: 'Changing plan.' }]);
      const redirected = waitFor(supervisor, id, ofType('agent_settled'), 30_000);
      const r = await supervisor.redirect(id, 'use the cache instead');
      assert.equal(r.status, 'redirected', JSON.stringify(r));
      assert.equal(r.status === 'redirected' && r.aborted, false);
      await redirected;
      const last = llm.requests[llm.requests.length - 1];
      const history = last.messages.map(said).join('\n');
      assert.match(history, /say hello/);
      assert.match(history, /run the long command/);
      assert.match(history, /use the cache instead/);

      // Redirect mid-tool: abort lands, then the new instruction.
      llm.script([sleepCall, { text: 'Redirected.' }]);
      const tool2 = waitFor(supervisor, id, ofType('tool_execution_start'), 30_000);
      await supervisor.prompt(id, 'run it again');
      await tool2;
      const done = waitFor(supervisor, id, (e) => e.type === 'agent_settled' && e.end_reason === 'done', 30_000);
      const mid = await supervisor.redirect(id, 'stop that, do something else');
      assert.equal(mid.status, 'redirected', JSON.stringify(mid));
      assert.equal(mid.status === 'redirected' && mid.aborted, true);
      await done;

      const stopped = await supervisor.stop(id);
      assert.equal(stopped.status, 'stopped');
      assert.deepEqual(groupMembers(started.pid), []);
    });

    it('refuses a plain prompt while pi streams, as pi itself does', async () => {
      const { id } = await start();
      llm.script([sleepCall]);
      const tool = waitFor(supervisor, id, ofType('tool_execution_start'), 30_000);
      await supervisor.prompt(id, 'run the long command');
      await tool;
      const plain = await supervisor.prompt(id, 'and another');
      assert.equal(plain.status, 'error');
      assert.equal((await supervisor.abort(id)).status, 'aborted');
    });

    it('a caller that prompts on the end event (agent_settled) is never refused, turn after turn; each turn ends once', async () => {
      const { id } = await start();
      const TURNS = 6;
      llm.script(Array.from({ length: TURNS }, (_, i) => ({ text: `reply ${i + 1}` })));
      const ends: AgentEvent[] = [];
      const answers: Array<Promise<PromptResult>> = [];
      const seen: Array<{ streaming: boolean; afterTurn: string | null }> = [];
      const off = supervisor.onEvent((workerId, e) => {
        if (workerId !== id || e.type !== 'agent_settled') return;
        ends.push(e);
        const s = supervisor.state(id);
        if (s.status !== 'not_found') seen.push({ streaming: s.state.streaming, afterTurn: s.state.afterTurn });
        // At once, from inside the listener: the moment the turn ends for listeners.
        if (ends.length < TURNS) answers.push(supervisor.prompt(id, `turn ${ends.length + 1}`));
      });
      let settledCount = 0;
      const last = waitFor(supervisor, id, (e) => e.type === 'agent_settled' && ++settledCount === TURNS, 40_000, `${TURNS} settled turns`);
      answers.push(supervisor.prompt(id, 'turn 1'));
      try {
        await last;
      } finally {
        off();
      }
      const results = await Promise.all(answers);
      assert.deepEqual(results.map((r) => r.status), Array(TURNS).fill('accepted'), JSON.stringify(results.filter((r) => r.status !== 'accepted')));
      assert.deepEqual(ends.map((e) => e.end_reason), Array(TURNS).fill('done'));
      // pi 1.x sends its own agent_settled; for 0.73.1 the host says it.
      assert.deepEqual(ends.map((e) => e.data?.synthesized === true), Array(TURNS).fill(!pi.one));
      assert.deepEqual(seen, Array(TURNS).fill({ streaming: false, afterTurn: null }));
      // Every turn ended exactly once: as many ends as turns, every turn closed.
      const state = supervisor.state(id);
      if (state.status === 'not_found') return assert.fail('worker gone');
      assert.equal(state.state.turnCount, TURNS);
      assert.ok(state.state.turns.every((t) => t.endedAt !== null && t.endReason === 'done'), JSON.stringify(state.state.turns));
      assert.deepEqual(supervisor.events(id).filter((e) => e.type === 'agent_settled').length, TURNS);
      assert.deepEqual(llm.requests.slice(-TURNS).map((r) => said(r.messages[r.messages.length - 1])), Array.from({ length: TURNS }, (_, i) => `turn ${i + 1}`));
    });

    it(pi.one
      ? 'a prompt at agent_end is refused as post-turn work (pi 1.x settles later), naming it; at agent_settled it is accepted'
      : 'a prompt at agent_end is accepted (pi 0.73.1 settles there)', async () => {
      const { id } = await start();
      llm.script([{ text: 'first' }, { text: 'second' }]);
      let atEnd!: Promise<PromptResult>;
      let atSettled: Promise<PromptResult> | undefined;
      const off = supervisor.onEvent((workerId, e) => {
        if (workerId !== id) return;
        if (e.type === 'agent_end' && !atEnd) atEnd = supervisor.prompt(id, 'at agent_end');
        if (e.type === 'agent_settled' && !atSettled && pi.one) atSettled = supervisor.prompt(id, 'at agent_settled');
      });
      let settles = 0;
      const second = waitFor(supervisor, id, (e) => e.type === 'agent_settled' && ++settles === 2, 30_000, 'the second turn');
      try {
        await supervisor.prompt(id, 'first');
        await second;
      } finally {
        off();
      }
      const end = await atEnd;
      if (pi.one) {
        assert.equal(end.status, 'error');
        assert.match(end.status === 'error' ? end.error : '', /still busy after its turn \(settling\)/);
        assert.equal((await atSettled!).status, 'accepted');
      } else {
        assert.equal(end.status, 'accepted', JSON.stringify(end));
      }
    });

    it(pi.one
      ? 'a compact of a tiny session is a compaction not performed (pi 1.x: "Nothing to compact")'
      : 'a compact of a one-turn session compacts it (pi 0.73.1 has no lower bound)', async () => {
      const { id } = await start();
      llm.script([{ text: 'one short turn' }]);
      const end = waitFor(supervisor, id, ofType('agent_settled'), 30_000);
      await supervisor.prompt(id, 'hello');
      await end;
      llm.script([{ text: 'SUMMARY' }]);
      const c = await supervisor.compact(id);
      assert.equal(c.status, 'compacted', JSON.stringify(c));
      assert.equal(c.status === 'compacted' && c.performed, !pi.one);
    });

    it(pi.one
      ? 'abort of a running compaction cancels it: abort says compactionCancelled, compact says aborted'
      : 'abort of a running compaction is an error saying pi 0.73.1 cannot; the compaction finishes', async () => {
      const { id } = await start();
      llm.script([{ text: 'first turn, with some words' }, { text: 'second turn, with some more words' }]);
      for (const text of ['one', 'two']) {
        const end = waitFor(supervisor, id, ofType('agent_settled'), 30_000);
        assert.equal((await supervisor.prompt(id, text)).status, 'accepted');
        await end;
      }
      let open!: () => void;
      llm.script([{ gate: new Promise<void>((r) => (open = r)), text: 'SLOW SUMMARY' }]);
      const asked = llm.waitForRequest(llm.requests.length + 1);
      const compacting = supervisor.compact(id);
      await asked; // the summary request is with the model: the compaction runs
      const state = supervisor.state(id);
      assert.equal(state.status !== 'not_found' && state.state.compacting, true);
      const aborted = await supervisor.abort(id);
      if (pi.one) {
        assert.deepEqual(aborted.status === 'aborted' && aborted.compactionCancelled, true, JSON.stringify(aborted));
        assert.equal((await compacting).status, 'aborted');
        open();
      } else {
        assert.equal(aborted.status, 'error', JSON.stringify(aborted));
        assert.match(aborted.status === 'error' ? aborted.error : '', /pi 0\.73\.1's abort does not reach a running compaction/);
        open();
        const c = await compacting;
        assert.equal(c.status, 'compacted', JSON.stringify(c));
        assert.match(c.status === 'compacted' ? c.summary ?? '' : '', /SLOW SUMMARY/);
      }
      const after = supervisor.state(id);
      assert.equal(after.status !== 'not_found' && after.state.compacting, false);
    });

    it(`an abort while pi waits to retry an overloaded model call answers aborted, and the turn ends aborted${pi.one ? '' : ' (0.73.1: the retry\'s own turn, begun by its auto_retry_start)'}`, async () => {
      const { id } = await start();
      // Retried with a delay (pi's retry.baseDelayMs, 2 s): the abort lands in the wait.
      // A reply an earlier test scripted and pi did not ask for would come first.
      llm.unscript();
      // A 400 that names an overload: pi retries it; pi 0.73.1's provider client, which would
      // itself retry a 503 (taking the next reply), does not.
      llm.script([{ fail: { message: 'overloaded_error: the model is overloaded' } }, { text: 'a retry the abort should have cancelled' }]);
      const waiting = waitFor(supervisor, id, ofType('auto_retry_start'), 30_000);
      assert.equal((await supervisor.prompt(id, 'try it')).status, 'accepted');
      await waiting;
      const asked = llm.requests.length;
      // Busy while it waits (pi 0.73.1's turn has already ended): a plain prompt is refused.
      const waitingState = supervisor.state(id);
      assert.deepEqual(waitingState.status === 'not_found' ? null : [waitingState.state.streaming, waitingState.state.afterTurn], [true, 'retry']);
      const refused = await supervisor.prompt(id, 'not now');
      assert.match(refused.status === 'error' ? refused.error : JSON.stringify(refused), /still busy after its turn \(retrying the model call\)/);
      const aborted = await supervisor.abort(id);
      assert.equal(aborted.status, 'aborted', JSON.stringify(aborted));
      const s = supervisor.state(id);
      assert.equal(s.status === 'not_found' ? null : s.state.turns.at(-1)?.endReason, 'aborted');
      assert.equal(s.status === 'not_found' ? null : s.state.streaming, false);
      // The retry's delay passes: pi makes no model call (the abort cancelled the retry).
      await new Promise((r) => setTimeout(r, 2500));
      assert.equal(llm.requests.length, asked, 'pi retried after the abort');
    });

    if (pi.one) {
      it(`a start of pi ${pi.version} on a Node older than it needs is an error that says so, and nothing is spawned`, async () => {
        const node20 = path.dirname(process.execPath);
        const env = { ...(piEnv(dir) as Record<string, string>), PATH: `${node20}${path.delimiter}${process.env.PATH ?? ''}` };
        const started = await supervisor.start({ ...spec, command: pi1PackageBin(), env });
        assert.equal(started.status, 'error');
        const error = started.status === 'error' ? started.error : '';
        assert.match(error, new RegExp(`^pi ${pi.version.replace(/\./g, '\\.')} needs Node ≥ 22\\.19\\.0; this Node is ${process.versions.node.replace(/\./g, '\\.')}`));
        assert.doesNotMatch(error, /SyntaxError/);
        assert.deepEqual(supervisor.list(), []);
      });

      it('a pi 1.x the preflight cannot see through (run as `node cli.js`) that dies at load on an old Node: the start error explains the SyntaxError', async () => {
        const cli = path.join(path.dirname(path.dirname(pi1PackageBin())), '@earendil-works/pi-coding-agent/dist/bundle/cli.js');
        const started = await supervisor.start({ ...spec, command: process.execPath, args: [cli] });
        assert.equal(started.status, 'error');
        assert.match(started.status === 'error' ? started.error : '', /this pi needs a newer Node than the one that ran it \(Node has no \w+ in node:\w+; pi 1\.x needs Node ≥ 22\.19\)/);
      });
    }
  });
}
