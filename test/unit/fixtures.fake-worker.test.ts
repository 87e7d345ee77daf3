// Tests of the fake worker itself, driven over raw stdio in both dialects.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { StdioPeer, isAlive, killGroup, type Line } from "../fixtures/fake-worker/peer.mjs";
import { PI_ERRORS } from "../fixtures/fake-worker/pi.mjs";

const FAKE = path.resolve(import.meta.dirname, "../fixtures/fake-worker.mjs");
// τ 0.15.0 (protocol 3.1) sends every one of these on every event, in this order (read off the real program).
const WIRE_EVENT_FIELDS = [
  "type", "timestamp", "turn_index", "tool_call_id", "tool_name", "is_error", "error", "error_detail", "response_headers", "end_reason",
  "blocked", "blocked_by", "parent_tool_call_id", "cursor_id", "submission_id", "source", "submitter", "correlation", "delta", "block_type",
  "replace", "message_count", "stop_reason", "dropped_tool_calls", "reasoning_level", "cache_notice", "purpose", "reason", "attempt",
  "max_retries", "delay_seconds", "dropped", "suspension", "resolution", "close_reason", "read_only", "lock_holder", "leaf",
];

const peers: StdioPeer[] = [];
const strayGroups: number[] = [];
let dir: string;

function fake(dialect: "pi" | "tau", ...flags: string[]): StdioPeer {
  const p = StdioPeer.spawn(process.execPath, [FAKE, "--dialect", dialect, ...flags], { cwd: dir });
  peers.push(p);
  return p;
}

const procStat = (pid: number) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ").map(Number);
const groupOf = (pid: number) => procStat(pid)[2];
const pidFromOutput = (line: Line): number => Number(/^(\d+)/.exec(line.partialResult?.content?.[0]?.text ?? "")?.[1]);
const types = (p: StdioPeer, from = 0, to = p.records.length) =>
  p.records.slice(from, to).map((r) => r.json as Line).filter((j) => j && typeof j === "object").map((j) => j.type ?? j.method);

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), "fake-worker-test-"));
});

afterEach(async () => {
  await Promise.all(peers.splice(0).map((p) => p.stop()));
  for (const g of strayGroups.splice(0)) killGroup(g);
});

after(() => rmSync(dir, { recursive: true, force: true }));

