// One set of words for a tool call's end, everywhere: for each agent's shape of each way a call
// ends (cut by the person's Abort, failed before it, refused or flagged by the guard, cut by a
// crash, ok), the Sessions tree, the Event Log's model, the Markdown export and a past session
// read back from its stored lines say the same. The streams go through the host's one fold
// (hostStream), as a worker's do; `abort_sent` stands where the host's abort went out.
import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { sessionMarkdown } from '../../src/core/export/markdown';
import { slimEvent } from '../../src/protocol/messages';
import { toolRow } from '../../src/ui/views/describe';
import type { ToolEntry, WarningEntry } from '../../src/webview/entries';
import { LogModel } from '../../src/webview/model';
import { toolBadge } from '../../src/webview/toolBadge';
import { hostStream } from '../fixtures/hostStream';

const T = Date.UTC(2026, 11, 6, 15, 0, 0);
let clock = 0;
const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: T + ++clock, ...extra });
const GUARD = 'rpc-workers-guard';

type Agent = 'τ' | 'pi' | 'ACP';
const start = (agent: Agent, tool: string) => [
  ev('prompt_sent', { source: 'palette', data: { text: 'go', streamingBehavior: null } }),
  ev('agent_start', agent === 'τ' ? { submission_id: 's1' } : {}),
  ev('tool_execution_start', { tool_call_id: 'c1', tool_name: tool, args: { command: 'sleep 30' } }),
];
/** How each agent ends a turn the person aborted: τ and ACP with their run's end, pi 1.x with agent_settled too. */
const abortedEnd = (agent: Agent) => [ev('agent_end', { end_reason: 'aborted' }), ...(agent === 'pi' ? [ev('agent_settled', { data: { aborted: true } })] : [])];
const doneEnd = (agent: Agent) => [ev('agent_end', { end_reason: 'done' }), ...(agent === 'pi' ? [ev('agent_settled', { data: { aborted: false } })] : [])];
const crash = () => [ev('worker_exit', { is_error: true, error: 'exit 1', data: { status: 'failed', code: 1, signal: null } })];

interface Row { agent: Agent; case: string; events: () => AgentEvent[]; words: string; guard?: string }
const ROWS: Row[] = [
  // τ 0.15.0's bash, aborted: "Command was aborted", is_error false (3 in 20), or "killed by signal 15", true.
  { agent: 'τ', case: 'cut by Abort (is_error false)', words: 'stopped', events: () => [...start('τ', 'bash'), ev('abort_sent'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'bash', is_error: false }), ev('turn_end'), ...abortedEnd('τ')] },
  { agent: 'τ', case: 'cut by Abort (is_error true)', words: 'stopped', events: () => [...start('τ', 'bash'), ev('abort_sent'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'bash', is_error: true }), ev('turn_end'), ...abortedEnd('τ')] },
  { agent: 'τ', case: 'failed before Abort', words: 'error', events: () => [...start('τ', 'read'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'read', is_error: true }), ev('abort_sent'), ...abortedEnd('τ')] },
  { agent: 'τ', case: 'refused by guard', words: `blocked by ${GUARD}`, events: () => [...start('τ', 'write'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'write', is_error: true, blocked: true, blocked_by: GUARD, error: 'outside the allowed paths' }), ...doneEnd('τ')] },
  { agent: 'τ', case: 'flagged by guard', words: 'ok, flagged by the guard', guard: 'Guard (not prevented: the call may have run)', events: () => [...start('τ', 'write'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'write', is_error: false }), ev('guard_violation', { tool_call_id: 'c1', tool_name: 'write', is_error: true, error: 'write to .env outside the allowed paths' }), ...doneEnd('τ')] },
  { agent: 'τ', case: 'cut by crash', words: 'error', events: () => [...start('τ', 'bash'), ...crash()] },
  { agent: 'τ', case: 'ok', words: 'ok', events: () => [...start('τ', 'bash'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'bash', is_error: false }), ...doneEnd('τ')] },
  // pi ends the bash it runs with an error on abort ("[aborted]"), after the abort went out.
  { agent: 'pi', case: 'cut by Abort', words: 'stopped', events: () => [...start('pi', 'bash'), ev('abort_sent'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'bash', is_error: true, result: { content: [{ type: 'text', text: 'Command aborted' }] } }), ...abortedEnd('pi')] },
  { agent: 'pi', case: 'failed before Abort', words: 'error', events: () => [...start('pi', 'read'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'read', is_error: true, result: { content: [{ type: 'text', text: 'ENOENT' }] } }), ev('abort_sent'), ...abortedEnd('pi')] },
  { agent: 'pi', case: 'refused by guard', words: `blocked by ${GUARD}`, events: () => [...start('pi', 'write'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'write', is_error: true, blocked: true, blocked_by: GUARD, error: 'outside the allowed paths' }), ...doneEnd('pi')] },
  // pi's guard vetoes before the call: nothing of pi's is flagged after it ran.
  { agent: 'pi', case: 'cut by crash', words: 'error', events: () => [...start('pi', 'bash'), ...crash()] },
  { agent: 'pi', case: 'ok', words: 'ok', events: () => [...start('pi', 'bash'), ev('tool_execution_end', { tool_call_id: 'c1', tool_name: 'bash', is_error: false }), ...doneEnd('pi')] },
  // ACP after session/cancel: Gemini and OpenCode end the command `completed`, Claude `failed`.
  { agent: 'ACP', case: 'cut by Abort (completed)', words: 'stopped', events: () => [...start('ACP', 'execute'), ev('abort_sent'), ev('tool_execution_end', { tool_call_id: 'c1', is_error: false, result: 'Command cancelled by user.' }), ...abortedEnd('ACP')] },
  { agent: 'ACP', case: 'cut by Abort (failed)', words: 'stopped', events: () => [...start('ACP', 'execute'), ev('abort_sent'), ev('tool_execution_end', { tool_call_id: 'c1', is_error: true }), ...abortedEnd('ACP')] },
  { agent: 'ACP', case: 'failed before Abort', words: 'error', events: () => [...start('ACP', 'read'), ev('tool_execution_end', { tool_call_id: 'c1', is_error: true }), ev('abort_sent'), ...abortedEnd('ACP')] },
  // The host's guard answers the agent's question, or its write through the host, with a refusal; the agent then ends the call failed.
  { agent: 'ACP', case: 'refused by guard', words: `blocked by ${GUARD}`, guard: 'Guard (refused before it happened)', events: () => [...start('ACP', 'edit'), ev('guard_violation', { tool_call_id: 'c1', tool_name: 'edit', is_error: true, error: 'outside the allowed paths', blocked: true, blocked_by: GUARD }), ev('tool_execution_end', { tool_call_id: 'c1', is_error: true }), ...doneEnd('ACP')] },
  { agent: 'ACP', case: 'flagged by guard', words: 'ok, flagged by the guard', guard: 'Guard (not prevented: the call may have run)', events: () => [...start('ACP', 'execute'), ev('tool_execution_end', { tool_call_id: 'c1', is_error: false }), ev('guard_violation', { tool_call_id: 'c1', tool_name: 'execute', is_error: true, error: 'a tool the guard does not know' }), ...doneEnd('ACP')] },
  { agent: 'ACP', case: 'cut by crash', words: 'error', events: () => [...start('ACP', 'execute'), ...crash()] },
  { agent: 'ACP', case: 'ok', words: 'ok', events: () => [...start('ACP', 'execute'), ev('tool_execution_end', { tool_call_id: 'c1', is_error: false }), ...doneEnd('ACP')] },
];

