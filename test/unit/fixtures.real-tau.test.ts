// One table of scenarios run on the raw wire (JSON lines) against the fake τ and the real τ
// (ffwf-tau-coding-agent 0.15.0, protocol 3.1, on the mock LLM), so that the fake never claims
// what τ does not do: the same sequence of events, responses and notifications, the same key
// sets in the same order, the same error codes, messages and result shapes. What only the fake
// does (garbage, crash, hang, floods) is tested in fixtures.fake-worker.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StdioPeer, type Line } from '../fixtures/fake-worker/peer.mjs';
import { startMockLlm, type MockLlm, type MockReply } from '../fixtures/mock-llm.mjs';
import { makeTauHome, removeTauHome, requireTau, tauEnv, tauRpcArgs } from '../fixtures/tau-env.mjs';

const FAKE = path.resolve(__dirname, '../fixtures/fake-worker.mjs');

/** One worker on the raw wire, and what stands for its model. */
interface Side {
  kind: 'fake' | 'real';
  peer: StdioPeer;
  /** Sends a request; resolves with its response. */
  call(method: string, params?: Record<string, unknown>): Promise<Line>;
  /** Sends a request without waiting; returns its id. */
  send(method: string, params?: Record<string, unknown>): number;
  /** The real τ's model (the mock LLM); the fake's model is the prompt text itself. */
  llm?: MockLlm;
  /** Index in peer.records where the scenario began (after the probe). */
  from: number;
  cwd: string;
}

interface Scenario {
  name: string;
  fakeFlags?: string[];
  /** τ 0.15.0 ends an aborted bash with is_error true or false, by a race in its tool: not compared. */
  abortedToolError?: boolean;
  /** Real τ's home, where the scenario needs other than the default (makeTauHome's options). */
  realHome?: { compaction?: Record<string, unknown>; contextWindow?: number };
  /** Real τ's arguments after the table's own (an extension: `-e PATH`). */
  realArgs?: string[];
  /** What else must be the same on both sides, beyond labels, key sets and errors. */
  same?(w: Side): unknown;
  run(w: Side): Promise<void>;
}

/** The τ extension that locks the session after each turn behind a request (the fake's --review-gate). */
const REVIEW_GATE = path.resolve(__dirname, '../fixtures/tau-ext/review_gate.py');

const ev = (type: string) => (l: Line) => l.method === 'event' && l.params?.type === type;
const held = () => {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
};

/** What the model says, on each side: a mock script for real τ, the prompt text for the fake. */
function model(w: Side, real: MockReply[], fake: string): string {
  if (w.kind === 'real') {
    w.llm!.script(real);
    return 'go';
  }
  return fake;
}

/** Two turns, so that a compaction has history before the kept turn to summarise. */
async function history(w: Side): Promise<void> {
  for (const said of ['Something worth summarising.', 'And a second thing.']) {
    const from = w.peer.records.length;
    await w.call('prompt', { text: model(w, [{ text: said }], said) });
    await w.peer.waitFor(ev('agent_end'), { from, timeoutMs: 30_000 });
  }
}

/**
 * τ compacts on its own past its soft limit, 80 % of the window less the reserve (here 1433
 * tokens), and inside a turn past the hard one (1792): the model's usage says 2000 were used.
 */
const AUTO_COMPACTION = { compaction: { auto: true, keep_recent_tokens: 1, reserve_tokens: 256 }, contextWindow: 2048 };
const NEAR_FULL = { prompt_tokens: 1900, completion_tokens: 100 };
/** The agent_end of τ's own compaction: it names no submission. */
const bracketEnd = (l: Line) => ev('agent_end')(l) && l.params.submission_id === null;

