// The host against real τ (ffwf-tau-coding-agent 0.15.0, protocol 3.1, installed into the cache
// by scripts/ensure-workers.mjs), driven offline by the mock LLM. A missing τ fails this suite
// with the reason; it is never skipped.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Supervisor, WorkerSpec } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { toolRow } from '../../src/ui/views/describe';
import { fakeSpec, ofType, record, stateOf as liveState, unstampedPair, waitFor } from '../helpers/supervisor';
import { alive, cmdline, describePids, HOST_PROCESS, killAll, ROOT, stat, treeOf, until } from '../fixtures/faults-helpers';
import { startMockLlm, type ChatRequest, type MockLlm, type MockReply } from '../fixtures/mock-llm.mjs';
import { makeTauHome, removeTauHome, requireTau, tauEnv, tauSessionDir } from '../fixtures/tau-env.mjs';

const sleepCall = (id?: string) => ({ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' }, ...(id ? { id } : {}) }] });
const said = (m: { content?: unknown }) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? null));
const userTexts = (r: ChatRequest) => (r.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'user').map(said);

/** A promise the test settles when it decides the model "finishes". */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** The `sleep 30` that τ's bash tool runs, found in τ's process tree. */
async function sleepOf(pid: number): Promise<number> {
  let found: number | undefined;
  await until(() => (found = treeOf(pid).find((p) => cmdline(p.pid).startsWith('sleep 30'))?.pid) !== undefined, 10_000,
    () => `no sleep 30 under τ: ${describePids(treeOf(pid).map((p) => p.pid))}`);
  return found!;
}

