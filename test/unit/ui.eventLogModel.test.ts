// The event log's model: events of either dialect folded into what a person reads.
import * as assert from 'node:assert/strict';
import { slimEvent, type PageEvent } from '../../src/protocol/messages';
import { stamped } from '../fixtures/hostStream';
import { endWords, GROUP_OF, searchText, stopReasonWords, type Entry } from '../../src/webview/entries';
import { LogModel } from '../../src/webview/model';
import { resultText } from '../../src/protocol/eventText';
import { normalizePiEvent } from '../../src/core/wire/pi';
import { updateEvent } from '../../src/core/wire/acpEvents';

const T = 1_700_000_000_000;
const ev = (type: string, fields: Partial<PageEvent> = {}, t = T): PageEvent => ({ type, timestamp: t, ...fields } as PageEvent);
const kinds = (m: LogModel) => m.all().map((e) => e.kind);
type Of<K> = Entry extends infer E ? (E extends { kind: infer KK } ? (K extends KK ? E : never) : never) : never;
const only = <K extends Entry['kind']>(m: LogModel, kind: K) => m.all().filter((e) => e.kind === kind) as Of<K>[];

describe('ui event log model', () => {
  it('an event the host cut to a preview shows a warning naming the fields and the line\'s size', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('tool_execution_start', { tool_call_id: 'c1', tool_name: 'bash', args: { command: 'yes' } }),
      ev('tool_execution_update', { tool_call_id: 'c1', tool_name: 'bash', result: { content: [{ type: 'text', text: 'y…[cut]…y' }] }, cut: { lineChars: 40 * 1024 * 1024, fields: [{ path: 'result.content[0].text', chars: 41_943_000 }] } } as never),
    ]));
    const [w] = only(m, 'warning');
    assert.equal(w.title, 'Cut: tool_execution_update');
    assert.equal(w.text, 'a 40.0 MiB line from the worker; the host kept a preview (first and last characters) of result.content[0].text (41,943,000 characters)');
  });

  it('a violation the audit found (τ: the call ran) says it was not prevented; a refusal says it was', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('tool_execution_start', { tool_call_id: 'c1', tool_name: 'write', args: { path: '.env' } }),
      ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'write', is_error: false }),
      ev('guard_violation', { tool_call_id: 'c1', tool_name: 'write', is_error: true, error: 'write ".env": forbidden', data: { action: 'abort' } } as Partial<PageEvent>),
      ev('guard_violation', { tool_call_id: null, tool_name: 'terminal/create', is_error: true, error: 'no shell', blocked: true, blocked_by: 'rpc-workers-guard' } as Partial<PageEvent>),
    ]));
    const [audited, refused] = only(m, 'warning');
    assert.equal(audited.title, 'Guard (not prevented: the call may have run): write');
    assert.equal(refused.title, 'Guard (refused before it happened): terminal/create');
  });

  it('what the host ended after an abort is a warning; a long command line shows its start and its end (Codex\'s sandbox puts the command last)', () => {
    const m = new LogModel();
    const sandboxed = `codex-linux-sandbox --sandbox-policy-cwd /tmp/w --permission-profile ${JSON.stringify({ type: 'managed', allow: Array.from({ length: 40 }, (_, i) => `/p${i}`) })} -- bash -lc "sleep 600 marker-42"`;
    m.apply(stamped([ev('processes_ended', { data: { reason: 'abort', processes: [{ pid: 7, command: 'sleep 600' }, { pid: 8, command: sandboxed }, { pid: 9, command: null }] } } as Partial<PageEvent>)]));
    const [w] = only(m, 'warning');
    assert.equal(w.title, 'The host ended what the worker left running after the abort');
    const [short, long, unknown] = w.text.split('\n');
    assert.equal(short, 'sleep 600 (pid 7)');
    assert.ok(long.startsWith('codex-linux-sandbox --sandbox-policy-cwd /tmp/w') && long.endsWith('-- bash -lc "sleep 600 marker-42" (pid 8)'), long);
    assert.ok(long.length < 220, `${long.length} characters`);
    assert.equal(unknown, 'a process (pid 9)');
  });

  it('session marks are marks with their own icon, not problems with a stop sign, and lead with no raw session id (issue 28)', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('session_resumed', { data: { session: { id: '0f8e2c1a-5b7d-4e3f-9a21-c0ffee123456', file: null } } } as Partial<PageEvent>),
      ev('session_changed', { data: { verb: 'fork', session: { id: 'abcdef0123456789', file: null } } } as Partial<PageEvent>),
    ]));
    assert.deepEqual(kinds(m), ['other', 'other']);
    const [resumed, forked] = only(m, 'other');
    assert.deepEqual([resumed.type, resumed.icon, resumed.text], ['Resumed', 'history', 'the events above are from before; the worker continues that conversation']);
    assert.deepEqual([forked.type, forked.icon, forked.text], ['Forked', 'repo-forked', 'into session abcdef01']);
  });

  it('whom the agent signs in as is one short row in words, not its raw JSON; a kind the page does not know still reads by its label', () => {
    const m = new LogModel();
    const auth = (kind: string, label: string, detail: string | null) => ev('auth_status', { data: { kind, label, detail, params: { authStatus: { kind, label } } } } as Partial<PageEvent>);
    m.apply(stamped([auth('api_key', 'Anthropic API key', 'ANTHROPIC_API_KEY'), auth('none', 'Not logged in', null), auth('gateway', 'Custom model gateway', 'mock'), auth('someday', 'Some new login', null)]));
    assert.deepEqual(only(m, 'other').map((e) => [e.type, e.text, e.icon]), [
      ['Signed in', 'Anthropic API key (ANTHROPIC_API_KEY)', 'key'],
      ['Not signed in', '', 'key'],
      ['Signed in', 'Custom model gateway (mock)', 'key'],
      ['Signed in', 'Some new login', 'key'],
    ]);
  });

  it('τ: a prompt, its turn with provenance from correlation.origin, text assembled from deltas, the end', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('prompt_sent', { source: 'editor', submitter: 'user', submission_id: 's1', correlation: { via: 'rpc-workers', action: 'redirect', file: 'src/a.ts', lines: [2, 4] }, data: { text: 'Fix it', streamingBehavior: null } }),
      ev('agent_start', { source: 'interactive', submitter: 'user', submission_id: 's1', correlation: { origin: 'editor', action: 'redirect' } }),
      ev('turn_start'), ev('message_start'),
      ev('message_update', { delta: 'Hello', block_type: 'text' }),
      ev('message_update', { delta: ' world', block_type: 'text' }),
      ev('message_end', { stop_reason: 'stop' }),
      ev('turn_end'), ev('agent_end', { end_reason: 'done' }),
    ]));
    assert.deepEqual(kinds(m), ['prompt', 'turn', 'assistant', 'end']);
    const [prompt] = only(m, 'prompt');
    assert.equal(prompt.text, 'Fix it');
    assert.deepEqual(prompt.prov, { source: 'editor', submitter: 'user', submissionId: 's1', action: 'redirect', file: 'src/a.ts', lines: [2, 4] });
    assert.equal(only(m, 'turn')[0].prov.source, 'editor', 'the turn does not say it came from the editor');
    const [text] = only(m, 'assistant');
    assert.equal(text.text, 'Hello world');
    assert.equal(text.streaming, false);
    assert.equal(only(m, 'end')[0].reason, 'done');
  });

  it('pi: no provenance on agent_start, so the turn takes the prompt the host recorded; thinking is its own entry; user messages are not assistant text', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('prompt_sent', { source: 'palette', submitter: 'user', data: { text: 'hi' } }),
      ev('agent_start'),
      ev('message_start', { message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } }),
      ev('message_end', { message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } }),
      ev('message_start', { message: { role: 'assistant', content: [] } }),
      ev('message_update', { delta: 'Let me think', block_type: 'thinking' }),
      ev('message_update', { delta: 'Answer', block_type: 'text' }),
      ev('message_end', { message: { role: 'assistant', content: [{ type: 'text', text: 'Answer' }] }, stop_reason: 'stop' }),
      ev('agent_end', { end_reason: 'error', is_error: true, error: '429 rate limited', will_retry: true }),
    ]));
    assert.deepEqual(kinds(m), ['prompt', 'turn', 'thinking', 'assistant', 'end']);
    assert.equal(only(m, 'turn')[0].prov.source, 'palette');
    assert.equal(only(m, 'thinking')[0].text, 'Let me think');
    const end = only(m, 'end')[0];
    assert.equal(end.reason, 'error');
    assert.equal(end.error, '429 rate limited');
    assert.equal(end.willRetry, true);
  });

  it('a state correction by the host closes the streaming text, is shown as a warning, and ends the turn as the tree does', () => {
    const m = new LogModel();
    m.apply(stamped([ev('agent_start'), ev('message_update', { delta: 'half a rep', block_type: 'text' }), ev('state_resync', { is_error: true, error: 'the host took the worker for busy, but it is idle: a line it sent during the turn was lost' })]));
    // The correction ends the turn (the host's agent_settled follows it); the log no longer
    // leaves it open while the tree shows it ended.
    assert.deepEqual(kinds(m), ['turn', 'assistant', 'warning', 'end']);
    assert.match(only(m, 'end')[0].error ?? '', /a line it sent during the turn was lost/);
    assert.equal(only(m, 'assistant')[0].streaming, false, 'the reply still looks like it is streaming');
    assert.match(only(m, 'warning')[0].text, /a line it sent during the turn was lost/);
  });

  it('a turn the host ends because the worker\'s output was lost is not said as "the worker is idle"', () => {
    const m = new LogModel();
    m.apply(stamped([ev('agent_start'), ev('state_resync', { is_error: true, error: 'the turn cannot be followed to its end: the worker\'s output ended', data: { reason: 'output lost', outputLost: true } })]));
    assert.deepEqual(kinds(m), ['turn', 'warning', 'end']);
    const w = only(m, 'warning')[0];
    assert.equal(w.title, 'The turn cannot be followed: the host ended it');
    assert.match(w.text, /the worker's output ended/);
  });

  it('a worker that sends no deltas: the text comes from message_end', () => {
    const m = new LogModel();
    m.apply(stamped([ev('message_start'), ev('message_end', { message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'Whole reply' }] } })]));
    assert.equal(only(m, 'assistant')[0].text, 'Whole reply');
    assert.equal(only(m, 'thinking')[0].text, 'hmm');
  });

  it('replace deltas replace the block', () => {
    const m = new LogModel();
    m.apply(stamped([ev('message_update', { delta: 'draft', block_type: 'text' }), ev('message_update', { delta: 'final', block_type: 'text', replace: true })]));
    assert.equal(only(m, 'assistant')[0].text, 'final');
  });

  it('tool calls: arguments, output streamed as chunks (τ) or repeated whole (pi), result, duration, error', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'bash', args: { command: 'ls' } }, T),
      ev('tool_execution_update', { tool_call_id: 'a', result: { output: 'one\n' } }),
      ev('tool_execution_update', { tool_call_id: 'a', result: { output: 'two\n' } }),
      ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'read', args: { path: 'x' } }),
      slimEvent(normalizePiEvent({ type: 'tool_execution_update', toolCallId: 'b', partialResult: { content: [{ type: 'text', text: 'li' }] } }) as never),
      slimEvent(normalizePiEvent({ type: 'tool_execution_update', toolCallId: 'b', partialResult: { content: [{ type: 'text', text: 'line 1' }] } }) as never),
      ev('tool_execution_end', { tool_call_id: 'a', is_error: true, result: { output: 'one\ntwo\n', exit_code: 1 } }, T + 1500),
      ev('tool_execution_end', { tool_call_id: 'b', result: { content: [{ type: 'text', text: 'line 1' }] } }, T + 10),
    ]));
    const [a, b] = only(m, 'tool');
    assert.equal(a.output, 'one\ntwo\n');
    assert.equal(a.isError, true);
    assert.equal(a.endedAt! - a.startedAt, 1500);
    assert.deepEqual(a.args, { command: 'ls' });
    assert.equal(b.output, 'line 1', 'a repeated whole partial result was appended');
    assert.equal(b.result, 'line 1');
  });

  it("a call cut short by the person's Abort is stopped, not an error; one the model went on from keeps its error (as the Sessions view says)", () => {
    const turn = (end: string) => {
      const m = new LogModel();
      m.apply(stamped([
        ev('agent_start'),
        ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read' }),
        ev('tool_execution_end', { tool_call_id: 'a', is_error: true, result: 'no such file' }),
        ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'bash' }),
        ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'grep' }),
        // pi ends the call it runs with an error on abort; another it never ends.
        ev('tool_execution_end', { tool_call_id: 'b', is_error: true, result: '[aborted after 595 ms]' }),
        ev('agent_end', { end_reason: end }),
        ev('agent_settled', { end_reason: end, turn: { ends: true } } as Partial<PageEvent>),
      ]));
      return only(m, 'tool').map((t) => `${t.name}: ${t.stopped ? 'stopped' : t.isError ? 'error' : 'ok'}`);
    };
    assert.deepEqual(turn('aborted'), ['read: error', 'bash: stopped', 'grep: stopped']);
    assert.deepEqual(turn('done'), ['read: error', 'bash: error', 'grep: ok']);
  });

  it("a call that failed before the model wrote on from it keeps its error when the person aborts the model's reply (as the Sessions view says)", () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('agent_start'),
      ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read' }),
      ev('tool_execution_end', { tool_call_id: 'a', is_error: true, result: 'no such file' }),
      ev('message_update', { delta: 'The file does not exist; ', block_type: 'text' } as Partial<PageEvent>),
      ev('agent_end', { end_reason: 'aborted' }),
      ev('agent_settled', { end_reason: 'aborted', turn: { ends: true } } as Partial<PageEvent>),
    ]));
    assert.deepEqual(only(m, 'tool').map((t) => `${t.name}: ${t.stopped ? 'stopped' : t.isError ? 'error' : 'ok'}`), ['read: error']);
  });

  it('tool output: a chunk that begins like the output so far is still added (τ); an ACP update is the whole output so far (issue 25)', () => {
    const acp = (text: string) => slimEvent(updateEvent({ sessionUpdate: 'tool_call_update', toolCallId: 'b', status: 'in_progress', content: [{ type: 'content', content: { type: 'text', text } }] } as never) as never);
    const m = new LogModel();
    m.apply(stamped([
      ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'bash' }),
      ev('tool_execution_update', { tool_call_id: 'a', result: { output: 'ab' } }),
      ev('tool_execution_update', { tool_call_id: 'a', result: { output: 'abc' } }),
      ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'execute' }),
      acp('one'), acp('one two'), acp('two'),
    ]));
    const [a, b] = only(m, 'tool');
    assert.equal(a.output, 'ababc');
    assert.equal(b.output, 'two');
  });

  it('a vetoed call says who blocked it and why', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('tool_execution_start', { tool_call_id: 'w', tool_name: 'write', args: { path: '/etc/passwd' } }),
      ev('tool_execution_end', { tool_call_id: 'w', is_error: true, blocked: true, blocked_by: 'rpc-workers-guard', result: { content: [{ type: 'text', text: 'outside the allowed paths' }] } }),
    ]));
    const [t] = only(m, 'tool');
    assert.equal(t.blocked, true);
    assert.equal(t.blockedBy, 'rpc-workers-guard');
    assert.equal(t.reason, 'outside the allowed paths');
    assert.match(searchText(t), /blocked/);
  });

  it('compaction (τ and pi shapes), queue changes, retries, protocol errors, exits', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('compaction_start', { data: { reason: 'manual' } }),
      ev('compaction_end', { data: { compaction_id: 'c1', performed: true, summary: 'Summary of 4 messages', tokens_before: 1200, cancelled: false, is_error: false } }),
      ev('compaction_start'),
      // pi's shape, as its dialect hands it over (the page reads the model's names only).
      slimEvent(normalizePiEvent({ type: 'compaction_end', result: { summary: 'pi summary', tokensBefore: 99 }, aborted: false }) as never),
      slimEvent(normalizePiEvent({ type: 'compaction_end', aborted: true }) as never),
      // pi 0.73.1 and 1.6.0 say a failed compaction only in errorMessage, never with isError.
      ev('compaction_start'),
      slimEvent(normalizePiEvent({ type: 'compaction_end', reason: 'threshold', aborted: false, willRetry: false, errorMessage: 'Auto-compaction failed: 500 upstream' }) as never),
      ev('queue_update', { data: { steering: ['look at tests'], followUp: ['then summarise', 'and stop'] } }),
      ev('queue_update', { data: { steering: [], followUp: ['go on'] } }),
      slimEvent(normalizePiEvent({ type: 'auto_retry_start', attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: 'overloaded' }) as never),
      slimEvent(normalizePiEvent({ type: 'auto_retry_end', success: true, attempt: 2 }) as never),
      ev('protocol_error', { is_error: true, error: 'not JSON', data: { preview: 'Warning: something printed to stdout', bytes: 40 } }),
      ev('worker_exit', { is_error: true, error: 'the worker exited with code 1', data: { code: 1, signal: null, status: 'failed' } }),
    ]));
    const [c1, c2, c3, c4] = only(m, 'compaction');
    assert.deepEqual([c1.phase, c1.summary, c1.tokensBefore, c1.reason], ['done', 'Summary of 4 messages', 1200, 'manual']);
    assert.deepEqual([c2.phase, c2.summary, c2.tokensBefore], ['done', 'pi summary', 99]);
    assert.equal(c3.phase, 'cancelled');
    assert.equal(c4.phase, 'failed');
    const [q1, q2] = only(m, 'queue');
    assert.deepEqual([q1.steering, q1.followUp, q1.items], [1, 2, ['look at tests', 'then summarise', 'and stop']]);
    assert.deepEqual([q2.steering, q2.followUp], [0, 1]);
    const retries = only(m, 'retry').map((r) => r.text);
    assert.deepEqual(retries, ['Retrying (attempt 1 of 3) in 2 s: overloaded', 'Retry succeeded (attempt 2)']);
    const [w] = only(m, 'warning');
    assert.match(w.title, /Protocol error/);
    assert.match(w.text, /Warning: something printed to stdout/);
    const [x] = only(m, 'exit');
    assert.equal(x.failed, true);
    assert.match(x.text, /Worker failed \(exit code 1\)/);
  });

  it('pi\'s retries that give up and its extension errors, as its dialect hands them over (issue 25)', () => {
    const m = new LogModel();
    m.apply(stamped([
      slimEvent(normalizePiEvent({ type: 'auto_retry_end', success: false, attempt: 3, finalError: 'still overloaded' }) as never),
      slimEvent(normalizePiEvent({ type: 'extension_error', extensionPath: '/ext/guard.ts', event: 'tool_call', error: 'boom' }) as never),
    ]));
    assert.deepEqual(only(m, 'retry').map((r) => r.text), ['Retries gave up (attempt 3): still overloaded']);
    const [w] = only(m, 'warning');
    assert.deepEqual([w.title, w.text], ['Extension error in /ext/guard.ts', 'boom']);
  });

  it('pi\'s retry that an abort cancelled says it was cancelled, not that the retries gave up', () => {
    // pi 0.73.1 and 1.x alike, on an abort in the retry's wait (docs/real-workers.md).
    const m = new LogModel();
    m.apply(stamped([slimEvent(normalizePiEvent({ type: 'auto_retry_end', success: false, attempt: 1, finalError: 'Retry cancelled' }) as never)]));
    assert.deepEqual(only(m, 'retry').map((r) => r.text), ['Retry cancelled (attempt 1)']);
  });

  it('a stop says "stopped" without the SIGTERM or 143 the stop itself caused; a forced kill and a crash say how', () => {
    const exits = (data: Record<string, unknown>) => {
      const m = new LogModel();
      m.apply(stamped([ev('worker_exit', { data })]));
      return only(m, 'exit')[0].text;
    };
    assert.equal(exits({ code: 143, signal: null, status: 'stopped' }), 'Worker stopped');
    assert.equal(exits({ code: null, signal: 'SIGTERM', status: 'stopped' }), 'Worker stopped');
    assert.equal(exits({ code: null, signal: 'SIGKILL', status: 'stopped' }), 'Worker stopped (killed by SIGKILL)');
    assert.equal(exits({ code: null, signal: 'SIGTERM', status: 'failed' }), 'Worker failed (killed by SIGTERM)');
    assert.equal(exits({ code: 143, signal: null, status: 'failed' }), 'Worker failed (exit code 143)');
  });

  it('unknown event types are kept as "other" entries; worker text stays text', () => {
    const m = new LogModel();
    m.apply(stamped([ev('brand_new_event', { data: { html: '<img src=x onerror=alert(1)>' } })]));
    const [o] = only(m, 'other');
    assert.equal(o.type, 'brand_new_event');
    assert.ok(o.text.includes('<img src=x onerror=alert(1)>'));
  });

  it('an unknown type named like an Object member (constructor, toString, __proto__) is an "other" entry too', () => {
    const m = new LogModel();
    m.apply(stamped(['constructor', 'toString', '__proto__', 'hasOwnProperty'].map((type) => ev(type, { data: { n: 1 } }))));
    assert.deepEqual(only(m, 'other').map((o) => o.type), ['constructor', 'toString', '__proto__', 'hasOwnProperty']);
  });

  it('resultText reads either dialect', () => {
    assert.equal(resultText('plain'), 'plain');
    assert.equal(resultText({ output: 'o' }), 'o');
    assert.equal(resultText({ content: [{ type: 'text', text: 'a' }, { type: 'image' }, { type: 'text', text: 'b' }] }), 'a\nb');
    assert.equal(resultText({ truncated: true, preview: 'pre…', chars: 9 }), 'pre…');
    assert.equal(resultText({ n: 1 }), '{\n  "n": 1\n}');
  });

  it('stays bounded: 100,000 events fold into at most maxEntries entries, the rest counted', () => {
    const m = new LogModel(20_000);
    const t0 = performance.now();
    for (let i = 0; i < 100_000; i++) {
      const k = i % 4;
      m.fold(k === 0 ? ev('tool_execution_start', { tool_call_id: `t${i}`, tool_name: 'bash', args: { command: 'x' } })
        : k === 1 ? ev('tool_execution_update', { tool_call_id: `t${i - 1}`, result: { output: 'y' } })
        : k === 2 ? ev('tool_execution_end', { tool_call_id: `t${i - 2}` })
        : ev('queue_update', { data: { steering: [], followUp: [] } }));
    }
    const ms = performance.now() - t0;
    assert.equal(m.eventCount, 100_000);
    assert.equal(m.length, 20_000);
    assert.equal(m.dropped, 50_000 - 20_000);
    console.log(`      (folded 100,000 events in ${ms.toFixed(0)} ms)`);
    const last = m.at(m.length - 1);
    assert.equal(last.kind, 'queue');
    // The dirty set holds only live entries.
    assert.ok(m.takeDirty().length <= 20_000);
  });

  it('a tool update whose start fell out of the cap gets an entry of its own', () => {
    const m = new LogModel(2);
    m.apply(stamped([ev('tool_execution_start', { tool_call_id: 'old', tool_name: 'bash' }), ev('queue_update'), ev('queue_update')]));
    m.fold(ev('tool_execution_end', { tool_call_id: 'old', tool_name: 'bash', result: 'done' }));
    const tools = only(m, 'tool');
    assert.equal(tools.length, 1);
    assert.equal(tools[0].result, 'done');
  });

  it('a worker stopped while a tool runs: the tool stops running and the turn ends (no spinner forever)', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('prompt_sent', { source: 'palette', data: { text: 'run: sleep 30' } }),
      ev('agent_start'),
      ev('tool_execution_start', { tool_call_id: 'c1', tool_name: 'bash', args: { command: 'sleep 30' } }),
      ev('tool_execution_update', { tool_call_id: 'c1', result: { output: 'starting' } }),
      ev('worker_exit', { data: { code: 0, signal: null, status: 'stopped' } }, T + 500),
    ]));
    const [tool] = only(m, 'tool');
    assert.equal(tool.endedAt, T + 500, 'the tool is still running after the worker exited');
    assert.equal(tool.isError, true);
    assert.match(tool.result ?? '', /starting[\s\S]*cut short: the worker was stopped/);
    assert.equal(tool.stopped, true, "the person's Stop cut the call short: stopped, as the Sessions view says, not an error of its own");
    assert.deepEqual(kinds(m), ['prompt', 'turn', 'tool', 'end', 'exit']);
    assert.equal(only(m, 'end')[0].reason, 'stopped');
    assert.equal(endWords('stopped'), 'the worker stopped');
  });

  it('a worker stopped while it compacts: the compaction says it was cut short, not "Compacting…" for good', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('compaction_start', { data: { reason: 'manual', synthesized: true } }),
      ev('worker_exit', { data: { code: null, signal: 'SIGTERM', status: 'stopped' } }, T + 400),
    ]));
    const [c] = only(m, 'compaction');
    assert.deepEqual([c.phase, c.endedAt, c.error], ['failed', T + 400, 'cut short: the worker was stopped']);
  });

  it('pi 0.58\'s auto_compaction_* reach the page as compactions (its dialect names them so)', () => {
    const m = new LogModel();
    m.apply(stamped([
      slimEvent(normalizePiEvent({ type: 'auto_compaction_start', reason: 'threshold' }) as never),
      slimEvent(normalizePiEvent({ type: 'auto_compaction_end', result: { summary: 'older pi summary', tokensBefore: 7 }, aborted: false }) as never),
    ]));
    const [c] = only(m, 'compaction');
    assert.deepEqual([c.phase, c.reason, c.summary, c.tokensBefore], ['done', 'threshold', 'older pi summary', 7]);
    assert.deepEqual(kinds(m), ['compaction']);
  });

  it('a worker that exits between turns gets no made-up turn end', () => {
    const m = new LogModel();
    m.apply(stamped([ev('agent_start'), ev('agent_end', { end_reason: 'done' }), ev('worker_exit', { data: { code: 0, status: 'stopped' } })]));
    assert.deepEqual(kinds(m), ['turn', 'end', 'exit']);
  });

  it('stop reasons and end reasons are said in words, not the wire\'s identifiers', () => {
    assert.equal(stopReasonWords('toolUse'), 'calls a tool');
    assert.equal(stopReasonWords('stop'), '');
    assert.equal(stopReasonWords(null), '');
    assert.equal(stopReasonWords('length'), 'cut off at the length limit');
    // Anthropic's name for the length limit; its end_turn is a plain stop, said with no badge.
    assert.equal(stopReasonWords('max_tokens'), 'cut off at the length limit');
    assert.equal(stopReasonWords('end_turn'), '');
    assert.equal(stopReasonWords('someNewReason'), 'some new reason');
    assert.equal(endWords('max_turns'), 'the turn limit was reached');
    assert.equal(endWords('rate_limited'), 'rate limited');
  });

  it('a big tool output, cut by the host to a preview, reads as output and not as escaped JSON', () => {
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i}\t"quoted" \\ é`).join('\n');
    const m = new LogModel();
    m.apply(stamped([
      ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'bash' }),
      slimEvent({ type: 'tool_execution_end', timestamp: T, tool_call_id: 'c', tool_name: 'bash', result: { output: big, exit_code: 0 } }),
    ]));
    const [tool] = only(m, 'tool');
    const text = tool.result ?? '';
    assert.ok(text.startsWith('line 0\t"quoted" \\ é\nline 1\t'), `reads: ${text.slice(0, 80)}`);
    assert.doesNotMatch(text.slice(0, 1000), /\\n|\{"output"/);
    assert.match(text, /more characters not shown\]$/);
  });
  // Copilot's mode ids are URLs, Claude's are words a person does not see ("default" is "Manual"):
  // the row says the name the wire put in the event, and the id only where the agent gave no name.
  it('a mode change is said by the mode\'s name, its id only where the agent named none', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('mode_changed', { data: { mode: 'https://agentclientprotocol.com/protocol/session-modes#plan', name: 'Plan' } } as Partial<PageEvent>),
      ev('mode_changed', { data: { mode: 'default', name: 'Manual', asked: 'default' } } as Partial<PageEvent>),
      ev('mode_changed', { data: { mode: 'yolo', name: null } } as Partial<PageEvent>),
      // The mode it was already in, said again by the agent: kept in the log's data, not a second row.
      ev('mode_changed', { data: { mode: 'yolo', repeated: true } } as Partial<PageEvent>),
    ]));
    assert.deepEqual(only(m, 'other').map((e) => e.type), ['Mode: Plan', 'Mode: Manual', 'Mode: yolo']);
  });

  it('a mode change is a mark, not a problem: the Problems chip neither shows nor hides it, and its row is not the stopped worker\'s', () => {
    const m = new LogModel();
    m.apply(stamped([ev('mode_changed', { data: { mode: 'plan', name: 'Plan' } } as Partial<PageEvent>)]));
    const [row] = m.all();
    assert.notEqual(GROUP_OF[row.kind], 'problems', `a "${row.kind}" row, under the chip of ${GROUP_OF[row.kind]}`);
    assert.match(searchText(row), /Mode: Plan/);
  });

  it("a message that is not the assistant's (pi's toolResult, a custom one) is not shown as the assistant's reply", () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('message_start', { message: { role: 'toolResult', content: [] } }),
      ev('message_end', { message: { role: 'toolResult', content: [{ type: 'text', text: 'file contents' }] } }),
      ev('message_end', { message: { role: 'custom', content: [{ type: 'text', text: 'an extension note' }] } }),
    ]));
    assert.deepEqual(only(m, 'assistant'), []);
  });

  it('a cancelled or failed compaction is not "nothing to compact", and only a failed one carries an error', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('compaction_start'),
      ev('compaction_end', { is_error: false, error: 'aborted by the person', data: { performed: false, cancelled: true } }),
      ev('compaction_start'),
      ev('compaction_end', { is_error: true, error: '500 upstream', data: { performed: false, cancelled: false } }),
      ev('compaction_start'),
      ev('compaction_end', { is_error: false, data: { performed: false, cancelled: false } }),
    ]));
    const [cancelled, failed, nothing] = only(m, 'compaction');
    assert.deepEqual([cancelled.phase, cancelled.nothing, cancelled.error], ['cancelled', undefined, null]);
    assert.doesNotMatch(searchText(cancelled), /nothing to compact/);
    assert.deepEqual([failed.phase, failed.nothing, failed.error], ['failed', undefined, '500 upstream']);
    assert.deepEqual([nothing.phase, nothing.nothing, nothing.error], ['done', true, null]);
  });

  it("each kind of row is under the toolbar's chip that names it: one never shown whatever the filters is a kind no chip holds", () => {
    assert.deepEqual(GROUP_OF, {
      prompt: 'messages', assistant: 'messages', plan: 'messages', thinking: 'thinking', tool: 'tools', question: 'tools', turn: 'turns', end: 'turns',
      queue: 'queue', compaction: 'compaction', warning: 'problems', retry: 'problems', exit: 'problems', other: 'other',
    });
  });

  it('a search finds a turn\'s end and a compaction by the words their rows show ("Turn ended", "the turn limit", "Compacted", "Compaction failed")', () => {
    const m = new LogModel();
    m.apply(stamped([
      ev('agent_start'), ev('agent_end', { end_reason: 'max_turns' }),
      ev('compaction_start'), ev('compaction_end', { data: { summary: 'short' } }),
      ev('compaction_start'), ev('compaction_end', { is_error: true, error: '500 upstream' }),
      ev('compaction_start'), ev('compaction_end', { data: { cancelled: true } }),
    ]));
    const [end] = only(m, 'end');
    const [done, failed, cancelled] = only(m, 'compaction');
    const finds = (e: Entry, words: string) => assert.ok(searchText(e).toLowerCase().includes(words), `"${words}" in: ${searchText(e)}`);
    finds(end, 'turn ended');
    finds(end, 'the turn limit was reached');
    finds(done, 'compacted');
    finds(failed, 'compaction failed');
    finds(cancelled, 'compaction cancelled');
  });

  it("a turn's end is found by the way to log in it names, as by its error", () => {
    const end: Entry = { id: 1, kind: 'end', time: T, version: 0, reason: 'error', error: 'authentication required', willRetry: false, login: 'run claude /login' };
    assert.match(searchText(end), /authentication required/);
    assert.match(searchText(end), /claude \/login/);
  });
});
