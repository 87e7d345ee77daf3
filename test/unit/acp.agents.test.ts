// The five real ACP agents, installed by scripts/ensure-workers.mjs and driven offline against
// the mock model server (test/fixtures/mock-llm.mjs) with the launch of test/fixtures/acp-env.mjs:
// the environment the ACP dialect's tests stand on. Per agent: initialize (protocol 1), a
// session in a temp cwd, a streamed "hello" turn, a shell command through the agent's own tool
// (answered allow_once where the agent asks), the next model call carrying its result, and a
// clean exit when stdin closes. The client here is a test helper (test/helpers/acpClient.ts),
// not the product's dialect.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ACP_AGENTS, ACP_AGENT_NAMES, acpAgentLaunch, ensureAcpAgent, hasWriteTool, readToolReply, shellToolReply, writeToolReply } from '../fixtures/acp-env.mjs';
import { startMockLlm, toolResultsOf, toolsOf, type MockLlm } from '../fixtures/mock-llm.mjs';
import { AcpClient, pick, type Json } from '../helpers/acpClient';

/** The model API each agent calls, and whether it asks before a shell command (measured). */
const EXPECTED: Record<string, { api: string; asksBeforeShell: boolean }> = {
  copilot: { api: 'chat', asksBeforeShell: true },
  gemini: { api: 'gemini', asksBeforeShell: true },
  opencode: { api: 'chat', asksBeforeShell: false },
  claude: { api: 'anthropic', asksBeforeShell: true },
  codex: { api: 'responses', asksBeforeShell: false },
};

