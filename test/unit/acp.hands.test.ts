// The editor as the agent's hands (ACP fs/*): files read and written through the host, confined
// to the worker's folder, the editor's open documents first; and the guard as a wall, refusing a
// write outside its policy before it happens, whether the agent writes through the host or asks
// first. Driven with the fake ACP agent (test/fixtures/fake-acp-agent.mjs), whose `read:`,
// `write:` and `edit:` prompts do what Gemini and the others were seen to do.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientFileAccess, PermissionAnswer, PermissionRequest, Supervisor, SupervisorOptions } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { resolveGuard } from '../../src/core/guard/policy';
import { permissionVerdict, permissionVeto } from '../../src/core/guard/wall';
import { acpDialect, CLIENT_CAPABILITIES } from '../../src/core/wire/acp';
import { slice } from '../../src/core/worker/clientFiles';
import { HOST_OUTPUT_LIMIT } from '../../src/core/worker/terminals';
import { cgroupSupport } from '../../src/core/worker/cgroup';
import { LogModel } from '../../src/webview/model';
import type { ToolEntry, WarningEntry } from '../../src/webview/entries';
import type { PageEvent } from '../../src/protocol/messages';
import { isAlive, waitFor, waitUntil, withToken } from '../helpers/supervisor';
import { commandName } from '../../src/core/worker/processTree';
import { fakeAcpWorkers } from '../helpers/fakeAcp';


let base: string;
let dir: string;
let outside: string;
before(() => {
  base = mkdtempSync(path.join(tmpdir(), 'rpc-acp-hands-'));
  dir = path.join(base, 'work');
  outside = path.join(base, 'elsewhere');
  mkdirSync(dir);
  mkdirSync(outside);
});
after(() => rmSync(base, { recursive: true, force: true }));

