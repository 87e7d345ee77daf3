// "Allow always", remembered by the host per worker: a later matching question of the same worker
// is answered with the agent's allow option without asking, the log says by which rule, the
// worker's state lists the rules, Forget clears one or all, and the guard's wall still comes
// first. Driven with the fake ACP agent, whose `shell:` and `edit:` questions offer an
// allow-always option, as Claude's, Codex's and Gemini's do.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PermissionAnswer, PermissionRequest, Supervisor, WorkerState } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { ruleKey } from '../../src/core/worker/permissionRules';
import { LogModel } from '../../src/webview/model';
import type { QuestionEntry } from '../../src/webview/entries';
import type { PageEvent } from '../../src/protocol/messages';
import { fakeAcpWorkers } from '../helpers/fakeAcp';


describe('ACP: allow always, remembered per worker', () => {
  let base: string;
  let dir: string;
  let supervisor: Supervisor;
  let asked: PermissionRequest[];
  before(() => {
    base = mkdtempSync(path.join(tmpdir(), 'rpc-acp-always-'));
    dir = path.join(base, 'work');
    mkdirSync(dir);
    mkdirSync(path.join(base, 'elsewhere'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));
  beforeEach(() => {
    asked = [];
    // The person always answers "always" (allow, where it is not offered).
    supervisor = createSupervisor({
      onPermission: async (req): Promise<PermissionAnswer> => { asked.push(req); return { optionId: (req.options.find((o) => o.kind === 'allow_always') ?? req.options.find((o) => o.kind === 'allow_once'))!.optionId }; },
    });
  });
  afterEach(() => supervisor.dispose());

  const { start, turn, stateOf } = fakeAcpWorkers(() => supervisor, () => dir);

  it('a command allowed always is answered without asking the next time, by the rule the log names; another command is asked', async () => {
    const id = await start();
    assert.equal((await turn(id, 'shell: echo one')).said, 'Ran it.');
    assert.equal(asked.length, 1);
    assert.deepEqual(stateOf(id).allowedAlways?.map((r) => [r.key, r.optionId]), [['execute: echo one', 'allow-always']]);
    const again = await turn(id, 'shell: echo one');
    assert.equal(again.said, 'Ran it.');
    assert.equal(asked.length, 1, 'the person was not asked again');
    const end = again.events.find((e) => e.type === 'permission_end')!;
    assert.equal(end.data?.optionId, 'allow-always');
    assert.equal(end.data?.rule, 'execute: echo one');
    assert.equal(end.is_error, false);
    const m = new LogModel();
    m.apply(again.events as unknown as PageEvent[]);
    const q = m.all().find((e) => e.kind === 'question') as QuestionEntry;
    assert.equal(q.answer, 'Always allow');
    assert.match(q.note!, /answered by the rule remembered for this worker \(allowed always: execute: echo one\)/);
    await turn(id, 'shell: echo two');
    assert.equal(asked.length, 2, 'a different command is a different rule');
    // Another worker of the same agent has rules of its own.
    const other = await start();
    await turn(other, 'shell: echo one');
    assert.equal(asked.length, 3);
  });

  it('Forget clears one rule or all of them, and the person is asked again', async () => {
    const id = await start();
    await turn(id, 'shell: echo one');
    await turn(id, `edit: ${path.join(dir, 'a.ts')}`);
    assert.equal(stateOf(id).allowedAlways?.length, 2);
    const states: WorkerState[] = [];
    const off = supervisor.onState((s) => { if (s.workerId === id) states.push(s); });
    const one = await supervisor.forgetAllowed(id, 'execute: echo one');
    off();
    assert.deepEqual(one.status === 'forgotten' && one.forgotten, 1);
    assert.ok(states.some((s) => s.allowedAlways?.length === 1), 'the change is told to state listeners (the tree)');
    assert.deepEqual(stateOf(id).allowedAlways?.map((r) => r.key), [`edit: Edit ${path.join(dir, 'a.ts')}`]);
    await turn(id, 'shell: echo one');
    assert.equal(asked.length, 3, 'asked again once forgotten');
    const all = await supervisor.forgetAllowed(id);
    assert.deepEqual(all.status === 'forgotten' && all.forgotten, 2);
    assert.deepEqual(stateOf(id).allowedAlways, []);
    assert.equal((await supervisor.forgetAllowed('w-none')).status, 'not_found');
  });

  it('the guard\'s wall comes first: a question matching a rule but outside the policy is rejected', async () => {
    const id = await start({ guard: { allowedPaths: [dir], forbiddenPaths: [] } });
    // Agents title an edit by the file's name: the same title for a file inside and one outside.
    await turn(id, `edit as Edit notes.md: ${path.join(dir, 'notes.md')}`);
    assert.equal(asked.length, 1);
    assert.deepEqual(stateOf(id).allowedAlways?.map((r) => r.key), ['edit: Edit notes.md']);
    const r = await turn(id, `edit as Edit notes.md: ${path.join(base, 'elsewhere', 'notes.md')}`);
    assert.equal(asked.length, 1);
    const end = r.events.find((e) => e.type === 'permission_end')!;
    assert.equal(end.data?.optionId, 'reject', 'rejected by the wall, not allowed by the rule');
    assert.match(String(end.data?.note), /the write guard rejected it without asking/);
    assert.equal(r.events.find((e) => e.type === 'guard_violation')?.blocked, true);
  });

  // Claude's NotebookEdit comes as kind "other", titled "NotebookEdit" whatever the notebook, which
  // is named only in rawInput (claude-agent-acp 0.101.0); MCP tools come titled by their name.
  const notebook = (input: Record<string, unknown>) => `other as NotebookEdit: ${JSON.stringify({ new_source: 'x', edit_mode: 'replace', ...input })}`;

  it('a kind "other" call allowed always inside the policy (a notebook) does not allow one outside: the wall rejects it without asking', async () => {
    const id = await start({ guard: { allowedPaths: [dir], forbiddenPaths: [] } });
    assert.equal((await turn(id, notebook({ notebook_path: path.join(dir, 'a.ipynb') }))).said, 'Done.');
    assert.equal(asked.length, 1);
    assert.deepEqual(stateOf(id).allowedAlways?.map((r) => r.key), ['other: NotebookEdit']);
    const r = await turn(id, notebook({ notebook_path: path.join(base, 'elsewhere', 'a.ipynb') }));
    assert.equal(r.said, 'Not done.');
    assert.equal(asked.length, 1, 'nobody was asked: the wall refused it');
    const end = r.events.find((e) => e.type === 'permission_end')!;
    assert.equal(end.data?.optionId, 'reject', 'rejected by the wall, not allowed by the rule');
    assert.equal(end.data?.rule, undefined);
    assert.equal(r.events.find((e) => e.type === 'guard_violation')?.blocked, true);
  });

  it('on a guarded worker, a kind "other" call naming no path is never answered by a rule: "always" is not offered, nor remembered, nor matched', async () => {
    // Flagged, not aborted: where a violation aborts the turn, the wall refuses such a call outright (acp.hands.test.ts).
    const id = await start({ guard: { allowedPaths: [dir], forbiddenPaths: [] }, onViolation: 'flag' });
    const mcp = 'other as mcp__db__query: {"sql": "select 1"}';
    const first = await turn(id, mcp);
    assert.deepEqual(asked[0].options.map((o) => o.kind), ['allow_once', 'reject_once'], 'the person is not offered the agent\'s allow-always');
    assert.match(String(first.events.find((e) => e.type === 'permission_end')!.data?.note), /"allow always" not offered: the write guard cannot tell what this call writes/);
    assert.deepEqual(stateOf(id).allowedAlways, []);
    await turn(id, mcp);
    assert.equal(asked.length, 2, 'asked again');
    // A rule made by a notebook the wall judged (inside) does not answer a NotebookEdit it cannot.
    await turn(id, notebook({ notebook_path: path.join(dir, 'a.ipynb') }));
    assert.deepEqual(stateOf(id).allowedAlways?.map((r) => r.key), ['other: NotebookEdit']);
    const unread = await turn(id, notebook({ cell_id: 'c1' }));
    assert.equal(asked.length, 4, 'put to the person, not answered by the rule');
    assert.equal(unread.events.find((e) => e.type === 'permission_end')!.data?.rule, undefined);
  });

  it('an unguarded worker is the person\'s own trust: the same call is offered "always", and the rule answers it next time', async () => {
    const id = await start();
    const mcp = 'other as mcp__db__query: {"sql": "select 1"}';
    await turn(id, mcp);
    assert.ok(asked[0].options.some((o) => o.kind === 'allow_always'));
    assert.deepEqual(stateOf(id).allowedAlways?.map((r) => r.key), ['other: mcp__db__query']);
    const again = await turn(id, mcp);
    assert.equal(asked.length, 1);
    assert.equal(again.events.find((e) => e.type === 'permission_end')!.data?.rule, 'other: mcp__db__query');
  });

  it('the key is the command for a shell call, else the kind and the title the person saw', () => {
    assert.equal(ruleKey({ toolKind: 'execute', title: 'Run `ls`', command: 'ls -la' }), 'execute: ls -la');
    assert.equal(ruleKey({ toolKind: 'edit', title: 'Edit a.ts', command: null }), 'edit: Edit a.ts');
    assert.equal(ruleKey({ toolKind: null, title: 'Fetch', command: null }), 'other: Fetch');
  });
});