const SCENARIOS: Scenario[] = [
  {
    name: 'plain turn',
    async run(w) {
      const text = model(w, [{ text: 'Hello there, this is a reply.' }], 'Hello there, this is a reply.');
      await w.call('prompt', { text });
      await w.peer.waitFor(ev('agent_end'), { from: w.from, timeoutMs: 30_000 });
    },
  },
  {
    name: 'tool call',
    async run(w) {
      const text = model(w, [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }] }, { text: 'done' }], 'bash echo hi\nsay done');
      await w.call('prompt', { text });
      await w.peer.waitFor(ev('agent_end'), { from: w.from, timeoutMs: 30_000 });
    },
  },
  {
    name: 'steer and follow-up while a tool runs',
    async run(w) {
      const fifo = path.join(w.cwd, 'gate');
      execFileSync('mkfifo', [fifo]);
      const read = `read x < ${fifo}`;
      const text = model(w, [{ toolCalls: [{ name: 'bash', arguments: { command: read } }] }, { text: 'steered: steer me' }, { text: 'follow-up ran' }], `bash ${read}`);
      await w.call('prompt', { text, submission_id: 'first' });
      await w.peer.waitFor(ev('tool_execution_start'), { from: w.from, timeoutMs: 30_000 });
      await w.call('prompt', { text: 'steer me', multitask_strategy: 'steer' });
      // τ acks an enqueued prompt when it admits it, after the running turn.
      w.send('prompt', { text: w.kind === 'real' ? 'follow me' : 'say follow-up ran', multitask_strategy: 'enqueue', submission_id: 'later' });
      writeFileSync(fifo, 'go\n');
      await w.peer.waitFor((l) => ev('agent_end')(l) && l.params.submission_id === 'later', { from: w.from, timeoutMs: 30_000 });
    },
  },
  {
    name: 'abort mid-tool',
    abortedToolError: true,
    async run(w) {
      const text = model(w, [{ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30' } }] }], 'bash sleep 30');
      await w.call('prompt', { text });
      await w.peer.waitFor(ev('tool_execution_start'), { from: w.from, timeoutMs: 30_000 });
      await w.call('abort');
      await w.peer.waitFor(ev('agent_end'), { from: w.from, timeoutMs: 30_000 });
    },
  },
  {
    name: 'compact',
    async run(w) {
      await history(w);
      if (w.llm) w.llm.script([{ text: 'SUMMARY' }]);
      await w.call('compact');
      await w.peer.waitFor((l) => l.method === 'compaction_end', { from: w.from, timeoutMs: 30_000 });
    },
  },
  {
    name: 'abort of a compaction',
    fakeFlags: ['--compact-ms', '60000'],
    async run(w) {
      const slow = held();
      await history(w);
      // τ asks for the history summary and the split turn's prefix summary at once: both wait.
      if (w.llm) w.llm.script([{ text: 'SUMMARY', gate: slow.promise }, { text: 'PREFIX', gate: slow.promise }]);
      await w.call('compact');
      if (w.llm) await w.llm.waitForRequest(4);
      else await w.peer.waitFor((l, i) => i > w.from && ev('agent_start')(l) && l.params.submission_id === null, { from: w.from });
      await w.call('compact'); // single-flight: refused while the first runs
      await w.call('abort');
      await w.peer.waitFor((l) => l.method === 'compaction_end', { from: w.from, timeoutMs: 30_000 });
      slow.open();
    },
  },
  {
    name: 'automatic compaction after a turn',
    fakeFlags: ['--auto-compact', 'after'],
    realHome: AUTO_COMPACTION,
    async run(w) {
      const text = model(w, [{ text: 'A reply that fills the window.', usage: NEAR_FULL }, { text: 'SUMMARY' }], 'A reply that fills the window.');
      await w.call('prompt', { text });
      await w.peer.waitFor(bracketEnd, { from: w.from, timeoutMs: 30_000 });
    },
  },
  {
    name: 'automatic compaction inside a turn, between its tool call and its next model call',
    fakeFlags: ['--auto-compact', 'mid'],
    realHome: AUTO_COMPACTION,
    async run(w) {
      const text = model(w, [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo hi' } }], usage: NEAR_FULL }, { text: 'SUMMARY' }, { text: 'Done.' }], 'bash echo hi\nsay Done.');
      await w.call('prompt', { text });
      await w.peer.waitFor((l) => ev('agent_end')(l) && l.params.submission_id !== null, { from: w.from, timeoutMs: 30_000 });
    },
  },
  {
    name: 'prompt while busy refused',
    async run(w) {
      const slow = held();
      const text = model(w, [{ text: 'too late', gate: slow.promise }], 'wait 60000');
      await w.call('prompt', { text });
      if (w.llm) await w.llm.waitForRequest(1);
      else await w.peer.waitFor(ev('turn_start'), { from: w.from });
      await w.call('prompt', { text: 'interrupting', submission_id: 'busy-1' });
      await w.call('abort');
      slow.open(); // real τ notices the abort only when the model's answer arrives
      await w.peer.waitFor(ev('agent_end'), { from: w.from, timeoutMs: 30_000 });
    },
  },
  {
    name: "an extension's request after a turn: read, a prompt refused for it, answered, gone",
    fakeFlags: ['--review-gate', REVIEW_GATE],
    realArgs: ['-e', REVIEW_GATE],
    async run(w) {
      const text = model(w, [{ text: 'First turn done.' }], 'First turn done.');
      await w.call('prompt', { text });
      await w.peer.waitFor(ev('agent_end'), { from: w.from, timeoutMs: 30_000 });
      const { result } = await w.call('get_pending_request');
      await w.call('prompt', { text: 'another', submission_id: 'busy-1' });
      await w.call('answer_request', { request_id: result.request.entry_id, action: 'Approve', values: { note: 'looks good' } });
      await w.call('get_pending_request');
    },
    // The request as the host reads it, and the answer's output, with the entry's id said as such.
    same(w) {
      const results = w.peer.messages.filter((l) => w.peer.indexOf(l) >= w.from && l.result).map((l) => l.result);
      const request = results.find((r) => r.method === 'get_pending_request' && r.request)!.request;
      const answer = results.find((r) => r.method === 'answer_request')!;
      const leaf = w.peer.messages.find((l) => w.peer.indexOf(l) >= w.from && l.method === 'event' && l.params?.type === 'agent_end')!.params.leaf;
      return {
        request: { ...request, entry_id: request.entry_id === leaf ? "<agent_end's leaf>" : request.entry_id },
        answer: { ...answer, output: answer.output.replace(request.entry_id, '<entry id>'), leaf: typeof answer.leaf },
      };
    },
  },
  {
    name: 'unknown method, declined verb, bad params',
    async run(w) {
      await w.call('frobnicate', {});
      await w.call('bash', {});
      await w.call('prompt', {});
      await w.call('prompt', { text: 'x', bogus: 1 });
    },
  },
];

/**
 * The scenario's lines, each said as a label: events by type (with the fields a host acts on),
 * runs of text deltas as one, responses by verb, errors by code.
 */
function labels(w: Side, { abortedToolError = false } = {}): string[] {
  const out: string[] = [];
  for (const r of w.peer.records.slice(w.from)) {
    const l = r.json as Line;
    let label: string;
    if (l?.method === 'event') {
      const p = l.params;
      const error = p.is_error && !(abortedToolError && p.type === 'tool_execution_end');
      const detail = [p.end_reason, p.stop_reason, p.tool_name, error ? 'error' : null, p.purpose, p.message_count === null ? null : `${p.message_count} messages`]
        .filter((x) => x !== null && x !== undefined);
      label = `${p.type}${detail.length ? `(${detail.join(',')})` : ''}`;
    } else if (l?.method === 'compaction_end') {
      label = `compaction_end(${l.params.cancelled ? 'cancelled' : l.params.performed ? 'performed' : 'not performed'})`;
    } else if (l && 'result' in l) label = `ok:${l.result.method}`;
    else if (l && 'error' in l) label = `error:${l.error.code}`;
    else label = `junk:${r.text.slice(0, 40)}`;
    if (label.endsWith('update') || label.startsWith('message_update') || label.startsWith('side_completion_update')) {
      if (out[out.length - 1] === `${label}+`) continue;
      label = `${label}+`;
    }
    out.push(label);
  }
  return out;
}

/** Every distinct key list (in order) per label: events, notifications, results, errors. */
function shapes(w: Side): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  const add = (k: string, v: object | null | undefined) => {
    if (v && typeof v === 'object') (out[k] ??= new Set()).add(Object.keys(v).join(','));
  };
  for (const r of w.peer.records.slice(w.from)) {
    const l = r.json as Line;
    if (!l) continue;
    add('envelope', l);
    if (l.method === 'event') add(`event ${l.params.type}`, l.params);
    else if (l.method === 'compaction_end') add(`compaction_end ${l.params.cancelled ? 'cancelled' : l.params.performed}`, l.params);
    else if ('result' in l) add(`result ${l.result.method}`, l.result);
    else if ('error' in l) {
      add(`error ${l.error.code}`, l.error);
      add(`error ${l.error.code} data`, l.error.data);
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v].sort()]));
}

/** Error answers as code, message and data (ids and τ's long decline reasons aside). */
function errors(w: Side): Array<{ code: number; message: string; data: unknown }> {
  return w.peer.messages.filter((l) => 'error' in l && w.peer.indexOf(l) >= w.from).map((l) => {
    const e = l.error;
    const data = e.data && typeof e.data === 'object' ? { ...e.data } : e.data;
    if (data?.submission_id && data.submission_id !== 'busy-1') data.submission_id = '<uuid>';
    if (data?.compaction_id) data.compaction_id = '<id>';
    if (data?.lock?.entry_id) data.lock = { ...data.lock, entry_id: '<id>' };
    const message = String(e.message).replace(/\(declined: .*\)$/s, '(declined: <reason>)').replace(/compaction \S+ is still/, 'compaction <id> is still');
    return { code: e.code, message, data };
  });
}

describe('the fake τ against real τ 0.15.0, one table of scenarios on the raw wire', function () {
  this.timeout(90_000);
  let command: string;
  const cleanups: Array<() => Promise<void> | void> = [];

  before(() => {
    command = requireTau();
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function side(kind: 'fake' | 'real', fakeFlags: string[] = [], realHome: Scenario['realHome'] = {}, realArgs: string[] = []): Promise<Side> {
    const cwd = mkdtempSync(path.join(tmpdir(), `tau-table-${kind}-`));
    cleanups.push(() => rmSync(cwd, { recursive: true, force: true }));
    let peer: StdioPeer;
    let llm: MockLlm | undefined;
    if (kind === 'real') {
      llm = await startMockLlm();
      const home = await makeTauHome({ baseUrl: llm.baseUrl, ...realHome });
      cleanups.push(async () => {
        await llm!.close();
        await removeTauHome(home);
      });
      peer = StdioPeer.spawn(command, tauRpcArgs(home, realArgs), { env: tauEnv(home), cwd });
    } else {
      peer = StdioPeer.spawn(process.execPath, [FAKE, '--dialect', 'tau', '--mode', 'rpc', '--session-dir', path.join(cwd, 'sessions'), ...fakeFlags], { cwd });
    }
    cleanups.push(() => peer.stop());
    let id = 0;
    const send = (method: string, params?: Record<string, unknown>) => {
      peer.send({ jsonrpc: '2.0', id: ++id, method, ...(params ? { params } : {}) });
      return id;
    };
    const call = (method: string, params?: Record<string, unknown>) => {
      const n = send(method, params);
      return peer.waitFor((l) => l.id === n, { timeoutMs: 30_000, what: `the answer to ${method}` });
    };
    const w: Side = { kind, peer, llm, call, send, from: 0, cwd };
    await call('get_capabilities');
    await call('get_state');
    w.from = peer.records.length;
    return w;
  }

  it('the probe: the fake claims no verb, event type or decline that real τ does not have, and the same version, limits and state shape', async () => {
    const [fake, real] = [await side('fake'), await side('real')];
    const caps = (w: Side) => w.peer.messages.find((l) => l.result?.method === 'get_capabilities')!.result;
    const state = (w: Side) => w.peer.messages.find((l) => l.result?.method === 'get_state')!.result;
    const [fc, rc] = [caps(fake), caps(real)];
    assert.equal(rc.protocol_version, '3.1');
    assert.equal(fc.protocol_version, rc.protocol_version);
    assert.deepEqual(fc.limits, rc.limits);
    assert.deepEqual(fc.ui_methods, rc.ui_methods);
    const realVerbs = new Set(rc.commands.map((c: { name: string }) => c.name));
    assert.deepEqual(fc.commands.map((c: { name: string }) => c.name).filter((n: string) => !realVerbs.has(n)), []);
    assert.deepEqual(fc.events.filter((e: string) => !rc.events.includes(e)), []);
    assert.deepEqual(fc.declined.map((d: { name: string }) => d.name).sort(), rc.declined.map((d: { name: string }) => d.name).sort());
    assert.deepEqual(Object.keys(fc).filter((k) => !(k in rc)), [], 'no capability field real τ lacks');
    assert.deepEqual(Object.keys(state(fake)), Object.keys(state(real)));
  });

  for (const s of SCENARIOS) {
    it(s.name, async () => {
      const [fake, real] = [await side('fake', s.fakeFlags), await side('real', [], s.realHome, s.realArgs)];
      await s.run(real);
      await s.run(fake);
      assert.deepEqual(labels(fake, s), labels(real, s), 'the sequence of events, responses and notifications');
      assert.deepEqual(shapes(fake), shapes(real), 'key sets in order');
      assert.deepEqual(errors(fake), errors(real), 'errors: code, message, data');
      if (s.same) assert.deepEqual(s.same(fake), s.same(real));
    });
  }
});
