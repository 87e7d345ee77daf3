// A worker that no longer reads its input (its stdin closed while it runs on: WorkerState.inputLost)
// shows it: its row says "not reading its input" with a warning, its tooltip says to stop it, the
// Event Log's chip says it and its composer sends nothing, and the person is notified once, not
// at each verb it refuses. Before, all of them said "streaming" or "idle" as if all were well.
import { vscodeStub } from '../helpers/vscodeStub';
import { attentionHost } from '../helpers/attentionHost';
import * as assert from 'node:assert/strict';
import type { Supervisor, TurnSummary, WorkerState } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { attentionOf, NOTHING_SEEN } from '../../src/core/attention';
import { parseHostMessage, type WorkerView } from '../../src/protocol/hostMessages';
import { workerPhase } from '../../src/protocol/words';
import { reasonLine, rowDescription, rowNews, stateWord, tabTitle } from '../../src/ui/attention/attentionLook';
import { LogTabs } from '../../src/ui/attention/logTabs';
import type { EventLog } from '../../src/ui/eventLog/eventLogView';
import { isIdle, isRunning, isStreaming, pickWorker } from '../../src/ui/commands/pickers';
import { toWorkerView } from '../../src/ui/eventLog/workerView';
import { tooltipWarning, workerDescription, workerIcon } from '../../src/ui/views/describe';
import { composerView, keySendRefusal } from '../../src/webview/composer';
import { statusChip } from '../../src/webview/statusChip';

function state(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w1', name: 'Fixer', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: null, pid: 42, cwd: '/w', dialect: 'pi', command: 'pi',
    args: [], model: 'demo-model', sessionId: null, session: null, usage: null, agent: null, guarded: false, writeGuard: null, tools: null, turnCount: 1, lastEndReason: null, lastError: null,
    exitCode: null, signal: null, startedAt: 0, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, abortUnavailable: null, midTurn: { steer: true, followUp: 'worker' }, ...over,
  };
}
const turn = (index: number, over: Partial<TurnSummary> = {}): TurnSummary => ({ index, submissionId: null, source: null, submitter: null, startedAt: 1, endedAt: 2, endReason: 'done', error: null, tools: [], ...over });
const deaf = (over: Partial<WorkerState> = {}) => state({ inputLost: true, ...over });

/** The row's description as the Sessions view shows it: its own words, with the attention's news first where there is one. */
const row = (s: WorkerState) => rowDescription(rowNews(s, attentionOf(s, NOTHING_SEEN).attention), workerDescription(s));

/** What the page shows, through the same steps as the extension: attention, WorkerView, the schema. */
function view(s: WorkerState): WorkerView {
  const parsed = parseHostMessage({ type: 'state', worker: toWorkerView(s, attentionOf(s, NOTHING_SEEN)) });
  assert.ok(parsed.success);
  return (parsed.data as { worker: WorkerView }).worker;
}

