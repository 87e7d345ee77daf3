// A host terminal's output in a VS Code terminal (the Event Log's "Show in Terminal"): the tool
// call's row names its terminal, and the feed the Pseudoterminal writes gives the output so far,
// then live, and how the command exited. Driven with the fake ACP agent's `term:` command.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { TerminalFeed } from '../../src/ui/host/terminalFeed';
import { LogModel } from '../../src/webview/model';
import type { ToolEntry } from '../../src/webview/entries';
import type { PageEvent } from '../../src/protocol/messages';
import { fakeAcpWorkers } from '../helpers/fakeAcp';

describe('ACP: a host terminal shown in a VS Code terminal', () => {
  let dir: string;
  let supervisor: Supervisor;
  before(() => { dir = mkdtempSync(path.join(tmpdir(), 'rpc-acp-hostterm-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => { supervisor = createSupervisor({}); });
  afterEach(() => supervisor.dispose());
  const { start, turn } = fakeAcpWorkers(() => supervisor, () => dir);

  it('the row names the terminal; the feed shows its output with CRLF line ends and its exit code', async () => {
    const id = await start();
    const r = await turn(id, 'term: echo one; echo two; exit 3');
    const m = new LogModel();
    m.apply(r.events as unknown as PageEvent[]);
    const row = m.all().find((e) => e.kind === 'tool') as ToolEntry;
    assert.deepEqual(row.terminals, ['term-1'], 'the row offers Show in Terminal for its terminal');
    // Opened after the command ended: what the log holds, replayed.
    const feed = new TerminalFeed('term-1');
    const text = supervisor.events(id).map((e) => feed.take(e)).join('');
    assert.equal(text, 'one\r\ntwo\r\n\r\n[the command exited with code 3]\r\n');
    assert.equal(feed.exited, true);
    assert.equal(new TerminalFeed('term-2').take(supervisor.events(id).at(-1)!), '', 'another terminal\'s events write nothing');
  });

  it('the row shows a terminal\'s output once, though each update carries the output so far (issue 25)', async () => {
    const id = await start();
    // The command's own pause makes its output come in two updates (the host batches 50 ms).
    const r = await turn(id, 'term: echo one; sleep 0.3; echo two');
    const updates = r.events.filter((e) => e.type === 'tool_execution_update' && e.data?.terminalId);
    assert.ok(updates.length >= 2, `the output came in ${updates.length} update(s)`);
    const m = new LogModel();
    m.apply(r.events as unknown as PageEvent[]);
    const row = m.all().find((e) => e.kind === 'tool') as ToolEntry;
    assert.match(row.output, /^one\ntwo\n/);
    assert.doesNotMatch(row.output, /one[^]*one/);
  });

  it('live: output as it comes, only what is new after a cut by the byte limit, what was cut unseen said, and an end by a signal named', () => {
    const feed = new TerminalFeed('t');
    const update = (output: string, dropped = 0) => ({ type: 'tool_execution_update' as const, result: { output }, data: { terminalId: 't', dropped } });
    assert.equal(feed.take(update('ab\n')), 'ab\r\n');
    assert.equal(feed.take(update('ab\ncd')), 'cd');
    // The front cut (3 characters gone): what is kept now starts inside what was shown.
    assert.equal(feed.take(update('cdef', 3)), 'ef');
    assert.equal(feed.take(update('efgh', 5)), 'gh');
    // Cut beyond what was shown: "ij" never reached the view, and the view says so.
    assert.match(feed.take(update('klm', 11)), /^\r\n\[2 characters of output were cut by the byte limit before they could be shown\]\r\nklm$/);
    assert.equal(feed.take({ type: 'terminal', data: { op: 'exit', terminalId: 't', exitCode: null, signal: 'SIGTERM' } }), '\r\n[the command was ended by SIGTERM]\r\n');
    assert.equal(feed.take(update('more')), '', 'nothing after the exit');
  });

  it('a command that exits before its output reaches the row: the exit brings the output', () => {
    const feed = new TerminalFeed('t');
    assert.equal(feed.take({ type: 'terminal', data: { op: 'exit', terminalId: 't', exitCode: 3, signal: null, output: 'one\ntwo\n' } }), 'one\r\ntwo\r\n\r\n[the command exited with code 3]\r\n');
    assert.equal(feed.take({ type: 'tool_execution_update', result: { output: 'one\ntwo\n' }, data: { terminalId: 't' } }), '');
  });

  it('a program that could not be run (not installed) is said so, never "code null"', () => {
    const feed = new TerminalFeed('t');
    assert.equal(feed.take({ type: 'terminal', data: { op: 'exit', terminalId: 't', exitCode: null, signal: null, output: 'spawn pytest ENOENT\n' } }), 'spawn pytest ENOENT\r\n\r\n[the command could not be run]\r\n');
  });
});