describe('ACP: files through the host', () => {
  let supervisor: Supervisor;
  let asked: PermissionRequest[];
  function make(options: SupervisorOptions = {}) {
    asked = [];
    supervisor = createSupervisor({
      onPermission: async (req): Promise<PermissionAnswer> => { asked.push(req); return { optionId: req.options.find((o) => o.kind === 'allow_once')!.optionId }; },
      ...options,
    });
  }
  beforeEach(() => make());
  afterEach(() => supervisor.dispose());

  const { start, turn, stateOf } = fakeAcpWorkers(() => supervisor, () => dir);

  it('advertises file reads and writes, and reads a file from disk with line and limit honoured', async () => {
    assert.deepEqual(CLIENT_CAPABILITIES.fs, { readTextFile: true, writeTextFile: true });
    const file = path.join(dir, 'lines.txt');
    writeFileSync(file, 'one\ntwo\nthree\nfour\n');
    const id = await start();
    assert.equal((await turn(id, `read: ${file}`)).said, `read: ${JSON.stringify('one\ntwo\nthree\nfour\n')}`);
    assert.equal((await turn(id, `read: ${file} line 2 limit 2`)).said, `read: ${JSON.stringify('two\nthree\n')}`);
    assert.equal((await turn(id, `read: ${file} line 4`)).said, `read: ${JSON.stringify('four\n')}`);
  });

  it('reads an open document\'s text (unsaved edits included) through the host\'s file access, and the disk for a file not open', async () => {
    const open = path.join(dir, 'open.txt');
    const closed = path.join(dir, 'closed.txt');
    writeFileSync(open, 'saved text\n');
    writeFileSync(closed, 'on disk\n');
    const reads: string[][] = [];
    const forgotten: string[] = [];
    const files: ClientFileAccess = {
      read: async (p, w) => { reads.push([p, w]); return p === open ? 'unsaved edit\nsecond\n' : null; },
      write: async () => false,
      forget: (w) => forgotten.push(w),
    };
    make({ files });
    const id = await start();
    assert.equal((await turn(id, `read: ${open}`)).said, `read: ${JSON.stringify('unsaved edit\nsecond\n')}`);
    assert.equal((await turn(id, `read: ${open} line 2`)).said, `read: ${JSON.stringify('second\n')}`);
    assert.equal((await turn(id, `read: ${closed}`)).said, `read: ${JSON.stringify('on disk\n')}`);
    // Each read says whose it is (the editor tells one agent's reads from another's), and the
    // editor is told when the agent is gone, so what it kept of its reads can go.
    assert.deepEqual(reads, [[open, id], [open, id], [closed, id]]);
    assert.deepEqual(forgotten, []);
    assert.equal((await supervisor.stop(id)).status, 'stopped');
    assert.deepEqual(forgotten, [id]);
  });

  it('a missing file is ACP\'s "resource not found"', async () => {
    const id = await start();
    const missing = path.join(dir, 'nope.txt');
    assert.equal((await turn(id, `read: ${missing}`)).said, `read failed (-32002): Resource not found: ${missing}`);
  });

  it('a file that is not UTF-8 is refused, not handed over altered, and the log says so; a BOM is kept', async () => {
    const latin1 = path.join(dir, 'latin1.txt');
    writeFileSync(latin1, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café\n" in Latin-1
    const id = await start();
    const r = await turn(id, `read: ${latin1}`);
    assert.match(r.said, /^read failed \(-32001\): fs\/read_text_file ".*latin1.txt" refused: the file is not UTF-8 text/);
    assert.match(r.events.find((e) => e.type === 'client_file' && e.is_error)?.error ?? '', /not UTF-8 text/, 'the refusal is in the log');
    const bom = path.join(dir, 'bom.txt');
    writeFileSync(bom, '\ufeffone\ntwo\n');
    assert.equal((await turn(id, `read: ${bom}`)).said, `read: ${JSON.stringify('\ufeffone\ntwo\n')}`);
    assert.equal((await turn(id, `read: ${bom} line 2`)).said, `read: ${JSON.stringify('two\n')}`);
  });

  it('writes to disk, creating the folders, or through the open document when the editor has it', async () => {
    const written: Array<[string, string]> = [];
    const openDoc = path.join(dir, 'doc.txt');
    writeFileSync(openDoc, 'before\n');
    const dirtyDoc = path.join(dir, 'dirty.txt');
    make({ files: { read: async () => null, write: async (p, c) => { if (p !== openDoc && p !== dirtyDoc) return false; written.push([p, c]); return { replacedUnsaved: p === dirtyDoc }; } } });
    const id = await start();
    const fresh = path.join(dir, 'sub', 'new.txt');
    const a = await turn(id, `write: ${fresh} = hello there`);
    assert.equal(a.said, 'wrote');
    assert.equal(readFileSync(fresh, 'utf8'), 'hello there');
    assert.deepEqual(a.events.find((e) => e.type === 'client_file')?.data, { op: 'write', path: fresh, through: 'disk', bytes: 11 });
    const b = await turn(id, `write: ${openDoc} = through the editor`);
    assert.equal(b.said, 'wrote');
    assert.deepEqual(written, [[openDoc, 'through the editor']]);
    assert.equal(readFileSync(openDoc, 'utf8'), 'before\n', 'the host left the disk to the editor');
    assert.equal(b.events.find((e) => e.type === 'client_file')?.data?.through, 'editor');
    assert.equal(b.events.find((e) => e.type === 'client_file')?.data?.replacedUnsaved, undefined);
    // Over the person's unsaved edits: the event says so, and the log warns them how to get them back.
    const c = await turn(id, `write: ${dirtyDoc} = over yours`);
    const over = c.events.find((e) => e.type === 'client_file')!;
    assert.deepEqual(over.data, { op: 'write', path: dirtyDoc, through: 'editor', bytes: 10, replacedUnsaved: true });
    const m = new LogModel();
    m.apply([over as PageEvent]);
    const shown = m.entries.find((e) => e.kind === 'warning') as { title: string; text: string } | undefined;
    assert.equal(shown?.title, `The agent wrote ${dirtyDoc} over your unsaved edits`);
    assert.match(shown?.text ?? '', /Undo in that editor brings your text back/);
  });

  it('a write is put on a tool call of its own turn only, not on an earlier turn\'s call that named the same file', async () => {
    const id = await start();
    const file = path.join(dir, 'named-before.txt');
    const first = await turn(id, `edit: ${file}`);
    assert.ok(first.events.some((e) => e.type === 'tool_execution_start' && e.locations?.some((l) => l.path === file)), 'turn 1 had a call naming the file');
    // ACP sends no agent_settled: the host's own ends turn 1, and its calls with it.
    const second = await turn(id, `ask fs/write_text_file ${JSON.stringify({ path: file, content: 'hi\n' })}`);
    assert.equal(second.said, 'fs/write_text_file: {}');
    const write = second.events.find((e) => e.type === 'client_file' && e.data?.op === 'write')!;
    assert.equal(write.tool_call_id, null);
  });

  it('a read or write outside the worker\'s folder is refused with an error saying why, also through a symlink, and the log says so', async () => {
    const secret = path.join(outside, 'secret.txt');
    writeFileSync(secret, 'not yours\n');
    symlinkSync(outside, path.join(dir, 'link'));
    const id = await start();
    const r = await turn(id, `read: ${secret}`);
    assert.match(r.said, /^read failed \(-32001\): fs\/read_text_file ".*secret.txt" refused: it is outside the worker's folder /);
    const refused = r.events.find((e) => e.type === 'client_file' && e.is_error);
    assert.ok(refused, 'the refusal is in the log');
    assert.match(refused.error!, /outside the worker's folder/);
    assert.match((await turn(id, `read: ${path.join(dir, 'link', 'secret.txt')}`)).said, /outside the worker's folder/);
    const w = await turn(id, `write: ${path.join(dir, 'link', 'planted.txt')} = x`);
    assert.match(w.said, /^write failed \(-32001\): .*outside the worker's folder/);
    assert.equal(existsSync(path.join(outside, 'planted.txt')), false);
    assert.match((await turn(id, 'read: relative.txt')).said, /ACP paths must be absolute/);
    // A name that starts with two dots is inside: it is not a way up.
    assert.equal((await turn(id, `write: ${path.join(dir, '..env')} = KEY=1`)).said, 'wrote');
    assert.equal(readFileSync(path.join(dir, '..env'), 'utf8'), 'KEY=1');
  });

  it('a worker started with clientFiles: false is not offered the host\'s files', async () => {
    const id = await start({ clientFiles: false });
    assert.equal((await turn(id, `read: ${path.join(dir, 'lines.txt')}`)).said, 'The client offers no file reads.');
    assert.equal((await turn(id, `write: ${path.join(dir, 'w.txt')} = x`)).said, 'The client offers no file writes.');
  });

  it('an agent that asks for the files it was not offered is answered Method not found, nothing read or written, and the log says so', async () => {
    const file = path.join(dir, 'kept.txt');
    writeFileSync(file, 'secret\n');
    const id = await start({ clientFiles: false });
    const r = await turn(id, `ask fs/read_text_file ${JSON.stringify({ path: file })}`);
    assert.match(r.said, /^fs\/read_text_file: error -32601: fs\/read_text_file ".*kept.txt" refused: .*clientFiles: false/);
    assert.doesNotMatch(r.said, /secret/);
    const w = await turn(id, `ask fs/write_text_file ${JSON.stringify({ path: file, content: 'planted' })}`);
    assert.match(w.said, /^fs\/write_text_file: error -32601: /);
    assert.equal(readFileSync(file, 'utf8'), 'secret\n');
    for (const { events } of [r, w]) {
      const refused = events.find((e) => e.type === 'client_file' && e.is_error);
      assert.match(refused?.error ?? '', /clientFiles: false/, 'the refusal is in the log');
      assert.equal(refused?.data?.refused, true);
    }
  });

  it('a write request over the line cap is answered as refused, nothing written, and the turn goes on (it waited for ever)', async () => {
    make({ limits: { maxLineBytes: 1024 } });
    const file = path.join(dir, 'huge.txt');
    const id = await start();
    const r = await turn(id, `ask fs/write_text_file ${JSON.stringify({ path: file, content: 'x'.repeat(4096) })}`);
    assert.match(r.said, /^fs\/write_text_file: error -32600: the request was over the 1024-byte line limit and was dropped; nothing was done$/);
    assert.equal(existsSync(file), false);
    assert.ok(r.events.some((e) => e.type === 'protocol_error'), 'the dropped line is in the log');
  });

  it('malformed file requests are refused as invalid params', () => {
    const r = acpDialect.agentRequest!('fs/read_text_file', { sessionId: 's', path: 3 });
    assert.equal(r?.kind, 'invalid');
    assert.equal(r?.kind === 'invalid' && r.refuse, true);
    const w = acpDialect.agentRequest!('fs/write_text_file', { sessionId: 's', path: '/a' });
    assert.equal(w?.kind === 'invalid' && w.refuse, true, 'a write without content is refused');
    assert.deepEqual(acpDialect.agentRequest!('fs/read_text_file', { sessionId: 's', path: '/a', line: 3, limit: null }), { kind: 'readFile', sessionId: 's', path: '/a', line: 3, limit: null });
    assert.equal(slice('a\nb\nc', 3, 5), 'c');
    assert.equal(slice('a\nb\n', 1, 0), '');
  });

  describe('terminals the host owns', () => {
    it('runs the command in the worker\'s folder with the request\'s env, streams its output into the tool call\'s row, and answers its exit and output', async () => {
      const id = await start();
      const r = await turn(id, 'term: echo "in $(pwd) $FAKE_TERM"; echo err >&2; exit 3');
      assert.equal(r.said, `exit 3: ${JSON.stringify(`in ${dir} yes\nerr\n`)}`);
      const call = r.events.find((e) => e.type === 'tool_execution_start')!;
      const streamed = r.events.filter((e) => e.type === 'tool_execution_update' && e.data?.terminalId);
      assert.ok(streamed.length > 0, 'the output reached the log');
      assert.equal(streamed[0].tool_call_id, call.tool_call_id, 'in the row of the call that names the terminal');
      const m = new LogModel();
      m.apply(r.events as unknown as PageEvent[]);
      assert.match((m.all().find((e) => e.kind === 'tool') as ToolEntry).output, /in .* yes\nerr\n/);
      // The command as the log and the terminal show it: one a shell would run as it ran (issue:
      // "sh -c echo …; exit 3", its script's words loose, read as three commands).
      const created = r.events.find((e) => e.type === 'terminal' && e.data?.op === 'create')!;
      assert.equal(created.data?.command, `sh -c 'echo "in $(pwd) $FAKE_TERM"; echo err >&2; exit 3'`);
    });

    it('outputByteLimit keeps the end of the output and says it was truncated', async () => {
      const id = await start();
      assert.equal((await turn(id, 'termlimit 10: printf 0123456789abcdef')).said, `exit 0: ${JSON.stringify('6789abcdef')} truncated true`);
      assert.equal((await turn(id, 'termlimit 100: printf short')).said, `exit 0: ${JSON.stringify('short')} truncated false`);
    });

    it('with no outputByteLimit the host keeps the last 1 MiB of the output, and says it was truncated', async () => {
      const id = await start();
      const r = await turn(id, String.raw`termlimit none: head -c 3000000 /dev/zero | tr '\0' x; printf END`);
      assert.equal(r.said, `exit 0: ${HOST_OUTPUT_LIMIT} bytes ending "xxxxxEND" truncated true`);
      // A short output is kept whole.
      assert.equal((await turn(id, 'termlimit none: printf short')).said, 'exit 0: 5 bytes ending "short" truncated false');
    });

    it('a character whose bytes arrive in two reads is kept whole, not two replacement characters', async () => {
      const id = await start();
      // "é" is C3 A9: the command writes its first byte, then the second in a later write.
      const r = await turn(id, String.raw`term: printf 'caf\303'; sleep 0.2; printf '\251\n'`);
      assert.equal(r.said, `exit 0: ${JSON.stringify('café\n')}`);
    });

    it('a cwd outside the worker\'s folder is refused, and the log says so', async () => {
      const id = await start();
      const r = await turn(id, `termcwd ${outside}: pwd`);
      assert.match(r.said, /^terminal refused \(-32001\): terminal\/create cwd .* refused: it is outside the worker's folder/);
      assert.ok(r.events.some((e) => e.type === 'terminal' && e.is_error));
    });

    it('a cwd with ".." after a link out of the folder starts the command in the folder checked, not where the link leads', async () => {
      const id = await start();
      // <dir>/out → <outside>/deep: as given, "<dir>/out/../sub" is <outside>/sub to the kernel; checked, it is <dir>/sub.
      mkdirSync(path.join(outside, 'deep'), { recursive: true });
      mkdirSync(path.join(outside, 'sub'), { recursive: true });
      mkdirSync(path.join(dir, 'sub'), { recursive: true });
      symlinkSync(path.join(outside, 'deep'), path.join(dir, 'out'));
      const r = await turn(id, `termcwd ${path.join(dir, 'out')}/../sub: pwd -P`);
      assert.equal(r.said, `exit 0: ${JSON.stringify(`${path.join(dir, 'sub')}\n`)}`);
    });

    it('under a guard without bash a terminal command is refused before it runs, shown as a blocked call; with bash it runs', async () => {
      const id = await start({ guard: true });
      const r = await turn(id, `term: touch ${path.join(dir, 'ran-under-guard')}`);
      assert.match(r.said, /^terminal refused \(-32001\): the host's guard refused this command before it ran/);
      assert.match(r.said, /rpcWorkers\.guard\.allowBash allows it, and what a shell writes is then not confined/);
      assert.equal(existsSync(path.join(dir, 'ran-under-guard')), false);
      assert.equal(r.events.find((e) => e.type === 'guard_violation')?.blocked, true);
      const ok = await start({ guard: { allowedPaths: [dir], forbiddenPaths: [], bash: true } });
      const second = await turn(ok, 'term: echo yes');
      assert.equal(second.said, `exit 0: ${JSON.stringify('yes\n')}`, JSON.stringify(second.events.filter((e) => e.type !== 'message_update').map((e) => [e.type, e.error ?? e.data]).slice(0, 12)));
    });

    for (const how of ['abort', 'stop'] as const) {
      it(`${how} ends the command's whole tree, though the agent leaves the terminal running`, async () => {
        const id = await start();
        const token = `rpc-hands-${how}-${process.pid}`;
        // A tree: sh, a child shell in the background, and the sleeps under both.
        const p = await supervisor.prompt(id, `term: (python3 -c "import time; time.sleep(600)" ${token}-a &) ; python3 -c "import time; time.sleep(600)" ${token}-b`);
        assert.equal(p.status, 'accepted');
        await waitUntil(() => withToken(`${token}-a`).length > 0 && withToken(`${token}-b`).length > 0, 'both commands to run');
        const running = withToken(token);
        if (how === 'abort') assert.equal((await supervisor.abort(id)).status, 'aborted');
        else assert.equal((await supervisor.stop(id)).status, 'stopped');
        await waitUntil(() => running.every((pid) => !isAlive(pid)), `no process of the command to be left (${running.join(', ')})`, 5_000);
        assert.deepEqual(withToken(token), []);
      });
    }

    it('abort ends a command that ignores SIGTERM once, and says so once, though the sweep after the turn comes within its grace', async () => {
      make({ limits: { killGraceMs: 500 } });
      const id = await start();
      const ready = waitFor(supervisor, id, (e) => e.type === 'tool_execution_update' && /ready/.test(JSON.stringify(e.result ?? '')));
      assert.equal((await supervisor.prompt(id, `term: trap '' TERM; echo ready; sleep 30`)).status, 'accepted');
      await ready;
      assert.equal((await supervisor.abort(id)).status, 'aborted');
      const ended = supervisor.events(id).filter((e) => e.type === 'terminal' && e.data?.op === 'ended');
      assert.deepEqual(ended.map((e) => e.data?.terminals), [[{ terminalId: 'term-1', command: `sh -c 'trap '\\'''\\'' TERM; echo ready; sleep 30'` }]]);
    });

    it('a redirect refused before it aborts (an empty or oversized message) leaves the turn and its command running', async () => {
      const id = await start();
      const token = `rpc-hands-refused-redirect-${process.pid}`;
      const p = await supervisor.prompt(id, `term: python3 -c "import time; time.sleep(600)" ${token}`);
      assert.equal(p.status, 'accepted');
      // python3 may be a shim (pyenv's bash scripts), whose passing subshells carry the command's
      // arguments too: the command runs once python itself does, and only its processes are held.
      const command = () => withToken(token).filter((pid) => /^(sh|dash|python)/.test(commandName(pid) ?? ''));
      await waitUntil(() => command().some((pid) => commandName(pid)?.startsWith('python')), 'the command to run');
      const running = command();
      for (const message of ['', 'x'.repeat(supervisor.limits.maxPromptBytes + 1)]) {
        const r = await supervisor.redirect(id, message);
        assert.equal(r.status, 'error');
      }
      assert.equal(stateOf(id).streaming, true, 'the turn goes on');
      assert.ok(running.every(isAlive), 'the refused redirect ended nothing');
      const ended = supervisor.events(id).filter((e) => e.type === 'terminal' && e.data?.op === 'ended');
      assert.deepEqual(ended, [], 'and the log says nothing was ended');
      assert.equal((await supervisor.abort(id)).status, 'aborted');
      await waitUntil(() => running.every((pid) => !isAlive(pid)), 'the abort to end the command', 5_000);
    });

    it('an abort refused as the worker no longer reads its input (its cancel cannot reach it) ends none of its commands', async () => {
      // Probed often, so that the test waits on the finding, not on the period.
      make({ limits: { inputProbeMs: 20 } });
      const id = await start({ env: { FAKE_ACP_ON_SIGUSR2: 'close-stdin' } });
      const token = `rpc-hands-deaf-abort-${process.pid}`;
      assert.equal((await supervisor.prompt(id, `term: python3 -c "import time; time.sleep(600)" ${token}`)).status, 'accepted');
      const command = () => withToken(token).filter((pid) => /^(sh|dash|python)/.test(commandName(pid) ?? ''));
      await waitUntil(() => command().some((pid) => commandName(pid)?.startsWith('python')), 'the command to run');
      const running = command();
      const deaf = new Promise<void>((resolve) => {
        const off = supervisor.onState((s) => {
          if (s.workerId !== id || !s.inputLost) return;
          off();
          resolve();
        });
      });
      process.kill(stateOf(id).pid!, 'SIGUSR2');
      await deaf;
      const r = await supervisor.abort(id);
      assert.equal(r.status, 'error');
      assert.match(r.status === 'error' ? r.error : '', /no longer reads its input/);
      assert.ok(running.every(isAlive), 'the refused abort ended nothing');
      const ended = supervisor.events(id).filter((e) => e.type === 'terminal' && e.data?.op === 'ended');
      assert.deepEqual(ended, [], 'and the log says nothing was ended');
      await supervisor.stop(id);
      await waitUntil(() => running.every((pid) => !isAlive(pid)), 'the stop to end the command', 5_000);
    });
  });

  describe('a host terminal is the worker\'s', () => {
    const cg = cgroupSupport();
    if (!cg.ok) it(`no cgroup here, so a command that escapes its terminal may outlive Stop (${cg.reason})`, () => assert.ok(cg.reason.length > 0));
    else it('Stop ends a command that left the terminal\'s tree and group (setsid, its parent exited): it was born in the worker\'s cgroup', async () => {
      const id = await start();
      const token = `rpc-hands-escaped-${process.pid}`;
      // The command escapes once it is told to, so that it surely started as the terminal's.
      const go = path.join(base, `go-${process.pid}`);
      execFileSync('mkfifo', [go]);
      const r = turn(id, `term: cat ${go} >/dev/null; setsid python3 -c "import time; time.sleep(600)" ${token} >/dev/null 2>&1 &`);
      await waitUntil(() => withToken(go).length > 0, 'the command to wait on its go');
      writeFileSync(go, 'go\n');
      assert.match((await r).said, /^exit 0/);
      await waitUntil(() => withToken(token).length > 0, 'the escaped command to run');
      const escaped = withToken(token);
      assert.equal((await supervisor.stop(id)).status, 'stopped');
      await waitUntil(() => escaped.every((pid) => !isAlive(pid)), `the escaped command (${escaped.join(', ')}) to be ended by Stop`, 5_000);
    });
  });

  describe('a command that keeps the terminal\'s output open', () => {
    it('Stop answers though a process that left the group unseen still holds the output pipe, and (with a cgroup) ends it', async () => {
      const id = await start();
      const token = `rpc-hands-holder-${process.pid}`;
      // Once told to (so that it surely started as the terminal's), sh starts the escaping python
      // and exits; python keeps sh's stdout, so the terminal never closes.
      const go = path.join(base, `go-holder-${process.pid}`);
      execFileSync('mkfifo', [go]);
      const p = await supervisor.prompt(id, `term: cat ${go} >/dev/null; setsid python3 -c "import time; time.sleep(600)" ${token} &`);
      assert.equal(p.status, 'accepted');
      await waitUntil(() => withToken(go).length > 0, 'the command to wait on its go');
      writeFileSync(go, 'go\n');
      await waitUntil(() => withToken(token).length > 0, 'the escaped command to run');
      const escaped = withToken(token);
      assert.equal((await supervisor.stop(id)).status, 'stopped');
      if (cgroupSupport().ok) await waitUntil(() => escaped.every((pid) => !isAlive(pid)), `the escaped command (${escaped.join(', ')}) to be ended by Stop`, 5_000);
      else for (const pid of escaped) process.kill(pid, 'SIGKILL');
    });
  });

  describe('a command that leaves a job in the background', () => {
    it('wait_for_exit answers when the command exits, though its background job holds the output; release ends the job', async () => {
      const id = await start();
      const token = `rpc-hands-bg-${process.pid}`;
      const r = turn(id, `term: echo first; python3 -c "import time; time.sleep(600)" ${token} &`);
      const said = await Promise.race([r.then((x) => x.said), new Promise<string>((ok) => setTimeout(() => ok('hung: no answer to wait_for_exit'), 10_000).unref())]);
      assert.equal(said, `exit 0: ${JSON.stringify('first\n')}`);
      await waitUntil(() => withToken(token).length === 0, 'the background job to be ended by the release', 5_000);
    });
  });

  describe('the guard as a wall', () => {
    it('a write through the host outside the policy is refused before anything is written, shown as a blocked call; one inside lands', async () => {
      const id = await start({ guard: { allowedPaths: [path.join(dir, 'src')], forbiddenPaths: [] } });
      const target = path.join(dir, 'README.md');
      const r = await turn(id, `write: ${target} = overwritten`);
      assert.match(r.said, /^write failed \(-32001\): the host's write guard refused this write before anything was written: write to ".*README.md": outside the allowed paths/);
      assert.equal(existsSync(target), false, 'nothing was written');
      const call = r.events.find((e) => e.type === 'tool_execution_start')!;
      const v = r.events.find((e) => e.type === 'guard_violation')!;
      assert.ok(v, 'a guard_violation is in the log');
      assert.equal(v.blocked, true);
      assert.equal(v.blocked_by, 'rpc-workers-guard');
      assert.equal(v.tool_call_id, call.tool_call_id, 'marked on the call that wrote');
      assert.equal(r.events.find((e) => e.type === 'agent_end')?.end_reason, 'done', 'a refused write is not a reason to abort the turn');
      // The page shows it as pi's vetoes: the call's row blocked, with the policy's reason.
      const m = new LogModel();
      m.apply(r.events as unknown as PageEvent[]);
      const row = m.all().find((e) => e.kind === 'tool') as ToolEntry;
      assert.equal(row.blocked, true);
      assert.equal(row.blockedBy, 'rpc-workers-guard');
      assert.match(row.reason!, /outside the allowed paths/);
      assert.ok(m.all().some((e) => e.kind === 'warning' && (e as WarningEntry).title.startsWith('Guard (refused before it happened)')));
      const inside = path.join(dir, 'src', 'ok.ts');
      assert.equal((await turn(id, `write: ${inside} = fine`)).said, 'wrote');
      assert.equal(readFileSync(inside, 'utf8'), 'fine');
      assert.equal(stateOf(id).writeGuard, 'vetoed', 'an agent that writes through the host meets the wall');
    });

    it('a question about an edit outside the policy is answered with the agent\'s reject option without asking the person; one inside is asked', async () => {
      const id = await start({ guard: true });
      assert.equal(stateOf(id).writeGuard, 'audited', 'until the agent is seen asking or writing through the host, its writes are audited');
      const r = await turn(id, `edit: ${path.join(outside, 'x.ts')}`);
      assert.equal(asked.length, 0, 'the person was not asked');
      const end = r.events.find((e) => e.type === 'permission_end')!;
      assert.equal(end.data?.optionId, 'reject');
      assert.match(String(end.data?.note), /the write guard rejected it without asking: edit ".*x.ts": outside the allowed paths/);
      const v = r.events.find((e) => e.type === 'guard_violation')!;
      assert.equal(v.blocked, true);
      assert.equal(v.tool_call_id, end.tool_call_id);
      assert.equal(r.events.filter((e) => e.type === 'guard_violation').length, 1, 'the call the wall judged is not audited again');
      assert.equal(r.events.find((e) => e.type === 'agent_end')?.end_reason, 'done', 'the turn goes on: the call never ran');
      const m = new LogModel();
      m.apply(r.events as unknown as PageEvent[]);
      assert.equal((m.all().find((e) => e.kind === 'tool') as ToolEntry).blocked, true, 'the failed end the agent reports after keeps the row blocked');
      await turn(id, `edit: ${path.join(dir, 'y.ts')}`);
      assert.equal(asked.length, 1, 'an edit inside is put to the person');
      assert.equal(stateOf(id).writeGuard, 'vetoed');
    });

    it('a question of kind "other" naming a path outside (Claude\'s NotebookEdit) is rejected without asking; one naming none (an MCP tool) is refused before it runs where violations abort, asked and flagged where they are flagged', async () => {
      const id = await start({ guard: { allowedPaths: [dir], forbiddenPaths: [] } });
      const notebook = (nb: string) => `other as NotebookEdit: ${JSON.stringify({ notebook_path: nb, new_source: 'x', edit_mode: 'replace' })}`;
      const r = await turn(id, notebook(path.join(outside, 'n.ipynb')));
      assert.equal(r.said, 'Not done.');
      assert.equal(asked.length, 0, 'the person was not asked');
      const vetoes = r.events.filter((e) => e.type === 'guard_violation');
      assert.equal(vetoes.length, 1);
      assert.equal(vetoes[0].blocked, true);
      assert.match(String(vetoes[0].error), /^NotebookEdit \(kind "other"\) ".*n\.ipynb": outside the allowed paths/);
      const inside = await turn(id, notebook(path.join(dir, 'n.ipynb')));
      assert.equal(inside.said, 'Done.');
      assert.equal(asked.length, 1, 'a notebook inside is put to the person');
      assert.deepEqual(inside.events.filter((e) => e.type === 'guard_violation'), [], 'judged as a question, not audited again');
      // Nothing in it the wall can judge. Where a violation aborts the turn (the default), it is
      // refused before it runs: asked, it would run and then be flagged and abort the turn.
      const refused = await turn(id, 'other as mcp__db__query: {"sql": "drop table t"}');
      assert.equal(asked.length, 1, 'not asked');
      const blocked = refused.events.filter((e) => e.type === 'guard_violation');
      assert.equal(blocked.length, 1);
      assert.equal(blocked[0].blocked, true);
      assert.match(String(blocked[0].error), /^mcp__db__query \(kind "other"\) names no path the guard can judge, and this worker's violations abort its turn/);
      assert.equal(refused.events.find((e) => e.type === 'agent_end')?.end_reason, 'done', 'the turn goes on: the call never ran');
      // Where violations are flagged: the person is asked, and the audit judges the call as it
      // runs; it does not know what a call of kind "other" writes, so it flags it (fails closed).
      const flags = await start({ guard: { allowedPaths: [dir], forbiddenPaths: [] }, onViolation: 'flag' });
      const mcp = await turn(flags, 'other as mcp__db__query: {"sql": "drop table t"}');
      assert.equal(asked.length, 2);
      const flagged = mcp.events.filter((e) => e.type === 'guard_violation');
      assert.equal(flagged.length, 1, 'the call the wall could not judge is audited');
      assert.equal(flagged[0].blocked, undefined, 'flagged after it ran, not refused');
      assert.equal(flagged[0].tool_call_id, mcp.events.find((e) => e.type === 'permission_end')!.tool_call_id);
      assert.match(String(flagged[0].error), /kind "other": the agent does not say it only reads/);
    });

    it('a move (codex-acp\'s: its question names the source, its diff the destination) is judged at both ends before the person is asked', async () => {
      const id = await start({ guard: { allowedPaths: [dir], forbiddenPaths: [] }, onViolation: 'flag' });
      const inside = path.join(dir, 'm.ts');
      for (const to of [path.join(outside, 'm.ts'), path.join(dir, '.git', 'hooks', 'pre-commit')]) {
        const r = await turn(id, `move: ${inside} -> ${to}`);
        assert.equal(asked.length, 0, `the person was not asked to move it to ${to}`);
        const end = r.events.find((e) => e.type === 'permission_end')!;
        assert.equal(end.data?.optionId, 'decline');
        const blocked = r.events.filter((e) => e.type === 'guard_violation' && e.blocked === true);
        assert.equal(blocked.length, 1);
        assert.ok(String(blocked[0].error).includes(JSON.stringify(to)), String(blocked[0].error));
      }
      await turn(id, `move: ${path.join(outside, 'n.ts')} -> ${inside}`);
      assert.equal(asked.length, 0, 'a move from outside is not asked either');
      await turn(id, `move: ${inside} -> ${path.join(dir, 'n.ts')}`);
      assert.equal(asked.length, 1, 'a move inside is put to the person');
    });

    it('an unguarded worker has no wall: the same edit is asked, and writeGuard is null', async () => {
      const id = await start();
      await turn(id, `edit: ${path.join(outside, 'x.ts')}`);
      assert.equal(asked.length, 1);
      assert.equal(stateOf(id).writeGuard, null);
    });
  });
});

describe('ACP: the wall\'s judgement of a question', () => {
  const policy = () => resolveGuard({ allowedPaths: [dir], forbiddenPaths: [], bash: false }, dir)!;
  const ask = (over: Partial<Parameters<typeof permissionVeto>[1]>) => ({ toolKind: 'edit', args: null, diffs: [], locations: [], ...over });

  it('judges locations, diffs and path fields of the input; names the rule', async () => {
    assert.equal(await permissionVeto(policy(), ask({ locations: [{ path: path.join(dir, 'a.ts'), line: null }] }), dir), null);
    assert.match((await permissionVeto(policy(), ask({ diffs: [{ path: path.join(outside, 'a.ts'), oldText: null, newText: 'x' }] }), dir))!, /outside the allowed paths/);
    assert.match((await permissionVeto(policy(), ask({ toolKind: 'delete', args: { file_path: path.join(outside, 'b') } }), dir))!, /^delete ".*b": outside/);
    assert.match((await permissionVeto(policy(), ask({ toolKind: 'move', args: { from: path.join(dir, 'a'), to: path.join(outside, 'a') } }), dir))!, /^move/);
    // Copilot's question carries a unified diff in rawInput.diff.
    assert.match((await permissionVeto(policy(), ask({ args: { diff: '--- a/../elsewhere/c.ts\n+++ b/../elsewhere/c.ts\n@@\n+x\n' } }), dir))!, /elsewhere/);
    assert.match((await permissionVeto(policy(), ask({ locations: [{ path: path.join(dir, '.git', 'config'), line: null }] }), dir))!, /forbidden/);
  });

  it('Copilot\'s create inside the policy passes: its diff names a/dev/null and the absolute path with git\'s prefix for its slash', async () => {
    // Allowed: src/ only, so neither dev/null nor tmp/… read under the worker's folder passes.
    const srcOnly = resolveGuard({ allowedPaths: [path.join(dir, 'src')], forbiddenPaths: [], bash: false }, dir)!;
    const target = path.join(dir, 'src', 'new.txt');
    const diff = `--- a/dev/null\n+++ b/${target.slice(1)}\n@@ -0,0 +1 @@\n+x\n`;
    assert.equal(await permissionVeto(srcOnly, ask({ locations: [{ path: target, line: null }], args: { diff } }), dir), null);
    // Outside, the named path is refused whatever the patch text says.
    const away = path.join(outside, 'new.txt');
    assert.match((await permissionVeto(policy(), ask({ locations: [{ path: away, line: null }], args: { diff: `--- a/dev/null\n+++ b/${away.slice(1)}\n` } }), dir))!, /outside the allowed paths/);
  });

  it('an edit naming no path cannot be confined; a shell is rejected unless bash is allowed; a read is not judged', async () => {
    assert.match((await permissionVeto(policy(), ask({}), dir))!, /names no path/);
    assert.match((await permissionVeto(policy(), ask({ toolKind: 'execute', args: { command: 'ls' } }), dir))!, /rpcWorkers\.guard\.allowBash allows it, and what a shell writes is then not confined/);
    assert.equal(await permissionVeto(resolveGuard({ allowedPaths: [dir], forbiddenPaths: [], bash: true }, dir)!, ask({ toolKind: 'execute' }), dir), null);
    assert.equal(await permissionVeto(policy(), ask({ toolKind: 'read', locations: [{ path: '/etc/passwd', line: null }] }), dir), null);
  });

  it('a call of another kind is judged by the paths it names (Claude\'s NotebookEdit, kind "other", names its notebook only in rawInput); one naming none is left unjudged', async () => {
    // As claude-agent-acp 0.101.0 asks: no locations, no diff, the notebook in rawInput.notebook_path.
    const notebook = (nb: string) => ask({ toolKind: 'other', title: 'NotebookEdit', args: { notebook_path: nb, new_source: 'x', edit_mode: 'replace' } });
    assert.match((await permissionVeto(policy(), notebook(path.join(outside, 'n.ipynb')), dir))!, /^NotebookEdit \(kind "other"\) ".*n\.ipynb": outside the allowed paths/);
    assert.deepEqual(await permissionVerdict(policy(), notebook(path.join(dir, 'n.ipynb')), dir), { veto: null, judged: true });
    assert.match((await permissionVeto(policy(), ask({ toolKind: 'other', title: 'mcp__fs__save', locations: [{ path: path.join(outside, 'a'), line: null }] }), dir))!, /outside the allowed paths/);
    assert.match((await permissionVeto(policy(), ask({ toolKind: null, title: 'save', args: { path: path.join(dir, '.git', 'hooks', 'pre-commit') } }), dir))!, /forbidden/);
    // Nothing to judge it by: asked, and audited when it runs (the verdict says so).
    assert.deepEqual(await permissionVerdict(policy(), ask({ toolKind: 'other', title: 'mcp__db__query', args: { sql: 'drop table t' } }), dir), { veto: null, judged: false });
    assert.deepEqual(await permissionVerdict(policy(), ask({ toolKind: 'search', args: { path: outside } }), dir), { veto: null, judged: true });
  });

  it('a path under a field the guard does not know is judged too, at any depth, when it is absolute, ~ or has ".."; text fields are not read as paths', async () => {
    // An MCP tool (Claude asks it as kind "other", its input as the tool takes it): a field named
    // for the guard inside, the file it really writes under a name the guard does not know.
    const mcp = (input: Record<string, unknown>) => ask({ toolKind: 'other', title: 'mcp__files__export', args: input });
    const inside = path.join(dir, 'a.ts');
    assert.match((await permissionVeto(policy(), mcp({ path: inside, output_file: path.join(outside, 'x') }), dir))!, /^mcp__files__export \(kind "other"\) ".*elsewhere\/x": outside the allowed paths/);
    assert.match((await permissionVeto(policy(), mcp({ path: inside, save_to: '../elsewhere/y' }), dir))!, /"\.\.\/elsewhere\/y": outside/);
    assert.match((await permissionVeto(policy(), mcp({ path: inside, out: 'file:///etc/z' }), dir))!, /outside/);
    assert.match((await permissionVeto(policy(), mcp({ path: inside, target_file: `${dir}/.git/hooks/pre-commit` }), dir))!, /forbidden/);
    // Nested deeper than the guard used to look (it stopped at four levels, without a word).
    const deep = { a: { b: { c: { d: { e: { f: [{ where: path.join(outside, 'deep') }] } } } } } };
    assert.match((await permissionVeto(policy(), mcp({ path: inside, options: deep }), dir))!, /deep": outside/);
    // What an edit writes is text, not a file it names, and a URL or a plain word is no path.
    const edit = ask({ toolKind: 'edit', args: { path: inside, old_str: '/etc/passwd', new_str: '../x', content: '/* c */', newString: '~/x', url: 'https://example.com/a', mode: 'fast' } });
    assert.equal(await permissionVeto(policy(), edit, dir), null);
    assert.deepEqual(await permissionVerdict(policy(), mcp({ path: inside, branch: 'feature/x', url: 'https://example.com' }), dir), { veto: null, judged: true });
  });

  it('a relative name under a field the guard does not know is judged against the forbidden names only: a config file is refused, a word outside the allowed paths is not', async () => {
    const mcp = (input: Record<string, unknown>, toolKind = 'other') => ask({ toolKind, title: 'mcp__files__export', args: input });
    const srcOnly = resolveGuard({ allowedPaths: [path.join(dir, 'src')], forbiddenPaths: [], bash: false }, dir)!;
    assert.match((await permissionVeto(srcOnly, mcp({ path: 'src/a', target_file: '.vscode/settings.json' }), dir))!, /^mcp__files__export \(kind "other"\) "\.vscode\/settings\.json": forbidden/);
    assert.match((await permissionVeto(srcOnly, mcp({ path: 'src/a', out: { list: ['docs/x', 'src/.git/hooks/pre-commit'] } }), dir))!, /"src\/\.git\/hooks\/pre-commit": forbidden/);
    assert.match((await permissionVeto(srcOnly, mcp({ path: 'src/a', save: '.env' }), dir))!, /"\.env": forbidden/);
    // An edit too, and one naming nothing else (it is refused, not left unjudged).
    assert.match((await permissionVeto(srcOnly, mcp({ path: 'src/a', also: '.git/config' }, 'edit'), dir))!, /^edit "\.git\/config": forbidden/);
    assert.match((await permissionVeto(srcOnly, mcp({ query: '.vscode/launch.json' }), dir))!, /forbidden/);
    // Not judged against the allowed paths (a branch, a glob, a route are no files), nor a URL or words with spaces.
    assert.deepEqual(await permissionVerdict(srcOnly, mcp({ path: 'src/a', branch: 'feature/x', glob: './docs/*.md', route: 'api/v1', url: 'https://example.com/.env', note: 'see .git/config please' }), dir), { veto: null, judged: true });
    assert.deepEqual(await permissionVerdict(srcOnly, mcp({ branch: 'feature/x' }), dir), { veto: null, judged: false });
  });
});
