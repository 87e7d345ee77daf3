// The Markdown export of ACP agents' tool calls, from their recorded updates: what a call ran,
// what it printed and what it changed, where the agent says each (its first tool_call, a later
// update, its end).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { sessionMarkdown } from '../../src/core/export/markdown';
import { updateEvent } from '../../src/core/wire/acpEvents';

/** The tool calls' events of a recorded ACP transcript, as the host makes them. */
function toolEvents(transcript: string): AgentEvent[] {
  const lines = readFileSync(`test/fixtures/acp-transcripts/${transcript}.jsonl`, 'utf8').split('\n').filter(Boolean);
  return lines.flatMap((l) => {
    const u = (JSON.parse(l) as { msg: { method?: string; params?: { update?: { sessionUpdate?: string } } } }).msg.params?.update;
    if (!u || !String(u.sessionUpdate).startsWith('tool_call')) return [];
    const e = updateEvent(u as Parameters<typeof updateEvent>[0]);
    return 'invalid' in e ? [] : [e];
  });
}

const T = Date.UTC(2026, 11, 3, 7, 0, 0);
const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: T, ...extra });

describe('Markdown export of ACP tool calls', () => {
  it('says the command Claude and OpenCode name only in an update after the call opened with none', () => {
    for (const [transcript, command] of [['claude-agent-acp-shell-cancel', "python3 -c 'import time; time.sleep(37.423)'"], ['opencode-shell-cancel', 'sleep 37.623; echo done']] as const) {
      const md = sessionMarkdown([ev('prompt_sent', { data: { text: 'run it' } }), ...toolEvents(transcript), ev('agent_settled', { end_reason: 'aborted' })], { title: 'w' });
      assert.ok(md.includes(`"command": ${JSON.stringify(command)}`), `${transcript}: the command is in the export:\n${md}`);
    }
  });

  it("says a command's output that came only in updates (Codex's chunks), not an empty result", () => {
    const md = sessionMarkdown([
      ev('tool_execution_start', { tool_call_id: 'c1', tool_name: 'execute', args: { command: ['npm', 'test'] } }),
      ev('tool_execution_update', { tool_call_id: 'c1', result: { output: '3 passing\n' }, data: { outputDelta: true } }),
      ev('tool_execution_update', { tool_call_id: 'c1', result: { output: '1 failing\n' }, data: { outputDelta: true } }),
      ev('tool_execution_end', { tool_call_id: 'c1', is_error: true, data: { status: 'failed' } }),
      ev('agent_settled', { end_reason: 'done' }),
    ], { title: 'w' });
    assert.ok(md.includes('```\n3 passing\n1 failing\n```'), `the output is in the export:\n${md}`);
  });

  it('says the file changes a call made or proposed (its diffs), a new file and an edit alike, not only that it ran', () => {
    const md = sessionMarkdown([
      ev('tool_execution_start', { tool_call_id: 'e1', tool_name: 'edit', title: 'Edit src/a.ts', diffs: [{ path: '/w/src/a.ts', oldText: 'one\ntwo\nthree', newText: 'one\n2\nthree' }] }),
      ev('tool_execution_end', { tool_call_id: 'e1', tool_name: 'edit', is_error: false, data: { status: 'completed' } }),
      ev('tool_execution_start', { tool_call_id: 'e2', tool_name: 'edit', title: 'Write new.txt' }),
      ev('tool_execution_update', { tool_call_id: 'e2', diffs: [{ path: '/w/new.txt', oldText: null, newText: 'hello' }] }),
      ev('tool_execution_end', { tool_call_id: 'e2', tool_name: 'edit', is_error: false, data: { status: 'completed' } }),
      ev('agent_settled', { end_reason: 'done' }),
    ], { title: 'w' });
    assert.ok(md.includes('Change: `/w/src/a.ts` (from line 2)\n\n```diff\n-two\n+2\n```'), `the edit's change is in the export:\n${md}`);
    assert.ok(md.includes('New file: `/w/new.txt`\n\n```diff\n+hello\n```'), `the new file is in the export:\n${md}`);
  });
  it("says the questions put to the person and their answers (an ACP permission, a pi extension's dialog), where they were asked", () => {
    const md = sessionMarkdown([
      ev('prompt_sent', { data: { text: 'fix it' } }),
      ev('tool_execution_start', { tool_call_id: 'c1', tool_name: 'edit', args: { path: 'a.ts' } }),
      ev('message_update', { delta: 'I will edit it.', block_type: 'text' }),
      ev('permission_request', { tool_call_id: 'c1', title: 'Edit a.ts', data: { id: 'q1', command: null, options: [{ optionId: 'y', name: 'Allow once' }, { optionId: 'n', name: 'Reject' }] } }),
      ev('permission_end', { tool_call_id: 'c1', title: 'Edit a.ts', is_error: false, error: null, data: { id: 'q1', outcome: 'selected', optionId: 'n', optionName: 'Reject', note: null } }),
      ev('tool_execution_end', { tool_call_id: 'c1', is_error: true }),
      ev('ui_dialog', { title: 'Proceed?', data: { id: 'd1', method: 'confirm', message: 'Deploy to prod', options: ['Yes', 'No'] } }),
      ev('ui_dialog_end', { title: 'Proceed?', data: { id: 'd1', outcome: 'answered', answer: 'No', note: null } }),
      ev('permission_request', { title: 'Run `rm -rf build`', data: { id: 'q2', command: 'rm -rf build', options: [{ optionId: 'y', name: 'Allow' }] } }),
      ev('permission_end', { is_error: false, error: null, data: { id: 'q2', outcome: 'cancelled', optionId: null, optionName: null, note: 'the turn ended before an answer' } }),
      ev('agent_settled', { end_reason: 'done' }),
    ], { title: 'w' });
    const at = (text: string) => { const i = md.indexOf(text); assert.ok(i >= 0, `${text} is in the export:\n${md}`); return i; };
    assert.ok(at('I will edit it.') < at('> Asked: Edit a.ts (Allow once / Reject)'), 'the question comes after what the agent said before it');
    assert.ok(at('> Asked: Edit a.ts (Allow once / Reject)') < at('> Answer: Reject'));
    at('> Asked: Proceed?: Deploy to prod (Yes / No)');
    at('> Answer: No');
    at('> Asked: Run \\`rm -rf build\\`: `rm -rf build` (Allow)');
    at('> Answer: none (the turn ended before an answer)');
  });
});