describe('ui: a worker that no longer reads its input shows it', () => {
  beforeEach(() => vscodeStub.reset());

  it('its row says "not reading its input" first, with a warning, whatever it runs; its tooltip says to stop it', () => {
    assert.equal(row(deaf()), 'not reading its input · idle · demo-model');
    assert.equal(row(deaf({ streaming: true })), 'not reading its input · streaming · demo-model');
    // A turn it ended unseen is not said over it ("done"), nor its attention's "failed".
    assert.equal(row(deaf({ turns: [turn(1)] })), 'not reading its input · idle · demo-model');
    assert.deepEqual(workerIcon(deaf({ streaming: true })), { id: 'warning', color: 'problemsWarningIcon.foreground' });
    assert.match(tooltipWarning(deaf()) ?? '', /^It no longer reads its input \(its stdin closed\) while its process runs on: nothing sent can reach it.*Stop it \(Stop Worker\)/);
    // Once it ended, its status says how; so does a healthy worker's row.
    assert.equal(row(state()), 'idle · demo-model');
    assert.equal(tooltipWarning(state()), null);
    assert.equal(tooltipWarning({ ...deaf(), status: 'stopped' }), null);
    assert.equal(workerIcon(state({ streaming: true })).id, 'sync~spin');
  });

  it("the Event Log's chip says it, its tooltip says to stop it, and no quiet count hides it", () => {
    const w = view(deaf({ streaming: true }));
    assert.equal(w.inputLost, true);
    const chip = statusChip(w, workerPhase(w), 120_000);
    assert.equal(chip.text, 'not reading its input · demo-model · pid 42');
    assert.match(chip.title, /\nIt no longer reads its input .*Stop it/);
    assert.equal(chip.spoken, 'Fixer: not reading its input');
    // A warning, as its row's icon is (problemsWarningIcon): its process runs on, not failed's red.
    assert.match(chip.cls, /\bphase-streaming\b.*\binput-lost\b/);
    assert.doesNotMatch(chip.cls, /\battention-failed\b/);
    assert.equal(statusChip(view(state()), 'idle').text, 'idle · demo-model · pid 42');
  });

  it('its composer sends nothing and says why; Stop stays', () => {
    const v = composerView(view(deaf({ streaming: true })));
    assert.deepEqual(v.disabled, { send: true, followUp: true, redirect: true, abort: true, compact: true, stop: false });
    assert.equal(v.textareaDisabled, true);
    assert.equal(v.placeholder, 'The worker no longer reads its input: stop it');
    // The Abort greyed out under a turn that runs on says why, and what ends it.
    assert.match(v.abortTitle ?? '', /^An abort cannot reach the worker .*Stop ends it/);
    assert.equal(composerView(view(deaf())).abortTitle, null);
    assert.deepEqual(keySendRefusal(view(deaf())), { text: 'The worker no longer reads its input: stop it: nothing was sent', cls: 'info' });
    assert.equal(composerView(view(state())).disabled.send, false);
  });

  it('its tab, its tooltip\'s state line and its notification say the row\'s words, not "failed" (its process runs, and may still stream its turn)', () => {
    const s = deaf({ streaming: true });
    const info = attentionOf(s, NOTHING_SEEN);
    assert.equal(tabTitle('Fixer', info.attention, s), 'Fixer · not reading its input');
    const line = reasonLine(stateWord(s, info.attention), info.reason);
    assert.equal(`${line.word}${line.rest}`, 'not reading its input: stop it');
    assert.equal(line.word, 'not reading its input');
    // A worker that did fail, or whose turn did, is still said to have failed.
    const crashed = state({ status: 'failed', exitCode: 3 });
    assert.equal(tabTitle('Fixer', attentionOf(crashed).attention, crashed), 'Fixer · failed');
    const erred = state({ turns: [turn(1, { error: 'boom' })] });
    assert.equal(tabTitle('Fixer', attentionOf(erred).attention, erred), 'Fixer · failed');
    assert.equal(tabTitle('Fixer', null, s), 'Fixer');
  });

  it("its log's tab is titled with those words as it goes deaf", () => {
    const { attention, emit } = attentionHost(state({ streaming: true }));
    let current = state({ streaming: true });
    const panel = { title: 'Fixer' };
    const never = () => ({ dispose() {} });
    const eventLog = {
      panelSessions: [{ panel, workerId: 'w1' }], onDidOpenPanel: never, onDidChangeLooking: never,
      label: () => 'Fixer', stateOf: () => current, isPast: () => false,
    } as unknown as EventLog;
    const tabs = new LogTabs(eventLog, attention);
    tabs.retitle();
    assert.equal(panel.title, 'Fixer · working');
    current = deaf({ streaming: true });
    emit(current);
    assert.equal(panel.title, 'Fixer · not reading its input');
    tabs.dispose();
    attention.dispose();
  });

  it('the person is notified once, not at each state it goes through until it ends', () => {
    const { attention, emit } = attentionHost(state());
    emit(state({ streaming: true, turns: [turn(1, { endedAt: null, endReason: null })] }));
    // Its turn goes on and ends on its own (its output is still heard), and verbs refused meanwhile change nothing it shows.
    emit(deaf({ streaming: true, turns: [turn(1, { endedAt: null, endReason: null })] }));
    emit(deaf({ turns: [turn(1)] }));
    emit(deaf({ turns: [turn(1)], lastError: null }));
    assert.deepEqual(attention.notified, [{ workerId: 'w1', level: 'error', message: 'Fixer: not reading its input: stop it' }]);
    // Stopped: no news.
    emit(state({ status: 'stopped', turns: [turn(1)] }));
    assert.equal(attention.notified.length, 1);
    attention.dispose();
  });
});

