// The ACP dialect against the fake ACP agent (test/fixtures/fake-acp-agent.mjs): the start, the
// verbs and their honest statuses, the permission questions, and the bad input a real agent will
// not send on demand. The same verbs against the five real agents are in acp.real.test.ts.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PermissionAnswer, PermissionRequest, Supervisor, SupervisorOptions, WorkerSpec, WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { isAlive, ofType, record, ROOT, stateOf as liveState, text, waitFor, waitUntil } from '../helpers/supervisor';

const FAKE_ACP = path.join(ROOT, 'test/fixtures/fake-acp-agent.mjs');

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rpc-acp-fake-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function acpSpec(env: Record<string, string> = {}, extra: Partial<WorkerSpec> = {}): WorkerSpec {
  return { dialect: 'acp', command: process.execPath, args: [FAKE_ACP], cwd: dir, env, name: 'Fake agent', ...extra };
}

describe('ACP dialect: the fake agent', () => {
  let supervisor: Supervisor;
  let asked: PermissionRequest[];
  let answer: (req: PermissionRequest) => Promise<PermissionAnswer>;

  function make(options: SupervisorOptions = {}) {
    asked = [];
    supervisor = createSupervisor({ onPermission: (req) => { asked.push(req); return answer(req); }, ...options });
    return supervisor;
  }
  beforeEach(() => {
    answer = async (req) => ({ optionId: req.options.find((o) => o.kind === 'allow_once')!.optionId });
    make();
  });
  afterEach(() => supervisor.dispose());

  async function start(env: Record<string, string> = {}, extra: Partial<WorkerSpec> = {}) {
    const r = await supervisor.start(acpSpec(env, extra));
    if (r.status !== 'started') throw new Error(`start failed: ${r.error}`);
    return r;
  }
  const stateOf = (id: string): WorkerState => liveState(supervisor, id);

  it('starts once a session exists, keeps the updates sent before the session/new answer, and names the agent\'s version', async () => {
    const events: AgentEvent[] = [];
    let id: string | undefined = undefined; // set once the start answers; the listener reads it before
    supervisor.onEvent((w, e) => {
      if (w === id || id === undefined) events.push(e);
    });
    const r = await start();
    id = r.workerId;
    const s = stateOf(r.workerId);
    assert.equal(s.status, 'running');
    assert.equal(s.dialect, 'acp');
    assert.equal(s.workerVersion, '1.2.3');
    assert.ok(s.sessionId, 'the session id is known');
    assert.equal(s.mode, 'default');
    const commands = events.find((e) => e.type === 'commands_changed');
    assert.ok(commands, 'the commands sent before the session/new answer were kept');
    assert.deepEqual(commands.data?.commands, ['review']);
    assert.equal(s.compactUnavailable, 'this agent has no compaction (it lists no /compact command)');
    // Its row offers neither Fork Session (ACP v1 has none) nor Switch Model… (it lists no model choice).
    assert.equal(s.forkUnavailable, 'ACP v1 has no fork; start a new session instead');
    assert.match(s.modelUnavailable ?? '', /^this agent offers no model choice over ACP/);
    assert.deepEqual(s.midTurn, { steer: false, followUp: 'host' });
  });

  it('prompt answers accepted at once; text and thinking stream as deltas; the session/prompt answer ends the turn with one agent_settled', async () => {
    const r = await start();
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    const p = await supervisor.prompt(r.workerId, 'hello');
    assert.equal(p.status, 'accepted');
    const end = await settled;
    assert.equal(end.end_reason, 'done');
    assert.equal(text(events), 'Hello from the fake agent.');
    assert.ok(events.some((e) => e.type === 'message_update' && e.block_type === 'thinking' && e.delta === 'Thinking it over.'));
    assert.equal(events.filter((e) => e.type === 'agent_settled').length, 1);
    const start0 = events.find((e) => e.type === 'agent_start')!;
    assert.equal(start0.turn?.opens, true);
    assert.equal(events.find((e) => e.type === 'prompt_sent')?.data?.text, 'hello');
    const s = stateOf(r.workerId);
    assert.equal(s.streaming, false);
    assert.equal(s.turnCount, 1);
    // The usage readout is the session's, read as the agent sends it.
    await waitUntil(() => stateOf(r.workerId).usage !== null, 'the usage in the state', 10_000);
    assert.equal(stateOf(r.workerId).usage?.contextTokens, 121);
    assert.equal(stateOf(r.workerId).usage?.contextWindow, 200000);
  });

  it('the usage readout reaches the state while the turn runs, the last of a burst of readouts winning', async () => {
    const r = await start();
    await supervisor.prompt(r.workerId, 'usage 300');
    await waitUntil(() => stateOf(r.workerId).usage?.contextTokens === 1300, 'the last readout in the state', 10_000);
    assert.equal(stateOf(r.workerId).streaming, true, 'read mid-turn, not at its end');
    assert.equal((await supervisor.abort(r.workerId)).status, 'aborted');
  });

  it('a steer is refused with the reason and Redirect offered; a follow-up is held by the host and sent when the turn is answered', async () => {
    const r = await start();
    const gate = path.join(dir, `gate-${Date.now()}`);
    const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
    assert.equal((await supervisor.prompt(r.workerId, `shell: while [ ! -e ${gate} ]; do sleep 0.02; done; echo opened`)).status, 'accepted');
    await tool;
    const steer = await supervisor.prompt(r.workerId, 'look here', { streamingBehavior: 'steer' });
    assert.equal(steer.status, 'error');
    assert.match(steer.error!, /cannot be steered.*redirect/);
    const events = record(supervisor, () => r.workerId);
    const sent = waitFor(supervisor, r.workerId, (e) => e.type === 'prompt_sent' && e.data?.text === 'count');
    const followUp = supervisor.prompt(r.workerId, 'count', { streamingBehavior: 'followUp' });
    const queued = await sent;
    assert.equal(queued.data?.queuedBy, 'host');
    assert.equal(queued.data?.streamingBehavior, 'followUp');
    writeFileSync(gate, '');
    const secondTurn = waitFor(supervisor, r.workerId, (e) => e.type === 'agent_settled' && e.turn?.index === 2);
    assert.equal((await followUp).status, 'accepted');
    await secondTurn;
    // The agent saw the follow-up as a prompt of its own, after the first.
    assert.match(text(events), /This session has had 2 prompts\./);
  });

  it('a follow-up held through a turn longer than the settle timeout is sent once when the turn ends, and answered accepted then (not error meanwhile)', async () => {
    await supervisor.dispose();
    make({ limits: { settleTimeoutMs: 1_000 } });
    const r = await start();
    const gate = path.join(dir, `gate-long-${Date.now()}`);
    const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
    assert.equal((await supervisor.prompt(r.workerId, `shell: while [ ! -e ${gate} ]; do sleep 0.02; done; echo opened`)).status, 'accepted');
    await tool;
    const events = record(supervisor, () => r.workerId);
    let answered: string | undefined;
    const followUp = supervisor.prompt(r.workerId, 'count', { streamingBehavior: 'followUp' }).then((a) => {
      answered = a.status;
      return a;
    });
    // Two and a half settle timeouts with the turn still running: the follow-up is still held, not failed.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(answered, undefined, 'no answer while the turn runs');
    const secondTurn = waitFor(supervisor, r.workerId, (e) => e.type === 'agent_settled' && e.turn?.index === 2);
    writeFileSync(gate, '');
    assert.equal((await followUp).status, 'accepted');
    await secondTurn;
    assert.match(text(events), /This session has had 2 prompts\./);
    assert.equal(stateOf(r.workerId).streaming, false);
  });

  it('a second follow-up the host holds waits through the first one\'s whole turn, longer than the command timeout, and is answered accepted when sent', async () => {
    await supervisor.dispose();
    make({ limits: { commandTimeoutMs: 1_000 } });
    const r = await start();
    const gates = [path.join(dir, `gate-a-${Date.now()}`), path.join(dir, `gate-b-${Date.now()}`)];
    const until = (gate: string) => `shell: while [ ! -e ${gate} ]; do sleep 0.02; done; echo opened`;
    const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
    assert.equal((await supervisor.prompt(r.workerId, until(gates[0]))).status, 'accepted');
    await tool;
    const events = record(supervisor, () => r.workerId);
    const first = supervisor.prompt(r.workerId, until(gates[1]), { streamingBehavior: 'followUp' });
    let answered: string | undefined;
    const second = supervisor.prompt(r.workerId, 'count', { streamingBehavior: 'followUp' }).then((a) => {
      answered = a.status;
      return a;
    });
    const firstsTool = waitFor(supervisor, r.workerId, (e) => e.type === 'tool_execution_start' && e.turn?.index === 2);
    writeFileSync(gates[0], '');
    assert.equal((await first).status, 'accepted');
    await firstsTool;
    // Two and a half command timeouts into the first follow-up's turn: the second is still held, not failed.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal(answered, undefined, 'no answer while the host holds it');
    const third = waitFor(supervisor, r.workerId, (e) => e.type === 'agent_settled' && e.turn?.index === 3);
    writeFileSync(gates[1], '');
    assert.equal((await second).status, 'accepted');
    await third;
    assert.match(text(events), /This session has had 3 prompts\./);
  });

  it('an abort that finds the turn over (its end crossed the cancel) answers not_streaming, and the held follow-up is sent', async () => {
    const r = await start();
    const events = record(supervisor, () => r.workerId);
    const chunk = waitFor(supervisor, r.workerId, ofType('message_update'));
    assert.equal((await supervisor.prompt(r.workerId, 'deaf')).status, 'accepted');
    await chunk;
    const held = waitFor(supervisor, r.workerId, (e) => e.type === 'prompt_sent' && e.data?.text === 'count');
    const followUp = supervisor.prompt(r.workerId, 'count', { streamingBehavior: 'followUp' });
    await held;
    const second = waitFor(supervisor, r.workerId, (e) => e.type === 'agent_settled' && e.turn?.index === 2);
    const a = await supervisor.abort(r.workerId);
    assert.equal(a.status, 'not_streaming', JSON.stringify(a));
    assert.match(a.note ?? '', /ended by itself \(done\)/);
    assert.equal((await followUp).status, 'accepted');
    await second;
    assert.match(text(events), /This session has had 2 prompts\./);
  });

  it('a question the agent sends as the cancel reaches it is answered cancelled by the host, not put to the person, and the abort settles', async () => {
    const r = await start();
    const events = record(supervisor, () => r.workerId);
    const tool = waitFor(supervisor, r.workerId, ofType('tool_execution_start'));
    assert.equal((await supervisor.prompt(r.workerId, 'question at cancel')).status, 'accepted');
    await tool;
    const a = await supervisor.abort(r.workerId);
    assert.equal(a.status, 'aborted', JSON.stringify(a));
    assert.equal(asked.length, 0, 'the person was not asked about a tool of the aborted turn');
    const end = events.find((e) => e.type === 'permission_end');
    assert.equal(end?.data?.outcome, 'cancelled');
    assert.match(String(end?.data?.note), /the turn was aborted \(asked as the cancel reached the agent\)/);
    assert.match(text(events), /answer at cancel: \{"outcome":\{"outcome":"cancelled"\}\}/);
  });

  it('a permission question goes to onPermission with the agent\'s options; the worker needs input while it is open; the answer is logged', async () => {
    const r = await start();
    let release!: (a: PermissionAnswer) => void;
    answer = () => new Promise((resolve) => (release = resolve));
    const events = record(supervisor, () => r.workerId);
    const asking = waitFor(supervisor, r.workerId, ofType('permission_request'));
    const marker = path.join(dir, `marker-${Date.now()}`);
    await supervisor.prompt(r.workerId, `shell: echo hi > ${marker}`);
    const q = await asking;
    assert.equal(q.title, `Run \`echo hi > ${marker}\``);
    assert.equal(q.data?.command, `echo hi > ${marker}`);
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0].options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once']);
    assert.equal(stateOf(r.workerId).pendingInput.length, 1, 'the worker needs input');
    assert.equal(existsSync(marker), false, 'nothing ran before the answer');
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    release({ optionId: 'allow-once' });
    await settled;
    assert.equal(existsSync(marker), true);
    const end = events.find((e) => e.type === 'permission_end')!;
    assert.equal(end.data?.optionKind, 'allow_once');
    assert.equal(stateOf(r.workerId).pendingInput.length, 0);
    const done = events.find((e) => e.type === 'tool_execution_end')!;
    assert.equal(done.is_error, false);
  });

  it('a question still open when its turn ends is answered cancelled, and the next turn\'s question is asked', async () => {
    const r = await start();
    answer = () => new Promise(() => undefined);
    const ended = waitFor(supervisor, r.workerId, ofType('permission_end'));
    await supervisor.prompt(r.workerId, 'question left open');
    const e = await ended;
    assert.equal(e.data?.outcome, 'cancelled');
    assert.equal(e.data?.note, 'the turn ended');
    assert.equal(asked[0].signal.aborted, true, 'taken off the screen');
    assert.deepEqual(stateOf(r.workerId).pendingInput, []);
    const said = await waitFor(supervisor, r.workerId, (x) => x.type === 'message_update' && /left answer/.test(x.delta ?? ''));
    assert.match(said.delta!, /"outcome":"cancelled"/);
    // The next turn is not taken for the one that ended: its question is put to the person.
    answer = async () => ({ optionId: 'allow-once' });
    const next = waitFor(supervisor, r.workerId, (x) => x.type === 'permission_end' && x.data?.id !== e.data?.id);
    await supervisor.prompt(r.workerId, 'shell: true');
    assert.equal((await next).data?.optionKind, 'allow_once');
    assert.equal(asked.length, 2);
  });

  it('a question the agent withdraws ($/cancel_request) is closed as withdrawn and answered -32800 once, though the person answers it later; a withdrawal of no open request is kept in the log', async () => {
    const r = await start();
    const gate = path.join(dir, `withdraw-${Date.now()}`);
    let late!: () => void;
    // The question is open in the editor when the agent withdraws it; the person then answers it all the same.
    answer = (req) => {
      writeFileSync(gate, '');
      return new Promise((resolve) => (late = () => resolve({ optionId: req.options[0].optionId })));
    };
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    // Its second withdrawal, after the answer: a notification, which comes after the turn's events.
    const again = waitFor(supervisor, r.workerId, ofType('$/cancel_request'));
    assert.equal((await supervisor.prompt(r.workerId, `withdrawn question when ${gate}`)).status, 'accepted');
    await settled;
    const end = events.find((e) => e.type === 'permission_end');
    // The question stayed open in the log and the worker's attention ("waiting for you") for good.
    assert.deepEqual([end?.data?.outcome, end?.data?.note], ['cancelled', 'the agent withdrew the question']);
    assert.equal(asked[0].signal.aborted, true, 'taken off the screen');
    assert.deepEqual(stateOf(r.workerId).pendingInput, []);
    assert.match(text(events), /withdrawn answer: \{"code":-32800,"message":"Request cancelled"\}/);
    // The agent's first request of its own (id 0), withdrawn again once answered: kept, as found.
    assert.deepEqual((await again).data?.params, { requestId: 0 });
    late();
    const strays = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, 'strays');
    await strays;
    assert.match(text(events), /stray answers: 0/);
    assert.equal(events.filter((e) => e.type === '$/cancel_request').length, 1, 'only the withdrawal of no open request is logged');
  });

  it('without onPermission the host rejects the question and says so', async () => {
    await supervisor.dispose();
    supervisor = createSupervisor();
    const r = await start();
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    const marker = path.join(dir, `never-${Date.now()}`);
    await supervisor.prompt(r.workerId, `shell: echo hi > ${marker}`);
    await settled;
    const end = events.find((e) => e.type === 'permission_end')!;
    assert.equal(end.data?.optionKind, 'reject_once');
    assert.match(String(end.error), /no one can answer here/);
    assert.equal(existsSync(marker), false);
  });

  it('a question the host could not put to the person says so, not that the person dismissed it', async () => {
    const r = await start();
    answer = async () => {
      throw new Error('no window to show it in');
    };
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, `shell: echo hi > ${path.join(dir, `unasked-${Date.now()}`)}`);
    await settled;
    const end = events.find((e) => e.type === 'permission_end')!;
    assert.equal(end.data?.outcome, 'cancelled');
    assert.equal(end.is_error, true);
    assert.match(String(end.data?.note), /could not be put to the person \(no window to show it in\)/);
    assert.doesNotMatch(String(end.data?.note), /dismissed/);
  });

  it('abort answers the open question cancelled, waits for the cancelled answer, and says aborted', async () => {
    const r = await start();
    let signal: AbortSignal | undefined;
    answer = (req) => {
      signal = req.signal;
      return new Promise(() => {});
    };
    const asking = waitFor(supervisor, r.workerId, ofType('permission_request'));
    await supervisor.prompt(r.workerId, 'shell: echo never');
    await asking;
    const events = record(supervisor, () => r.workerId);
    const a = await supervisor.abort(r.workerId);
    assert.equal(a.status, 'aborted');
    assert.equal(signal?.aborted, true, 'the question in the editor is told to go away');
    assert.equal(events.find((e) => e.type === 'permission_end')?.data?.outcome, 'cancelled');
    assert.equal(stateOf(r.workerId).lastEndReason, 'aborted');
    assert.equal(stateOf(r.workerId).pendingInput.length, 0);
    assert.equal((await supervisor.abort(r.workerId)).status, 'not_streaming');
  });

  it('the person\'s Stop closes the open question saying the worker was stopped, not that it exited', async () => {
    const r = await start();
    let signal: AbortSignal | undefined;
    answer = (req) => {
      signal = req.signal;
      return new Promise(() => {});
    };
    const asking = waitFor(supervisor, r.workerId, ofType('permission_request'));
    await supervisor.prompt(r.workerId, 'shell: echo never');
    await asking;
    const events = record(supervisor, () => r.workerId);
    assert.equal((await supervisor.stop(r.workerId)).status, 'stopped');
    assert.equal(events.find((e) => e.type === 'permission_end')?.data?.note, 'the worker was stopped');
    assert.equal(signal?.reason, 'the worker was stopped', 'what the question put aside says when its Answer… is clicked');
  });

  it('after an abort the host ends the command the agent left running (codex-acp does), and says so', async () => {
    const r = await start();
    const pidFile = path.join(dir, `orphan-${Date.now()}.pid`);
    const running = waitFor(supervisor, r.workerId, (e) => e.type === 'tool_execution_update');
    await supervisor.prompt(r.workerId, `orphan: echo $$ > ${pidFile}; exec sleep 600`);
    await running;
    await waitUntil(() => existsSync(pidFile) && /\d/.test(readText(pidFile)), 'the command to start', 10_000);
    const pid = Number(readText(pidFile));
    assert.equal(isAlive(pid), true);
    const ended = waitFor(supervisor, r.workerId, ofType('processes_ended'));
    const a = await supervisor.abort(r.workerId);
    assert.equal(a.status, 'aborted');
    const e = await ended;
    assert.equal(isAlive(pid), false, 'no process of the command is left');
    const processes = e.data?.processes as Array<{ pid: number; command: string | null }>;
    assert.ok(processes.some((p) => p.pid === pid && /sleep 600/.test(p.command ?? '')), JSON.stringify(processes));
    // The agent itself lives on and takes the next prompt, with its history.
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, 'count');
    await settled;
    assert.match(text(events), /2 prompts/);
  });

  it('after an abort the host also ends what the command left orphaned, though it runs a program the agent already runs (Codex\'s sandbox once left its inner `codex`)', async () => {
    const r = await start({ FAKE_ACP_HELPER: 'sleep' });
    const pidFile = path.join(dir, `orphaned-${Date.now()}.pid`);
    const running = waitFor(supervisor, r.workerId, (e) => e.type === 'tool_execution_update');
    // The subshell exits at once: its `sleep` leaves the worker's tree, and `sleep` is the helper's program too.
    await supervisor.prompt(r.workerId, `orphan: (sleep 600 & echo $! > ${pidFile}); while :; do sleep 1; done`);
    await running;
    await waitUntil(() => existsSync(pidFile) && /\d/.test(readText(pidFile)), 'the command to start', 10_000);
    const pid = Number(readText(pidFile));
    const ended = waitFor(supervisor, r.workerId, ofType('processes_ended'));
    assert.equal((await supervisor.abort(r.workerId)).status, 'aborted');
    const processes = (await ended).data?.processes as Array<{ pid: number; command: string | null }>;
    assert.equal(isAlive(pid), false, `the orphaned sleep is left (${JSON.stringify(processes)})`);
    assert.ok(processes.some((p) => p.pid === pid && /sleep 600/.test(p.command ?? '')), JSON.stringify(processes));
    assert.ok(processes.every((p) => !/sleep 3600/.test(p.command ?? '')), `the agent's own helper was ended: ${JSON.stringify(processes)}`);
  });

  it('redirect aborts, waits for the turn to settle and prompts the new instruction, history kept', async () => {
    const r = await start();
    const running = waitFor(supervisor, r.workerId, ofType('tool_execution_update'));
    await supervisor.prompt(r.workerId, 'orphan: sleep 30');
    await running;
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, (e) => e.type === 'agent_settled' && e.turn?.index === 2);
    const d = await supervisor.redirect(r.workerId, 'count');
    assert.equal(d.status, 'redirected');
    assert.equal(d.aborted, true);
    await settled;
    assert.match(text(events), /2 prompts/);
  });

  it('redirect of a turn that ends by itself as the cancel reaches it says aborted: false, and the new instruction runs', async () => {
    const r = await start();
    const chunk = waitFor(supervisor, r.workerId, ofType('message_update'));
    assert.equal((await supervisor.prompt(r.workerId, 'deaf')).status, 'accepted');
    await chunk;
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, (e) => e.type === 'agent_settled' && e.turn?.index === 2);
    const d = await supervisor.redirect(r.workerId, 'count');
    assert.equal(d.status, 'redirected', JSON.stringify(d));
    assert.equal(d.aborted, false, 'the turn ended end_turn: nothing was aborted');
    await settled;
    assert.match(text(events), /2 prompts/);
  });

  it('compact: an agent without /compact answers error and nothing is sent; one with it compacts', async () => {
    const r = await start();
    const c = await supervisor.compact(r.workerId);
    assert.equal(c.status, 'error');
    assert.equal(c.error, 'this agent has no compaction (it lists no /compact command)');
    const r2 = await start({ FAKE_ACP_COMPACT: '1' });
    assert.equal(stateOf(r2.workerId).compactUnavailable, null);
    const events = record(supervisor, () => r2.workerId);
    const c2 = await supervisor.compact(r2.workerId);
    assert.equal(c2.status, 'compacted');
    assert.deepEqual(events.filter((e) => e.type.startsWith('compaction_')).map((e) => e.type), ['compaction_start', 'compaction_end']);
    assert.equal(stateOf(r2.workerId).turnCount, 0, 'a compaction is not a turn');
  });

  it('a prompt while a compaction runs is refused with the reason, not sent into the compaction', async () => {
    const gate = path.join(dir, `compact-gate-${Date.now()}`);
    const r = await start({ FAKE_ACP_COMPACT: '1', FAKE_ACP_COMPACT_GATE: gate });
    const events = record(supervisor, () => r.workerId);
    const began = waitFor(supervisor, r.workerId, ofType('compaction_start'));
    const compacted = supervisor.compact(r.workerId);
    await began;
    const p = await supervisor.prompt(r.workerId, 'count');
    assert.equal(p.status, 'error');
    assert.match(p.error!, /compacting its conversation/);
    writeFileSync(gate, '');
    assert.equal((await compacted).status, 'compacted');
    assert.equal(stateOf(r.workerId).turnCount, 0, 'no turn was folded into the compaction');
    assert.ok(!events.some((e) => e.type === 'prompt_sent'), 'nothing was sent');
    // Once it ended, the same prompt goes.
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    assert.equal((await supervisor.prompt(r.workerId, 'count')).status, 'accepted');
    await settled;
  });

  it('a compaction that outlasts the settle bound: compact answers error saying it goes on; the worker shows compacting until its /compact is answered', async () => {
    void supervisor.dispose();
    make({ limits: { settleTimeoutMs: 1_000 } });
    const gate = path.join(dir, `compact-gate-long-${Date.now()}`);
    const r = await start({ FAKE_ACP_COMPACT: '1', FAKE_ACP_COMPACT_GATE: gate });
    const events = record(supervisor, () => r.workerId);
    const c = await supervisor.compact(r.workerId);
    assert.equal(c.status, 'error');
    assert.match(c.error!, /^the compaction: no answer from the worker within 1 s; it goes on, and the worker shows compacting until it ends$/);
    assert.equal(stateOf(r.workerId).compacting, true, 'the agent still runs its /compact');
    const p = await supervisor.prompt(r.workerId, 'count');
    assert.equal(p.status, 'error', 'a prompt is not sent into the running /compact');
    assert.match(p.error!, /compacting its conversation/);
    const ended = waitFor(supervisor, r.workerId, ofType('compaction_end'));
    writeFileSync(gate, '');
    const end = await ended;
    assert.equal(end.is_error, false);
    assert.equal(end.data?.performed, true);
    assert.equal(stateOf(r.workerId).compacting, false);
    assert.deepEqual(events.filter((e) => e.type.startsWith('compaction_')).map((e) => e.type), ['compaction_start', 'compaction_end'], 'one start, one end');
    // Then a prompt is a turn of its own, which ends.
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    assert.equal((await supervisor.prompt(r.workerId, 'count')).status, 'accepted');
    await settled;
    assert.deepEqual(stateOf(r.workerId).turns.map((t) => [t.index, t.endReason]), [[1, 'done']]);
  });

  it('whom the agent signs in as (Claude\'s and Codex\'s _auth/status_update) is an auth_status event and the state\'s signIn, the last one said winning', async () => {
    const events: AgentEvent[] = [];
    supervisor.onEvent((_w, e) => events.push(e));
    const r = await start({ FAKE_ACP_AUTH_STATUS: JSON.stringify({ kind: 'api_key', label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' }) });
    assert.deepEqual(stateOf(r.workerId).signIn, { kind: 'api_key', label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY' });
    assert.deepEqual(events.filter((e) => e.type === 'auth_status').map((e) => e.data?.label), ['Anthropic API key']);
    assert.ok(!events.some((e) => e.type === '_auth/status_update'), 'not the raw notification');
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    assert.equal((await supervisor.prompt(r.workerId, 'auth: {"kind":"none","label":"Not logged in"}')).status, 'accepted');
    await settled;
    assert.deepEqual(stateOf(r.workerId).signIn, { kind: 'none', label: 'Not logged in', detail: null });
  });

  it('a plan becomes a plan event; a mode switch lands in the state', async () => {
    const r = await start();
    const plan = waitFor(supervisor, r.workerId, ofType('plan'));
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, 'plan');
    const p = await plan;
    assert.deepEqual((p.data?.entries as Array<{ status: string }>).map((e) => e.status), ['completed', 'in_progress', 'pending']);
    await settled;
    const modes: AgentEvent[] = [];
    supervisor.onEvent((w, e) => void (w === r.workerId && e.type === 'mode_changed' && modes.push(e)));
    const m = await supervisor.setMode(r.workerId, 'yolo');
    assert.equal(m.status, 'mode_set');
    assert.equal(stateOf(r.workerId).mode, 'yolo');
    // The agent's current_mode_update, sent before its answer, is the one event, with the mode's
    // name: Switch Mode adds none of its own (the log would say "Mode: Allow all" twice).
    assert.deepEqual(modes.map((e) => [e.data?.mode, e.data?.name, e.data?.asked]), [['yolo', 'Allow all', undefined]]);
    // Switching to the mode it is in changes nothing: the agent's update is kept, marked repeated (no row).
    assert.equal((await supervisor.setMode(r.workerId, 'yolo')).status, 'mode_set');
    assert.deepEqual(modes.map((e) => e.data?.repeated), [undefined, true]);
    const bad = await supervisor.setMode(r.workerId, 'nonsense');
    assert.equal(bad.status, 'error');
    assert.match(bad.error!, /no mode "nonsense".*default, yolo/);
  });

  it('New Session: the last session\'s context and cost are not shown as the new one\'s', async () => {
    const r = await start();
    await supervisor.prompt(r.workerId, 'hello');
    await waitFor(supervisor, r.workerId, ofType('agent_settled'));
    // The fake agent reports its usage with the reply (used 121 of 200,000).
    await waitUntil(() => stateOf(r.workerId).usage?.contextTokens === 121, 'the reply\'s usage in the state', 10_000);
    assert.equal((await supervisor.newSession(r.workerId)).status, 'created');
    // The chip read "ctx 121/200k · $0.01" on the new session, which had used nothing yet.
    assert.equal(stateOf(r.workerId).usage, null);
  });

  it('a prompt sent while New Session opens the new session is refused saying so, not run in the session being left', async () => {
    const r = await start();
    await supervisor.prompt(r.workerId, 'hello');
    await waitFor(supervisor, r.workerId, ofType('agent_settled'));
    const events = record(supervisor, () => r.workerId);
    const fresh = supervisor.newSession(r.workerId);
    const p = await supervisor.prompt(r.workerId, 'count');
    assert.equal((await fresh).status, 'created');
    // It was accepted and ran in the session New Session left ("This session has had 2 prompts."),
    // its turn before the log's "New session" mark, and the next prompt went on without it.
    assert.equal(p.status, 'error', `the prompt was ${p.status}: ${text(events)}`);
    assert.match(p.status === 'error' ? p.error : '', /opening another session.*once it is open/);
    assert.equal(events.filter((e) => e.type === 'agent_start').length, 0);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    assert.equal((await supervisor.prompt(r.workerId, 'count')).status, 'accepted');
    await settled;
    assert.match(text(events), /This session has had 1 prompts\./);
  });

  it('Switch Mode, Set Model, Compact and New Session again while New Session opens the new session are refused saying so, sent to neither session', async () => {
    const r = await start({ FAKE_ACP_MODELS: '1', FAKE_ACP_COMPACT: '1' });
    const events = record(supervisor, () => r.workerId);
    const fresh = supervisor.newSession(r.workerId);
    const [mode, model, compact, again] = await Promise.all([
      supervisor.setMode(r.workerId, 'yolo'), supervisor.setModel(r.workerId, 'fake-small'), supervisor.compact(r.workerId), supervisor.newSession(r.workerId),
    ]);
    assert.equal((await fresh).status, 'created');
    // The switches went to the session being left, and the state named them for the new one
    // (which is in its own first mode and model); a second session/new raced the first.
    for (const [verb, result] of Object.entries({ mode, model, compact, again })) {
      assert.equal(result.status, 'error', `${verb} was ${result.status}`);
      assert.match(result.status === 'error' ? result.error ?? '' : '', /^the worker is opening another session \(new_session\); .* once it is open$/, verb);
    }
    assert.deepEqual([stateOf(r.workerId).mode, stateOf(r.workerId).model], ['default', 'fake-large']);
    assert.deepEqual(events.filter((e) => e.type === 'session_changed' || e.type === 'compaction_start').map((e) => e.type), ['session_changed']);
  });

  it('New Session: a readout the last session sends late is kept as an event, not shown as the new session\'s usage', async () => {
    const r = await start();
    const seen: Array<number | null> = [];
    supervisor.onState((s) => void (s.workerId === r.workerId && seen.push(s.usage?.contextTokens ?? null)));
    await supervisor.prompt(r.workerId, 'usage later');
    await waitFor(supervisor, r.workerId, ofType('agent_settled'));
    assert.equal((await supervisor.newSession(r.workerId)).status, 'created');
    const late = waitFor(supervisor, r.workerId, (e) => e.type === 'usage_update' && e.data?.used === 5000);
    let settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, 'count');
    await late;
    await settled;
    // The new session's own readout (its second prompt: used 122) comes after the old one's.
    settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, 'hello');
    await settled;
    await waitUntil(() => stateOf(r.workerId).usage?.contextTokens === 122, 'the new session\'s readout in the state', 10_000);
    // The chip read "ctx 5000/200k" for a session that had used a few hundred tokens.
    assert.ok(!seen.includes(5000), `the state showed the last session's readout: ${seen.join(', ')}`);
  });

  it('New Session after a Switch Mode: the new session\'s mode (the agent\'s first again) is said after the new session\'s mark, once', async () => {
    const r = await start();
    assert.equal((await supervisor.setMode(r.workerId, 'yolo')).status, 'mode_set');
    const marks: AgentEvent[] = [];
    supervisor.onEvent((w, e) => void (w === r.workerId && (e.type === 'mode_changed' || e.type === 'session_changed') && marks.push(e)));
    assert.equal((await supervisor.newSession(r.workerId)).status, 'created');
    // The log and the export said "Mode: Allow all", then "New session": the turns after read as allowed all, which they were not.
    assert.deepEqual(marks.map((e) => [e.type, e.data?.mode, e.data?.name]), [['session_changed', undefined, undefined], ['mode_changed', 'default', 'Ask']]);
    assert.equal(stateOf(r.workerId).mode, 'default');
    // A new session in the mode the last one was in says no mode.
    marks.length = 0;
    assert.equal((await supervisor.newSession(r.workerId)).status, 'created');
    assert.deepEqual(marks.map((e) => e.type), ['session_changed']);
  });

  it('New Session with a profile\'s mode and model: the new session is set to them too, as the first was (Claude\'s adapter opens each in `auto`)', async () => {
    const r = await start({ FAKE_ACP_MODELS: '1' }, { mode: 'yolo', model: 'fake-small' });
    assert.equal(stateOf(r.workerId).mode, 'yolo');
    assert.equal(stateOf(r.workerId).model, 'fake-small');
    const marks: AgentEvent[] = [];
    // What the log says (a mode the agent says again is kept, marked repeated, and not said).
    supervisor.onEvent((w, e) => void (w === r.workerId && ['mode_changed', 'model_changed', 'session_changed'].includes(e.type) && e.data?.repeated !== true && marks.push(e)));
    const fresh = await supervisor.newSession(r.workerId);
    assert.equal(fresh.status, 'created');
    // The new session ran in the agent's first mode and model, the profile's asked for the first session only.
    assert.equal(stateOf(r.workerId).mode, 'yolo', 'the new session is not in the profile\'s mode');
    assert.equal(fresh.status === 'created' && fresh.model, 'fake-small');
    assert.deepEqual(marks.map((e) => e.type), ['session_changed'], 'the mode and model did not change: nothing more is said');
    // The person switched away from it: the new session is the profile's again, and the log says the move once.
    assert.equal((await supervisor.setMode(r.workerId, 'default')).status, 'mode_set');
    marks.length = 0;
    assert.equal((await supervisor.newSession(r.workerId)).status, 'created');
    assert.equal(stateOf(r.workerId).mode, 'yolo');
    assert.deepEqual(marks.map((e) => [e.type, e.data?.mode]), [['session_changed', undefined], ['mode_changed', 'yolo']]);
  });

  it('New Session after a Switch Model: the new session\'s model (the agent\'s own again) is the one the state names, and the log says it once', async () => {
    const r = await start({ FAKE_ACP_MODELS: '1' });
    assert.equal(stateOf(r.workerId).model, 'fake-large');
    const set = await supervisor.setModel(r.workerId, 'fake-small');
    assert.equal(set.status, 'model_set');
    assert.equal(stateOf(r.workerId).model, 'fake-small');
    const marks: AgentEvent[] = [];
    supervisor.onEvent((w, e) => void (w === r.workerId && (e.type === 'model_changed' || e.type === 'session_changed') && marks.push(e)));
    const fresh = await supervisor.newSession(r.workerId);
    assert.equal(fresh.status, 'created');
    // The tree, the tooltip and the result said "fake-small" while the new session ran the agent's own model.
    assert.equal(fresh.status === 'created' && fresh.model, 'fake-large');
    assert.equal(stateOf(r.workerId).model, 'fake-large');
    assert.deepEqual(marks.map((e) => [e.type, e.data?.model]), [['session_changed', undefined], ['model_changed', 'fake-large']]);
    // A new session on the model the last one ran says no model.
    marks.length = 0;
    assert.equal((await supervisor.newSession(r.workerId)).status, 'created');
    assert.deepEqual(marks.map((e) => e.type), ['session_changed']);
    assert.equal(stateOf(r.workerId).model, 'fake-large');
  });

  it('resumes its session after a restart through session/resume, and the agent still has the history', async () => {
    const env = { FAKE_ACP_RESUME: '1', FAKE_ACP_SESSIONS: path.join(dir, 'sessions') };
    const r = await start(env);
    await supervisor.prompt(r.workerId, 'hello');
    await waitFor(supervisor, r.workerId, ofType('agent_settled'));
    const session = stateOf(r.workerId).session!;
    await supervisor.stop(r.workerId);
    const r2 = await start(env, { resume: session });
    assert.equal(stateOf(r2.workerId).sessionId, session.id);
    const events = record(supervisor, () => r2.workerId);
    await supervisor.prompt(r2.workerId, 'count');
    await waitFor(supervisor, r2.workerId, ofType('agent_settled'));
    assert.match(text(events), /2 prompts/);
  });
});

describe('ACP dialect: bad input, each with a clear error and nothing lost', () => {
  let supervisor: Supervisor;
  beforeEach(() => {
    supervisor = createSupervisor({ onPermission: async (req) => ({ optionId: req.options[0].optionId }) });
  });
  afterEach(() => supervisor.dispose());
  async function go(env: Record<string, string> = {}): Promise<{ workerId: string }> {
    const r = await supervisor.start(acpSpec(env));
    if (r.status !== 'started') throw new Error(`start failed: ${r.error}`);
    return r;
  }

  it('an agent that answers another protocol version is refused, naming both', async () => {
    const r = await supervisor.start(acpSpec({ FAKE_ACP_VERSION: '2' }));
    assert.equal(r.status, 'error');
    assert.match(r.error!, /answered ACP protocol version 2; RPC Workers speaks version 1/);
  });

  it('an agent that needs a login fails its start with its own words and the login command it names', async () => {
    const r = await supervisor.start(acpSpec({ FAKE_ACP_AUTH: 'required' }));
    assert.equal(r.status, 'error');
    // Said once (its login method's own words name the same command), with no readiness words.
    assert.equal(r.error, 'Fake agent needs a login before it can start a session (session/new (-32000): Authentication required). Run `fake-agent login` in a terminal, then try again');
    // The command, for the UI to offer to run in a terminal.
    assert.deepEqual(r.status === 'error' ? r.login : null, { label: 'Log in', line: 'fake-agent login' });
    // Said as a login refusal, so that the UI can add how a known agent takes its key.
    assert.equal(r.status === 'error' ? r.needsLogin : null, true);
  });

  it('an agent that starts without a key and refuses the prompt (-32000, as Claude does) ends the turn flagged as needing a login', async () => {
    const r = await go();
    const events = record(supervisor, () => r.workerId);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    assert.equal((await supervisor.prompt(r.workerId, 'signed out')).status, 'accepted');
    const end = await settled;
    const runEnd = events.find((e) => e.type === 'agent_end');
    assert.equal(runEnd?.error, 'Fake agent needs a login before it can answer (it answered the prompt with -32000 Authentication required)');
    // Flagged on the run's end, on the turn's settling (the log's row) and on the turn, so the UI adds the key advice.
    assert.equal(runEnd?.data?.needsLogin, true);
    assert.equal(end.data?.needsLogin, true);
    assert.equal(end.error, runEnd?.error);
    const turn = liveState(supervisor, r.workerId).turns.at(-1)!;
    assert.equal(turn.needsLogin, true);
    // The next turn that ends otherwise is not flagged.
    const next = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, 'hello');
    assert.equal((await next).data?.needsLogin, undefined);
    assert.equal(liveState(supervisor, r.workerId).turns.at(-1)!.needsLogin, undefined);
  });

  it('a turn refused for a login carries the login command the agent names, as a refused start does, for the UI to offer', async () => {
    const r = await go({ FAKE_ACP_AUTH: 'offered' });
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, 'signed out');
    await settled;
    const turn = liveState(supervisor, r.workerId).turns.at(-1)!;
    assert.equal(turn.needsLogin, true);
    assert.deepEqual(turn.login, { label: 'Fake Login', line: 'fake-agent login' });
    // The next turn that ends otherwise names none.
    const next = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    await supervisor.prompt(r.workerId, 'hello');
    await next;
    assert.equal(liveState(supervisor, r.workerId).turns.at(-1)!.login, undefined);
  });

  it('an agent that crashes mid-turn ends the turn as failed, with its exit code', async () => {
    const r = await go();
    const exit = waitFor(supervisor, r.workerId, ofType('worker_exit'));
    await supervisor.prompt(r.workerId, 'crash');
    const e = await exit;
    assert.equal(e.turn?.ends, true);
    assert.equal(e.end_reason, 'worker_exited');
    const s = supervisor.state(r.workerId);
    assert.ok(s.status !== 'not_found' && s.state.status === 'failed' && s.state.exitCode === 3, JSON.stringify(s));
  });

  it('a malformed line is a protocol error with its bytes, and the turn goes on', async () => {
    const r = await go();
    const events = record(supervisor, () => r.workerId);
    await supervisor.prompt(r.workerId, 'garbage');
    await waitFor(supervisor, r.workerId, ofType('agent_settled'));
    const err = events.find((e) => e.type === 'protocol_error')!;
    assert.equal(err.error, 'line is not JSON');
    assert.match(String(err.data?.preview), /this is not JSON/);
    assert.equal(text(events), 'Still here.');
  });

  it('New Session keeps the new session\'s updates sent before its session/new answer (as Copilot sends its commands), with no protocol error', async () => {
    const r = await go();
    const state = () => {
      const s = supervisor.state(r.workerId);
      if (s.status === 'not_found') throw new Error('the worker vanished');
      return s.state;
    };
    const events = record(supervisor, () => r.workerId);
    const before = state().session?.id;
    const fresh = await supervisor.newSession(r.workerId);
    assert.equal(fresh.status, 'created', JSON.stringify(fresh));
    assert.notEqual(state().session?.id, before);
    assert.deepEqual(events.filter((e) => e.type === 'protocol_error').map((e) => e.error), []);
    assert.ok(events.some((e) => e.type === 'commands_changed'), 'the new session\'s commands kept');
    assert.equal(state().protocolErrors, 0);
  });

  it('an update for a session that is not the worker\'s is a protocol error naming both, not an event', async () => {
    const r = await go();
    const events = record(supervisor, () => r.workerId);
    await supervisor.prompt(r.workerId, 'stranger');
    await waitFor(supervisor, r.workerId, ofType('agent_settled'));
    const err = events.find((e) => e.type === 'protocol_error')!;
    assert.match(String(err.error), /session\/update for session some-other-session, which is not this worker's/);
    assert.equal(text(events), 'Done.');
  });

  it('a request the host does not implement is answered Method not found (-32601) naming it, and the log says so', async () => {
    const r = await go();
    // A vendor's extension, and a method of a later ACP (elicitation) this host does not offer.
    for (const method of ['_vendor/probe', 'elicitation/create']) {
      const events = record(supervisor, () => r.workerId);
      const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
      await supervisor.prompt(r.workerId, `ask ${method}`);
      await settled;
      assert.equal(text(events), `${method}: error -32601: Method not found: ${method}`);
      const said = events.find((e) => e.type === 'protocol_error');
      assert.equal(said?.error, `the worker asked ${method}, which this host does not offer; it was answered with an error`);
    }
  });

  it('a permission question after the turn ended is answered cancelled, and the log says so', async () => {
    const r = await go();
    const late = waitFor(supervisor, r.workerId, ofType('permission_end'));
    await supervisor.prompt(r.workerId, 'late question');
    const e = await late;
    assert.equal(e.data?.outcome, 'cancelled');
    assert.match(String(e.error), /after its turn had ended/);
    // The agent got the answer (it says what it received).
    const said = await waitFor(supervisor, r.workerId, (x) => x.type === 'message_update' && /late answer/.test(x.delta ?? ''));
    assert.match(said.delta!, /"outcome":"cancelled"/);
  });

  it('a tool call reported after the turn ended is shown outside any turn, and opens none: the worker stays idle', async () => {
    const r = await go();
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    const late = waitFor(supervisor, r.workerId, (e) => e.type === 'tool_execution_start' && e.tool_call_id === 'late-call');
    await supervisor.prompt(r.workerId, 'late tool call');
    await settled;
    const call = await late;
    assert.equal(call.turn, undefined, 'it belongs to no turn');
    const s = liveState(supervisor, r.workerId);
    assert.equal(s.streaming, false);
    assert.equal(s.turnCount, 1);
    // Only a prompt's answer ends an ACP turn: one the late call had opened would refuse this prompt.
    const next = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    assert.equal((await supervisor.prompt(r.workerId, 'hello')).status, 'accepted');
    assert.equal((await next).end_reason, 'done');
  });
});

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
