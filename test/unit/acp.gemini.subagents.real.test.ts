// Gemini CLI's subagents, with the real program on the mock model: a guarded worker is started with
// a policy that denies them (core/guard/geminiLaunch.ts), so its model is not offered
// `invoke_agent`, and a call of it anyway finds no such tool: no subagent runs. Without that
// policy, in yolo mode, the subagent's write_file outside the guard's policy landed with nothing
// reported over ACP but a `think` call. Where the policy does not take (a wrapper under another
// name), the audit flags that `think` call. An unguarded worker is offered it (Gemini's default).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import type { WorkerSpec } from '../../src/core/api';
import { ACP_AGENTS, acpAgentCommand } from '../fixtures/acp-env.mjs';
import { toolResultsOf, toolsOf } from '../fixtures/mock-llm.mjs';
import { realAcpRig } from '../helpers/realAcp';
import { ofType, record, waitFor } from '../helpers/supervisor';

const name = 'gemini';

describe(`Gemini's subagents under the guard: real ${name} (${ACP_AGENTS[name].package}@${ACP_AGENTS[name].version})`, function () {
  this.timeout(180_000);
  const rig = realAcpRig(name, { tag: 'subagents', prepare: (cwd) => mkdirSync(path.join(cwd, 'src')) });

  async function started(extra: Partial<WorkerSpec> = {}): Promise<string> {
    const r = await rig.supervisor.start(rig.spec(extra));
    assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
    return r.status === 'started' ? r.workerId : '';
  }

  /** One turn; the names of the tools the first model call of it offered. */
  async function turn(workerId: string, text: string): Promise<string[]> {
    const before = rig.mock.modelCalls().length;
    const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 120_000, `the turn "${text}"`);
    assert.equal((await rig.supervisor.prompt(workerId, text)).status, 'accepted');
    await settled;
    const call = rig.mock.modelCalls()[before];
    assert.ok(call, 'the turn called the model');
    return toolsOf(call.api, call.body).map((t) => t.name);
  }

  it('a guarded worker is not offered invoke_agent; called anyway in yolo mode, no subagent runs and no write goes unjudged', async () => {
    // yolo needs a trusted folder; there, unfixed, the subagent's write_file ran with no ACP report.
    const workerId = await started({ guard: { allowedPaths: [path.join(rig.cwd, 'src')], forbiddenPaths: [] }, mode: 'yolo', env: { ...rig.spec().env, GEMINI_CLI_TRUST_WORKSPACE: 'true' } });
    const offered = await turn(workerId, 'Hello');
    assert.ok(offered.includes('write_file'), `its own tools are offered: ${offered.join(', ')}`);
    assert.ok(!offered.includes('invoke_agent'), `no subagent tool: ${offered.join(', ')}`);
    // The model calls it anyway, then (as the subagent would) writes outside the policy.
    const notes = path.join(rig.cwd, 'NOTES.md');
    rig.mock.script(
      { toolCalls: [{ name: 'invoke_agent', arguments: { agent_name: 'generalist', prompt: `Write ${notes} with the text x` } }] },
      { toolCalls: [{ name: 'write_file', arguments: { file_path: notes, content: 'x' } }] },
    );
    const events = record(rig.supervisor, () => workerId);
    const first = rig.mock.modelCalls().length;
    await turn(workerId, 'Delegate');
    const results = rig.mock.modelCalls().slice(first).flatMap((c) => toolResultsOf(c.api, c.body));
    const delegated = results.find((r) => r.name === 'invoke_agent');
    assert.ok(delegated && !/Subagent .* finished/.test(delegated.output), `no subagent ran: ${JSON.stringify(results)}`);
    const flagged = events.some((e) => e.type === 'guard_violation' && (e.error ?? '').includes('NOTES.md'));
    assert.ok(!existsSync(notes) || flagged, 'a write outside the policy, if any, was the main agent\'s, reported and judged');
  });

  it('where the policy does not take (a wrapper under another name), the audit flags the subagent\'s call and ends the turn', async () => {
    const wrapper = path.join(rig.home, 'my-gemini');
    symlinkSync(acpAgentCommand(name), wrapper);
    const workerId = await started({ command: wrapper, guard: { allowedPaths: [path.join(rig.cwd, 'src')], forbiddenPaths: [] }, mode: 'yolo', env: { ...rig.spec().env, GEMINI_CLI_TRUST_WORKSPACE: 'true' } });
    const notes = path.join(rig.cwd, 'LATER.md');
    rig.mock.script(
      { toolCalls: [{ name: 'invoke_agent', arguments: { agent_name: 'generalist', prompt: `Write ${notes} with the text x` } }] },
      { toolCalls: [{ name: 'write_file', arguments: { file_path: notes, content: 'x' } }] },
    );
    const events = record(rig.supervisor, () => workerId);
    const offered = await turn(workerId, 'Delegate');
    assert.ok(offered.includes('invoke_agent'), 'not recognised as Gemini: no policy');
    const flagged = events.filter((e) => e.type === 'guard_violation').map((e) => e.error ?? '');
    console.log(`      wrapper: violations ${JSON.stringify(flagged)}; the subagent's write landed: ${existsSync(notes)}; ended ${JSON.stringify(events.find((e) => e.type === 'agent_settled')?.end_reason)}`);
    assert.ok(flagged.some((f) => /^a subagent \("generalist"\)/.test(f)), JSON.stringify(flagged));
  });

  it('an unguarded worker is offered it (Gemini\'s default)', async () => {
    const offered = await turn(await started(), 'Hello');
    assert.ok(offered.includes('invoke_agent'), offered.join(', '));
  });
});