/** The Event Log's words for its call, as its row's badge says them (render.ts drawTool). */
function logWords(events: readonly AgentEvent[]): { words: string; guard: string | null } {
  const m = new LogModel();
  m.apply(events.map((e) => slimEvent(e as unknown as Parameters<typeof slimEvent>[0])));
  const tools = m.all().filter((e): e is ToolEntry => e.kind === 'tool');
  assert.equal(tools.length, 1, 'one call row');
  const t = tools[0];
  // The row's badge as drawn (its duration cut), and for a refusal the row's blocked line's "by whom".
  const badge = toolBadge(t).replace(/ · [^·]*$/, '');
  const warning = m.all().find((e): e is WarningEntry => e.kind === 'warning' && e.title.startsWith('Guard'));
  return { words: badge === 'blocked' ? `blocked by ${t.blockedBy}` : badge, guard: warning ? warning.title.replace(/: [^:]*$/, '') : null };
}

/** The export's words on its call's result line, and its guard note's heading. */
function exportWords(events: readonly AgentEvent[]): { words: string; guard: string | null } {
  const md = sessionMarkdown(events);
  const results = [...md.matchAll(/^\*\*Result\*\* of `[^`]*` \((.*)\)$/gm)].map((m) => m[1]!.replace(/: .*$/, ''));
  assert.equal(results.length, 1, `one result line in:\n${md}`);
  const guard = /^> (Guard \([^)]*\)):/m.exec(md);
  return { words: results[0]!, guard: guard ? guard[1]! : null };
}

/** The events as the history keeps them (a JSON line each) and reads them back. */
const readBack = (events: readonly AgentEvent[]): AgentEvent[] => events.map((e) => JSON.parse(JSON.stringify(e)) as AgentEvent);

describe("one set of words for a tool call's end: tree, log, export and replay, for each agent", () => {
  for (const row of ROWS) {
    it(`${row.agent} · ${row.case}: ${row.words}`, () => {
      const stream = hostStream({ sendsSettled: row.agent === 'pi' ? true : null });
      const delivered = stream.push(row.events());
      const turn = stream.tracker.turns[0];
      assert.equal(turn.tools.length, 1);
      // The row's description, without its mark (⛔, ⚠) and the guard's finding after the words.
      assert.equal(toolRow(turn, turn.tools[0]).description.replace(/^[⛔⚠] /u, '').replace(/: .*$/, ''), row.words, 'Sessions tree');
      const log = logWords(delivered);
      assert.equal(log.words, row.words, 'Event Log');
      const md = exportWords(delivered);
      assert.equal(md.words, row.words, 'Markdown export');
      assert.equal(log.guard, row.guard ?? null, "the Event Log's guard row");
      assert.equal(md.guard, row.guard ?? null, "the export's guard note");
      const stored = readBack(delivered);
      assert.deepEqual(logWords(stored), log, 'the past session read back, in the Event Log');
      assert.deepEqual(exportWords(stored), md, 'the past session read back, exported');
    });
  }
});
