// The guard table of the README, measured: for each of the five real ACP agents, a guarded worker
// (allowed: src/) whose model asks it to write a new file outside the policy and then one inside.
// An agent that asks before it writes, or writes through the host, meets the wall: the outside
// file is untouched and the call is blocked in the log. One that writes by itself is audited: the
// write lands and the audit flags it after the fact. The outcome each agent gets is asserted as
// the README's table says (and docs/real-workers.md). Driven on the mock model (acp-env.mjs).
// Codex has no file tool of its own (it writes through its shell), so its write is a shell command.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { ACP_AGENTS, hasWriteTool, shellToolReply, writeToolReply } from '../fixtures/acp-env.mjs';
import { realAcpRig } from '../helpers/realAcp';
import { ofType, record, waitFor } from '../helpers/supervisor';

type Outcome = 'vetoed' | 'audited';
/** What the README's guard table says each agent gets by its defaults. */
const TABLE: Record<keyof typeof ACP_AGENTS, Outcome> = { claude: 'vetoed', codex: 'audited', copilot: 'vetoed', gemini: 'vetoed', opencode: 'audited' };

for (const name of Object.keys(TABLE) as Array<keyof typeof ACP_AGENTS>) {
  describe(`the guard with real ${name} (${ACP_AGENTS[name].package}@${ACP_AGENTS[name].version})`, function () {
    this.timeout(180_000);
    const rig = realAcpRig(name, { tag: 'guard', prepare: (cwd) => mkdirSync(path.join(cwd, 'src')) });
    let workerId: string;

    before(async function () {
      this.timeout(10 * 60_000);
      // The guard's defaults otherwise: bash off, so a write through a shell (Codex's) is flagged too.
      const r = await rig.supervisor.start(rig.spec({ guard: { allowedPaths: [path.join(rig.cwd, 'src')], forbiddenPaths: [] } }));
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      if (r.status === 'started') workerId = r.workerId;
    });

    /** One turn in which the model writes `file`; the turn's events. Only the tool call is scripted:
     *  an agent that ends its turn on a refusal takes no second reply, and the mock's default
     *  answers any call after it. */
    async function write(file: string, content: string): Promise<AgentEvent[]> {
      rig.mock.script(hasWriteTool(name) ? writeToolReply(name, file, content) : shellToolReply(name, `printf '%s' '${content}' > '${file}'`));
      const events = record(rig.supervisor, () => workerId);
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 120_000, `${name}'s write turn`);
      assert.equal((await rig.supervisor.prompt(workerId, `Write ${path.basename(file)}`)).status, 'accepted');
      await settled;
      return events;
    }

    it(`a write outside the policy is ${TABLE[name]}, as the README's table says; one inside lands unflagged`, async () => {
      // New files: Copilot's `create` refuses one that exists.
      const outside = path.join(rig.cwd, 'NOTES.md');
      const events = await write(outside, 'outside');
      const violations = events.filter((e) => e.type === 'guard_violation');
      const landed = existsSync(outside);
      // Audited: judged as it was reported, after the fact; whether the write landed first is a
      // race with the abort that follows a finding (Codex reports its shell call before running it).
      const seen: Outcome | string = !landed && violations.some((v) => v.blocked) ? 'vetoed'
        : violations.some((v) => !v.blocked) ? 'audited'
          : `neither: written ${landed}, violations ${JSON.stringify(violations.map((v) => ({ blocked: v.blocked, error: v.error })))}`;
      const st = rig.supervisor.state(workerId);
      console.log(`      ${name}: outside write ${seen} (landed: ${landed}); asked ${rig.asked.length}; writeGuard ${st.status !== 'not_found' ? st.state.writeGuard : '?'}`);
      assert.equal(seen, TABLE[name]);
      assert.equal(st.status !== 'not_found' && st.state.writeGuard, TABLE[name], 'the tree says the same');
      const inside = path.join(rig.cwd, 'src', 'new.txt');
      const second = await write(inside, 'after');
      if (!hasWriteTool(name)) {
        // Codex writes through its shell, and under a guard without bash every shell call is flagged.
        assert.ok(second.some((e) => e.type === 'guard_violation' && !e.blocked && /shell/.test(e.error ?? '')), `${name}'s shell write is flagged`);
        return;
      }
      const calls = () => JSON.stringify(second.filter((e) => e.type.startsWith('tool_') || e.type.startsWith('permission') || e.type === 'guard_violation').map((e) => [e.type, e.title ?? e.tool_name, e.error ?? e.data?.optionKind ?? null]));
      assert.ok(existsSync(inside), `${name} wrote inside the policy: ${calls()}`);
      assert.equal(readFileSync(inside, 'utf8'), 'after');
      assert.deepEqual(second.filter((e) => e.type === 'guard_violation').map((e) => e.error), []);
    });
  });
}
