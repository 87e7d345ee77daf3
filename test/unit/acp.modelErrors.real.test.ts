// What a person sees when the model behind a real ACP agent refuses its key (401): each agent says
// it its own way (docs/real-workers.md), and the host passes on what the agent said, no more: an
// error answer ends the turn as an error (for ACP's -32000, with the logins the agent offers), a
// refusal the agent says only as text stays that text. The worker then takes the next prompt.
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { ACP_AGENTS, ACP_AGENT_NAMES } from '../fixtures/acp-env.mjs';
import { realAcpRig } from '../helpers/realAcp';
import { ofType, record, text, waitFor } from '../helpers/supervisor';

const KEY_REFUSED = 'invalid x-api-key: rpc-workers-mock-refusal';

/** How each agent ends the refused turn (measured): its end, and where it says why. */
/** `needsLogin`: answered with ACP's -32000, so the turn's end is flagged for the UI's key advice. */
const REFUSED: Record<string, { end: 'error' | 'done'; error?: RegExp; text?: RegExp; needsLogin?: true }> = {
  // -32000 after its own retries, and "Invalid API key" as text.
  claude: { end: 'error', needsLogin: true, error: /^Claude Agent needs a login before it can answer \(it answered the prompt with -32000 Authentication required\)$/, text: /Invalid API key/ },
  codex: { end: 'error', needsLogin: true, error: /^Codex needs a login before it can answer \(it answered the prompt with -32000 Authentication required\)\. It offers: API Key: Use an API key to authenticate; ChatGPT: Use ChatGPT to authenticate$/ },
  // Says it only as text and ends the turn end_turn: the host cannot know it failed.
  copilot: { end: 'done', text: /Authentication failed with provider .*\(HTTP 401\)/ },
  gemini: { end: 'error', error: /rpc-workers-mock-refusal/ },
  opencode: { end: 'error', error: /rpc-workers-mock-refusal/ },
};

for (const name of ACP_AGENT_NAMES) {
  const agent = ACP_AGENTS[name];
  describe(`ACP worker: real ${name} (${agent.package}@${agent.version}) when its model refuses`, function () {
    this.timeout(120_000);
    const rig = realAcpRig(name, {
      tag: 'model-errors',
      supervisor: process.env.ACP_TRACE ? { trace: (_id: string, d: string, m: unknown) => console.log(new Date().toISOString().slice(11, 23), d, JSON.stringify(m).slice(0, 600)) } : {},
    });
    let workerId: string;

    before(async () => {
      const spec = rig.spec();
      // Claude retries a refused key ten times, three minutes in silence (docs/real-workers.md).
      if (name === 'claude') spec.env = { ...spec.env, CLAUDE_CODE_MAX_RETRIES: '1' };
      const r = await rig.supervisor.start(spec);
      assert.equal(r.status, 'started', r.status === 'error' ? r.error : '');
      if (r.status === 'started') workerId = r.workerId;
    });
    afterEach(() => rig.mock.unscript());

    const expected = REFUSED[name];
    it(expected.end === 'error' ? 'a refused key (401) ends the turn as an error that says why' : 'a refused key (401) is said as the agent\'s text, in a turn it calls done', async () => {
      // Agents that retry are given the same refusal each time.
      rig.mock.script(...Array.from({ length: 12 }, () => ({ fail: { status: 401, message: KEY_REFUSED, type: 'authentication_error' } })));
      const events = record(rig.supervisor, () => workerId);
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 90_000, 'the refused turn');
      assert.equal((await rig.supervisor.prompt(workerId, 'Say hello')).status, 'accepted');
      const end = await settled;
      const ends = events.filter((e: AgentEvent) => e.type === 'agent_end');
      const seen = JSON.stringify({ ends, text: text(events) }).slice(0, 3000);
      assert.equal(end.end_reason, expected.end, seen);
      assert.equal(ends.length, 1, seen);
      if (expected.error) assert.match(ends[0].error ?? '', expected.error, seen);
      else assert.equal(ends[0].is_error, undefined, seen);
      if (expected.text) assert.match(text(events), expected.text, seen);
      // The run's end and the turn's settling say it is a login refusal (the UI adds the agent's key advice), and only then.
      assert.equal(ends[0].data?.needsLogin, expected.needsLogin, seen);
      assert.equal(end.data?.needsLogin, expected.needsLogin, seen);
    });

    it('the worker takes the next prompt and answers it', async () => {
      rig.mock.unscript();
      rig.mock.script({ text: 'Back again.' });
      const events = record(rig.supervisor, () => workerId);
      const settled = waitFor(rig.supervisor, workerId, ofType('agent_settled'), 90_000, 'the next turn');
      assert.equal((await rig.supervisor.prompt(workerId, 'Say hello again')).status, 'accepted');
      assert.equal((await settled).end_reason, 'done');
      assert.ok(text(events).includes('Back again.'), text(events));
    });
  });
}
