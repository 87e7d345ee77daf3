// A turn an agent refused for want of a key (Claude starts without one and refuses its first
// prompt with ACP's -32000): the notification, and the Event Log's row, say how this agent takes
// a key, as a start it refused so says it; a turn that failed otherwise says its error alone.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type { Supervisor, TurnSummary, WorkerState } from '../../src/core/api';
import { decideNotification } from '../../src/core/attention/notify';
import { WorkerAttention } from '../../src/ui/attention/workerAttention';
import { toWorkerView } from '../../src/ui/eventLog/workerView';
import { loginHint } from '../../src/ui/settings/profiles';

const ADVICE = 'Claude Agent needs a login before it can answer (it answered the prompt with -32000 Authentication required)';

function turn(index: number, over: Partial<TurnSummary> = {}): TurnSummary {
  return { index, submissionId: null, source: null, submitter: null, startedAt: index * 10, endedAt: index * 10 + 5, endReason: 'error', error: ADVICE, tools: [], ...over };
}

function state(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w1', name: 'Claude', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: null, pid: 1, cwd: '/w', dialect: 'acp', command: '/usr/bin/claude-agent-acp',
    args: [], model: null, sessionId: null, session: null, usage: null, agent: null, guarded: false, writeGuard: null, tools: null, turnCount: 0, lastEndReason: null, lastError: null,
    exitCode: null, signal: null, startedAt: 0, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: false, followUp: 'host' }, ...over,
  };
}

describe('a turn refused for want of a key, as the notification says it', () => {
  let fire: (s: WorkerState) => void;
  let attention: WorkerAttention;
  let opened: string[];
  beforeEach(() => {
    vscodeStub.reset();
    opened = [];
    const supervisor = { onState: (l: (s: WorkerState) => void) => ((fire = l), () => {}), onEvent: () => () => {}, onRemoved: () => () => {}, list: () => [] } as unknown as Supervisor;
    const noEvent = () => ({ dispose() {} });
    attention = new WorkerAttention({
      supervisor, setting: () => 'all', visibleLogs: () => new Set(), onDidChangeLooking: noEvent, decide: decideNotification,
      openLog: (id) => void opened.push(id), label: () => undefined, setBadge: () => undefined, loginHint: (s) => loginHint(s.command, s.args),
      specOf: () => ({ dialect: 'acp', command: 'copilot', cwd: '/w', env: { COPILOT_HOME: '/h' } }),
    });
    fire(state());
  });
  afterEach(() => attention.dispose());

  it('says the agent\'s advice and how Claude takes a key, once', () => {
    fire(state({ turns: [turn(1, { needsLogin: true })] }));
    const hint = loginHint('claude-agent-acp')!;
    assert.deepEqual(attention.notified.map((n) => n.message), [`Claude: its turn ended in an error: ${ADVICE}. For Claude: ${hint}`]);
  });

  it('offers to run the login the agent names in a terminal, as a refused start does; where it names none, no button beyond Open Log', async () => {
    fire(state({ turns: [turn(1, { needsLogin: true })] }));
    assert.deepEqual(vscodeStub.buttons, [['Open Log']], 'Claude names no command: the advice is its env variable');
    const login = { label: 'Copilot Login', line: 'copilot login' };
    fire(state({ name: 'Copilot', command: 'copilot', streaming: true, turns: [turn(1, { needsLogin: true }), turn(2, { endedAt: null, endReason: null, error: null })] }));
    vscodeStub.choices.push('Run "copilot login"');
    fire(state({ name: 'Copilot', command: 'copilot', turns: [turn(1, { needsLogin: true }), turn(2, { needsLogin: true, login })] }));
    assert.deepEqual(vscodeStub.buttons[1], ['Run "copilot login"', 'Open Log']);
    // The choice is answered after this turn of the event loop (a notification's promise).
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(vscodeStub.terminals, [{ name: 'Copilot Login', cwd: '/w', env: { COPILOT_HOME: '/h' }, sent: ['copilot login'] }]);
    assert.equal(vscodeStub.messages.at(-1), 'Finish the login in the terminal "Copilot Login", then prompt Copilot again.');
  });

  it('after Run, says where to prompt again with a button (a toast without one is cut to its first line): Open Log', async () => {
    const login = { label: 'Fake Login', line: 'fake-agent login' };
    vscodeStub.choices.push('Run "fake-agent login"', 'Open Log');
    fire(state({ name: 'Agent signed out (fake)', command: 'node', turns: [turn(1, { needsLogin: true, login })] }));
    // Each choice is answered after this turn of the event loop (a notification's promise).
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(vscodeStub.messages.at(-1), 'Finish the login in the terminal "Fake Login", then prompt Agent signed out (fake) again.');
    assert.deepEqual(vscodeStub.buttons.at(-1), ['Open Log']);
    assert.deepEqual(opened, ['w1']);
  });

  it('says another failed turn with its error alone', () => {
    fire(state({ turns: [turn(1, { error: 'the agent answered the prompt with an error (-32603 Internal error)' })] }));
    assert.deepEqual(attention.notified.map((n) => n.message), ['Claude: its turn ended in an error: the agent answered the prompt with an error (-32603 Internal error)']);
  });
});

describe('a turn refused for want of a key, as the Event Log is told it', () => {
  it('the page is told how a known agent takes a key; another program has no such words', () => {
    assert.equal(toWorkerView(state()).login, `For Claude: ${loginHint('claude-agent-acp')}`);
    assert.equal(toWorkerView(state({ command: 'my-agent' })).login, undefined);
  });
});
