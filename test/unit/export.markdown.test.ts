// The Markdown export, from events alone: what each block says, fences that hold any text, and
// the same rendering for pi-shaped and τ-shaped streams.
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { sessionMarkdown, toolDetailsFromMessages } from '../../src/core/export/markdown';
import { contentText } from '../../src/protocol/eventText';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, waitFor } from '../helpers/supervisor';

const T = Date.UTC(2026, 11, 3, 7, 0, 0);
const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: T, ...extra });

describe('session export as Markdown', () => {
  it('exports a tool result with any number of backtick runs (a minified bundle read): the fence is longer than each', () => {
    // 150,000 runs: spread into Math.max as arguments, they overflowed the stack and the export threw.
    const text = 'x`'.repeat(150_000) + 'y```z';
    const md = sessionMarkdown([
      ev('tool_execution_start', { tool_name: 'read', tool_call_id: 't1', args: { path: 'dist/app.js' } }),
      ev('tool_execution_end', { tool_name: 'read', tool_call_id: 't1', result: { content: [{ type: 'text', text }] }, is_error: false }),
    ], { title: 'w' });
    assert.ok(md.includes(`\n\`\`\`\`\n${text}\n\`\`\`\``), 'the result in a fence of four backticks');
  });

  it('a turn still running when exported says so at its end; one that ended, or none at all, says nothing of it', () => {
    const running = [ev('prompt_sent', { data: { text: 'usage 3' } }), ev('agent_start'), ev('message_update', { delta: 'Working', block_type: 'text' })];
    const md = sessionMarkdown(running, { title: 'w', running: true });
    assert.match(md, /\*\*Reply\*\*\n\nWorking\n\n_Turn still running when exported_\n$/);
    // The worker had ended, or this is a past session's log: its turn is not said to run.
    assert.doesNotMatch(sessionMarkdown(running, { title: 'w' }), /still running/);
    assert.doesNotMatch(sessionMarkdown([...running, ev('agent_settled', { end_reason: 'done' })], { title: 'w', running: true }), /still running/);
    assert.doesNotMatch(sessionMarkdown([], { title: 'w', running: true }), /still running/);
  });

  it('a compaction that found nothing to compact says so, not "done"', () => {
    const md = sessionMarkdown([ev('compaction_start', { data: { reason: 'manual' } }), ev('compaction_end', { is_error: false, data: { performed: false, cancelled: false } })], { title: 'w' });
    assert.match(md, /^> Compaction: nothing to compact$/m);
    assert.doesNotMatch(md, /Compaction done/);
  });

  it('says each prompt with its origin, the reply, each tool call with arguments and result, and how the turn ended', () => {
    const md = sessionMarkdown([
      ev('prompt_sent', { source: 'palette', submitter: 'ada', submission_id: 's1', data: { text: 'list the files', streamingBehavior: null } }),
      ev('agent_start'),
      ev('message_start', { message: { role: 'user', content: 'list the files' } }),
      ev('message_end', { message: { role: 'user', content: 'list the files' } }),
      ev('message_update', { delta: 'Let me ', block_type: 'text' }),
      ev('message_update', { delta: 'look.', block_type: 'text' }),
      ev('message_end', { message: { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'toolCall', name: 'bash' }] } }),
      ev('tool_execution_start', { tool_name: 'bash', tool_call_id: 't1', args: { command: 'ls' } }),
      ev('tool_execution_end', { tool_name: 'bash', tool_call_id: 't1', result: { content: [{ type: 'text', text: 'a.txt\nb.txt' }] }, is_error: false }),
      ev('tool_execution_start', { tool_name: 'write', tool_call_id: 't2', args: { path: '/etc/x' } }),
      ev('tool_execution_end', { tool_name: 'write', tool_call_id: 't2', result: 'refused', is_error: true, blocked: true, blocked_by: 'rpc-workers-guard', error: 'outside the workspace' }),
      ev('message_update', { delta: 'Two files.', block_type: 'text' }),
      ev('message_end', { message: { role: 'assistant', content: [{ type: 'text', text: 'Two files.' }] } }),
      ev('agent_end', { end_reason: 'done' }),
      ev('agent_settled', { end_reason: 'done' }),
    ], { title: 'pi worker', dialect: 'pi 1.6.0', model: 'mock/mock-1' });
    assert.equal(md, [
      '# pi worker', '', 'Worker: pi 1.6.0 · Model: mock/mock-1', '',
      '## Turn 1', '', '**Prompt** (from palette, by ada, submission s1), 2026-12-03 07:00:00 UTC', '', '```', 'list the files', '```', '',
      '**Reply**', '', 'Let me look.', '',
      '**Tool call** `bash`', '', '```json', '{\n  "command": "ls"\n}', '```', '',
      '**Result** of `bash` (ok)', '', '```', 'a.txt\nb.txt', '```', '',
      '**Tool call** `write`', '', '```json', '{\n  "path": "/etc/x"\n}', '```', '',
      '**Result** of `write` (blocked by rpc-workers-guard: outside the workspace)', '', '```', 'refused', '```', '',
      '**Reply**', '', 'Two files.', '',
      '_Turn ended: done_', '',
    ].join('\n'));
  });

  it('a turn the agent refused for want of a key says how it takes one (meta.login), as the log and the notification do; another error does not', () => {
    const login = 'For Claude: set ANTHROPIC_API_KEY';
    const md = sessionMarkdown([
      ev('agent_settled', { end_reason: 'error', error: 'Claude needs a login', data: { needsLogin: true } }),
      ev('agent_settled', { end_reason: 'error', error: '429 from the model' }),
    ], { login });
    assert.match(md, /_Turn ended: error \(Claude needs a login\)\. For Claude: set ANTHROPIC_API_KEY_/);
    assert.match(md, /_Turn ended: error \(429 from the model\)_/);
    assert.equal(md.split(login).length, 2, 'said once, on the refused turn');
  });

  it('uses the streamed text where the end carries no message (τ), and marks steer, errors, resume, fork, model, mode and exit', () => {
    const md = sessionMarkdown([
      ev('session_resumed', { data: { session: { id: 'abc', file: null } } }),
      ev('prompt_sent', { source: 'api', data: { text: 'go', streamingBehavior: null } }),
      ev('message_update', { delta: 'partial', block_type: 'text' }),
      ev('message_update', { delta: 'whole', block_type: 'text', replace: true }),
      ev('message_update', { delta: 'hidden thought', block_type: 'thinking' }),
      ev('prompt_sent', { source: 'editor', data: { text: 'also this', streamingBehavior: 'steer' } }),
      ev('message_end'),
      ev('agent_settled', { end_reason: 'error', error: '429 from the model' }),
      ev('session_changed', { data: { verb: 'fork', session: { id: 'def' } } }),
      ev('model_changed', { data: { model: 'openai/mock-2' } }),
      ev('mode_changed', { data: { mode: 'https://agentclientprotocol.com/protocol/session-modes#plan', name: 'Plan' } }),
      ev('mode_changed', { data: { mode: 'yolo', name: null } }),
      ev('mode_changed', { data: { mode: 'yolo', repeated: true } }),
      ev('worker_exit', { data: { status: 'stopped' } }),
    ]);
    assert.match(md, /> Resumed session `abc`/);
    assert.match(md, /\*\*Reply\*\*\n\nwhole\n/);
    assert.doesNotMatch(md, /hidden thought|partial/);
    assert.match(md, /\*\*Prompt\*\* \(steer, from editor\)/);
    assert.equal(md.match(/## Turn/g)?.length, 1, 'a steer joins the running turn');
    assert.match(md, /_Turn ended: error \(429 from the model\)_/);
    assert.match(md, /> Forked into session `def`/);
    assert.match(md, /> Model: openai\/mock-2/);
    assert.match(md, /> Mode: Plan\n/, 'a mode change by the name the agent gives it');
    assert.match(md, /> Mode: yolo\n/, 'its id where the agent names none');
    assert.equal(md.match(/> Mode: yolo\n/g)?.length, 1, 'the mode said again is not a second line');
    assert.match(md, /> The worker was stopped/);
  });

  it('closes the code block of a reply cut off inside it, so the turns after it are not its code', () => {
    const md = sessionMarkdown([
      ev('prompt_sent', { data: { text: 'write it' } }),
      ev('message_update', { delta: 'Here:\n\n```python\nx = 1', block_type: 'text' }),
      ev('agent_settled', { end_reason: 'aborted' }),
      ev('prompt_sent', { data: { text: 'again' } }),
      ev('message_update', { delta: 'Inline ``` is no fence, and\n~~~\ncode\n~~~\nis closed.', block_type: 'text' }),
    ]);
    assert.match(md, /```python\nx = 1\n```\n\n_Turn ended: aborted_\n\n## Turn 2/);
    assert.match(md, /\n~~~\nis closed\.\n$/, 'a closed block is left as it is');
    const crlf = sessionMarkdown([ev('message_update', { delta: 'a\r\n```js\r\nx\r\n```', block_type: 'text' }), ev('message_end')]);
    assert.match(crlf, /\r\nx\r\n```\n$/, 'a block opened on a CRLF line and closed is closed, not opened again');
  });

  it('keeps a note on its line when the worker\'s error has several, and says what the export leaves out', () => {
    const md = sessionMarkdown([
      ev('agent_settled', { end_reason: 'error', error: 'boom\n# not a heading' }),
      ev('worker_exit', { is_error: true, error: 'exit 1:\n```\nstack' }),
    ], { title: 't', missing: ['the first 5 events\nof it'] });
    assert.match(md, /^# t\n\n> \*\*Not in this export:\*\* the first 5 events of it\n/);
    assert.match(md, /_Turn ended: error \(boom # not a heading\)_/);
    assert.match(md, /> The worker failed: exit 1: \\`\\`\\` stack\n$/, 'its backticks are text (escaped), as the rest of it');
  });

  it('a live worker\'s export says the events the host no longer keeps in memory', async function () {
    this.timeout(30_000);
    const supervisor = createSupervisor({ limits: { eventStoreSize: 3 } });
    try {
      const r = await supervisor.start(fakeSpec('pi'));
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      if (r.status !== 'started') return;
      const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
      assert.equal((await supervisor.prompt(r.workerId, 'hello')).status, 'accepted');
      await settled;
      const st = supervisor.state(r.workerId);
      const evicted = st.status === 'not_found' ? 0 : st.state.eventsDropped;
      assert.ok(evicted > 0);
      const md = await supervisor.exportMarkdown(r.workerId);
      assert.match(md.status === 'exported' ? md.markdown : '', new RegExp(`> \\*\\*Not in this export:\\*\\* the first ${evicted} events of this worker: the host keeps its newest 3`));
    } finally {
      await supervisor.dispose();
    }
  });

  it('a τ worker exported mid-turn says its tool calls\' arguments and results are not in it (its events carry none)', async function () {
    this.timeout(30_000);
    const supervisor = createSupervisor({});
    try {
      const r = await supervisor.start(fakeSpec('tau'));
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      if (r.status !== 'started') return;
      const toolDone = waitFor(supervisor, r.workerId, ofType('tool_execution_end'));
      assert.equal((await supervisor.prompt(r.workerId, 'tool read {"path":"README.md"}\nwait 20000')).status, 'accepted');
      const end = await toolDone;
      assert.equal(end.result, undefined, 'τ\'s tool events carry no result');
      const md = await supervisor.exportMarkdown(r.workerId);
      assert.match(md.status === 'exported' ? md.markdown : '', /> \*\*Not in this export:\*\* the arguments and results of tool calls whose events carry none: .*busy.*\(export again once it settles\)/);
      // Its last turn reads as one still running, not as one that ended with its prompt (or its last call).
      assert.match(md.status === 'exported' ? md.markdown : '', /\n_Turn still running when exported_\n$/);
      await supervisor.abort(r.workerId);
    } finally {
      await supervisor.dispose();
    }
  });

  it('a τ worker exported after it exited says its messages went with it, not "export again once it settles"', async function () {
    this.timeout(30_000);
    const supervisor = createSupervisor({});
    try {
      const r = await supervisor.start(fakeSpec('tau'));
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      if (r.status !== 'started') return;
      const exited = waitFor(supervisor, r.workerId, ofType('worker_exit'));
      assert.equal((await supervisor.prompt(r.workerId, 'tool read {"path":"README.md"}\nexit 0')).status, 'accepted');
      await exited;
      const md = await supervisor.exportMarkdown(r.workerId);
      const text = md.status === 'exported' ? md.markdown : '';
      // It will never settle: the note said to wait for what cannot come.
      assert.doesNotMatch(text, /export again once it settles/);
      assert.match(text, /> \*\*Not in this export:\*\* the arguments and results of tool calls whose events carry none: the worker has ended, and its messages with it/);
    } finally {
      await supervisor.dispose();
    }
  });

  it('keeps a title, a folder and a tool\'s name with a line break or backticks in their place', () => {
    const md = sessionMarkdown([ev('tool_execution_start', { tool_name: 'run`it' })], { title: 'mine\n# not a title', cwd: '/w/`odd`' });
    assert.match(md, /^# mine # not a title\n\nFolder: `` \/w\/`odd` ``\n\n\*\*Tool call\*\* ``run`it``\n$/);
  });

  it('the worker\'s text on a note line (an error, a mode, a model) and the name are text, not HTML or emphasis: rendered, nothing in them runs or vanishes', () => {
    const md = sessionMarkdown([
      ev('agent_settled', { end_reason: 'error', error: 'expected <string>, got <script>alert(1)</script> *at* [here](javascript:x)' }),
      ev('mode_changed', { data: { mode: 'm', name: '<img src=x onerror=alert(1)>' } }),
      ev('model_changed', { data: { model: 'a_b <i>' } }),
      ev('guard_violation', { tool_name: 'bash', error: '_all_ of it' }),
      ev('tool_execution_end', { tool_name: 'write', blocked: true, blocked_by: '<b>guard</b>', error: 'path <outside>' }),
      ev('worker_exit', { is_error: true, error: '<!-- hidden' }),
    ], { title: 'fix <auth> & *all*', model: '<m>' });
    // No `<` opens a tag (there is no fence or code span here), and no `*`, `_` or `[` of theirs is Markdown's.
    assert.doesNotMatch(md, /(^|[^\\])</m, md);
    assert.match(md, /^> Mode: \\<img src=x onerror=alert\(1\)\\>$/m);
    assert.match(md, /^> Model: a_b \\<i\\>$/m, 'an _ inside a word begins nothing: left as it is');
    assert.match(md, /^\*\*Result\*\* of `write` \(blocked by \\<b\\>guard\\<\/b\\>: path \\<outside\\>\)$/m);
    assert.match(md, /^> The worker failed: \\<!-- hidden$/m);
    assert.match(md, /^> Guard \(not prevented: the call may have run\): `bash` \\_all\\_ of it$/m);
    assert.match(md, /^# fix \\<auth\\> \\& \\\*all\\\*$/m);
    assert.match(md, /_Turn ended: error \(expected \\<string\\>, got \\<script\\>alert\(1\)\\<\/script\\> \\\*at\\\* \\\[here\\\]\(javascript:x\)\)_/);
  });

  it('control characters in a tool\'s output or a reply: colour codes go, the others are shown as their symbols, so a saved export is text (git called it binary)', () => {
    const md = sessionMarkdown([
      ev('tool_execution_end', { tool_name: 'bash', result: { content: [{ type: 'text', text: 'ok \x1b[31mred\x1b[0m, \x1b]8;;http://x\x07link\x1b]8;;\x07 \x00\x01 end\r\n' }] } }),
      ev('message_end', { message: { role: 'assistant', content: [{ type: 'text', text: 'bell\x07 and del\x7f' }] } }),
    ]);
    // eslint-disable-next-line no-control-regex -- control characters are what it looks for
    assert.doesNotMatch(md, /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/, JSON.stringify(md));
    assert.match(md, /\nok red, link \u2400\u2401 end\r?\n```/);
    assert.match(md, /\nbell\u2407 and del\u2421\n/);
  });

  it("colour codes in the worker's text on the document's own lines (a turn's error, a guard's) go as in its outputs, not shown as ␛[31m", () => {
    const md = sessionMarkdown([
      ev('agent_settled', { end_reason: 'error', error: '\x1b[31mError:\x1b[0m exit 1' }),
      ev('guard_violation', { tool_name: 'bash', error: 'wrote \x1b[1mx\x1b[22m' }),
    ]);
    assert.doesNotMatch(md, /\u241b|\[31m|\[1m/, JSON.stringify(md));
    assert.match(md, /_Turn ended: error \(Error: exit 1\)_/);
    assert.match(md, /^> Guard \(not prevented: the call may have run\): `bash` wrote x$/m);
  });

  it('fences text that holds backticks with a longer fence', () => {
    const md = sessionMarkdown([ev('prompt_sent', { data: { text: 'see ```js\nx\n``` and ````' } })]);
    assert.match(md, /\n`````\nsee ```js\nx\n``` and ````\n`````\n/);
  });

  it('reads text from a string, a content list, or an object with content', () => {
    assert.equal(contentText('x'), 'x');
    assert.equal(contentText([{ type: 'text', text: 'a' }, { type: 'image' }]), 'a[image]');
    assert.equal(contentText({ content: [{ type: 'text', text: 'b' }] }), 'b');
    assert.equal(contentText({ exit: 1 }), '{\n  "exit": 1\n}');
  });

  it('says a tool\'s output as the Event Log reads it, whatever the dialect: τ\'s and ACP\'s {output}, a preview the host kept (issue 25)', () => {
    const preview = '{"output":"big\\nstart';
    const md = sessionMarkdown([
      ev('tool_execution_end', { tool_name: 'bash', tool_call_id: 'a', result: { output: 'one\ntwo' } }),
      ev('tool_execution_end', { tool_name: 'bash', tool_call_id: 'b', result: { truncated: true, preview, chars: 5_000_000 } }),
    ]);
    assert.match(md, /\(ok\)\n\n```\none\ntwo\n```/);
    assert.ok(md.includes(['(ok)', '', '```', 'big', 'start', `[… ${5_000_000 - preview.length} more characters not shown]`, '```'].join('\n')), md);
  });

  it('fills a tool call\'s arguments and result from the worker\'s messages where its events carry none (τ), in pi\'s and τ\'s names', () => {
    const tools = toolDetailsFromMessages([
      { role: 'user', content: 'x' },
      { role: 'assistant', content: [{ type: 'toolCall', id: 'a', name: 'bash', arguments: { command: 'ls' } }, { type: 'toolCall', id: 'b', name: 'read', arguments: { path: 'f' } }] },
      { role: 'toolResult', tool_call_id: 'a', content: [{ type: 'text', text: 'τ says' }], is_error: false },
      { role: 'toolResult', toolCallId: 'b', content: [{ type: 'text', text: 'pi says' }], isError: false },
      'not a message',
    ]);
    assert.deepEqual([...tools.keys()], ['a', 'b']);
    const md = sessionMarkdown([
      ev('tool_execution_start', { tool_name: 'bash', tool_call_id: 'a' }),
      ev('tool_execution_end', { tool_name: 'bash', tool_call_id: 'a', is_error: false }),
      ev('tool_execution_end', { tool_name: 'read', tool_call_id: 'b', result: 'the event wins' }),
    ], { tools });
    assert.match(md, /```json\n\{\n {2}"command": "ls"\n\}\n```/);
    assert.match(md, /\(ok\)\n\n```\nτ says\n```/);
    assert.match(md, /the event wins/);
    assert.doesNotMatch(md, /pi says/);
  });
});