describe('Markdown export of an agent plan', () => {
  it("says the plan each turn came to, as a checklist before the turn's end, not every update of it", () => {
    const md = sessionMarkdown([
      ev('prompt_sent', { data: { text: 'fix it' } }),
      ev('plan', { data: { entries: [{ content: 'Read a.ts', status: 'in_progress', priority: 'high' }, { content: 'Fix the bug', status: 'pending', priority: 'high' }] } }),
      ev('plan', { data: { entries: [{ content: 'Read a.ts', status: 'completed', priority: 'high' }, { content: 'Fix the bug', status: 'in_progress', priority: 'high' }] } }),
      ev('agent_settled', { end_reason: 'done' }),
      ev('prompt_sent', { data: { text: 'and now?' } }),
      ev('plan', { data: { entries: [] } }),
      ev('agent_settled', { end_reason: 'done' }),
    ], { title: 'w' });
    assert.ok(md.includes('**Plan:** 1 of 2 done\n\n- [x] Read a.ts\n- [ ] Fix the bug _(in progress)_\n\n_Turn ended: done_'), `the first turn's last plan, before its end:\n${md}`);
    assert.equal(md.split('Read a.ts').length - 1, 1, `one plan for the turn, not one per update:\n${md}`);
    assert.ok(md.includes('**Plan:** no steps\n\n_Turn ended: done_'), `the second turn's empty plan:\n${md}`);
  });

  it('says a replayed plan before the resume mark, not at the end of the next turn', () => {
    const md = sessionMarkdown([
      ev('plan', { data: { entries: [{ content: 'Old step', status: 'completed', priority: 'low' }] } }),
      ev('session_resumed', { data: { session: { id: 's1' } } }),
      ev('prompt_sent', { data: { text: 'go on' } }),
      ev('agent_settled', { end_reason: 'done' }),
    ], { title: 'w' });
    assert.ok(md.indexOf('Old step') < md.indexOf('Resumed session'), `the replayed plan stands before the mark:\n${md}`);
  });
});
