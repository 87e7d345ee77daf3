// The ACP dialect driving the five real agents (scripts/ensure-workers.mjs installs them, pinned;
// test/fixtures/acp-env.mjs points each at the mock model server): start, a streamed reply, a
// shell command through the agent's own tool and its permission question, an abort mid-command
// after which no process of that command is left (the process table), a next prompt that sees the
// history (at the mock), resume after a restart where the agent offers it, and a stop with no
// survivor. The same verbs against the fake agent, and the bad input, are in acp.fake.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { commandLine, commandName, processTree, procInfo } from '../../src/core/worker/processTree';
import { ACP_AGENTS, ACP_AGENT_NAMES, shellToolReply } from '../fixtures/acp-env.mjs';
import { realAcpRig } from '../helpers/realAcp';
import { isAlive, ofType, record, ROOT, stateOf as liveState, text, waitFor, waitUntil, withToken } from '../helpers/supervisor';
import { HOST_PROCESS } from '../fixtures/faults-helpers';
import { spawn } from 'node:child_process';

/** The adapters that offer a steer of their own (initialize `_meta.steering.supported`). */
const STEERS = new Set(['claude', 'codex']);

/** Whether the agent asks before a shell command (measured). */
/** `output`: whether the agent tells its client what a shell command printed (Gemini 0.61.0 ends the call with no content). */
/** `exit`: whether it says a command exited non-zero (Gemini 0.61.0 ends it `completed`, nothing more). */
const EXPECTED: Record<string, { asks: boolean; output: boolean; exit: boolean }> = {
  copilot: { asks: true, output: true, exit: true },
  gemini: { asks: true, output: false, exit: false },
  opencode: { asks: false, output: true, exit: true },
  claude: { asks: true, output: true, exit: true },
  codex: { asks: false, output: true, exit: true },
};

/** A process as a failure message shows it: parent, name, command, and whether it carries a worker's mark. */
function describeProcess(pid: number): string {
  let environ = '';
  try {
    environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    // Gone, or not ours to read.
  }
  const marked = environ.includes('RPC_WORKERS_WORKER=') ? 'marked' : 'unmarked';
  return `${pid} (parent ${procInfo(pid)?.ppid ?? '?'}, ${commandName(pid) ?? '?'}, ${marked}: ${(commandLine(pid) ?? '?').slice(0, 160)})`;
}

