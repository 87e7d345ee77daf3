// What the Event Log's page makes of the event kinds the ACP dialect brought into the one model
// (questions, plans, changes) and of a worker that cannot steer or compact: no ACP name is used.
import assert from 'node:assert/strict';
import { composerView } from '../../src/webview/composer';
import type { EndEntry, PlanEntry, QuestionEntry, ToolEntry } from '../../src/webview/entries';
import { LogModel } from '../../src/webview/model';
import type { PageEvent, WorkerView } from '../../src/protocol/messages';

const at = (type: string, extra: Partial<PageEvent> = {}): PageEvent => ({ type, timestamp: 1, ...extra }) as PageEvent;

describe('Event Log page: questions, plans and changes', () => {
  it('a question is asked, then answered in place; a dismissed one says so', () => {
    const m = new LogModel();
    m.apply([
      at('permission_request', { title: 'Run `rm -rf build`', data: { id: 'p1', command: 'rm -rf build', options: [{ name: 'Allow once' }, { name: 'Reject' }] } }),
      at('permission_request', { title: 'Edit a.ts', data: { id: 'p2', command: null, options: [{ name: 'Allow' }] } }),
    ]);
    const [q1, q2] = m.all() as QuestionEntry[];
    assert.equal(q1.answer, null);
    assert.deepEqual(q1.options, ['Allow once', 'Reject']);
    m.apply([at('permission_end', { data: { id: 'p1', optionName: 'Reject', outcome: 'selected' } }), at('permission_end', { error: 'the turn was aborted', data: { id: 'p2', optionName: null, outcome: 'cancelled' } })]);
    assert.equal(q1.answer, 'Reject');
    assert.equal(q2.dismissed, true);
    assert.equal(q2.note, 'the turn was aborted');
  });

  it('a plan is one entry per turn, kept current as the agent sends it whole again', () => {
    const m = new LogModel();
    const plan = (statuses: string[]) => at('plan', { data: { entries: statuses.map((status, i) => ({ content: `step ${i}`, status })) } });
    m.apply([at('agent_start', { turn: { index: 1, opens: true } }), plan(['in_progress', 'pending']), plan(['completed', 'in_progress'])]);
    const plans = m.all().filter((e) => e.kind === 'plan') as PlanEntry[];
    assert.equal(plans.length, 1);
    assert.deepEqual(plans[0].items.map((i) => i.status), ['completed', 'in_progress']);
    m.apply([at('agent_start', { turn: { index: 2, opens: true } }), plan(['pending'])]);
    assert.equal(m.all().filter((e) => e.kind === 'plan').length, 2, 'the next turn has a plan of its own');
  });

  it('a tool call is named by its title; a change and the arguments sent later are kept', () => {
    const m = new LogModel();
    m.apply([
      at('tool_execution_start', { tool_call_id: 't1', tool_name: 'edit', title: 'Edit src/a.ts' }),
      at('tool_execution_update', { tool_call_id: 't1', args: { file_path: 'src/a.ts' }, diffs: [{ path: '/w/src/a.ts', oldText: 'a\n', newText: 'b\n' }] }),
      at('tool_execution_end', { tool_call_id: 't1', is_error: false, title: 'Edited src/a.ts' }),
    ]);
    const tool = m.all().find((e) => e.kind === 'tool') as ToolEntry;
    assert.equal(tool.title, 'Edited src/a.ts');
    assert.deepEqual(tool.args, { file_path: 'src/a.ts' });
    assert.deepEqual(tool.changes, [{ path: '/w/src/a.ts', oldText: 'a\n', newText: 'b\n' }]);
    assert.notEqual(tool.endedAt, null);
  });

  it('a turn the agent refused for want of a key says how this agent takes one on its "Turn ended" row; another error does not', () => {
    const m = new LogModel();
    m.login = 'For Claude: set ANTHROPIC_API_KEY';
    const refused = 'Claude Agent needs a login before it can answer (it answered the prompt with -32000 Authentication required)';
    m.apply([
      at('agent_start', { turn: { index: 1, opens: true } }),
      at('agent_settled', { turn: { index: 1, ends: true }, end_reason: 'error', is_error: true, error: refused, data: { needsLogin: true } }),
      at('agent_start', { turn: { index: 2, opens: true } }),
      at('agent_settled', { turn: { index: 2, ends: true }, end_reason: 'error', is_error: true, error: 'boom' }),
    ]);
    const ends = m.all().filter((e) => e.kind === 'end') as EndEntry[];
    assert.deepEqual(ends.map((e) => [e.error, e.login]), [[refused, 'For Claude: set ANTHROPIC_API_KEY'], ['boom', undefined]]);
  });

  it('the readouts an agent sends (usage, commands, options, title) are not rows', () => {
    const m = new LogModel();
    m.apply(['usage_update', 'commands_changed', 'config_changed', 'session_info'].map((t) => at(t, { data: {} })));
    assert.equal(m.length, 0);
  });
});

describe('Event Log composer: a worker that cannot steer or compact', () => {
  const view = (over: Partial<WorkerView>): WorkerView => ({ workerId: 'w', name: 'Claude', status: 'running', streaming: false, compacting: false, model: null, dialect: 'acp', pid: 1, ...over });

  it('while it streams, Steer is greyed with the reason and Follow-up and Redirect stay', () => {
    const v = composerView(view({ streaming: true, noSteer: true }));
    assert.equal(v.disabled.send, true);
    assert.equal(v.disabled.followUp, false);
    assert.equal(v.disabled.redirect, false);
    assert.match(v.sendTitle, /cannot be steered/);
    assert.equal(composerView(view({ streaming: true })).disabled.send, false, 'a worker that steers keeps Steer');
  });

  it('Compact is greyed for good where the agent has none, saying why', () => {
    const v = composerView(view({ noCompact: 'this agent has no compaction (it lists no /compact command)' }));
    assert.equal(v.disabled.compact, true);
    assert.equal(v.compactTitle, 'this agent has no compaction (it lists no /compact command)');
    assert.equal(composerView(view({})).disabled.compact, false);
  });
});