describe("fake worker, pi dialect", () => {
  it("answers a prompt before agent_start and streams the text word by word to agent_end", async () => {
    const p = fake("pi");
    const text = "hello brave  new world";
    p.send({ id: "s", type: "get_state" });
    const state = await p.waitFor((l) => l.id === "s");
    assert.equal(state.data.isStreaming, false);
    assert.equal(state.data.steeringMode, "one-at-a-time");
    p.send({ id: "1", type: "prompt", message: text });
    const end = await p.waitFor((l) => l.type === "agent_end");
    const resp = p.messages.find((l) => l.id === "1")!;
    assert.equal(resp.success, true);
    assert.ok(p.indexOf(resp) < p.indexOf(p.messages.find((l) => l.type === "agent_start")!), "response precedes agent_start");
    const ev = p.messages.filter((l) => l.type !== "response").map((l) => l.assistantMessageEvent?.type ?? l.type);
    assert.deepEqual(ev, [
      "agent_start", "turn_start", "message_start", "message_end", "message_start",
      "text_start", "text_delta", "text_delta", "text_delta", "text_delta", "text_end",
      "message_end", "turn_end", "agent_end",
    ]);
    const deltas = p.messages.filter((l) => l.assistantMessageEvent?.type === "text_delta").map((l) => l.assistantMessageEvent.delta);
    assert.equal(deltas.join(""), text);
    assert.deepEqual(end.messages.map((m: Line) => m.role), ["user", "assistant"]);
    assert.equal(end.messages[1].stopReason, "stop");
  });

  it("refuses a plain prompt while streaming with pi's message, and queues one with streamingBehavior", async () => {
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: "wait 30000" });
    await p.waitFor((l) => l.type === "agent_start");
    p.send({ id: "2", type: "prompt", message: "again" });
    const refused = await p.waitFor((l) => l.id === "2");
    assert.deepEqual(refused, { id: "2", type: "response", command: "prompt", success: false, error: PI_ERRORS.streaming });
    p.send({ id: "3", type: "prompt", message: "later", streamingBehavior: "followUp" });
    assert.equal((await p.waitFor((l) => l.id === "3")).success, true);
    assert.deepEqual(p.messages.find((l) => l.type === "queue_update"), { type: "queue_update", steering: [], followUp: ["later"] });
  });

  it("abort mid `bash sleep 30` kills the tool and ends the run as aborted, like pi", async () => {
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: "bash echo $$; exec sleep 30" });
    const update = await p.waitFor((l) => l.type === "tool_execution_update" && pidFromOutput(l) > 0);
    const pid = pidFromOutput(update);
    strayGroups.push(pid);
    assert.ok(isAlive(pid));
    const from = p.records.length;
    const t0 = Date.now();
    p.send({ id: "a", type: "abort" });
    await p.waitFor((l) => l.id === "a", { from });
    assert.ok(Date.now() - t0 < 2000, "abort settled fast");
    assert.equal(isAlive(pid), false, "the sleep is gone");
    assert.deepEqual(types(p, from), [
      "tool_execution_end", "message_start", "message_end", "turn_end",
      "turn_start", "message_start", "message_end", "turn_end", "agent_end", "response",
    ]);
    const toolEnd = p.messages.find((l) => l.type === "tool_execution_end")!;
    assert.equal(toolEnd.isError, true);
    assert.match(toolEnd.result.content[0].text, /\n\n\nCommand aborted$/);
    const last = p.messages.filter((l) => l.type === "message_end").at(-1)!;
    assert.equal(last.message.stopReason, "aborted");
    assert.equal(last.message.errorMessage, "Request was aborted.");
    p.send({ id: "s", type: "get_state" });
    assert.equal((await p.waitFor((l) => l.id === "s")).data.isStreaming, false);
  });

  it("answers unknown commands and unparseable lines without an id", async () => {
    const p = fake("pi");
    p.send({ id: "x", type: "bogus" });
    p.send("not json");
    assert.deepEqual(await p.waitFor((l) => l.command === "bogus"), { type: "response", command: "bogus", success: false, error: "Unknown command: bogus" });
    const parse = await p.waitFor((l) => l.command === "parse");
    assert.equal(parse.id, undefined);
    assert.equal(parse.error, PI_ERRORS.parse(`Unexpected token 'o', "not json" is not valid JSON`));
  });

  it("compacts with compaction_start/compaction_end before the response, then refuses a second time", async () => {
    const p = fake("pi", "--compact-ms", "10");
    p.send({ id: "1", type: "prompt", message: "say something to compact" });
    await p.waitFor((l) => l.type === "agent_end");
    const from = p.records.length;
    p.send({ id: "c", type: "compact" });
    const resp = await p.waitFor((l) => l.id === "c");
    assert.deepEqual(types(p, from), ["compaction_start", "compaction_end", "response"]);
    const end = p.messages.find((l) => l.type === "compaction_end")!;
    assert.deepEqual(resp.data, end.result);
    assert.deepEqual(Object.keys(resp.data).sort(), ["details", "firstKeptEntryId", "summary", "tokensBefore"]);
    assert.equal(end.aborted, false);
    p.send({ id: "c2", type: "compact" });
    assert.deepEqual(await p.waitFor((l) => l.id === "c2"), { id: "c2", type: "response", command: "compact", success: false, error: "Already compacted" });
  });

  it("delivers steering after the turn's tool, then a follow-up before agent_end, with pi's queue_update order", async () => {
    const fifo = path.join(dir, `gate-${Date.now()}`);
    execFileSync("mkfifo", [fifo]);
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: `bash read x < ${fifo}; echo released\nsay never said` });
    await p.waitFor((l) => l.type === "tool_execution_start");
    p.send({ id: "s", type: "steer", message: "change plan" });
    p.send({ id: "f", type: "follow_up", message: "say follow-up ran" });
    await p.waitFor((l) => l.id === "f");
    const from = p.records.length;
    writeFileSync(fifo, "go\n");
    await p.waitFor((l) => l.type === "agent_end");
    const seq = p.records.slice(from).map((r) => r.json as Line)
      .filter((l) => l.type !== "message_update" && l.type !== "tool_execution_update")
      .map((l) => (l.type === "queue_update" ? `queue:${l.steering.length}/${l.followUp.length}` : l.type.startsWith("message_") ? `${l.type}:${l.message.role}` : l.type));
    assert.deepEqual(seq, [
      "tool_execution_end", "message_start:toolResult", "message_end:toolResult", "turn_end",
      "turn_start", "queue:0/1", "message_start:user", "message_end:user", "message_start:assistant", "message_end:assistant", "turn_end",
      "turn_start", "queue:0/0", "message_start:user", "message_end:user", "message_start:assistant", "message_end:assistant", "turn_end",
      "agent_end",
    ]);
    const said = p.messages.filter((l) => l.type === "message_end" && l.message.role === "assistant").map((l) => l.message.content.map((c: Line) => c.text ?? "").join(""));
    assert.deepEqual(said.slice(-2), ["steered: change plan", "follow-up ran"]);
  });

  it("lets steering queued while idle ride along with the next prompt, as pi does", async () => {
    const p = fake("pi");
    p.send({ id: "s", type: "steer", message: "idle steer" });
    await p.waitFor((l) => l.id === "s");
    p.send({ id: "1", type: "prompt", message: "say the prompt's own reply" });
    const end = await p.waitFor((l) => l.type === "agent_end");
    assert.deepEqual(end.messages.map((m: Line) => m.content.map((c: Line) => c.text).join("")), ["say the prompt's own reply", "idle steer", "the prompt's own reply"]);
    const order = p.messages.filter((l) => l.type === "queue_update" || l.type === "message_start").map((l) => (l.type === "queue_update" ? `queue:${l.steering.length}` : l.message.role));
    assert.deepEqual(order, ["queue:1", "user", "queue:0", "user", "assistant"]);
  });

  it("leaves a running tool orphaned when stdin closes (as pi 0.73.1 does) and exits 0", async () => {
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: "bash echo $$; exec sleep 30" });
    const pid = pidFromOutput(await p.waitFor((l) => l.type === "tool_execution_update" && pidFromOutput(l) > 0));
    strayGroups.push(pid);
    p.closeStdin();
    assert.deepEqual(await p.exited, { code: 0, signal: null });
    assert.ok(isAlive(pid), "the tool outlived the worker");
    const ppid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
    assert.notEqual(ppid, p.pid, "re-parented away from the dead worker");
    killGroup(pid);
  });

  it("garbage writes its junk in order and still finishes the turn", async () => {
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: "say before\ngarbage\nsay after" });
    await p.waitFor((l) => l.type === "agent_end");
    const start = p.records.findIndex((r) => r.text.startsWith("fake-worker: this line is not JSON"));
    const r = p.records.slice(start, start + 6);
    assert.deepEqual(r.slice(1, 3).map((x) => x.json), [42, [1, 2, 3]]);
    assert.equal((r[3].json as Line).id, "nobody-asked-for-this");
    assert.deepEqual(r[4].json, { type: "mystery_event", foo: 1 });
    assert.ok(r[5].bytes.includes(0xff), "raw invalid UTF-8 byte");
    const deltas = p.messages.filter((l) => l.assistantMessageEvent?.type === "text_delta").map((l) => l.assistantMessageEvent.delta);
    assert.equal(deltas.join(""), "beforeline\u2028separator\u2029paragraph crlf-terminated after");
    assert.equal(p.records.filter((x) => x.crlf).length, 1);
  });
});