for (const name of ACP_AGENT_NAMES) {
  const agent = ACP_AGENTS[name];
  describe(`ACP worker: real ${name} (${agent.package}@${agent.version})`, function () {
    this.timeout(120_000);
    const rig = realAcpRig(name, {
      tag: 'real',
      supervisor: process.env.ACP_TRACE ? { trace: (_id: string, d: string, m: unknown) => console.log(d, JSON.stringify(m).slice(0, 400)) } : {},
    });
    const { asked } = rig;
    let workerId: string;
    let pid: number;
    const stateOf = (id = workerId): WorkerState => liveState(rig.supervisor, id);

    it('starts: the handshake, a session in its folder, the agent\'s own version', async () => {
      const r = await rig.supervisor.start(rig.spec());
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      if (r.status !== 'started') return;
      workerId = r.workerId;
      pid = r.pid;
      const s = stateOf();
      assert.equal(s.dialect, 'acp');
      assert.equal(s.workerVersion, agent.version);
      assert.ok(s.sessionId);
      if (name === 'claude') assert.equal(s.mode, 'default');
    });

    it('a prompt is accepted, its reply streams as text deltas, and the turn settles done', async () => {
      const said = `Hello from the mock model to ${name}.`;
      rig.mock.script({ text: said });
      const events = record(rig.supervisor, () => workerId);
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 60_000, 'the hello turn');
      assert.equal((await rig.supervisor.prompt(workerId, 'Say hello')).status, 'accepted');
      const end = await settled;
      assert.equal(end.end_reason, 'done', JSON.stringify(end));
      assert.ok(text(events).includes(said), text(events));
      assert.ok(events.filter((e) => e.type === 'message_update').length >= 2, 'streamed in pieces');
    });

    it('a shell command runs through its own tool, asked about where the agent asks, and is shown as a tool call', async () => {
      const asked0 = asked.length;
      rig.mock.script(shellToolReply(name, 'echo hi > marker'), { text: 'The command ran.' });
      const events = record(rig.supervisor, () => workerId);
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 60_000, 'the shell turn');
      assert.equal((await rig.supervisor.prompt(workerId, 'Write the marker file')).status, 'accepted');
      const end = await settled;
      assert.equal(end.end_reason, 'done', JSON.stringify(end));
      assert.equal(readFileSync(path.join(rig.cwd, 'marker'), 'utf8'), 'hi\n');
      assert.equal(asked.length - asked0, EXPECTED[name].asks ? 1 : 0, 'permission questions');
      if (EXPECTED[name].asks) {
        assert.ok(events.some((e) => e.type === 'permission_request'));
        assert.equal(events.find((e) => e.type === 'permission_end')?.data?.optionKind, 'allow_once');
      }
      const tools = events.filter((e: AgentEvent) => e.type === 'tool_execution_end');
      assert.ok(tools.some((e) => e.is_error === false), `tool ends: ${JSON.stringify(tools).slice(0, 500)}`);
    });

    // Codex says a command's output only in chunks (`_meta.terminal_output_delta`): its end must
    // carry it whole, as the others' ends do, for the log, the history and the export.
    it(EXPECTED[name].output ? 'a shell command\'s output is in its tool call\'s end' : 'a shell command\'s end carries no output (the agent sends none)', async () => {
      rig.mock.script(shellToolReply(name, 'printf "line1\\nline2\\n"'), { text: 'Printed.' });
      const events = record(rig.supervisor, () => workerId);
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 60_000, 'the printf turn');
      assert.equal((await rig.supervisor.prompt(workerId, 'Print two lines')).status, 'accepted');
      assert.equal((await settled).end_reason, 'done');
      const ends = events.filter((e: AgentEvent) => e.type === 'tool_execution_end');
      // As text: Claude's markdown fences around it are not the command's output. Copilot ends it
      // with its own line for the model ("<shellId: 1 completed with exit code 0>"), kept.
      const said = ends.some((e) => /^line1\r?\nline2\r?\n?(<shellId: \d+ completed with exit code 0>)?$/.test(String((e.result as { output?: unknown } | undefined)?.output ?? '')));
      assert.equal(said, EXPECTED[name].output, `tool ends: ${JSON.stringify(ends).slice(0, 800)}`);
    });

    // Copilot and OpenCode end such a call `completed` and say the exit only in rawOutput.
    it(EXPECTED[name].exit ? 'a shell command that exits 3 ends as a failed call' : 'a shell command that exits 3 ends as done (the agent says nothing of the exit)', async () => {
      rig.mock.script(shellToolReply(name, 'echo failing; exit 3'), { text: 'It failed.' });
      const events = record(rig.supervisor, () => workerId);
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 60_000, 'the failing turn');
      assert.equal((await rig.supervisor.prompt(workerId, 'Run the failing command')).status, 'accepted');
      assert.equal((await settled).end_reason, 'done');
      const ends = events.filter((e: AgentEvent) => e.type === 'tool_execution_end');
      assert.equal(ends.length, 1, JSON.stringify(ends).slice(0, 800));
      assert.equal(ends[0].is_error, EXPECTED[name].exit, JSON.stringify(ends).slice(0, 800));
    });

    it(STEERS.has(name) ? 'a steer joins the running turn (its adapter\'s _session/steering) and the next model call carries it' : 'a steer is refused with the reason and Redirect offered; a follow-up is held and sent when the turn ends', async () => {
      const token = `rpc-workers-steer-${name}-${process.pid}`;
      rig.mock.script(shellToolReply(name, `python3 -c "import time; time.sleep(3)" ${token}`), { text: 'Steered or not, done.' });
      const n0 = rig.mock.requests.length;
      const settled = waitFor(rig.supervisor, workerId, (e) => e.type === 'agent_settled', 90_000, 'the steered turn');
      assert.equal((await rig.supervisor.prompt(workerId, 'Run the short command')).status, 'accepted');
      await waitUntil(() => withToken(token).length > 0, 'the command to start', 60_000);
      const steer = await rig.supervisor.prompt(workerId, 'Also mention bananas', { streamingBehavior: 'steer' });
      if (STEERS.has(name)) {
        assert.equal(steer.status, 'accepted', JSON.stringify(steer));
        await settled;
        assert.match(JSON.stringify(rig.mock.requests.slice(n0 + 1)), /Also mention bananas/, 'the model saw the steer');
        return;
      }
      assert.equal(steer.status, 'error');
      assert.match(steer.error ?? '', /cannot be steered.*redirect/);
      rig.mock.script({ text: 'Followed up.' });
      const follow = rig.supervisor.prompt(workerId, 'And now a follow-up', { streamingBehavior: 'followUp' });
      await settled;
      const next = waitFor(rig.supervisor, workerId, (e) => e.type === 'agent_settled', 90_000, 'the follow-up turn');
      assert.equal((await follow).status, 'accepted');
      await next;
      assert.match(JSON.stringify(rig.mock.requests.slice(n0 + 1)), /And now a follow-up/);
    });

    it('abort mid-command: aborted, and no process of the command is left', async () => {
      // Found by a token in its command line: Codex runs commands in a sandbox whose pids differ.
      const token = `rpc-workers-long-${name}-${process.pid}`;
      // Claude refuses `sleep N` as a command; a Python sleep is the same long-running command.
      const command = `python3 -c "import time; time.sleep(600)" ${token}`;
      rig.mock.script(shellToolReply(name, command), { text: 'unreachable' });
      assert.equal((await rig.supervisor.prompt(workerId, 'Run the long command')).status, 'accepted');
      await waitUntil(() => withToken(token).length > 0, 'the command to start', 60_000);
      const running = withToken(token).map(describeProcess);
      const events = record(rig.supervisor, () => workerId);
      const a = await rig.supervisor.abort(workerId);
      assert.equal(a.status, 'aborted', JSON.stringify(a));
      // Within a moment of the answer (Codex ends its sandboxed command by itself, a little later).
      const atAnswer = withToken(token).map(describeProcess);
      await waitUntil(() => withToken(token).length === 0, () => `no process of the command to be left (at the abort: ${running.join(', ')}; at its answer: ${atAnswer.join(', ')}; now: ${withToken(token).map(describeProcess).join(', ')}; the worker's tree: ${processTree(pid).map((p) => p.pid).join(' ')})`, 5_000);
      assert.equal(stateOf().streaming, false);
      // What the host ended after the abort (where the agent left it running) is the command and
      // nothing of the agent's own.
      for (const e of events.filter((x) => x.type === 'processes_ended')) {
        for (const p of e.data?.processes as Array<{ command: string | null }>) assert.ok(p.command?.includes(token), `the host ended ${p.command}`);
      }
    });

    it('the next prompt sees the history, at the mock', async () => {
      rig.mock.script({ text: 'I remember.' });
      const n0 = rig.mock.requests.length;
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 60_000, 'the history turn');
      await rig.supervisor.prompt(workerId, 'What did I ask first?');
      assert.equal((await settled).end_reason, 'done');
      const body = JSON.stringify(rig.mock.requests.slice(n0));
      assert.match(body, /Say hello/);
      assert.match(body, /What did I ask first\?/);
    });

    it('stop ends its whole process tree; a restart resumes the session where the agent offers it', async () => {
      const session = stateOf().session;
      const tree = processTree(pid);
      assert.equal((await rig.supervisor.stop(workerId)).status, 'stopped');
      await waitUntil(() => tree.every((p) => !isAlive(p.pid)), 'every process of the agent to be gone', 10_000);
      const seen: AgentEvent[] = [];
      const off = rig.supervisor.onEvent((_w, e) => void seen.push(e));
      const r = await rig.supervisor.start(rig.spec({ resume: session ?? undefined }));
      if (r.status === 'error') {
        off();
        // Said plainly: an agent without either verb, or Gemini 0.61.0, whose session/load now
        // and then answers -32603 after a stop on a loaded machine (docs/real-workers.md).
        const why = name === 'gemini' ? /cannot resume a session: it offers neither|the agent refused session\/load \(-32603\)/ : /cannot resume a session: it offers neither session\/resume nor session\/load/;
        assert.match(r.error, why);
        return;
      }
      workerId = r.workerId;
      pid = r.pid;
      assert.equal(stateOf().sessionId, session?.id);
      rig.mock.script({ text: 'Still here.' });
      const n0 = rig.mock.requests.length;
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 60_000, 'the resumed turn');
      await rig.supervisor.prompt(workerId, 'Are you there?');
      assert.equal((await settled).end_reason, 'done');
      assert.match(JSON.stringify(rig.mock.requests.slice(n0)), /Say hello/, 'the resumed session carries the history');
      off();
      // What the agent replayed (Gemini's after its session/load answer too) is marked so, not taken for this worker's own.
      const before = seen.slice(0, seen.findIndex((e) => e.type === 'prompt_sent'));
      const conversation = before.filter((e) => e.type === 'message_update' || e.type.startsWith('tool_execution'));
      assert.ok(conversation.every((e) => e.replayed === true), `unmarked replay: ${JSON.stringify(conversation.filter((e) => e.replayed !== true).map((e) => e.type))}`);
      const tree2 = processTree(pid);
      await rig.supervisor.stop(workerId);
      await waitUntil(() => tree2.every((p) => !isAlive(p.pid)), 'every process of the resumed agent to be gone', 10_000);
    });

    it('a host killed with SIGKILL leaves no process of the agent (its watchdog)', async () => {
      const launch = rig.spec();
      const child = spawn(process.execPath, [HOST_PROCESS, JSON.stringify({ core: path.join(ROOT, 'dist', 'core.js'), host: { limits: { commandTimeoutMs: 120_000 } }, workers: [{ spec: launch }] })], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stderr!.on('data', (d) => (err += d));
      const ready = await new Promise<{ hostPid: number; workers: Array<{ pid: number }> }>((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          out += d;
          const line = out.split('\n').find((l) => l.startsWith('READY ') || l.startsWith('FAILED '));
          if (line?.startsWith('READY ')) resolve(JSON.parse(line.slice(6)));
          else if (line) reject(new Error(`${line}; stderr: ${err}`));
        });
        child.once('exit', (code) => reject(new Error(`the host exited (${code}) before READY; stderr: ${err}`)));
      });
      const tree = processTree(ready.workers[0].pid);
      assert.ok(tree.length >= 1);
      child.kill('SIGKILL');
      await waitUntil(() => tree.every((p) => !isAlive(p.pid)), `every process of ${name} (${tree.map((p) => p.pid).join(', ')}) to be gone after the host's SIGKILL`, 20_000);
    });
  });
}
