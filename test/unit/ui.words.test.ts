// The words and icons of the Sessions tree, the status bar and the results, as the person reads them.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkerState } from '../../src/core/api';
import { TurnTracker } from '../../src/core/worker/turns';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { contextValues, dialectLine, statusText, toolRow, turnDescription, turnIcon, workerContextValue, workerDescription, workerIcon, commandLine, logWorkerList } from '../../src/ui/views/describe';
import { OPEN_LIMIT, reloadSentence, resultSentence, resultTone, startFailure } from '../../src/ui/commands/resultWords';
import { atLimitError } from '../../src/core/worker/limits';

function st(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w1', name: 'W', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: null, pid: 1, cwd: '/w', dialect: 'tau', command: '/usr/bin/node',
    args: ['demo worker.js'], model: 'm', sessionId: null, session: null, usage: null, agent: null, guarded: false, tools: null, turnCount: 0, lastEndReason: null, lastError: null,
    exitCode: null, signal: null, startedAt: 0, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: true, followUp: 'worker' }, writeGuard: null, ...over,
  };
}

describe('ui words and icons', () => {
  it('contextValue, icon and description follow the phase', () => {
    assert.equal(workerContextValue(st()), 'rpcWorker.idle.live');
    assert.equal(workerContextValue(st({ streaming: true })), 'rpcWorker.streaming.live');
    assert.equal(workerContextValue(st({ compacting: true, streaming: true })), 'rpcWorker.compacting.live');
    assert.equal(workerContextValue(st({ status: 'failed' })), 'rpcWorker.failed');
    // A question waiting for the person: the row offers Answer Open Questions… (a τ request that
    // stands is re-raised by τ's own refusal, not from the queue).
    const dialog = { kind: 'dialog' as const, id: 'q1', method: 'select', title: 'Which?', since: 0 };
    assert.equal(workerContextValue(st({ streaming: true, pendingInput: [dialog] })), 'rpcWorker.streaming.live.asks');
    assert.equal(workerContextValue(st({ pendingInput: [{ ...dialog, kind: 'extension_request', method: null, asking: false }] })), 'rpcWorker.idle.live');
    assert.equal(workerContextValue(st({ status: 'stopped', pendingInput: [dialog] })), 'rpcWorker.stopped');
    assert.equal(workerIcon(st({ streaming: true })).id, 'sync~spin');
    assert.equal(workerIcon(st({ status: 'failed' })).id, 'error');
    assert.equal(workerIcon(st({ status: 'starting' })).id, 'loading~spin');
    assert.equal(workerDescription(st({ streaming: true })), 'streaming · m');
    // The tree says what the log's chip says, first (issue 28).
    assert.equal(workerDescription(st({})), 'idle · m');
    assert.equal(workerDescription(st({ status: 'failed', exitCode: 1, model: null })), 'failed · exit 1');
    // A worker that exited by itself, or was stopped, ended as asked: its code is not said as a failure's.
    assert.equal(workerDescription(st({ status: 'exited', exitCode: 0, model: null })), 'exited');
    assert.equal(workerDescription(st({ status: 'stopped', exitCode: 143, model: null })), 'stopped');
  });

  it('an ACP agent out of its first mode says the mode it is in, after what it does (Switch Mode…\'s "Allow all" was in the tooltip only)', () => {
    const modes = [{ id: 'default', name: 'Ask' }, { id: 'yolo', name: 'Allow all' }];
    assert.equal(workerDescription(st({ dialect: 'acp', modes, mode: 'yolo' })), 'idle · mode: Allow all · m');
    assert.equal(workerDescription(st({ dialect: 'acp', modes, mode: 'yolo', streaming: true, model: null })), 'streaming · mode: Allow all');
    // Its first mode is the one it starts in: the row does not spend its room on it.
    assert.equal(workerDescription(st({ dialect: 'acp', modes, mode: 'default' })), 'idle · m');
    // A mode the agent does not list (its own update) is said by its id.
    assert.equal(workerDescription(st({ dialect: 'acp', modes, mode: 'plan' })), 'idle · mode: plan · m');
    // A worker that is not running is in no mode.
    assert.equal(workerDescription(st({ dialect: 'acp', modes, mode: 'yolo', status: 'exited' })), 'exited · m');
  });

    it('post-turn work (pi 1.x, agent_end → agent_settled) is said as such, not as a running turn; the version shows beside the dialect', () => {
    assert.equal(workerDescription(st({ streaming: true, afterTurn: 'retry' })), 'retrying after its turn · m');
    assert.equal(workerDescription(st({ streaming: true, afterTurn: 'compaction', compacting: true })), 'compacting after its turn · m');
    assert.equal(workerDescription(st({ streaming: true, afterTurn: 'settling' })), 'settling its turn · m');
    assert.equal(dialectLine(st({ dialect: 'pi', workerVersion: '1.6.0' })), 'pi 1.6.0');
    assert.equal(dialectLine(st({ dialect: 'pi', workerVersion: null })), 'pi (version not known)');
  });

  it('a turn: end reason, source, duration, tools and blocked calls', () => {
    const t = { index: 2, submissionId: null, source: 'palette', submitter: 'user', startedAt: 0, endedAt: 61_000, endReason: 'max_turns', error: null,
      tools: [{ toolCallId: 'a', toolName: 'bash', isError: false, blocked: true, blockedBy: 'guard', violation: null, ended: true }] };
    assert.equal(turnDescription(t), 'max_turns · from Command Palette · 1 min 1 s · 1 tool, 1 blocked');
    assert.equal(turnDescription({ ...t, endedAt: null, endReason: null, tools: [] }), 'streaming · from Command Palette');
  });

  it('a turn whose call the guard flagged after it ran (τ, audited) does not say it was blocked', () => {
    const t = { index: 1, submissionId: null, source: 'palette', submitter: 'user', startedAt: 0, endedAt: 129, endReason: 'done', error: null,
      tools: [{ toolCallId: 'a', toolName: 'write', isError: false, blocked: false, blockedBy: null, violation: 'write ".env": forbidden', ended: true }] };
    assert.equal(turnDescription(t), 'done · from Command Palette · 129 ms · 1 tool, 1 flagged by the guard');
    const both = { ...t, tools: [...t.tools, { ...t.tools[0], toolCallId: 'b', blocked: true, blockedBy: 'guard', violation: 'outside' }] };
    assert.equal(turnDescription(both), 'done · from Command Palette · 129 ms · 2 tools, 1 blocked, 1 flagged by the guard');
  });

  it('status bar: hidden with no worker, counts running and streaming', () => {
    assert.equal(statusText([]), null);
    assert.equal(statusText([{ status: 'stopped', streaming: false }]), null);
    const t = statusText([{ status: 'running', streaming: true }, { status: 'running', streaming: false }])!;
    assert.equal(t.text, '$(sync~spin) 2 · 1 streaming');
    assert.match(t.tooltip, /2 workers running, 1 streaming/);
    // A worker still starting is counted: the bar shows up as it is started, not once it answers.
    assert.equal(statusText([{ status: 'starting', streaming: false }])?.text, '$(server-process) 1');
    // Counted as starting, not as running: it has not started yet.
    assert.equal(statusText([{ status: 'starting', streaming: false }])?.tooltip, 'RPC Workers: 1 worker starting. Click to show the Sessions view.');
    assert.equal(statusText([{ status: 'running', streaming: true }, { status: 'starting', streaming: false }, { status: 'starting', streaming: false }])?.tooltip, 'RPC Workers: 1 worker running, 2 starting, 1 streaming. Click to show the Sessions view.');
    // The workers waiting for the person: the view's badge's number, said here too.
    const asks = statusText([{ status: 'running', streaming: true }, { status: 'running', streaming: true }], 2)!;
    assert.equal(asks.text, '$(sync~spin) 2 · 2 streaming · $(bell-dot) 2 need input');
    assert.match(asks.tooltip, /2 workers running, 2 streaming, 2 waiting for your answer\./);
    assert.equal(asks.waiting, true);
    assert.equal(statusText([{ status: 'running', streaming: false }], 1)?.text, '$(server-process) 1 · $(bell-dot) 1 needs input');
  });

  it("a guarded worker's row says so in a word (a description cannot show the tooltip's shield)", () => {
    assert.equal(workerDescription(st({ guarded: true })), 'idle · m · guarded');
    assert.equal(workerDescription(st({ guarded: false })), 'idle · m');
  });

  it("a turn's icon says how it ended: an aborted one is not ticked as done, a done one with an error is an error", () => {
    const t = { index: 1, submissionId: null, source: 'palette', submitter: 'user', startedAt: 0, endedAt: 10, endReason: 'done', error: null, tools: [] };
    assert.equal(turnIcon(t).id, 'check');
    assert.equal(turnIcon({ ...t, error: 'model refused' }).id, 'error');
    assert.deepEqual(turnIcon({ ...t, endReason: 'aborted' }), { id: 'circle-slash', color: 'problemsWarningIcon.foreground' });
    assert.equal(turnIcon({ ...t, endReason: 'max_turns' }).id, 'warning');
    assert.equal(turnIcon({ ...t, endReason: 'error' }).id, 'error');
    assert.equal(turnIcon({ ...t, endedAt: null, endReason: null }).id, 'sync~spin');
  });

  it('context keys', () => {
    assert.deepEqual(contextValues([]), { 'rpcWorkers.hasWorkers': false, 'rpcWorkers.hasRunningWorkers': false, 'rpcWorkers.anyReadsInput': false, 'rpcWorkers.anyStreaming': false, 'rpcWorkers.anyIdle': false, 'rpcWorkers.anyForks': false, 'rpcWorkers.anySwitchesModel': false, 'rpcWorkers.anyCompacts': false, 'rpcWorkers.anySwitchesMode': false });
    assert.deepEqual(contextValues([st({ streaming: true }), st({ status: 'exited' })]), { 'rpcWorkers.hasWorkers': true, 'rpcWorkers.hasRunningWorkers': true, 'rpcWorkers.anyReadsInput': true, 'rpcWorkers.anyStreaming': true, 'rpcWorkers.anyIdle': false, 'rpcWorkers.anyForks': false, 'rpcWorkers.anySwitchesModel': false, 'rpcWorkers.anyCompacts': false, 'rpcWorkers.anySwitchesMode': false });
    // The worker just started: Prompt and the others are offered, and wait for it (pickers.ts).
    assert.deepEqual(contextValues([st({ status: 'starting' })]), { 'rpcWorkers.hasWorkers': true, 'rpcWorkers.hasRunningWorkers': true, 'rpcWorkers.anyReadsInput': true, 'rpcWorkers.anyStreaming': false, 'rpcWorkers.anyIdle': false, 'rpcWorkers.anyForks': false, 'rpcWorkers.anySwitchesModel': false, 'rpcWorkers.anyCompacts': false, 'rpcWorkers.anySwitchesMode': false });
    // One that no longer reads its input: live (Copy PID), but nothing that sends it something.
    assert.deepEqual(contextValues([st({ streaming: true, inputLost: true })]), { 'rpcWorkers.hasWorkers': true, 'rpcWorkers.hasRunningWorkers': true, 'rpcWorkers.anyReadsInput': false, 'rpcWorkers.anyStreaming': false, 'rpcWorkers.anyIdle': false, 'rpcWorkers.anyForks': false, 'rpcWorkers.anySwitchesModel': false, 'rpcWorkers.anyCompacts': false, 'rpcWorkers.anySwitchesMode': false });
    // An idle ACP agent (no fork in ACP v1, no model choice listed): idle, but neither verb is offered for it.
    const acp = st({ dialect: 'acp', forkUnavailable: 'ACP v1 has no fork', modelUnavailable: 'no model choice' });
    assert.deepEqual(contextValues([acp]), { 'rpcWorkers.hasWorkers': true, 'rpcWorkers.hasRunningWorkers': true, 'rpcWorkers.anyReadsInput': true, 'rpcWorkers.anyStreaming': false, 'rpcWorkers.anyIdle': true, 'rpcWorkers.anyForks': false, 'rpcWorkers.anySwitchesModel': false, 'rpcWorkers.anyCompacts': true, 'rpcWorkers.anySwitchesMode': false });
    assert.equal(contextValues([acp, st({ dialect: 'pi' })])['rpcWorkers.anyForks'], true, 'another idle worker forks');
    // Compact and Switch Mode…: only while an idle worker can take them (Gemini has no compaction; only an agent that lists modes switches).
    const gemini = st({ dialect: 'acp', compactUnavailable: 'the agent has no compaction', modes: [{ id: 'default', name: 'Default' }] });
    assert.deepEqual([contextValues([gemini])['rpcWorkers.anyCompacts'], contextValues([gemini])['rpcWorkers.anySwitchesMode']], [false, true]);
  });

  it("a tool call's row says running until the worker reports its end, side by side and in any order", () => {
    const t = new TurnTracker(() => {}, '/w');
    const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });
    const words = () => t.turns[0].tools.map((tool) => `${tool.toolName}: ${toolRow(t.turns[0], tool).end}`);
    t.observe(ev('agent_start'));
    t.observe(ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read' }));
    t.observe(ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'grep' }));
    assert.deepEqual(words(), ['read: running', 'grep: running'], 'two calls side by side');
    t.observe(ev('tool_execution_end', { tool_call_id: 'b', tool_name: 'grep' }));
    assert.deepEqual(words(), ['read: running', 'grep: ok'], 'the last call ended first');
    t.observe(ev('tool_execution_end', { tool_call_id: 'a', tool_name: 'read' }));
    assert.deepEqual(words(), ['read: ok', 'grep: ok'], 'both ended while the model writes on');
    t.observe(ev('tool_execution_start', { tool_name: 'ls' }));
    t.observe(ev('tool_execution_start', { tool_name: 'ls' }));
    t.observe(ev('tool_execution_end', { tool_name: 'ls' }));
    assert.deepEqual(words().slice(2), ['ls: ok', 'ls: running'], 'calls without an id end in the order they started');
  });

  it("an aborted turn's unfinished or failed calls are stopped by the person's Abort, not errors of their own", () => {
    const t = new TurnTracker(() => {}, '/w');
    const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });
    const words = () => t.turns[0].tools.map((tool) => `${tool.toolName}: ${toolRow(t.turns[0], tool).end}`);
    t.observe(ev('agent_start'));
    t.observe(ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read' }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'a', tool_name: 'read', is_error: true }));
    t.observe(ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'bash' }));
    t.observe(ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'grep' }));
    assert.deepEqual(words(), ['read: error', 'bash: running', 'grep: running'], 'a failed call is an error while the turn runs');
    // pi ends the call it was running with an error when the person aborts; another it never ends.
    t.observe(ev('tool_execution_end', { tool_call_id: 'b', tool_name: 'bash', is_error: true }));
    t.observe(ev('agent_end', { end_reason: 'aborted' }));
    assert.equal(t.turns[0].endReason, 'aborted');
    assert.deepEqual(words(), ['read: error', 'bash: stopped', 'grep: stopped'], 'read failed before the model went on: its own error');
    // Words after the turn's end (τ's own compaction streams its summary) are not the model going on from its calls.
    t.observe(ev('message_update', { delta: 'Summary of the conversation', block_type: 'text' }));
    assert.deepEqual(words(), ['read: error', 'bash: stopped', 'grep: stopped']);
  });

  it("a call that ran beside others and failed before a later call started keeps its error when the turn is aborted (as the Event Log says)", () => {
    const t = new TurnTracker(() => {}, '/w');
    const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });
    const words = () => t.turns[0].tools.map((tool) => `${tool.toolName}: ${toolRow(t.turns[0], tool).end}`);
    t.observe(ev('agent_start'));
    // A long bash and a read side by side; the read ends, the model starts a grep while bash runs.
    t.observe(ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'bash' }));
    t.observe(ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'read' }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'b', tool_name: 'read' }));
    t.observe(ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'grep' }));
    // bash fails on its own; the model goes on to an edit; the person aborts the edit.
    t.observe(ev('tool_execution_end', { tool_call_id: 'a', tool_name: 'bash', is_error: true }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'c', tool_name: 'grep' }));
    t.observe(ev('tool_execution_start', { tool_call_id: 'd', tool_name: 'edit' }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'd', tool_name: 'edit', is_error: true }));
    t.observe(ev('agent_end', { end_reason: 'aborted' }));
    assert.deepEqual(words(), ['bash: error', 'read: ok', 'grep: ok', 'edit: stopped'], 'bash failed before the edit started: its own error, not the abort');
  });

  it("a call that failed before the model wrote on from it keeps its error when the person aborts the model's reply", () => {
    const t = new TurnTracker(() => {}, '/w');
    const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });
    t.observe(ev('agent_start'));
    t.observe(ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read' }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'a', tool_name: 'read', is_error: true }));
    // The model answers the failure; the person aborts the reply, not the read.
    t.observe(ev('message_update', { delta: 'The file does not exist; ', block_type: 'text' }));
    t.observe(ev('agent_end', { end_reason: 'aborted' }));
    assert.equal(toolRow(t.turns[0], t.turns[0].tools[0]).end, 'error', 'the read had failed on its own before the abort');
  });

  it('a call that ended after a later call went on is one the model went on from too, when another call starts after its end', () => {
    const t = new TurnTracker(() => {}, '/w');
    const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });
    const words = () => t.turns[0].tools.map((tool) => `${tool.toolName}: ${toolRow(t.turns[0], tool).end}`);
    t.observe(ev('agent_start'));
    // Two calls side by side: the second ends first, and the model starts a third before the first ends.
    t.observe(ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'read' }));
    t.observe(ev('tool_execution_start', { tool_call_id: 'b', tool_name: 'grep' }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'b', tool_name: 'grep' }));
    t.observe(ev('tool_execution_start', { tool_call_id: 'c', tool_name: 'ls' }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'a', tool_name: 'read', is_error: true }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'c', tool_name: 'ls' }));
    // The read's failure was seen before this call started: the model went on from it.
    t.observe(ev('tool_execution_start', { tool_call_id: 'd', tool_name: 'bash' }));
    t.observe(ev('agent_end', { end_reason: 'aborted' }));
    assert.deepEqual(words(), ['read: error', 'grep: ok', 'ls: ok', 'bash: stopped'], "the read failed before the bash began: its own error, not the Abort's");
  });

  it("the person's Stop mid-call: the call is stopped, not 'ok' (it never ended) nor an error", () => {
    const t = new TurnTracker(() => {}, '/w');
    const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });
    t.observe(ev('agent_start'));
    t.observe(ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'bash' }));
    t.observe(ev('worker_exit', { data: { status: 'stopped' } }));
    assert.equal(t.turns[0].endReason, 'stopped');
    assert.equal(toolRow(t.turns[0], t.turns[0].tools[0]).end, 'stopped');
  });

  it("a call cut short by its worker's crash is an error, not 'ok' (it never ended; the Event Log says it was cut short)", () => {
    const t = new TurnTracker(() => {}, '/w');
    const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });
    t.observe(ev('agent_start'));
    t.observe(ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'bash' }));
    t.observe(ev('worker_exit', { data: { status: 'failed', code: 1, signal: null } }));
    assert.equal(t.turns[0].endReason, 'worker_exited');
    assert.equal(toolRow(t.turns[0], t.turns[0].tools[0]).end, 'error');
  });

  it("a turn that ended by itself keeps its calls' errors", () => {
    const t = new TurnTracker(() => {}, '/w');
    const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 1, ...extra });
    t.observe(ev('agent_start'));
    t.observe(ev('tool_execution_start', { tool_call_id: 'a', tool_name: 'bash' }));
    t.observe(ev('tool_execution_end', { tool_call_id: 'a', tool_name: 'bash', is_error: true }));
    t.observe(ev('agent_end', { end_reason: 'done' }));
    assert.equal(toolRow(t.turns[0], t.turns[0].tools[0]).end, 'error');
  });

  it('command lines are shell-quoted', () => {
    assert.equal(commandLine(st()), "/usr/bin/node 'demo worker.js'");
    assert.equal(commandLine(st({ command: 'x', args: ["it's"] })), `x 'it'\\''s'`);
  });

  it('results are said honestly', () => {
    assert.equal(resultSentence('prompt', 'W', { status: 'accepted' }), 'Prompt accepted by W');
    assert.match(resultSentence('abort', 'W', { status: 'not_streaming', note: 'ended by itself' }), /W is not streaming: there was no turn to abort \(ended by itself\)/);
    assert.equal(resultSentence('redirect', 'W', { status: 'error', error: 'boom' }), 'Redirecting W failed: boom');
    assert.equal(resultSentence('compact', 'W', { status: 'aborted' }), 'The compaction of W was cancelled');
    assert.equal(resultSentence('compact', 'W', { status: 'compacted', performed: true }), 'Compacted W');
    assert.equal(resultSentence('compact', 'W', { status: 'compacted', performed: false }), 'Nothing to compact in W');
    assert.equal(resultSentence('compact', 'W', { status: 'compacted', performed: false, note: 'Already compacted' }), 'Nothing to compact in W (Already compacted)');
  });

  it('a message an extension of the worker handled (pi 1.x disposition "handled") says no turn started, not "accepted" or "queued"', () => {
    const handled = { status: 'accepted', handled: true };
    assert.equal(resultSentence('prompt', 'W', handled), "W's extension handled the prompt; no turn started");
    assert.equal(resultSentence('steer', 'W', handled), "W's extension handled the steer; nothing was queued for the turn");
    assert.equal(resultSentence('followUp', 'W', handled), "W's extension handled the follow-up; nothing was queued for the turn");
    assert.equal(resultTone('prompt', handled), 'ok');
    assert.equal(resultSentence('steer', 'W', { status: 'accepted' }), 'Steer queued for W');
  });

  it('an abort that met a compaction says what became of it', () => {
    assert.equal(resultSentence('abort', 'W', { status: 'aborted', compactionCancelled: null }), 'Aborted the turn of W');
    assert.equal(resultSentence('abort', 'W', { status: 'aborted', compactionCancelled: true }), 'Aborted W: its compaction was cancelled');
    // The compaction ran to its end before the abort reached it: nothing was aborted to say "Aborted".
    // The host answers such an abort not_streaming (interrupts.ts), saying the compaction was not cancelled.
    const finished = { status: 'not_streaming', compactionCancelled: false, note: 'the compaction ended by itself before the abort landed' };
    assert.equal(resultSentence('abort', 'W', finished), "W's compaction ran to its end before the abort reached it");
    assert.equal(resultTone('abort', finished), 'info');
    // A turn that ran beside it was aborted: that is said.
    assert.equal(resultSentence('abort', 'W', { status: 'aborted', compactionCancelled: false }), 'Aborted the turn of W');
  });

  it('a second Stop says the worker is already stopped, as information, by name', () => {
    assert.equal(resultSentence('stop', 'Demo worker #2', { status: 'not_found', workerId: 'w2-abcdef12' }), 'Demo worker #2 is already stopped');
    assert.equal(resultTone('stop', { status: 'not_found' }), 'info');
    // A worker that had exited by itself: the Stop stopped nothing, it took the row away.
    assert.equal(resultSentence('stop', 'W', { status: 'stopped', alreadyExited: true }), 'Removed W (it had already exited)');
    assert.equal(resultSentence('stop', 'W', { status: 'stopped', alreadyExited: false }), 'Stopped W');
    assert.equal(resultTone('prompt', { status: 'not_found' }), 'error');
    assert.equal(resultTone('abort', { status: 'not_streaming' }), 'info');
    assert.equal(resultTone('abort', { status: 'aborted' }), 'ok');
  });

  it('Ctrl+Alt+R reaches its command with no worker running, so the command can say so (nothing hides it)', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { keybindings: Array<{ command: string; key: string; when?: string }>; commands: Array<{ command: string; enablement?: string }> };
    };
    const key = manifest.contributes.keybindings.find((k) => k.key === 'ctrl+alt+r');
    assert.equal(key?.command, 'rpcWorkers.redirectWithSelection');
    assert.doesNotMatch(key?.when ?? '', /Workers|streaming/i);
    const cmd = manifest.contributes.commands.find((c) => c.command === 'rpcWorkers.redirectWithSelection');
    assert.equal(cmd?.enablement, undefined, 'an enablement clause swallows the key press silently');
    // A disabled command is missing from the palette, and its name typed there ran another (issue 28).
    for (const id of ['rpcWorkers.startWorkerInWorktree', 'rpcWorkers.startDemoWorkerInWorktree']) {
      assert.equal(manifest.contributes.commands.find((c) => c.command === id)?.enablement, undefined, `${id} is disabled outside a repository instead of saying why`);
    }
  });

  it("the event log's worker list keeps stopped workers (their logs stay reachable), each once, under the name the host gave it", () => {
    const list = logWorkerList(
      [{ workerId: 'w2-b', name: 'Demo worker #2', status: 'running' }],
      [{ workerId: 'w1-a', name: 'Demo worker', status: 'stopped' }, { workerId: 'w2-b', name: 'Demo worker #2', status: 'stopped' }],
    );
    assert.deepEqual(list, [
      { workerId: 'w2-b', name: 'Demo worker #2', status: 'running' },
      { workerId: 'w1-a', name: 'Demo worker', status: 'stopped' },
    ]);
  });

  it('a start refused by the worker limit names the setting that raises it and offers it; a login and the output keep their buttons', () => {
    const limit = startFailure('Codex', { error: '8 workers are running; the limit is 8 (stop one first)', atLimit: true }, null, false);
    assert.equal(limit.message, 'Could not start Codex: 8 workers are running; the limit is 8 (stop one first); or raise rpcWorkers.maxWorkers (it takes effect after a window reload)');
    assert.deepEqual(limit.buttons, [OPEN_LIMIT]);
    const login = startFailure('Copilot', { error: 'needs a login', login: { label: 'Copilot Login', line: 'copilot login' }, stderrTail: ['', 'x'] }, null, true);
    assert.deepEqual(login.buttons, ['Run "copilot login"', 'Show Output']);
    assert.equal(login.message, 'Could not start Copilot: needs a login\nstderr:\nx');
    assert.equal(startFailure('gemini', { error: 'no program' }, 'npm install -g @google/gemini-cli', false).message, 'Could not start gemini: no program. Install it: npm install -g @google/gemini-cli');
  });

  it('the worker limit and the reload notice agree in number: one worker is running, one setting takes effect', () => {
    assert.equal(atLimitError(1, 1), '1 worker is running; the limit is 1 (stop one first)');
    assert.equal(atLimitError(8, 8), '8 workers are running; the limit is 8 (stop one first)');
    assert.equal(reloadSentence(['rpcWorkers.maxWorkers']), 'RPC Workers: rpcWorkers.maxWorkers takes effect after the window reloads.');
    assert.equal(reloadSentence(['rpcWorkers.maxWorkers', 'rpcWorkers.maxPromptBytes']), 'RPC Workers: rpcWorkers.maxWorkers, rpcWorkers.maxPromptBytes take effect after the window reloads.');
  });

  it('a start refused for a login says how a known agent takes its key, where the agent names no command for it', () => {
    const r = { error: 'Codex needs a login before it can start a session (…). It offers: API Key: Use an API key to authenticate', needsLogin: true as const };
    assert.equal(startFailure('Codex', r, null, false, 'set OPENAI_API_KEY').message, `Could not start Codex: ${r.error}. For Codex: set OPENAI_API_KEY`);
    assert.equal(startFailure('Codex', { error: 'boom' }, null, false, 'set OPENAI_API_KEY').message, 'Could not start Codex: boom', 'not a login refusal: no login advice');
  });
});