describe('the host driving real τ 0.15.0', function () {
  this.timeout(90_000);
  let command: string;
  let llm: MockLlm;
  let home: string;
  let ws: string;
  let supervisor: Supervisor;
  const strays = new Set<number>();
  const gates: Array<() => void> = [];
  const dirs: string[] = [];

  const spec = (extra: Partial<WorkerSpec> = {}): WorkerSpec => ({
    dialect: 'tau', command, cwd: ws, env: tauEnv(home), name: 'real τ', sessionDir: tauSessionDir(home), ...extra,
  });
  async function started(extra: Partial<WorkerSpec> = {}) {
    const r = await supervisor.start(spec(extra));
    if (r.status !== 'started') return assert.fail(`τ did not start: ${r.error}`);
    strays.add(r.pid);
    return r;
  }

  before(() => {
    command = requireTau();
  });
  // A mock model and a τ home per test, so that a reply one test scripted and did not use
  // cannot answer the next test's request.
  beforeEach(async () => {
    llm = await startMockLlm();
    home = await makeTauHome({ baseUrl: llm.baseUrl });
    supervisor = createSupervisor();
    ws = realpathSync(mkdtempSync(path.join(tmpdir(), 'real-tau-ws-')));
  });
  afterEach(async () => {
    for (const open of gates.splice(0)) open();
    await supervisor.dispose();
    killAll(strays);
    strays.clear();
    await llm.close();
    await removeTauHome(home);
    for (const d of [ws, ...dirs.splice(0)]) rmSync(d, { recursive: true, force: true });
  });

  it('starts (get_capabilities, get_state) with its configured model and streams a reply as text deltas', async () => {
    const s = await started();
    assert.equal(s.state.status, 'running');
    assert.equal(s.state.model, 'openai/mock-1', 'provider/id from τ\'s get_state');
    assert.ok(s.state.sessionId, 'τ names its session');
    for (const flag of ['--mode', 'rpc', '-ne', '-nc', '--session-dir']) assert.ok(s.state.args.includes(flag), `launched with ${flag}: ${s.state.args.join(' ')}`);
    const events = record(supervisor, () => s.workerId);
    const reply = 'Hello from the mock model, streamed to τ in several small pieces.';
    llm.script([{ text: reply }]);
    const end = waitFor(supervisor, s.workerId, ofType('agent_end'), 30_000);
    // τ sends no agent_settled: the host ends the turn with its own, right after agent_end.
    const settled = waitFor(supervisor, s.workerId, ofType('agent_settled'), 30_000);
    const p = await supervisor.prompt(s.workerId, 'say hello', { submissionId: 'hello-1' });
    assert.equal(p.status, 'accepted', JSON.stringify(p));
    assert.equal(p.status === 'accepted' && p.submissionId, 'hello-1', 'τ takes the host\'s submission id');
    const e = await end;
    assert.equal(e.end_reason, 'done');
    assert.equal(e.submission_id, 'hello-1');
    const deltas = events.filter((x) => x.type === 'message_update' && x.block_type === 'text');
    assert.ok(deltas.length > 1, `streamed in pieces, got ${deltas.length}`);
    assert.equal(deltas.map((x) => x.delta).join(''), reply);
    assert.equal((await settled).data?.synthesized, true);
    assert.deepEqual(events.map((x) => x.type).filter((t) => t !== 'message_update' && t !== 'prompt_sent'),
      ['agent_start', 'turn_start', 'message_start', 'message_end', 'turn_end', 'agent_end', 'agent_settled']);
    assert.deepEqual(userTexts(llm.requests[llm.requests.length - 1]), [JSON.stringify([{ type: 'text', text: 'say hello' }])]);
    const stored = readdirSync(tauSessionDir(home), { recursive: true }).map(String);
    assert.ok(stored.some((f) => f.includes(s.state.sessionId!)), `τ keeps its session in the spec's sessionDir: ${stored.join(', ')}`);
  });

  it('takes a steer and a follow-up while it streams: the steer joins the running turn, the follow-up runs after it', async () => {
    const s = await started();
    const first = gate();
    gates.push(first.open);
    const n = llm.requests.length;
    llm.script([{ text: 'first answer', gate: first.promise }, { text: 'steered answer' }, { text: 'follow-up answer' }]);
    const followUpEnd = waitFor(supervisor, s.workerId, (e) => e.type === 'agent_end' && e.submission_id === 'fu-1', 30_000, 'the follow-up\'s agent_end');
    const firstEnd = waitFor(supervisor, s.workerId, (e) => e.type === 'agent_end' && e.submission_id === 'run-1', 30_000, 'the first run\'s agent_end');
    assert.equal((await supervisor.prompt(s.workerId, 'start', { submissionId: 'run-1' })).status, 'accepted');
    await llm.waitForRequest(n + 1); // τ is streaming the gated reply
    const steer = await supervisor.prompt(s.workerId, 'steer me', { streamingBehavior: 'steer' });
    assert.equal(steer.status, 'accepted', JSON.stringify(steer));
    assert.equal(steer.status === 'accepted' && steer.streamingBehavior, 'steer');
    // τ acks an enqueued prompt only when it admits it, once the running turn is over.
    const followUp = supervisor.prompt(s.workerId, 'follow me', { streamingBehavior: 'followUp', submissionId: 'fu-1' });
    first.open();
    const fu = await followUp;
    assert.equal(fu.status, 'accepted', JSON.stringify(fu));
    assert.equal((await firstEnd).end_reason, 'done');
    assert.equal((await followUpEnd).end_reason, 'done');
    const [steered, followed] = [llm.requests[n + 1], llm.requests[n + 2]];
    assert.deepEqual(userTexts(steered).map((t) => JSON.parse(t)[0].text), ['start', 'steer me'], 'the steer is the next model call of the same run');
    assert.match(said(steered.messages.at(-2)), /first answer/);
    assert.deepEqual(userTexts(followed).map((t) => JSON.parse(t)[0].text), ['start', 'steer me', 'follow me'], 'the follow-up comes after the steered turn');
    assert.match(said(followed.messages.at(-2)), /steered answer/);
    const st = supervisor.state(s.workerId);
    if (st.status === 'not_found') return assert.fail('gone');
    assert.deepEqual(st.state.turns.map((t) => [t.submissionId, t.endReason]), [['run-1', 'done'], ['fu-1', 'done']]);
    assert.equal(st.state.streaming, false);
  });

  it('aborts a real `bash: sleep 30` mid-tool: aborted with a settle time, the sleep is gone, τ lives, the next prompt carries the earlier turns', async () => {
    const s = await started();
    llm.script([sleepCall('call_sleep')]);
    const tool = waitFor(supervisor, s.workerId, ofType('tool_execution_start'), 30_000);
    const ended = waitFor(supervisor, s.workerId, ofType('agent_end'), 30_000);
    assert.equal((await supervisor.prompt(s.workerId, 'run the long command')).status, 'accepted');
    assert.equal((await tool).tool_name, 'bash');
    const sleep = await sleepOf(s.pid);
    strays.add(sleep);
    const aborted = await supervisor.abort(s.workerId);
    assert.equal(aborted.status, 'aborted', JSON.stringify(aborted));
    if (aborted.status !== 'aborted') return;
    assert.equal(typeof aborted.settleMs, 'number');
    assert.ok(aborted.settleMs >= 0 && aborted.settleMs <= aborted.ms, JSON.stringify(aborted));
    assert.equal(aborted.compactionCancelled, null, 'no compaction was running');
    assert.equal((await ended).end_reason, 'aborted');
    assert.ok(alive(s.pid), 'τ survives the abort');
    await until(() => !alive(sleep), 5_000, () => `τ's sleep ${sleep} outlived the abort`);
    const st = supervisor.state(s.workerId);
    if (st.status === 'not_found') return assert.fail('gone');
    assert.equal(st.state.streaming, false);
    // τ 0.15.0 ends an aborted bash in one of two ways, by a race inside its tool (measured: 17
    // of 20 the first, 3 the second): is_error true with "Command killed by signal 15", or
    // is_error false with "Command was aborted". Either is τ's; the call is recorded.
    assert.deepEqual(st.state.turns[0].tools.map((t) => [t.toolCallId, t.toolName]), [['call_sleep', 'bash']]);
    // Either way the call ran under the host's abort: stopped, not "ok" nor an error of its own.
    assert.equal(toolRow(st.state.turns[0], st.state.turns[0].tools[0]).description, 'stopped');

    const n = llm.requests.length;
    llm.script([{ text: 'carrying on' }]);
    const next = waitFor(supervisor, s.workerId, ofType('agent_end'), 30_000);
    assert.equal((await supervisor.prompt(s.workerId, 'next instruction')).status, 'accepted');
    const req = await llm.waitForRequest(n + 1);
    const roles = (req.messages as Array<{ role: string }>).map((m) => m.role);
    assert.deepEqual(roles, ['system', 'user', 'assistant', 'tool', 'user'], JSON.stringify(req.messages));
    assert.match(said(req.messages[1]), /run the long command/);
    assert.equal(req.messages[2].tool_calls[0].function.name, 'bash');
    assert.equal(req.messages[3].tool_call_id, 'call_sleep');
    assert.match(said(req.messages[3]), /Command killed by signal 15|Command was aborted/);
    assert.match(said(req.messages[4]), /next instruction/);
    assert.equal((await next).end_reason, 'done');
  });

  it('redirects mid-tool, compacts with a real summary, and cancels a running compaction with abort', async () => {
    const s = await started();
    const id = s.workerId;
    // redirect while a tool runs: the abort lands, then the new instruction runs on the same history.
    llm.script([{ text: 'plain first turn' }]);
    const firstEnd = waitFor(supervisor, id, ofType('agent_end'), 30_000);
    await supervisor.prompt(id, 'say something first');
    await firstEnd;
    llm.script([sleepCall(), { text: 'Redirected: doing the other thing.' }]);
    const tool = waitFor(supervisor, id, ofType('tool_execution_start'), 30_000);
    await supervisor.prompt(id, 'run the long command');
    await tool;
    const done = waitFor(supervisor, id, (e) => e.type === 'agent_end' && e.end_reason === 'done', 30_000);
    const r = await supervisor.redirect(id, 'stop that, do the other thing');
    assert.equal(r.status, 'redirected', JSON.stringify(r));
    if (r.status !== 'redirected') return;
    assert.equal(r.aborted, true);
    assert.ok(r.settleMs >= 0);
    await done;
    assert.deepEqual(userTexts(llm.requests[llm.requests.length - 1]).map((t) => JSON.parse(t)[0].text),
      ['say something first', 'run the long command', 'stop that, do the other thing']);

    // compact: τ calls the model for the summary (keep_recent_tokens is 1 in the test config).
    const n = llm.requests.length;
    llm.script([{ text: 'SUMMARY-OF-THE-SESSION: redirected from a long command.' }]);
    const c = await supervisor.compact(id);
    assert.equal(c.status, 'compacted', JSON.stringify(c));
    if (c.status !== 'compacted') return;
    assert.equal(c.performed, true);
    assert.match(c.summary ?? '', /SUMMARY-OF-THE-SESSION/);
    assert.equal(typeof c.tokensBefore, 'number');
    assert.ok(llm.requests.length > n, 'the summary came from the model');
    assert.match(JSON.stringify(llm.requests[n].messages), /summar/i);
    const afterCompact = supervisor.state(id);
    if (afterCompact.status === 'not_found') return assert.fail('gone');
    assert.equal(afterCompact.state.compacting, false);
    assert.equal(afterCompact.state.turns.length, 3, 'the compaction\'s own agent_start/agent_end is not a turn');

    // A turn so that there is something new to compact, then a compaction whose summary hangs.
    llm.script([{ text: 'one more turn' }]);
    const more = waitFor(supervisor, id, ofType('agent_end'), 30_000);
    await supervisor.prompt(id, 'one more');
    await more;
    const slow = gate();
    gates.push(slow.open);
    const m = llm.requests.length;
    llm.script([{ text: 'too late', gate: slow.promise }]);
    const cancelled = waitFor(supervisor, id, ofType('compaction_end'), 30_000);
    const compacting = supervisor.compact(id);
    await llm.waitForRequest(m + 1); // τ is waiting on the summary
    const a = await supervisor.abort(id);
    assert.equal(a.status, 'aborted', JSON.stringify(a));
    assert.equal(a.status === 'aborted' && a.compactionCancelled, true, 'the abort result says the compaction was cancelled');
    assert.equal((await compacting).status, 'aborted');
    const end = await cancelled;
    assert.equal(end.data?.cancelled, true);
    assert.equal('performed' in (end.data ?? {}), false, 'a cancelled compaction neither performed nor found nothing to do');
    slow.open();
    assert.ok(alive(s.pid));
    const st = supervisor.state(id);
    if (st.status === 'not_found') return assert.fail('gone');
    assert.equal(st.state.compacting, false);
    assert.equal(st.state.streaming, false);
    // τ is usable afterwards.
    llm.script([{ text: 'still here' }]);
    const last = waitFor(supervisor, id, ofType('agent_end'), 30_000);
    assert.equal((await supervisor.prompt(id, 'are you there?')).status, 'accepted');
    assert.equal((await last).end_reason, 'done');
  });

  it('stop while a tool runs leaves no process of τ\'s tree, its bash child included', async () => {
    const s = await started();
    llm.script([sleepCall()]);
    const tool = waitFor(supervisor, s.workerId, ofType('tool_execution_start'), 30_000);
    await supervisor.prompt(s.workerId, 'run the long command');
    await tool;
    const sleep = await sleepOf(s.pid);
    const tree = treeOf(s.pid).map((p) => p.pid);
    for (const p of tree) strays.add(p);
    assert.ok(tree.includes(sleep));
    console.log(`      τ's tree while the tool runs: ${describePids(tree)}; the sleep's process group ${stat(sleep)?.pgid} (τ's ${stat(s.pid)?.pgid})`);
    const stopped = await supervisor.stop(s.workerId);
    assert.equal(stopped.status, 'stopped');
    const left = tree.filter(alive);
    assert.deepEqual(left, [], `alive after stop: ${describePids(left)}`);
  });

  // τ's own stdin-EOF handling also ends its tool (it waits 1 s, then cancels the turn, and its
  // bash kills the tool's process group): the second case shows that without the watchdog.
  for (const watchdog of [true, false]) {
    it(watchdog
      ? 'a host killed with SIGKILL while τ runs a tool: τ and its bash child are gone, the watchdog knowing the whole tree'
      : 'the same crash without the watchdog: τ ends its bash child itself on stdin EOF and exits', async function () {
      this.timeout(120_000);
      const dir = mkdtempSync(path.join(tmpdir(), 'real-tau-hostkill-'));
      let child: ChildProcess | undefined;
      try {
        const core = path.join(dir, 'core.js');
        await esbuild.build({ entryPoints: [path.join(ROOT, 'src/core/index.ts')], outfile: core, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'silent' });
        const state = path.join(dir, 'watchdog-state.json');
        llm.script([sleepCall()]);
        const config = { core, host: { watchdog }, workers: [{ spec: spec(), prompt: 'run the long command', treeSize: 2 }] };
        child = spawn(process.execPath, [HOST_PROCESS, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RPC_WORKERS_WATCHDOG_STATE: state } });
        let stderr = '';
        child.stderr!.on('data', (d) => (stderr += d));
        const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
        const ready = await new Promise<{ hostPid: number; workers: Array<{ pid: number }> }>((resolve, reject) => {
          let out = '';
          child!.stdout!.on('data', (d) => {
            out += d;
            const line = out.split('\n').find((l) => l.startsWith('READY ') || l.startsWith('FAILED '));
            if (!line) return;
            if (line.startsWith('FAILED ')) reject(new Error(`${line}; stderr: ${stderr}`));
            else resolve(JSON.parse(line.slice(6)));
          });
          child!.once('exit', (code, signal) => reject(new Error(`host-process exited (${code ?? signal}) before READY; stderr: ${stderr}`)));
        });
        const tau = ready.workers[0].pid;
        strays.add(tau);
        const sleep = await sleepOf(tau);
        const tree = treeOf(tau).map((p) => p.pid);
        for (const p of tree) strays.add(p);
        if (watchdog) {
          await until(() => {
            try {
              const known = new Set((JSON.parse(readFileSync(state, 'utf8')) as { pids: number[] }).pids);
              return tree.every((p) => known.has(p));
            } catch {
              return false;
            }
          }, 5_000, () => `the watchdog never knew τ's tree ${describePids(tree)}: ${existsSync(state) ? readFileSync(state, 'utf8') : 'no state'}`);
        } else assert.equal(existsSync(state), false, 'no watchdog ran');
        child.kill('SIGKILL');
        await exited;
        await until(() => tree.every((p) => !alive(p)), 10_000, () => `alive after the host's SIGKILL: ${describePids(tree.filter(alive))}`);
        assert.ok(!alive(sleep));
      } finally {
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('an abort while τ waits on the model lands only when the model answers: the host says so after its settle bound, and the worker recovers', async () => {
    await supervisor.dispose();
    supervisor = createSupervisor({ limits: { settleTimeoutMs: 1_000 } });
    const s = await started();
    const model = gate();
    gates.push(model.open);
    llm.script([{ text: 'the answer that was waited for', gate: model.promise }]);
    const ended = waitFor(supervisor, s.workerId, ofType('agent_end'), 30_000);
    await supervisor.prompt(s.workerId, 'think slowly');
    await llm.waitForRequest(1); // τ waits for the model's first byte
    const a = await supervisor.abort(s.workerId);
    assert.equal(a.status, 'error', JSON.stringify(a));
    assert.match(a.status === 'error' ? a.error : '', /settling after abort: no answer from the worker within 1 s/);
    const during = supervisor.state(s.workerId);
    assert.equal(during.status !== 'not_found' && during.state.streaming, true, 'τ is still in its turn');
    model.open();
    const e = await ended;
    assert.equal(e.end_reason, 'aborted', 'the abort took effect once the answer came');
    const events = supervisor.events(s.workerId);
    assert.equal(events.some((x) => x.type === 'message_update'), false, 'none of the late answer was streamed');
    const st = supervisor.state(s.workerId);
    if (st.status === 'not_found') return assert.fail('gone');
    assert.equal(st.state.streaming, false);
    llm.script([{ text: 'back' }]);
    const next = waitFor(supervisor, s.workerId, ofType('agent_end'), 30_000);
    assert.equal((await supervisor.prompt(s.workerId, 'again')).status, 'accepted');
    assert.equal((await next).end_reason, 'done');
  });

  it('audits real τ\'s tool calls against the hostile-path corpus: what is flagged, whether the turn is aborted, how far the write got', async () => {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'real-tau-outside-')));
    // Removed after τ is stopped (afterEach): a write still in flight would make it again.
    dirs.push(outside);
    mkdirSync(path.join(ws, '.git/hooks'), { recursive: true });
    writeFileSync(path.join(ws, '.git/config'), '[core]\n');
    writeFileSync(path.join(ws, '.env'), 'SECRET=1\n');
    symlinkSync(outside, path.join(ws, 'out-dir'));
    // τ notices an abort only when the model's pending answer arrives (a turn waiting on the
    // model's first byte does not end: see the test before this one), so the next answer is
    // released once τ has acknowledged the audit's abort.
    let onAbortAck = () => {};
    await supervisor.dispose();
    supervisor = createSupervisor({ trace: (_w, dir, m) => dir === 'receive' && (m as { result?: { method?: string } }).result?.method === 'abort' && onAbortAck() });
    const s = await started({ guard: true });
    assert.equal(s.state.guarded, true);
    const id = s.workerId;
    const seen: AgentEvent[] = [];
    const log: string[] = [];
    supervisor.onEvent((w, e) => {
      if (w === id && e.type === 'guard_violation') seen.push(e);
      if (w === id) log.push(`${e.type}${e.end_reason ? `:${e.end_reason}` : ''}${e.tool_call_id ? `:${e.tool_call_id}` : ''}`);
    });

    // Inside the workspace: not flagged, written.
    llm.script([{ toolCalls: [{ name: 'write', arguments: { path: 'notes.txt', content: 'inside' }, id: 'call_inside' }] }, { text: 'done' }]);
    const inside = waitFor(supervisor, id, ofType('agent_end'), 30_000);
    await supervisor.prompt(id, 'write inside');
    assert.equal((await inside).end_reason, 'done');
    assert.equal(readFileSync(path.join(ws, 'notes.txt'), 'utf8'), 'inside');

    const cases: Array<{ name: string; call: { name: string; arguments: Record<string, unknown> }; rule: RegExp; target: string; expect: string }> = [
      { name: 'absolute path outside', call: { name: 'write', arguments: { path: path.join(outside, 'abs.txt'), content: 'evil' } }, rule: /outside the allowed paths/, target: path.join(outside, 'abs.txt'), expect: 'evil' },
      { name: '../ escape', call: { name: 'write', arguments: { path: `../${path.basename(outside)}/rel.txt`, content: 'evil' } }, rule: /outside the allowed paths/, target: path.join(outside, 'rel.txt'), expect: 'evil' },
      { name: 'symlinked dir pointing out', call: { name: 'write', arguments: { path: 'out-dir/link.txt', content: 'evil' } }, rule: /outside the allowed paths/, target: path.join(outside, 'link.txt'), expect: 'evil' },
      { name: '.git hook', call: { name: 'write', arguments: { path: '.git/hooks/pre-commit', content: 'evil' } }, rule: /forbidden/, target: path.join(ws, '.git/hooks/pre-commit'), expect: 'evil' },
      { name: '.git by case', call: { name: 'write', arguments: { path: '.GIT/config', content: 'evil' } }, rule: /forbidden/, target: path.join(ws, '.GIT/config'), expect: 'evil' },
      { name: '.env.local below', call: { name: 'write', arguments: { path: 'pkg/.env.local', content: 'evil' } }, rule: /forbidden .*\.env/, target: path.join(ws, 'pkg/.env.local'), expect: 'evil' },
      { name: 'edit of .env', call: { name: 'edit', arguments: { path: '.env', old_string: 'SECRET=1', new_string: 'SECRET=evil' } }, rule: /forbidden .*\.env/, target: path.join(ws, '.env'), expect: 'SECRET=evil\n' },
      { name: 'bash (not allowed under the guard)', call: { name: 'bash', arguments: { command: `echo evil > ${path.join(outside, 'bash.txt')}` } }, rule: /bash under the guard/, target: path.join(outside, 'bash.txt'), expect: 'evil\n' },
    ];
    const outcomes: string[] = [];
    // When the audit's abort lands before τ asks the model again, the held-back answer stays
    // first in the mock's queue: the next case turns it into its tool call.
    let unused: MockReply | null = null;
    for (const [i, c] of cases.entries()) {
      const callId = `call_hostile_${i}`;
      // The model's next answer is held back, so the turn is still running when the audit acts.
      const next = gate();
      gates.push(next.open);
      onAbortAck = next.open;
      const toolReply = { toolCalls: [{ ...c.call, id: callId }] };
      const later: MockReply = { text: 'after the tool', gate: next.promise };
      if (unused) {
        Object.assign(unused, toolReply);
        llm.script([later]);
      } else llm.script([toolReply, later]);
      const n = llm.requests.length;
      const flagged = waitFor(supervisor, id, (e) => e.type === 'guard_violation' && e.tool_call_id === callId, 30_000, `the violation of ${c.name}`);
      const ended = waitFor(supervisor, id, ofType('agent_end'), 30_000, `the end of ${c.name}'s turn`);
      const from = log.length;
      const sent = await supervisor.prompt(id, `hostile ${i}`);
      assert.equal(sent.status, 'accepted', JSON.stringify(sent));
      const v = await flagged.catch((e: Error) => assert.fail(`${e.message}; events: ${log.slice(from).join(' ')}`));
      const end = await ended;
      next.open();
      assert.match(v.error ?? '', c.rule, `${c.name}: ${v.error}`);
      assert.equal(v.tool_name, c.call.name);
      assert.equal(v.data?.action, 'abort');
      assert.equal(end.end_reason, 'aborted', `${c.name}: the audit aborts the turn`);
      const landed = existsSync(c.target) ? readFileSync(c.target, 'utf8') : null;
      // An audit after the fact: the call may have run whole, or not at all; never half.
      assert.ok(landed === null || landed === c.expect || (c.call.name === 'edit' && landed === 'SECRET=1\n'), `${c.name}: ${JSON.stringify(landed)}`);
      const written = c.call.name === 'edit' ? landed === c.expect : landed !== null;
      const early = llm.requests.length === n + 1;
      unused = early ? later : null;
      outcomes.push(`${c.name}: flagged (${v.error}); turn ${end.end_reason} (${early ? 'before' : 'after'} τ's next model call); write ${written ? 'LANDED' : 'did not land'}`);
    }
    console.log(`      guard audit of real τ:\n${outcomes.map((o) => `        ${o}`).join('\n')}`);
    assert.equal(seen.some((e) => e.tool_call_id === 'call_inside'), false, 'the write inside was not flagged (its audit answered before the later ones)');
    assert.equal(seen.length, cases.length);
    const st = supervisor.state(id);
    if (st.status === 'not_found') return assert.fail('gone');
    assert.equal(st.state.turns.length, cases.length + 1);
    assert.ok(st.state.turns.slice(1).every((t) => t.tools.length === 1 && t.tools[0].violation), JSON.stringify(st.state.turns));
    assert.equal(st.state.turns[0].tools[0].violation, null);
  });

  describe('τ compacting on its own, driven past its limits by the model\'s usage', () => {
    // Soft limit (after a turn) 80 % of the window less the reserve: 1433 tokens; hard limit
    // (inside a turn) 1792. The mock model says 2000 were used.
    const NEAR_FULL = { prompt_tokens: 1900, completion_tokens: 100 };
    const stateOf = (id: string) => liveState(supervisor, id);
    const compactions = (events: AgentEvent[]) => events.filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end')
      .map((e) => [e.type, e.data?.reason, e.is_error ?? false, e.turn?.index ?? null]);
    async function autoCompacting() {
      const own = await makeTauHome({ baseUrl: llm.baseUrl, compaction: { auto: true, keep_recent_tokens: 1, reserve_tokens: 256 }, contextWindow: 2048 });
      dirs.push(own);
      return started({ env: tauEnv(own), sessionDir: tauSessionDir(own) });
    }

    it('after a turn: one turn, not two, each turn with its own origin, and the log says a compaction ran', async () => {
      const { workerId: id } = await autoCompacting();
      const events = record(supervisor, () => id);
      llm.script([{ text: 'A reply that fills the window.', usage: NEAR_FULL }, { text: 'SUMMARY' }]);
      const compacted = waitFor(supervisor, id, unstampedPair('agent_end'), 30_000);
      await supervisor.prompt(id, 'fill it', { source: 'editor' });
      await compacted;
      assert.equal(llm.requests.length, 2, 'τ asked the model for the summary');
      llm.script([{ text: 'second' }]);
      const second = waitFor(supervisor, id, ofType('agent_settled'), 30_000);
      assert.equal((await supervisor.prompt(id, 'again', { source: 'palette' })).status, 'accepted');
      await second;
      const s = stateOf(id);
      assert.deepEqual([s.turnCount, s.turns.map((t) => t.source), s.compacting, s.streaming], [2, ['editor', 'palette'], false, false]);
      assert.deepEqual(events.filter((e) => e.turn?.opens).map((e) => [e.turn!.index, e.turn!.origin]), [[1, 'editor'], [2, 'palette']]);
      assert.deepEqual(events.filter((e) => e.turn?.ends).map((e) => [e.type, e.turn!.index, e.end_reason]), [['agent_settled', 1, 'done'], ['agent_settled', 2, 'done']]);
      assert.deepEqual(compactions(events), [['compaction_start', 'threshold', false, null], ['compaction_end', 'threshold', false, null]]);
    });

    it('inside a turn: the turn goes on after it, abort reaches the turn, and the turn ends once, aborted', async () => {
      const s = await autoCompacting();
      const id = s.workerId;
      const events = record(supervisor, () => id);
      llm.script([{ toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }], usage: NEAR_FULL }, { text: 'SUMMARY' }, sleepCall()]);
      let during: ReturnType<typeof stateOf> | undefined;
      const began = waitFor(supervisor, id, (e) => unstampedPair('agent_start')(e) && Boolean(during = stateOf(id)), 30_000);
      await supervisor.prompt(id, 'look, then wait');
      await began;
      assert.deepEqual([during!.compacting, during!.streaming], [true, true]);
      // τ holds what it writes from the pair's agent_end on until the turn ends: the host sees
      // the turn's next tool only in τ's process tree.
      strays.add(await sleepOf(s.pid));
      assert.equal(llm.requests.length, 3, 'the tool call after the summary');
      assert.deepEqual([stateOf(id).streaming, stateOf(id).compacting], [true, true], 'τ has not let the pair\'s end out yet');
      const r = await supervisor.abort(id);
      assert.equal(r.status, 'aborted', JSON.stringify(r));
      const st = stateOf(id);
      assert.deepEqual([st.turnCount, st.turns.length, st.lastEndReason, st.streaming, st.compacting], [1, 1, 'aborted', false, false]);
      assert.deepEqual(events.filter((e) => e.turn?.ends).map((e) => [e.type, e.turn!.index, e.end_reason]), [['agent_settled', 1, 'aborted']]);
      assert.deepEqual(compactions(events), [['compaction_start', 'threshold', false, 1], ['compaction_end', 'threshold', false, 1]]);
    });
  });

  describe('a prompt over τ\'s request line limit is refused before it is sent', () => {
    it('real τ: the limit is learned from get_capabilities (8388608 bytes) and an 8 MiB prompt never reaches τ', async () => {
      await supervisor.dispose();
      const sent: unknown[] = [];
      supervisor = createSupervisor({ limits: { maxPromptBytes: 16 * 1024 * 1024 }, trace: (_w, dir, m) => dir === 'send' && sent.push(m) });
      const s = await started();
      const caps = sent.find((m) => (m as { method?: string }).method === 'get_capabilities');
      assert.ok(caps, 'the probe asked for the capabilities');
      const n = llm.requests.length;
      const big = 'x'.repeat(8 * 1024 * 1024);
      const r = await supervisor.prompt(s.workerId, big);
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /would be \d+ bytes on the wire; this τ reads at most 8388608 bytes a line \(limits\.max_request_line_bytes\), so it was not sent/);
      assert.equal(sent.some((m) => (m as { method?: string }).method === 'prompt'), false, 'nothing was written to τ');
      // Just under the limit goes through, and τ is still usable.
      llm.script([{ text: 'small one' }]);
      const end = waitFor(supervisor, s.workerId, ofType('agent_end'), 30_000);
      assert.equal((await supervisor.prompt(s.workerId, 'a small prompt')).status, 'accepted');
      await end;
      assert.equal(llm.requests.length, n + 1);
      assert.equal(supervisor.state(s.workerId).status, 'running');
    });

    it('the fake τ with a small limit: the refusal names its limit and the worker reads nothing', async () => {
      const sent: unknown[] = [];
      await supervisor.dispose();
      supervisor = createSupervisor({ trace: (_w, dir, m) => dir === 'send' && sent.push(m) });
      const s = await supervisor.start(fakeSpec('tau', ['--max-request-line-bytes', '2000']));
      if (s.status !== 'started') return assert.fail(s.error);
      strays.add(s.pid);
      const r = await supervisor.prompt(s.workerId, 'y'.repeat(2000));
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /this τ reads at most 2000 bytes a line/);
      assert.equal(sent.some((m) => (m as { method?: string }).method === 'prompt'), false);
      const ok = waitFor(supervisor, s.workerId, ofType('agent_end'));
      assert.equal((await supervisor.prompt(s.workerId, 'short')).status, 'accepted');
      assert.equal((await ok).end_reason, 'done');
      const st = supervisor.state(s.workerId);
      assert.equal(st.status === 'not_found' ? -1 : st.state.protocolErrors, 0, 'the fake never saw an over-long line');
    });
  });
});