describe('ui: the guard stopped a worker that no longer reads its input', () => {
  beforeEach(() => vscodeStub.reset());
  const stopped = (over: Partial<AgentEvent> = {}): AgentEvent => ({
    type: 'guard_violation', timestamp: 1, tool_call_id: 't1', tool_name: 'write', is_error: true,
    error: 'write "/x": outside the allowed paths; the worker could not be told to abort its turn (it no longer reads its input), so it was stopped', data: { action: 'stop' }, ...over,
  } as AgentEvent);

  it('the person is told, as a failure is (they did not ask for the Stop), with the reason; an abort or a flag is no notification', () => {
    const { attention, event } = attentionHost(deaf({ streaming: true }));
    event(stopped({ data: { action: 'abort' } }));
    event(stopped({ data: { action: 'flag' } }));
    assert.deepEqual(attention.notified, []);
    event(stopped());
    assert.deepEqual(attention.notified, [{ workerId: 'w1', level: 'error', message: 'Fixer: guard: write "/x": outside the allowed paths; the worker could not be told to abort its turn (it no longer reads its input), so it was stopped' }]);
    attention.dispose();
  });

  it("one notification when the guard's own abort found it deaf: the stop's says all of it, the state's 'not reading its input: stop it' after it is not said", () => {
    const { attention, emit, event } = attentionHost(state({ streaming: true }));
    // The core says the guard's stop before the state that says the loss (toolAudit.ts).
    event(stopped());
    emit(deaf({ streaming: true }));
    emit(deaf({ turns: [turn(1)] }));
    emit(state({ status: 'stopped', turns: [turn(1)] }));
    assert.deepEqual(attention.notified, [{ workerId: 'w1', level: 'error', message: 'Fixer: guard: write "/x": outside the allowed paths; the worker could not be told to abort its turn (it no longer reads its input), so it was stopped' }]);
    attention.dispose();
  });

  it('a deaf worker found before the guard stopped it was told of on its own, as it was found', () => {
    const { attention, emit, event } = attentionHost(state({ streaming: true }));
    emit(deaf({ streaming: true }));
    event(stopped());
    assert.deepEqual(attention.notified.map((n) => n.message), ['Fixer: not reading its input: stop it', 'Fixer: guard: write "/x": outside the allowed paths; the worker could not be told to abort its turn (it no longer reads its input), so it was stopped']);
    attention.dispose();
  });

  it('not while its log is on screen (the log says it), nor with notifications off', () => {
    const looking = attentionHost(deaf({ streaming: true }), { visibleLogs: () => new Set(['w1']) });
    looking.event(stopped());
    assert.deepEqual(looking.attention.notified, []);
    looking.attention.dispose();
    const off = attentionHost(deaf({ streaming: true }), { setting: () => 'none' });
    off.event(stopped());
    assert.deepEqual(off.attention.notified, []);
    off.attention.dispose();
  });
});

describe("ui: a verb's worker picker when the only worker it would take no longer reads its input", () => {
  beforeEach(() => vscodeStub.reset());

  it('says so and to stop it, not "No worker is running: start one first" (Redirect with Selection\'s key has no `when` to hide it)', async () => {
    const supervisor = { list: () => [deaf({ streaming: true })] } as unknown as Supervisor;
    assert.equal(await pickWorker(supervisor, { title: 'Redirect', filter: isRunning, none: 'No worker is running: start one first.' }), undefined);
    assert.equal(await pickWorker(supervisor, { title: 'Abort Turn', filter: isStreaming, none: 'No worker is streaming: there is no turn to abort.' }), undefined);
    const said = 'Fixer no longer reads its input (stdin closed): nothing sent can reach it; stop it (Stop Worker).';
    assert.deepEqual(vscodeStub.messages, [said, said]);
    // A verb it would not take anyway keeps its own words.
    vscodeStub.messages.length = 0;
    assert.equal(await pickWorker(supervisor, { title: 'Compact', filter: isIdle, none: 'No idle worker to compact.' }), undefined);
    assert.deepEqual(vscodeStub.messages, ['No idle worker to compact.']);
  });
});