describe("fake worker, tau dialect", () => {
  const rpc = (p: StdioPeer, id: number, method: string, params?: unknown) => {
    p.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return p.waitFor((l) => l.id === id, { what: `reply ${id}` });
  };
  const events = (p: StdioPeer) => p.messages.filter((l) => l.method === "event").map((l) => l.params as Line);

  it("negotiates, acks a prompt before agent_start and stamps every complete WireEvent", async () => {
    const p = fake("tau");
    const caps = (await rpc(p, 1, "get_capabilities")).result;
    assert.equal(caps.protocol_version, "3.1");
    assert.equal(caps.method, "get_capabilities");
    assert.equal(caps.limits.max_request_line_bytes, 8388608);
    const ack = (await rpc(p, 2, "prompt", { text: "hi there", submission_id: "s-1", correlation: { k: 1 } })).result;
    assert.deepEqual(ack, { accepted: true, submission_id: "s-1", rejection_reason: null, method: "prompt" });
    const end = await p.waitFor((l) => l.params?.type === "agent_end");
    assert.ok(p.indexOf(p.messages.find((l) => l.id === 2)!) < p.indexOf(p.messages.find((l) => l.params?.type === "agent_start")!));
    const evs = events(p);
    assert.deepEqual(evs.map((e) => e.type), ["agent_start", "turn_start", "message_start", "message_update", "message_update", "message_end", "turn_end", "agent_end"]);
    for (const e of evs) {
      assert.deepEqual(Object.keys(e), WIRE_EVENT_FIELDS);
      assert.equal(e.submission_id, "s-1");
      assert.deepEqual([e.source, e.submitter, e.correlation], ["rpc", "rpc-client", { k: 1 }]);
    }
    assert.equal(evs.filter((e) => e.delta !== null).map((e) => e.delta).join(""), "hi there");
    // message_count counts what the run produced (real τ 0.15.0: the reply, not the prompt).
    assert.deepEqual([end.params.end_reason, end.params.message_count, typeof end.params.leaf], ["done", 1, "string"]);
  });

  it("reports an overridden protocol version", async () => {
    const p = fake("tau", "--protocol-version", "2.1");
    assert.equal((await rpc(p, 1, "get_capabilities")).result.protocol_version, "2.1");
  });

  it("refuses what tau refuses: a second prompt, unknown params, fork, unknown methods, non-JSON", async () => {
    const p = fake("tau");
    await rpc(p, 1, "prompt", { text: "wait 30000" });
    const busy = await rpc(p, 2, "prompt", { text: "again", submission_id: "s-2" });
    assert.deepEqual(busy.error.code, -32000);
    assert.deepEqual(busy.error.data, { method: "prompt", submission_id: "s-2" });
    assert.equal((await rpc(p, 3, "prompt", { text: "x", nope: 1 })).error.code, -32602);
    const fork = await rpc(p, 4, "prompt", { text: "x", multitask_strategy: "fork" });
    assert.deepEqual([fork.error.code, fork.error.data.multitask_strategy], [-32602, "fork"]);
    assert.deepEqual((await rpc(p, 5, "frobnicate")).error, { code: -32601, message: "Method not found: frobnicate", data: { method: "frobnicate" } });
    p.send("{not json");
    assert.deepEqual(await p.waitFor((l) => l.error?.code === -32700), { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  });

  it("abort mid `bash sleep 30` answers at once, kills the tool and ends with end_reason aborted", async () => {
    const p = fake("tau");
    const pidFile = path.join(dir, "tau-tool.pid");
    await rpc(p, 1, "prompt", { text: `bash echo $$ > ${pidFile}; echo written; exec sleep 30` });
    // τ's bash reports no progress (no tool_execution_update), so the pid file is the only
    // trace of the tool's start: re-read, bounded, once the tool has begun.
    await p.waitFor((l) => l.params?.type === "tool_execution_start");
    const t1 = Date.now();
    while (!/^\d+\n/.test(existsSync(pidFile) ? readFileSync(pidFile, "utf8") : "")) {
      if (Date.now() - t1 > 5000) throw new Error("the tool never wrote its pid");
      await new Promise((r) => setTimeout(r, 10));
    }
    const pid = Number(readFileSync(pidFile, "utf8"));
    strayGroups.push(pid);
    assert.ok(isAlive(pid));
    const t0 = Date.now();
    assert.deepEqual((await rpc(p, 2, "abort")).result, { status: "aborted", compaction_id: null, method: "abort" });
    const end = await p.waitFor((l) => l.params?.type === "agent_end");
    assert.ok(Date.now() - t0 < 2000);
    assert.equal(end.params.end_reason, "aborted");
    assert.equal(isAlive(pid), false);
    const toolEnd = events(p).find((e) => e.type === "tool_execution_end")!;
    assert.deepEqual([toolEnd.tool_name, toolEnd.is_error], ["bash", true]);
  });

  it("compacts via the compaction_end notification; abort cancels a running one; a second compact is -32002", async () => {
    const p = fake("tau", "--compact-ms", "30000");
    await rpc(p, 1, "prompt", { text: "say some history" });
    await p.waitFor((l) => l.params?.type === "agent_end");
    const ack = (await rpc(p, 2, "compact", {})).result;
    assert.deepEqual(ack, { accepted: true, compaction_id: "c-1", method: "compact" });
    await p.waitFor((l) => l.params?.type === "agent_start" && l.params.submission_id === null);
    const second = await rpc(p, 3, "compact");
    assert.deepEqual([second.error.code, second.error.data.compaction_id], [-32002, "c-1"]);
    assert.deepEqual((await rpc(p, 4, "abort")).result, { status: "aborted", compaction_id: "c-1", method: "abort" });
    const done = await p.waitFor((l) => l.method === "compaction_end");
    assert.equal(done.params.cancelled, true);
    assert.equal(done.params.request_id, 2);
    assert.equal("performed" in done.params, false);
  });

  it("a compaction that runs to the end reports performed with a summary", async () => {
    const p = fake("tau", "--compact-ms", "5");
    await rpc(p, 1, "prompt", { text: "say some history" });
    await p.waitFor((l) => l.params?.type === "agent_end");
    await rpc(p, 2, "compact");
    const done = await p.waitFor((l) => l.method === "compaction_end");
    assert.deepEqual([done.params.cancelled, done.params.performed, done.params.is_error], [false, true, false]);
    assert.match(done.params.summary, /summary/);
  });

  for (const when of ["after", "mid"]) {
    it(`--auto-compact ${when}: τ's own compaction is an agent_start/agent_end pair naming only its cursor, and no compaction_end follows`, async () => {
      const p = fake("tau", "--auto-compact", when);
      await rpc(p, 1, "prompt", { text: "bash echo hi\nsay done", submission_id: "s1" });
      // The last event: the bracket after the run, or the run's end after the bracket inside it.
      await p.waitFor((l) => l.params?.type === "agent_end" && l.params.submission_id === (when === "after" ? null : "s1"));
      const seen = events(p).filter((e) => e.type === "agent_start" || e.type === "agent_end" || e.type === "tool_execution_end");
      const order = seen.map((e) => `${e.type}:${e.submission_id ?? "-"}`);
      assert.deepEqual(order, when === "after"
        ? ["agent_start:s1", "tool_execution_end:s1", "agent_end:s1", "agent_start:-", "agent_end:-"]
        : ["agent_start:s1", "tool_execution_end:s1", "agent_start:-", "agent_end:-", "agent_end:s1"]);
      for (const e of seen.filter((x) => !x.submission_id)) {
        assert.equal(typeof e.cursor_id, "string");
        assert.deepEqual([e.source, e.submitter, e.correlation, e.end_reason], [null, null, null, null]);
      }
      assert.equal(p.messages.some((l) => l.method === "compaction_end"), false);
    });
  }
});

describe("fake worker, directives and flags", () => {
  const rpc = (p: StdioPeer, id: number, method: string, params?: unknown) => {
    p.send({ jsonrpc: "2.0", id, method, params });
    return p.waitFor((l) => l.id === id);
  };

  it("exit <code> and kill end the process mid-turn", async () => {
    const a = fake("pi");
    a.send({ id: "1", type: "prompt", message: "say bye\nexit 7" });
    assert.deepEqual(await a.exited, { code: 7, signal: null });
    assert.ok(a.messages.some((l) => l.assistantMessageEvent?.delta === "bye"), "output before the exit is flushed");
    const b = fake("tau");
    b.send({ jsonrpc: "2.0", id: 1, method: "prompt", params: { text: "kill" } });
    assert.deepEqual(await b.exited, { code: null, signal: "SIGKILL" });
  });

  it("hang: abort is answered but the run never settles", async () => {
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: "hang" });
    await p.waitFor((l) => l.type === "message_start" && l.message.role === "assistant");
    p.send({ id: "a", type: "abort" });
    await p.waitFor((l) => l.id === "a");
    p.send({ id: "s", type: "get_state" });
    assert.equal((await p.waitFor((l) => l.id === "s")).data.isStreaming, true);
    assert.equal(p.messages.some((l) => l.type === "agent_end"), false);
  });

  it("grandchild: the tool's sh forks a long-lived sleep, both in the tool's own group", async () => {
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: "grandchild" });
    const u = await p.waitFor((l) => /grandchild \d+/.test(l.partialResult?.content?.[0]?.text ?? ""));
    const grandchild = Number(/grandchild (\d+)/.exec(u.partialResult.content[0].text)![1]);
    const [, sh, group] = procStat(grandchild); // fields after comm: state, ppid, pgrp
    strayGroups.push(group);
    assert.equal(procStat(sh)[1], p.pid, "sh is the worker's child, the sleep its grandchild");
    assert.equal(group, sh, "detached: the tool's group is sh's own, not the worker's");
    p.send({ id: "s", type: "get_state" });
    assert.equal((await p.waitFor((l) => l.id === "s")).data.isStreaming, true);
  });

  it("SIGTERM kills every process of a running tool's group, then exits 143", async () => {
    const fifo = path.join(dir, `alive-${Date.now()}`);
    execFileSync("mkfifo", [fifo]);
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: `bash sleep 600 > ${fifo} & echo "grandchild $!"; sleep 600` });
    // The grandchild holds the FIFO's only write end: EOF here is its death, observed without a clock.
    const reader = createReadStream(fifo);
    const opened = new Promise<void>((resolve) => reader.once("ready", () => resolve())); // both ends are open
    const gone = new Promise<void>((resolve) => reader.once("end", () => resolve()));
    reader.resume();
    const u = await p.waitFor((l) => /grandchild \d+/.test(l.partialResult?.content?.[0]?.text ?? ""));
    strayGroups.push(groupOf(Number(/grandchild (\d+)/.exec(u.partialResult.content[0].text)![1])));
    await opened;
    p.child.kill("SIGTERM");
    assert.deepEqual(await p.exited, { code: 143, signal: null });
    await gone;
  });

  it("--ignore-sigterm keeps serving after SIGTERM", async () => {
    const p = fake("tau", "--ignore-sigterm");
    await rpc(p, 1, "get_state");
    p.child.kill("SIGTERM");
    await p.waitForStderr(/SIGTERM ignored/);
    await rpc(p, 2, "get_state");
    assert.equal(p.exit, null);
  });

  it("--banner, --exit-on-probe, --silent and --hang-probe shape the readiness probe", async () => {
    const banner = fake("tau", "--banner");
    await rpc(banner, 1, "get_capabilities");
    assert.equal(banner.records[0].json, undefined, "the first stdout line is not JSON");
    const exits = fake("pi", "--exit-on-probe", "3");
    exits.send({ id: "s", type: "get_state" });
    assert.equal((await exits.exited).code, 3);
    assert.match(exits.stderr, /exit-on-probe/);
    const silent = fake("pi", "--silent", "get_state");
    silent.send({ id: "s", type: "get_state" });
    silent.send({ id: "m", type: "get_messages" });
    await silent.waitFor((l) => l.id === "m");
    assert.equal(silent.messages.some((l) => l.id === "s"), false);
    const mute = fake("tau", "--hang-probe");
    mute.send({ jsonrpc: "2.0", id: 1, method: "get_capabilities" });
    mute.closeStdin();
    assert.equal((await mute.exited).code, 0);
    assert.equal(mute.records.length, 0);
  });

  it("--silent <command>@<n> drops only that request, --exit-on <command>@<n> exits 1 on it", async () => {
    const quiet = fake("tau", "--silent", "get_state@2");
    await rpc(quiet, 1, "get_state");
    quiet.send({ jsonrpc: "2.0", id: 2, method: "get_state" });
    await rpc(quiet, 3, "get_state");
    assert.equal(quiet.messages.some((l) => l.id === 2), false);
    const dies = fake("tau", "--exit-on", "get_state@2");
    await rpc(dies, 1, "get_state");
    dies.send({ jsonrpc: "2.0", id: 2, method: "get_state" });
    assert.equal((await dies.exited).code, 1);
    assert.match(dies.stderr, /--exit-on: exiting with 1 on get_state \(request 2\)/);
    assert.equal(dies.messages.some((l) => l.id === 2), false);
  });

  it("--ui asks a confirm dialog before answering the prompt and notifies the answer", async () => {
    const p = fake("pi", "--ui");
    p.send({ id: "1", type: "prompt", message: "say hi" });
    const req = await p.waitFor((l) => l.type === "extension_ui_request" && l.method === "confirm");
    assert.equal(p.messages.some((l) => l.id === "1"), false);
    p.send({ type: "extension_ui_response", id: req.id, confirmed: true });
    await p.waitFor((l) => l.type === "agent_end");
    assert.equal(p.messages.find((l) => l.method === "notify")!.message, "confirmed: true");
  });

  it("bytewise + bigline: a 20 kB delta line arrives intact one byte per write", async () => {
    const p = fake("pi");
    p.send({ id: "1", type: "prompt", message: "bytewise\nbigline 20000" });
    await p.waitFor((l) => l.type === "agent_end", { timeoutMs: 30_000 });
    assert.ok(p.messages.some((l) => l.assistantMessageEvent?.delta?.length === 20000));
  });

  it("events <n> mixes text deltas with few-KiB tool updates; flood <bytes> writes at least that much", async () => {
    const p = fake("tau");
    await rpc(p, 1, "prompt", { text: "events 400" });
    await p.waitFor((l) => l.params?.type === "agent_end");
    const count = (t: string) => p.messages.filter((l) => l.params?.type === t).length;
    assert.deepEqual([count("tool_execution_update"), count("message_update")], [20, 380]);
    const f = fake("pi");
    f.send({ id: "1", type: "prompt", message: "flood 2000000" });
    await f.waitFor((l) => l.type === "agent_end", { timeoutMs: 30_000 });
    const deltaBytes = f.records.filter((r) => (r.json as Line)?.assistantMessageEvent?.type === "text_delta").reduce((n, r) => n + r.bytes.length + 1, 0);
    assert.ok(deltaBytes >= 2000000, `${deltaBytes}`);
  });

  it("tau: enqueue runs after the turn as its own submission; oversized and non-UTF-8 lines are refused", async () => {
    const fifo = path.join(dir, `enqueue-${Date.now()}`);
    execFileSync("mkfifo", [fifo]);
    const p = fake("tau", "--max-request-line-bytes", "400");
    await rpc(p, 1, "prompt", { text: `bash read x < ${fifo}`, submission_id: "a" });
    p.send({ jsonrpc: "2.0", id: 2, method: "prompt", params: { text: "say queued", submission_id: "b", multitask_strategy: "enqueue" } });
    p.send("x".repeat(450));
    const big = await p.waitFor((l) => l.error?.code === -32003);
    assert.deepEqual(big.error.data, { max_request_line_bytes: 400, observed_bytes: 450, line_complete: true });
    p.child.stdin!.write(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    assert.equal((await p.waitFor((l) => l.error?.code === -32700)).error.data.byte_offset, 1);
    writeFileSync(fifo, "go\n");
    await p.waitFor((l) => l.params?.type === "agent_end" && l.params.submission_id === "b");
    const order = p.messages.filter((l) => l.id === 2 || ["agent_start", "agent_end"].includes(l.params?.type)).map((l) => (l.id === 2 ? "ack:b" : `${l.params.type}:${l.params.submission_id}`));
    assert.deepEqual(order, ["agent_start:a", "agent_end:a", "ack:b", "agent_start:b", "agent_end:b"]);
  });
});
