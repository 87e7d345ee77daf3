// Real pi 0.73.1 on the mock LLM: proves the offline fixtures work, and that the
// fake worker's pi dialect says what real pi says where a host depends on it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startMockLlm, type MockLlm } from "../fixtures/mock-llm.mjs";
import { makePiAgentDir, piCommand, piEnv, piRpcArgs, removePiAgentDir } from "../fixtures/pi-env.mjs";
import { StdioPeer, isAlive, killGroup, type Line } from "../fixtures/fake-worker/peer.mjs";
import { PI_ERRORS } from "../fixtures/fake-worker/pi.mjs";

const FAKE = path.resolve(import.meta.dirname, "../fixtures/fake-worker.mjs");

// The wire shape of a run from its first turn_end on, minus streaming deltas.
function shapeAfterFirstTurn(p: StdioPeer): string[] {
  const all = p.messages.filter((l) => l.type !== "response" && l.type !== "message_update" && l.type !== "tool_execution_update");
  return all
    .slice(all.findIndex((l) => l.type === "turn_end") + 1)
    .map((l) => (l.type === "queue_update" ? `queue:${l.steering.length}/${l.followUp.length}` : l.type.startsWith("message_") ? `${l.type}:${l.message.role}` : l.type));
}

describe("real pi 0.73.1 on the mock LLM", function () {
  this.timeout(60_000);
  let llm: MockLlm;
  let agentDir: string;
  let cwd: string;
  const peers: StdioPeer[] = [];
  const strayGroups: number[] = [];

  beforeEach(async () => {
    llm = await startMockLlm();
    agentDir = await makePiAgentDir({ baseUrl: llm.baseUrl });
    cwd = mkdtempSync(path.join(tmpdir(), "real-pi-cwd-"));
  });

  afterEach(async () => {
    await Promise.all(peers.splice(0).map((p) => p.stop()));
    for (const g of strayGroups.splice(0)) killGroup(g);
    await llm.close();
    await removePiAgentDir(agentDir);
    rmSync(cwd, { recursive: true, force: true });
  });

  function pi(): StdioPeer {
    const p = StdioPeer.spawn(piCommand(), piRpcArgs(), { env: piEnv(agentDir), cwd });
    peers.push(p);
    return p;
  }

  async function ready(p: StdioPeer): Promise<Line> {
    p.send({ id: "probe", type: "get_state" });
    return p.waitFor((l) => l.id === "probe", { timeoutMs: 30_000, what: "the get_state probe" });
  }

  it("round-trips a prompt offline: get_state, prompt, agent_end, and the mock saw the request", async () => {
    const p = pi();
    const state = await ready(p);
    assert.deepEqual([state.data.model.provider, state.data.model.id, state.data.isStreaming], ["mock", "mock-1", false]);
    llm.script({ text: "Hello from the mock model" });
    p.send({ id: "1", type: "prompt", message: "say hi" });
    const end = await p.waitFor((l) => l.type === "agent_end");
    assert.equal(p.messages.find((l) => l.id === "1")!.success, true);
    assert.equal(end.messages.at(-1).content[0].text, "Hello from the mock model");
    assert.equal(llm.requests.length, 1);
    assert.equal(llm.requests[0].stream, true);
    assert.deepEqual(llm.requests[0].messages.at(-1), { role: "user", content: [{ type: "text", text: "say hi" }] });
  });

  it("refuses a plain prompt while streaming with the very message the fake sends", async () => {
    const p = pi();
    await ready(p);
    llm.script({ hangMs: 30_000, text: "too late" });
    p.send({ id: "1", type: "prompt", message: "think slowly" });
    await llm.waitForRequest(1); // pi is streaming from here on
    p.send({ id: "2", type: "prompt", message: "interrupting" });
    const real = await p.waitFor((l) => l.id === "2");
    p.send({ id: "a", type: "abort" });
    await p.waitFor((l) => l.id === "a");

    const f = StdioPeer.spawn(process.execPath, [FAKE, "--dialect", "pi"], { cwd });
    peers.push(f);
    f.send({ id: "1", type: "prompt", message: "wait 30000" });
    await f.waitFor((l) => l.type === "agent_start");
    f.send({ id: "2", type: "prompt", message: "interrupting" });
    const fake = await f.waitFor((l) => l.id === "2");
    assert.deepEqual(fake, real);
    assert.equal(real.error, PI_ERRORS.streaming);
  });

  it("answers an unknown command and a non-JSON line exactly as the fake does", async () => {
    const lines = ['{"id":"u","type":"frobnicate"}', "not json", "42"];
    const answers = async (p: StdioPeer) => {
      for (const l of lines) p.send(l);
      await p.waitFor((l, i) => l.type === "response" && p.messages.slice(0, i).filter((m) => m.type === "response" && m.id !== "probe").length === 2);
      return p.messages.filter((m) => m.type === "response" && m.id !== "probe");
    };
    const real = pi();
    await ready(real);
    const f = StdioPeer.spawn(process.execPath, [FAKE, "--dialect", "pi"], { cwd });
    peers.push(f);
    const fromReal = await answers(real);
    assert.deepEqual(await answers(f), fromReal);
    assert.deepEqual(fromReal.map((r) => r.error).sort(), [
      PI_ERRORS.parse(`Unexpected token 'o', "not json" is not valid JSON`),
      PI_ERRORS.unknown("frobnicate"),
      PI_ERRORS.unknown("undefined"),
    ].sort());
  });

  it("delivers steer and follow-up in the order the fake mirrors", async () => {
    const p = pi();
    await ready(p);
    let release!: () => void;
    llm.script({ text: "first answer", gate: new Promise<void>((r) => (release = r)) }, { text: "steered: change plan" }, { text: "follow-up ran" });
    p.send({ id: "1", type: "prompt", message: "start" });
    await llm.waitForRequest(1);
    p.send({ id: "s", type: "steer", message: "change plan" });
    p.send({ id: "f", type: "follow_up", message: "say follow-up ran" });
    await p.waitFor((l) => l.id === "f");
    release();
    await p.waitFor((l) => l.type === "agent_end");
    assert.deepEqual(llm.requests[1].messages.at(-1).content, [{ type: "text", text: "change plan" }]);

    const fifo = path.join(cwd, "gate");
    execFileSync("mkfifo", [fifo]);
    const f = StdioPeer.spawn(process.execPath, [FAKE, "--dialect", "pi"], { cwd });
    peers.push(f);
    f.send({ id: "1", type: "prompt", message: `bash read x < ${fifo}` });
    await f.waitFor((l) => l.type === "tool_execution_start");
    f.send({ id: "s", type: "steer", message: "change plan" });
    f.send({ id: "f", type: "follow_up", message: "say follow-up ran" });
    await f.waitFor((l) => l.id === "f");
    writeFileSync(fifo, "go\n");
    await f.waitFor((l) => l.type === "agent_end");

    const real = shapeAfterFirstTurn(p);
    assert.deepEqual(shapeAfterFirstTurn(f), real);
    assert.deepEqual(real.slice(0, 4), ["turn_start", "queue:0/1", "message_start:user", "message_end:user"]);
    const queued = (q: StdioPeer) => q.messages.filter((l) => l.type === "queue_update").map((l) => [l.steering, l.followUp]);
    assert.deepEqual(queued(f), queued(p));
  });

  it("aborts a scripted `bash sleep 30` mid-tool: agent_end, tool gone, worker alive, history kept", async () => {
    const p = pi();
    await ready(p);
    llm.script({ toolCalls: [{ name: "bash", arguments: { command: "echo $$; exec sleep 30" } }] });
    p.send({ id: "1", type: "prompt", message: "run the slow thing" });
    const update = await p.waitFor((l) => l.type === "tool_execution_update" && /^\d+/.test(l.partialResult?.content?.[0]?.text ?? ""));
    const pid = Number(/^(\d+)/.exec(update.partialResult.content[0].text)![1]);
    strayGroups.push(pid);
    assert.ok(isAlive(pid));
    const t0 = Date.now();
    const from = p.records.length;
    p.send({ id: "a", type: "abort" });
    const end = await p.waitFor((l) => l.type === "agent_end");
    assert.ok(Date.now() - t0 < 5000, "abort settles promptly");
    assert.equal(end.messages.at(-1).stopReason, "aborted");
    assert.ok(p.indexOf(await p.waitFor((l) => l.id === "a")) > p.indexOf(end), "pi answers abort after agent_end");
    assert.equal(isAlive(pid), false, "the sleep was killed");
    const toolEnd = p.messages.find((l) => l.type === "tool_execution_end")!;
    assert.deepEqual([toolEnd.isError, toolEnd.result.content[0].text.endsWith("Command aborted")], [true, true]);
    // The sequence the fake's own abort test pins down.
    assert.deepEqual(p.records.slice(from).map((r) => (r.json as Line).type), [
      "tool_execution_end", "message_start", "message_end", "turn_end",
      "turn_start", "message_start", "message_end", "turn_end", "agent_end", "response",
    ]);

    p.send({ id: "s", type: "get_state" });
    assert.equal((await p.waitFor((l) => l.id === "s")).data.isStreaming, false);
    assert.equal(p.exit, null, "the worker is alive");
    llm.script({ text: "carrying on" });
    p.send({ id: "2", type: "prompt", message: "next instruction" });
    const next = await llm.waitForRequest(2);
    const roles = next.messages.map((m: Line) => m.role);
    assert.deepEqual(roles.slice(1), ["user", "assistant", "tool", "user"]);
    assert.equal(next.messages[2].tool_calls[0].function.name, "bash");
    assert.match(next.messages[3].content, /Command aborted/);
    await p.waitFor((l, i) => l.type === "agent_end" && i > p.indexOf(end));
  });
});