/** Bounded: a broken agent fails the test instead of hanging it. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms); })]).finally(() => clearTimeout(timer));
}

function groupAlive(pgid: number): boolean {
  try { process.kill(-pgid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

for (const name of ACP_AGENT_NAMES) {
  const agent = ACP_AGENTS[name];
  describe(`ACP agent ${name} (${agent.package}@${agent.version}) on the mock model`, function () {
    this.timeout(120_000); // a loaded 2-CPU machine: Claude's and OpenCode's first session takes 15-25 s there
    let mock: MockLlm;
    let home: string;
    let cwd: string;
    let client: AcpClient | undefined;
    let sessionId: string;
    const stderrTail = () => (client ? `\n--- agent stderr (tail) ---\n${client.stderr.slice(-1500)}` : '');
    /** A bounded step whose failure carries the agent's stderr. */
    const step = <T>(p: Promise<T>, ms: number, what: string) => within(p, ms, `${name} ${what}`).catch((e: Error) => { throw new Error(`${e.message}${stderrTail()}`); });

    before(async function () {
      // Installed by `npm test` first; run alone, this installs it (once) or fails with the reason.
      this.timeout(10 * 60_000);
      ensureAcpAgent(name);
      mock = await startMockLlm({ defaultText: 'unscripted' });
      home = mkdtempSync(path.join(tmpdir(), `rpc-workers-acp-${name}-home-`));
      cwd = mkdtempSync(path.join(tmpdir(), `rpc-workers-acp-${name}-cwd-`));
    });

    after(async () => {
      client?.kill();
      await mock?.close();
      for (const d of [home, cwd]) if (d) rmSync(d, { recursive: true, force: true });
    });

    it('initializes with protocol version 1, names itself, and opens a session in the temp cwd', async () => {
      const launch = acpAgentLaunch(name, { mockUrl: mock.baseUrl, home });
      client = new AcpClient({ ...launch, cwd, onPermission: (p) => pick(p, 'allow_once') });
      const init = await step(client.initialize(), 60_000, 'initialize');
      assert.equal(init.protocolVersion, 1);
      assert.equal(init.agentInfo?.version, agent.version, `agentInfo: ${JSON.stringify(init.agentInfo)}`);
      const s = await step(client.request('session/new', { cwd, mcpServers: [] }), 60_000, 'session/new');
      assert.equal(typeof s.sessionId, 'string');
      sessionId = s.sessionId;
      // Claude starts in mode "auto", which ran this command without asking anyone; "default"
      // asks the client.
      if (name === 'claude') await step(client.request('session/set_mode', { sessionId, modeId: 'default' }), 30_000, 'set_mode');
    });

    it('streams the answer to "Say hello" and ends the turn with end_turn', async () => {
      assert.ok(client && sessionId, 'no session (the test before failed)');
      const said = `Hello from the mock model to ${name}, in several pieces.`;
      mock.script({ text: said });
      const u0 = client.updates.length;
      const n0 = mock.requests.length;
      const r = await step(client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Say hello' }] }), 60_000, 'prompt');
      assert.equal(r.stopReason, 'end_turn');
      const chunks = client.updates.slice(u0).filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === 'agent_message_chunk');
      assert.ok(chunks.length >= 2, `streamed in ${chunks.length} chunk(s)`);
      // Claude and Codex add notices of their own about the mock endpoint; the scripted text is there whole.
      assert.ok(client.text(u0, sessionId).includes(said), `agent said ${JSON.stringify(client.text(u0, sessionId))}`);
      const call = mock.modelCalls().find((c) => c.body === mock.requests[n0]);
      assert.equal(call?.api, EXPECTED[name].api);
      assert.match(JSON.stringify(mock.requests[n0]), /Say hello/);
      assert.equal(mock.pending(), 0, 'the scripted reply was taken by the turn, not by a side call');
      // The tool replies of acp-env name tools this agent really offers, with every required argument.
      const offered = toolsOf(call!.api, call!.body);
      const replies = [shellToolReply(name, 'true'), ...(hasWriteTool(name) ? [writeToolReply(name, '/x', 'y'), readToolReply(name, '/x')] : [])];
      for (const { toolCalls: [tc] } of replies) {
        const tool = offered.find((t) => t.name === tc.name);
        assert.ok(tool, `${name} offers no tool ${tc.name} (it offers ${offered.map((t) => t.name).join(', ')})`);
        for (const r of tool.required) assert.ok(r in (tc.arguments ?? {}), `${tc.name} needs ${r}`);
        for (const a of Object.keys(tc.arguments ?? {})) assert.ok(tool.properties.includes(a), `${tc.name} has no argument ${a}`);
      }
    });

    it('runs a shell command through its own tool, asking first where it asks, and the next model call carries the result', async () => {
      assert.ok(client && sessionId, 'no session (the test before failed)');
      const stamp = `acp-${name}-${process.pid}`;
      mock.script(shellToolReply(name, `echo hi > marker && echo ${stamp}`), { text: 'The command ran.' });
      const p0 = client.permissions.length;
      const u0 = client.updates.length;
      const n0 = mock.requests.length;
      const r = await step(client.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Write the marker file' }] }), 60_000, 'shell turn');
      assert.equal(r.stopReason, 'end_turn');
      assert.equal(readFileSync(path.join(cwd, 'marker'), 'utf8'), 'hi\n');
      const asked = client.permissions.slice(p0);
      assert.equal(asked.length, EXPECTED[name].asksBeforeShell ? 1 : 0, `permission requests: ${JSON.stringify(asked).slice(0, 600)}`);
      for (const p of asked) assert.ok(p.options.some((o) => o.kind === 'allow_once'), JSON.stringify(p.options));
      // Gemini sends no tool_call for a call it asks about: the permission request carries it,
      // and tool_call_update follows.
      const announced = [
        ...client.updates.slice(u0).filter((u) => u.update.sessionUpdate === 'tool_call').map((u) => u.update),
        ...asked.map((p) => p.toolCall),
      ];
      assert.ok(announced.some((t) => t.kind === 'execute'), `tool calls: ${JSON.stringify(announced).slice(0, 600)}`);
      const ended = client.updates.slice(u0).filter((u) => u.update.sessionUpdate === 'tool_call_update' && u.update.status === 'completed');
      assert.ok(ended.length >= 1, 'a completed tool_call_update');
      // The model call after the tool: its tool result holds what the command printed.
      assert.ok(mock.requests.length >= n0 + 2, `${mock.requests.length - n0} model call(s) in the turn`);
      const next = mock.modelCalls().find((c) => c.body === mock.requests[n0 + 1])!;
      const results = toolResultsOf(next.api, next.body);
      assert.ok(results.some((x: Json) => x.output.includes(stamp)), `tool results at the mock: ${JSON.stringify(results).slice(0, 600)}`);
    });

    it('exits, with its whole process group, when its stdin closes', async () => {
      assert.ok(client, 'no agent (the first test failed)');
      const pgid = client.child.pid!;
      client.closeStdin();
      const exit = await step(client.exited, 15_000, 'exit after stdin closed');
      assert.ok(exit.code !== null || exit.signal !== null);
      // Helpers the agent started (Gemini's relaunch, Codex's app-server) go with it; the group
      // is polled because their exit follows the leader's by a moment.
      const deadline = Date.now() + 5_000;
      while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(groupAlive(pgid), false, `process group ${pgid} still has members`);
      assert.equal(existsSync(cwd), true);
    });
  });
}
