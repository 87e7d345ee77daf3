// Real pi on the mock LLM, 0.73.1 and 1.x: proves the offline fixtures work, and that the
// fake worker's pi dialect (with --pi-version) says what each real pi says where a host
// depends on it.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startMockLlm, type MockLlm } from "../fixtures/mock-llm.mjs";
import { makePiAgentDir, PI_VERSIONS, piEnv, piRpcArgs, removePiAgentDir } from "../fixtures/pi-env.mjs";
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

for (const version of PI_VERSIONS) describe(`real pi ${version.version} on the mock LLM`, function () {
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
    const p = StdioPeer.spawn(version.command(), piRpcArgs(), { env: piEnv(agentDir), cwd });
    peers.push(p);
    return p;
  }

  /** The fake, speaking this pi's version. */
  function fake(): StdioPeer {
    const f = StdioPeer.spawn(process.execPath, [FAKE, "--dialect", "pi", "--pi-version", version.version], { cwd });
    peers.push(f);
    return f;
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

    const f = fake();
    f.send({ id: "1", type: "prompt", message: "wait 30000" });
    await f.waitFor((l) => l.type === "agent_start");
    f.send({ id: "2", type: "prompt", message: "interrupting" });
    const fromFake = await f.waitFor((l) => l.id === "2");
    assert.deepEqual(fromFake, real);
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
    const f = fake();
    const fromReal = await answers(real);
    // The same answers; their order is not: under load pi 1.x at times answers the non-JSON
    // line (parsed at once) before the unknown command sent ahead of it (handled async).
    const inAnyOrder = (rs: typeof fromReal) => rs.map((r) => JSON.stringify(r)).sort();
    assert.deepEqual(inAnyOrder(await answers(f)), inAnyOrder(fromReal));
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
    // The run's last line: pi 1.x settles after agent_end, and a snapshot taken between the two
    // would race it.
    const last = version.one ? "agent_settled" : "agent_end";
    await p.waitFor((l) => l.type === last);
    assert.deepEqual(llm.requests[1].messages.at(-1).content, [{ type: "text", text: "change plan" }]);

    const fifo = path.join(cwd, "gate");
    execFileSync("mkfifo", [fifo]);
    const f = fake();
    f.send({ id: "1", type: "prompt", message: `bash read x < ${fifo}` });
    await f.waitFor((l) => l.type === "tool_execution_start");
    f.send({ id: "s", type: "steer", message: "change plan" });
    f.send({ id: "f", type: "follow_up", message: "say follow-up ran" });
    await f.waitFor((l) => l.id === "f");
    writeFileSync(fifo, "go\n");
    await f.waitFor((l) => l.type === last);

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
    const from = p.records.length;
    p.send({ id: "a", type: "abort" });
    const end = await p.waitFor((l) => l.type === "agent_end");
    assert.equal(end.messages.at(-1).stopReason, "aborted");
    assert.ok(p.indexOf(await p.waitFor((l) => l.id === "a")) > p.indexOf(end), "pi answers abort after agent_end");
    assert.equal(isAlive(pid), false, "the sleep was killed");
    const toolEnd = p.messages.find((l) => l.type === "tool_execution_end")!;
    assert.deepEqual([toolEnd.isError, toolEnd.result.content[0].text.endsWith("Command aborted")], [true, true]);
    // The sequence the fake's own abort test pins down.
    assert.deepEqual(p.records.slice(from).map((r) => (r.json as Line).type), [
      "tool_execution_end", "message_start", "message_end", "turn_end",
      "turn_start", "message_start", "message_end", "turn_end", "agent_end",
      ...(version.one ? ["agent_settled"] : []), "response",
    ]);
    if (version.one) assert.deepEqual([end.willRetry, p.messages.find((l) => l.type === "agent_settled")!.aborted], [false, true]);

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

  // What a manual compact sends, as [type, command?, success?, aborted?, error?]: the fake's must match.
  const compactShape = (q: StdioPeer, from: number) =>
    q.messages.slice(from).filter((l) => l.type === "compaction_start" || l.type === "compaction_end" || (l.type === "response" && (l.command === "compact" || l.command === "abort")))
      .map((l) => (l.type === "response" ? ["response", l.command, l.success, l.error ?? null] : [l.type, l.aborted ?? null, typeof l.errorMessage === "string" ? l.errorMessage : null]));

  async function turn(q: StdioPeer, id: string, message: string): Promise<void> {
    const from = q.records.length;
    q.send({ id, type: "prompt", message });
    await q.waitFor((l) => l.type === (version.one ? "agent_settled" : "agent_end"), { from });
  }

  it(version.one ? "refuses to compact a one-turn session (Nothing to compact), as the fake does" : "compacts a one-turn session, as the fake does", async () => {
    const p = pi();
    await ready(p);
    llm.script({ text: "short" }, { text: "SUMMARY" });
    await turn(p, "1", "hello");
    const from = p.messages.length;
    p.send({ id: "c", type: "compact" });
    await p.waitFor((l) => l.id === "c");
    const real = compactShape(p, from);

    const f = fake();
    await turn(f, "1", "say short");
    const fromFake = f.messages.length;
    f.send({ id: "c", type: "compact" });
    await f.waitFor((l) => l.id === "c");
    assert.deepEqual(compactShape(f, fromFake), real);
    assert.equal(real.at(-1)![2], !version.one);
    if (version.one) assert.equal(real.at(-1)![3], PI_ERRORS.nothingToCompact);
  });

  it(version.one ? "abort cancels a running compaction (aborted: true, \"Compaction cancelled\"), as the fake does"
    : "abort does not reach a running compaction (it ends with a summary), as the fake does", async () => {
    const p = pi();
    await ready(p);
    let open!: () => void;
    // Long enough for pi 1.x, which folds only what lies beyond compaction.keepRecentTokens (10 here).
    llm.script({ text: "the first answer, in a few words" }, { text: "the second answer, in a few more words" }, { gate: new Promise<void>((r) => (open = r)), text: "SUMMARY" });
    await turn(p, "1", "the first question, in a few words");
    await turn(p, "2", "the second question, in a few words");
    const from = p.messages.length;
    p.send({ id: "c", type: "compact" });
    await Promise.race([llm.waitForRequest(3), p.waitFor(() => false, { timeoutMs: 15_000, what: "the summary request" })]); // the summary request is with the model
    p.send({ id: "a", type: "abort" });
    await p.waitFor((l) => l.id === "a", { timeoutMs: 15_000, what: "the abort answer" });
    open();
    await p.waitFor((l) => l.id === "c", { timeoutMs: 15_000, what: "the compact answer" });
    const real = compactShape(p, from);

    const f = StdioPeer.spawn(process.execPath, [FAKE, "--dialect", "pi", "--pi-version", version.version, "--compact-ms", "60000"], { cwd });
    peers.push(f);
    await turn(f, "1", "say one");
    await turn(f, "2", "say two");
    const fromFake = f.messages.length;
    f.send({ id: "c", type: "compact" });
    await f.waitFor((l) => l.type === "compaction_start");
    f.send({ id: "a", type: "abort" });
    await f.waitFor((l) => l.id === "a");
    if (!version.one) {
      // 0.73.1's compaction runs to its end whatever abort said: the fake's takes --compact-ms.
      assert.deepEqual(compactShape(f, fromFake), [["compaction_start", null, null], ["response", "abort", true, null]]);
      assert.deepEqual(real.slice(0, 2), [["compaction_start", null, null], ["response", "abort", true, null]]);
      assert.deepEqual(real.slice(2), [["compaction_end", false, null], ["response", "compact", true, null]]);
      return;
    }
    await f.waitFor((l) => l.id === "c");
    assert.deepEqual(compactShape(f, fromFake), real);
    assert.deepEqual(real, [
      ["compaction_start", null, null], ["compaction_end", true, null],
      ["response", "compact", false, PI_ERRORS.compactionCancelled], ["response", "abort", true, null],
    ]);
  });
});
