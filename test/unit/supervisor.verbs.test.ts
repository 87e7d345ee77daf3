// The control verbs against the fake worker, in both dialects: each verb's honest status, and
// what really happened in the worker's process tree.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { toolRow } from '../../src/ui/views/describe';
import { fakeSpec, groupMembers, isAlive, ofType, record, ROOT, stateOf, text, waitFor } from '../helpers/supervisor';

for (const dialect of ['tau', 'pi'] as const) {
  describe(`control verbs on the fake worker (${dialect})`, () => {
    let supervisor: Supervisor;
    let id: string | undefined;
    beforeEach(() => {
      supervisor = createSupervisor();
      id = undefined;
    });
    afterEach(() => supervisor.dispose());

    async function start(flags: string[] = []) {
      const r = await supervisor.start(fakeSpec(dialect, flags));
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      if (r.status !== 'started') throw new Error('unreachable');
      id = r.workerId;
      return r;
    }

    it('starts, probes and reports a running worker', async () => {
      const r = await start();
      assert.ok(r.pid > 0);
      const s = supervisor.state(r.workerId);
      assert.equal(s.status, 'running');
      assert.equal(supervisor.list().length, 1);
    });

    it('prompts: accepted, the deltas assemble the reply, and the turn settles', async () => {
      await start();
      const events = record(supervisor, () => id);
      const settled = waitFor(supervisor, id!, ofType('agent_end'));
      const r = await supervisor.prompt(id!, 'say Hello there, friend', { source: 'test', submitter: 'mocha' });
      assert.equal(r.status, 'accepted');
      await settled;
      assert.equal(text(events), 'Hello there, friend');
      const s = supervisor.state(id!);
      if (s.status === 'not_found') return assert.fail('worker vanished');
      assert.equal(s.status, 'running');
      assert.equal(s.state.streaming, false);
      assert.equal(s.state.turnCount, 1);
      assert.equal(s.state.turns[0].source, 'test');
      assert.equal(s.state.turns[0].submitter, 'mocha');
      assert.equal(s.state.lastEndReason, 'done');
    });

    it('refuses a plain prompt while streaming, naming steer and follow-up; accepts a steer', async () => {
      await start();
      const tool = waitFor(supervisor, id!, ofType('tool_execution_start'));
      assert.equal((await supervisor.prompt(id!, 'bash sleep 30')).status, 'accepted');
      await tool;
      const plain = await supervisor.prompt(id!, 'another thing');
      assert.equal(plain.status, 'error');
      assert.match(plain.status === 'error' ? plain.error : '', /steer.*follow-up/);
      const steer = await supervisor.prompt(id!, 'say steered text', { streamingBehavior: 'steer' });
      assert.equal(steer.status, 'accepted');
      assert.equal(steer.status === 'accepted' && steer.streamingBehavior, 'steer');
      assert.equal((await supervisor.abort(id!)).status, 'aborted');
    });

    it('aborts a running tool: aborted after settling, the tool process is gone, the worker lives on', async () => {
      await start();
      const tool = waitFor(supervisor, id!, ofType('tool_execution_start'));
      await supervisor.prompt(id!, 'bash sleep 30');
      await tool;
      const s = supervisor.state(id!);
      const pid = s.status !== 'not_found' ? s.state.pid! : 0;
      const before = groupMembers(pid).length;
      const r = await supervisor.abort(id!);
      assert.equal(r.status, 'aborted', JSON.stringify(r));
      assert.ok(r.status === 'aborted' && r.settleMs >= 0);
      const after = supervisor.state(id!);
      if (after.status === 'not_found') return assert.fail('worker vanished');
      assert.equal(after.status, 'running');
      assert.equal(after.state.lastEndReason, 'aborted');
      assert.ok(isAlive(pid), 'the worker must survive an abort');
      assert.ok(before >= 1);
      const next = waitFor(supervisor, id!, ofType('agent_end'));
      assert.equal((await supervisor.prompt(id!, 'say still here')).status, 'accepted');
      assert.equal((await next).end_reason, 'done');
    });

    it("says in the stream when its abort went out: the running call's end comes after it, and the call is stopped whatever its end says", async () => {
      await start();
      const events = record(supervisor, () => id);
      const tool = waitFor(supervisor, id!, ofType('tool_execution_start'));
      await supervisor.prompt(id!, 'bash sleep 30');
      await tool;
      assert.equal((await supervisor.abort(id!)).status, 'aborted');
      const types = events.map((e) => e.type);
      const sent = types.indexOf('abort_sent');
      assert.ok(sent > types.indexOf('tool_execution_start') && sent < types.indexOf('tool_execution_end'), types.join(' '));
      assert.deepEqual(events[sent].data, { verb: 'abort' });
      const s = supervisor.state(id!);
      if (s.status === 'not_found') return assert.fail('worker vanished');
      const turn = s.state.turns[0];
      assert.equal(turn.abortSent, true);
      assert.deepEqual(turn.tools.map((t) => [t.toolName, t.afterAbort, toolRow(turn, t).description]), [['bash', true, 'stopped']]);
      // A redirect sends the abort too.
      const again = waitFor(supervisor, id!, ofType('tool_execution_start'));
      await supervisor.prompt(id!, 'bash sleep 30');
      await again;
      assert.equal((await supervisor.redirect(id!, 'say other')).status, 'redirected');
      assert.deepEqual(events.filter((e) => e.type === 'abort_sent').map((e) => e.data?.verb), ['abort', 'redirect']);
    });

    it('says not_streaming for an abort with nothing running', async () => {
      await start();
      assert.equal((await supervisor.abort(id!)).status, 'not_streaming');
    });

    it('redirects: aborted:true mid-turn, then the new instruction runs; aborted:false when idle', async () => {
      await start();
      const tool = waitFor(supervisor, id!, ofType('tool_execution_start'));
      await supervisor.prompt(id!, 'bash sleep 30');
      await tool;
      const done = waitFor(supervisor, id!, (e) => e.type === 'agent_end' && e.end_reason === 'done');
      const r = await supervisor.redirect(id!, 'say the new plan', { source: 'editor' });
      assert.equal(r.status, 'redirected', JSON.stringify(r));
      assert.equal(r.status === 'redirected' && r.aborted, true);
      await done;
      const idle = await supervisor.redirect(id!, 'say again');
      assert.equal(idle.status, 'redirected');
      assert.equal(idle.status === 'redirected' && idle.aborted, false);
    });

    it('a redirect while only compacting is refused for the compaction; it says no turn settled, since none ran', async () => {
      await start(['--compact-ms', '2000']);
      const compacted = supervisor.compact(id!);
      const r = await supervisor.redirect(id!, 'say the new plan');
      assert.equal(r.status, 'error');
      assert.equal(r.status === 'error' && r.error, 'the new instruction was refused: the worker is compacting its conversation; prompt again once the compaction ends');
      assert.equal(r.status === 'error' && r.aborted, undefined, 'no abort was sent');
      assert.equal((await compacted).status, 'compacted');
    });

    it('compacts after a conversation', async () => {
      await start();
      const first = waitFor(supervisor, id!, ofType('agent_end'));
      await supervisor.prompt(id!, 'say one two three');
      await first;
      const r = await supervisor.compact(id!);
      assert.equal(r.status, 'compacted', JSON.stringify(r));
    });

    if (dialect === 'pi') it('a prompt pi refuses (no API key) leaves no origin behind: the next turn is stamped with its own prompt', async () => {
      const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const path = await import('node:path');
      const dir = mkdtempSync(path.join(tmpdir(), 'rpc-nokey-'));
      const noKey = path.join(dir, 'no-key');
      writeFileSync(noKey, '');
      try {
        await start(['--no-api-key-file', noKey]);
        const refused = await supervisor.prompt(id!, 'first', { source: 'palette', submissionId: 'sub-A' });
        assert.equal(refused.status, 'error');
        assert.match(refused.status === 'error' ? refused.error : '', /No API key found for fake/);
        rmSync(noKey);
        const opened = waitFor(supervisor, id!, (e) => e.turn?.opens === true);
        const settled = waitFor(supervisor, id!, ofType('agent_settled'));
        assert.equal((await supervisor.prompt(id!, 'say second', { source: 'event-log', submissionId: 'sub-B' })).status, 'accepted');
        const first = await opened;
        assert.deepEqual([first.submission_id, first.source], ['sub-B', 'event-log']);
        await settled;
        const s = supervisor.state(id!);
        assert.equal(s.status === 'not_found' ? null : s.state.turns[0]?.submissionId, 'sub-B');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    if (dialect === 'tau') it('an abort that crosses the end of the compaction it was to cancel: not_streaming, saying the compaction ended by itself', async () => {
      await start(['--late-abort', '--compact-ms', '300']);
      const compacted = supervisor.compact(id!);
      const a = await supervisor.abort(id!);
      assert.deepEqual([a.status, a.status === 'not_streaming' && a.note, a.status === 'not_streaming' && a.compactionCancelled], ['not_streaming', 'the compaction ended by itself before the abort landed', false], JSON.stringify(a));
      assert.equal((await compacted).status, 'compacted');
    });

    if (dialect === 'tau') it('an abort while τ compacts on its own inside the turn (its abort does not reach that): aborted once the compaction ends, however long past the settle bound', async () => {
      await supervisor.dispose();
      supervisor = createSupervisor({ limits: { settleTimeoutMs: 1000 } });
      await start(['--auto-compact', 'mid', '--compact-ms', '2500']);
      const compacting = waitFor(supervisor, id!, ofType('compaction_start'));
      await supervisor.prompt(id!, 'bash true\nsay after');
      await compacting;
      const a = await supervisor.abort(id!);
      assert.equal(a.status, 'aborted', JSON.stringify(a));
      assert.equal(stateOf(supervisor, id!).lastEndReason, 'aborted');
    });

    if (dialect === 'tau') it('a redirect while τ compacts on its own inside the turn: the new instruction is sent once that compaction and the turn end, not refused by the settle bound', async () => {
      await supervisor.dispose();
      supervisor = createSupervisor({ limits: { settleTimeoutMs: 1000 } });
      await start(['--auto-compact', 'mid', '--compact-ms', '2500']);
      const compacting = waitFor(supervisor, id!, ofType('compaction_start'));
      await supervisor.prompt(id!, 'bash true\nsay after');
      await compacting;
      const r = await supervisor.redirect(id!, 'say instead');
      // It said "settling after abort: no answer…; the new instruction was not sent", and the turn then ended aborted all the same.
      assert.equal(r.status, 'redirected', JSON.stringify(r));
      assert.equal(r.status === 'redirected' && r.aborted, true);
    });

    if (dialect === 'tau') it('a compaction τ refuses ends in the log with τ\'s reason (the host said it began)', async () => {
      await start(['--no-session']);
      const events = record(supervisor, () => id);
      const r = await supervisor.compact(id!);
      assert.equal(r.status, 'error');
      const seen = events.filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end');
      assert.deepEqual(seen.map((e) => [e.type, e.is_error ?? false]), [['compaction_start', false], ['compaction_end', true]]);
      assert.match(seen[1].error!, /not persisted/);
    });

    it('stops: SIGTERM first, nothing of the worker\'s process group is left', async () => {
      const started = await start();
      const tool = waitFor(supervisor, id!, ofType('tool_execution_start'));
      await supervisor.prompt(id!, 'bash sleep 30');
      await tool;
      const r = await supervisor.stop(id!);
      assert.equal(r.status, 'stopped');
      assert.equal(r.status === 'stopped' && r.killed, false);
      assert.deepEqual(groupMembers(started.pid), []);
      assert.equal(supervisor.state(id!).status, 'not_found');
      assert.equal((await supervisor.stop(id!)).status, 'not_found');
    });

    for (const how of ['running', 'exited by itself'] as const) {
      it(`stopping a worker ${how}: onRemoved says it is gone once it is no longer listed`, async () => {
        const started = await start();
        if (how === 'exited by itself') {
          const exited = waitFor(supervisor, id!, ofType('worker_exit'));
          process.kill(started.pid, 'SIGKILL');
          await exited;
        }
        const listed: boolean[] = [];
        supervisor.onRemoved((workerId) => {
          if (workerId === id) listed.push(supervisor.list().some((w) => w.workerId === id));
        });
        const r = await supervisor.stop(id!);
        assert.equal(r.status, 'stopped');
        // The result says whether there was a live process to stop: Stop on an exited row only removes it.
        assert.equal(r.status === 'stopped' && r.alreadyExited, how === 'exited by itself');
        assert.deepEqual(listed, [false], 'removed once, and no longer listed then');
      });
    }

    it('answers not_found for an unknown worker on every verb', async () => {
      assert.equal((await supervisor.prompt('nope', 'x')).status, 'not_found');
      assert.equal((await supervisor.abort('nope')).status, 'not_found');
      assert.equal((await supervisor.redirect('nope', 'x')).status, 'not_found');
      assert.equal((await supervisor.compact('nope')).status, 'not_found');
      assert.equal((await supervisor.stop('nope')).status, 'not_found');
      assert.equal(supervisor.state('nope').status, 'not_found');
    });

    it('fails a start whose program does not exist, saying so in words, with nothing left behind', async () => {
      const missing: Record<string, boolean> = {};
      const error = async (command: string) => {
        const r = await supervisor.start({ dialect, command, cwd: ROOT });
        if (r.status !== 'error') return assert.fail(JSON.stringify(r));
        missing[command] = r.missing === true;
        return r.error;
      };
      // spawn's own `spawn x ENOENT` does not say which of these it is; nor is there a readiness to fail.
      assert.equal(await error('/nonexistent/worker-binary'), 'could not start /nonexistent/worker-binary: there is no such file (spawn /nonexistent/worker-binary ENOENT)');
      assert.equal(await error('rpc-workers-no-such-program'), 'could not start rpc-workers-no-such-program: no program of that name is on the PATH this window has (spawn rpc-workers-no-such-program ENOENT)');
      const { chmodSync, mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const path = await import('node:path');
      const dir = mkdtempSync(path.join(tmpdir(), 'rpc-spawn-'));
      try {
        const script = path.join(dir, 'agent');
        writeFileSync(script, '#!/nonexistent/interpreter\n');
        chmodSync(script, 0o755);
        assert.equal(await error(script), `could not start ${script}: the interpreter its first line (#!) names was not found (spawn ${script} ENOENT)`);
        // The same, found on the PATH by its name (a pipx shim whose venv is gone): not "install it".
        const r = await supervisor.start({ dialect, command: 'agent', cwd: ROOT, env: { PATH: `${dir}${path.delimiter}${process.env.PATH}` } });
        assert.equal(r.status === 'error' ? r.error : r.status, 'could not start agent: the interpreter its first line (#!) names was not found (spawn agent ENOENT)');
        assert.equal(r.status === 'error' && r.missing, undefined, 'found on the PATH: not missing');
        chmodSync(script, 0o644);
        assert.equal(await error(script), `could not start ${script}: it is not executable (or a folder on its path is closed to this user) (spawn ${script} EACCES)`);
        // Only a program that is not there is "missing" (the UI then says how to install it).
        assert.deepEqual(missing, { '/nonexistent/worker-binary': true, 'rpc-workers-no-such-program': true, [script]: false });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      assert.equal(supervisor.list().length, 0);
    });

    it('says why a command as a person writes it did not start: a "~", a folder, arguments in the command, a relative path', async () => {
      const { mkdtempSync, mkdirSync, rmSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const path = await import('node:path');
      const dir = mkdtempSync(path.join(tmpdir(), 'rpc-spawn-'));
      const start = async (command: string) => {
        const r = await supervisor.start({ dialect, command, cwd: dir });
        if (r.status !== 'error') return assert.fail(JSON.stringify(r));
        return { error: r.error, missing: r.missing === true };
      };
      try {
        // No shell expands it: not "no such file", and not "install pi" (it may well be installed there).
        assert.deepEqual(await start('~/bin/pi'), { error: 'could not start ~/bin/pi: a leading "~" is not expanded (no shell runs the command): write the full path (spawn ~/bin/pi ENOENT)', missing: false });
        mkdirSync(path.join(dir, 'tools'));
        assert.deepEqual(await start(path.join(dir, 'tools')), { error: `could not start ${path.join(dir, 'tools')}: it is a folder, not a program (spawn ${path.join(dir, 'tools')} EACCES)`, missing: false });
        // The program is there; its arguments were written into the command.
        const withArgs = await start(`${process.execPath} --version`);
        assert.equal(withArgs.error, `could not start ${process.execPath} --version: there is no program named "${process.execPath} --version"; the command names the program alone ("${process.execPath}" is there), its arguments go in args (spawn ${process.execPath} --version ENOENT)`);
        assert.equal(withArgs.missing, false);
        assert.deepEqual(await start('./bin/agent'), { error: `could not start ./bin/agent: there is no such file (relative to the worker's folder ${dir}) (spawn ./bin/agent ENOENT)`, missing: true });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      assert.equal(supervisor.list().length, 0);
    });

    it('fails a start whose worker exits during the probe, with its stderr tail', async () => {
      const r = await supervisor.start(fakeSpec(dialect, ['--exit-on-probe', '3']));
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /code 3/);
      assert.ok(r.status === 'error' && r.stderrTail && r.stderrTail.length > 0);
      assert.equal(supervisor.list().length, 0);
    });
  });
}
