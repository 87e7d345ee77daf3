// The commands as the person meets them: what each says of the host's answer (the notification
// or status bar message, and the line under the event log's composers), on a host stub whose
// answers the test chooses.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type { PromptResult, StartResult, StopResult, Supervisor, WorkerState } from '../../src/core/api';
import { Commands, type CommandServices } from '../../src/ui/commands/commands';
import { LaunchConfigGate } from '../../src/ui/settings/launchConfigGate';
import { readSettings, type Settings } from '../../src/ui/settings/settings';

type Said = { workerId: string; action: string; status: string; message: string; tone: string };

function harness(answers: { prompt?: PromptResult; stop?: StopResult; start?: StartResult; workers?: WorkerState[]; settings?: object } = {}) {
  const said: Said[] = [];
  const sent: unknown[] = [];
  const opened: string[] = [];
  const names = new Map([['w1', 'Demo worker'], ['w2', 'Claude']]);
  const eventListeners: Array<(workerId: string, e: object) => void> = [];
  const supervisor = {
    list: () => answers.workers ?? [],
    limits: { maxPromptBytes: 32 * 1024 },
    state: (workerId: string) => {
      const state = answers.workers?.find((w) => w.workerId === workerId);
      return state ? { status: state.status, workerId, state } : { status: 'not_found', workerId };
    },
    onState: () => () => {},
    onRemoved: () => () => {},
    onEvent: (listener: (workerId: string, e: object) => void) => (eventListeners.push(listener), () => eventListeners.splice(eventListeners.indexOf(listener), 1)),
    prompt: async (...a: unknown[]) => (sent.push(a), answers.prompt),
    redirect: async (...a: unknown[]) => (sent.push(a), { status: 'redirected' }),
    stop: async () => answers.stop,
    stopAll: async () => (answers.workers ?? []).map((w) => ({ status: 'stopped', workerId: w.workerId, exitCode: 0, signal: null, killed: false, alreadyExited: false, ms: 1 })),
    start: async (spec: unknown) => (sent.push(spec), answers.start),
  } as unknown as Supervisor;
  const eventLog = {
    label: (id: string) => names.get(id),
    stateOf: (id: string) => (names.has(id) ? { workerId: id, name: names.get(id) } : undefined),
    openPanel: (id: string) => opened.push(id),
    show: async (id: string) => opened.push(id),
    result: (workerId: string, r: Omit<Said, 'workerId'>) => said.push({ workerId, ...r }),
  };
  const outputs = { show: (id: string) => (opened.push(id), true), has: () => true };
  const tree = { reveal: async () => {} };
  const settings = () => (answers.settings ?? {}) as Settings;
  const services = {
    supervisor, eventLog, outputs, tree, selection: { current: undefined, set() {} }, settings, extensionPath: '/ext', tauSessionDir: '/tmp/tau',
    launchConfig: new LaunchConfigGate(supervisor, settings),
  } as unknown as CommandServices;
  const emit = (workerId: string, e: object) => { for (const l of [...eventListeners]) l(workerId, e); };
  return { commands: new Commands(services), said, sent, opened, emit };
}

describe('UI commands: what they say', () => {
  let disposables: Array<{ dispose(): void }> = [];
  beforeEach(() => vscodeStub.reset());
  afterEach(() => {
    for (const d of disposables) d.dispose();
    disposables = [];
  });

  it('a steer the worker took as a prompt (its turn had ended) is said as a prompt, not as queued', async () => {
    const { commands, said } = harness({ prompt: { status: 'accepted', workerId: 'w1', submissionId: null, streamingBehavior: null, ms: 1 } });
    disposables.push(commands);
    await commands.deliver('w1', 'look at the tests too', { behavior: 'steer', source: 'palette', submitter: 'user' });
    assert.deepEqual(said.map((s) => [s.action, s.message]), [['prompt', 'Prompt accepted by Demo worker']]);
    assert.deepEqual(vscodeStub.statusMessages, ['$(check) Prompt accepted by Demo worker']);
  });

  it('a prompt refused after one accepted takes "Prompt accepted" down from the status bar (issue: it stayed up to 4 s beside the refusal)', async () => {
    const accepted: PromptResult = { status: 'accepted', workerId: 'w1', submissionId: null, streamingBehavior: null, ms: 1 };
    const answers: { prompt: PromptResult } = { prompt: accepted };
    const { commands } = harness(answers);
    disposables.push(commands);
    const prompt = (workerId: string) => commands.deliver(workerId, 'go on', { source: 'palette', submitter: 'user' });
    await prompt('w1');
    assert.deepEqual(vscodeStub.statusUp, ['$(check) Prompt accepted by Demo worker']);
    answers.prompt = { status: 'error', workerId: 'w1', error: 'the worker is busy', ms: 1 };
    await prompt('w1');
    assert.deepEqual(vscodeStub.messages, ['Prompting Demo worker failed: the worker is busy']);
    assert.deepEqual(vscodeStub.statusUp, [], 'the refusal is the worker\'s last word');
    // Another worker's refusal says nothing of this one's prompt: its line stays.
    answers.prompt = accepted;
    await prompt('w1');
    answers.prompt = { status: 'error', workerId: 'w2', error: 'the worker is busy', ms: 1 };
    await prompt('w2');
    assert.deepEqual(vscodeStub.statusUp, ['$(check) Prompt accepted by Demo worker']);
    // A refusal whose result names no worker is still of the worker it was asked of.
    answers.prompt = { status: 'error', error: 'no answer' } as PromptResult;
    await prompt('w1');
    assert.deepEqual(vscodeStub.statusUp, []);
  });

  it('a "Prompt accepted" in the status bar leaves when that turn ends in an error, not when another worker\'s does (issue: a green tick beside the error that refused it)', async () => {
    const { commands, emit } = harness({ prompt: { status: 'accepted', workerId: 'w1', submissionId: null, streamingBehavior: null, ms: 1 } });
    disposables.push(commands);
    await commands.deliver('w1', 'say hello', { source: 'palette', submitter: 'user' });
    assert.deepEqual(vscodeStub.statusMessages, ['$(check) Prompt accepted by Demo worker']);
    emit('w2', { type: 'agent_settled', timestamp: 1, turn: { index: 1, ends: true }, is_error: true, error: 'boom' });
    emit('w1', { type: 'agent_settled', timestamp: 1, turn: { index: 1, ends: true }, end_reason: 'done' });
    assert.deepEqual(vscodeStub.statusUp, ['$(check) Prompt accepted by Demo worker'], 'another worker\'s error, or a turn that went well, leaves it');
    emit('w1', { type: 'agent_settled', timestamp: 2, turn: { index: 2, ends: true }, is_error: true, error: 'Authentication required' });
    assert.deepEqual(vscodeStub.statusUp, []);
  });

  it('a steer the worker queued is said as queued', async () => {
    const { commands, said } = harness({ prompt: { status: 'accepted', workerId: 'w1', submissionId: null, streamingBehavior: 'steer', ms: 1 } });
    disposables.push(commands);
    await commands.deliver('w1', 'look at the tests too', { behavior: 'steer', source: 'palette', submitter: 'user' });
    assert.deepEqual(said.map((s) => [s.action, s.message]), [['steer', 'Steer queued for Demo worker']]);
  });

  it('a follow-up refused is said as the follow-up that failed', async () => {
    const { commands, said } = harness({ prompt: { status: 'error', workerId: 'w1', error: 'boom', ms: 1 } });
    disposables.push(commands);
    await commands.deliver('w1', 'then run the tests', { behavior: 'followUp', source: 'palette', submitter: 'user' });
    assert.deepEqual(said.map((s) => [s.action, s.message, s.tone]), [['followUp', 'Queueing a follow-up for Demo worker failed: boom', 'error']]);
  });

  it("an id no worker of the window ever had (a keybinding's from an earlier window) is said so, not as already stopped", async () => {
    const { commands, said } = harness({ stop: { status: 'not_found', workerId: 'w9-0ld1d000', error: 'no worker with id w9-0ld1d000', ms: 0 } });
    disposables.push(commands);
    await commands.stop({ workerId: 'w9-0ld1d000' });
    const sentence = 'No worker has the id w9-0ld1d000: worker ids are given anew in each window';
    assert.deepEqual(said.map((s) => [s.message, s.tone]), [[sentence, 'error']]);
    assert.deepEqual(vscodeStub.messages, [sentence]);
  });

  it('a second Stop of a worker the window knows still says it is already stopped', async () => {
    const { commands, said } = harness({ stop: { status: 'not_found', workerId: 'w1', error: 'worker w1 was stopped', ms: 0 } });
    disposables.push(commands);
    await commands.stop({ workerId: 'w1' });
    assert.deepEqual(said.map((s) => [s.message, s.tone]), [['Demo worker is already stopped', 'info']]);
  });

  for (const [id, what] of [['rpcWorkers.prompt', 'Prompt'], ['rpcWorkers.steer', 'Steer'], ['rpcWorkers.followUp', 'Follow Up'], ['rpcWorkers.redirect', 'Redirect']] as const) {
    it(`${what} from a Sessions row: Escape at its message sends nothing and says nothing; a blank message, or one over the host's limit, is refused in the box`, async () => {
      const { commands, said, sent } = harness();
      disposables.push(commands);
      vscodeStub.answers.push(undefined);
      const r = await vscodeStub.commands.get(id)!({ kind: 'worker', workerId: 'w1' });
      assert.deepEqual(r, { status: 'cancelled' });
      assert.deepEqual(vscodeStub.asked, [`${what} Demo worker`]);
      assert.deepEqual([sent, said, vscodeStub.messages, vscodeStub.statusMessages], [[], [], [], []]);
      const validate = vscodeStub.validators[0]!;
      assert.ok(validate(' \n\t'), 'a blank message is let through');
      assert.equal(validate('go on'), null);
      // The host's limit is said while the message can still be cut, not after the box took it away.
      assert.equal(validate('é'.repeat(16 * 1024)), null, 'exactly at the limit (2 bytes a character)');
      assert.equal(validate('é'.repeat(16 * 1024) + 'x'), 'The message is 32,769 bytes; a message may be at most 32,768 (rpcWorkers.maxPromptBytes)');
    });
  }

  for (const id of ['rpcWorkers.showEventLog', 'rpcWorkers.openEventLogPanel', 'rpcWorkers.showOutput']) {
    it(`${id} given an id no worker of the window has says so, and opens nothing`, async () => {
      const { commands, opened } = harness();
      disposables.push(commands);
      const r = await vscodeStub.commands.get(id)!({ workerId: 'w9-0ld1d000' }) as { status: string };
      assert.equal(r.status, 'not_found');
      assert.deepEqual(opened, []);
      assert.deepEqual(vscodeStub.messages, ['RPC Workers: No worker has the id w9-0ld1d000: worker ids are given anew in each window']);
      // A worker the window knows is shown as before.
      assert.equal((await vscodeStub.commands.get(id)!({ workerId: 'w1' }) as { status: string }).status, 'shown');
      assert.deepEqual(opened, ['w1']);
    });
  }

  it('a start whose worker did not take its first task says so with the reason, and Send Again sends the same text', async () => {
    const accepted: PromptResult = { status: 'accepted', workerId: 'w1', submissionId: null, streamingBehavior: null, ms: 1 };
    const start = { status: 'started', workerId: 'w1', pid: 1, state: {} as WorkerState, taskAccepted: false, taskError: 'the worker is busy', ms: 1 } as const;
    const { commands, sent, said } = harness({ start, prompt: accepted });
    disposables.push(commands);
    vscodeStub.folder = '/tmp';
    vscodeStub.choices.push('Send Again');
    const r = await commands.startDemoWorker({ task: 'fix the build' });
    assert.equal(r.status, 'started');
    assert.deepEqual(vscodeStub.messages, ['Demo worker started, but its first task was not sent: the worker is busy']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(sent.slice(1).map((a) => (a as unknown[]).slice(0, 2)), [['w1', 'fix the build']], 'Send Again sent the task');
    assert.deepEqual(said.map((s) => s.message), ['Started Demo worker', 'Prompt accepted by Demo worker']);
  });

  it("a start given a blank name (an argument's) is named by its profile, as with no name", async () => {
    const profile = { name: 'Reviewer', dialect: 'pi', command: '/bin/true' };
    const settings = { profiles: [profile], defaultProfile: '', agentDirs: [], guard: { allowedPaths: [], forbiddenPaths: [], allowBash: false, onViolation: 'abort' } };
    const { commands, sent } = harness({ settings, start: { status: 'error', error: 'no', ms: 0 } });
    disposables.push(commands);
    // The launch configuration gate reads VS Code's settings, which the stub has not: passed here.
    commands.launchConfig.confirm = async () => ({ ok: true });
    vscodeStub.folder = '/tmp';
    await commands.startWorker({ profile: 'Reviewer', name: ' \t ' });
    await commands.startWorker({ profile: 'Reviewer', name: ' Lead ' });
    await commands.startDemoWorker({ name: '  ' });
    assert.deepEqual(sent.map((spec) => (spec as { name?: string }).name), ['Reviewer', 'Lead', 'Demo worker']);
  });

  it('a profile whose command is a path that is not there: the install is said with where it puts the program, and the command to write', async () => {
    const guard = { allowedPaths: [], forbiddenPaths: [], allowBash: false, onViolation: 'abort' };
    const profiles = [{ name: 'my pi', dialect: 'pi', command: '/opt/pi/bin/pi' }, { name: 'plain pi', dialect: 'pi', command: 'pi' }];
    const error = (c: string) => ({ status: 'error' as const, error: `there is no such file (spawn ${c} ENOENT)`, missing: true as const, ms: 0 });
    const { commands } = harness({ settings: { profiles, defaultProfile: '', agentDirs: [], guard }, start: error('/opt/pi/bin/pi') });
    disposables.push(commands);
    commands.launchConfig.confirm = async () => ({ ok: true });
    vscodeStub.folder = '/tmp';
    await commands.startWorker({ profile: 'my pi' });
    // npm installs pi into its own global bin folder, never at the path the profile names.
    assert.match(vscodeStub.messages[0], /^Could not start my pi: there is no such file \(spawn \/opt\/pi\/bin\/pi ENOENT\)\. Install it: npm install -g @earendil-works\/pi-coding-agent \(pi 1\.x needs Node ≥ 22\.19\), which puts "pi" in npm's global bin folder \(on the PATH\), not at \/opt\/pi\/bin\/pi: then set the profile's command to "pi"$/, vscodeStub.messages[0]);
    // A bare name is what the install fills: the line alone.
    vscodeStub.reset();
    vscodeStub.folder = '/tmp';
    const bare = harness({ settings: { profiles, defaultProfile: '', agentDirs: [], guard }, start: error('pi') });
    disposables.push(bare.commands);
    bare.commands.launchConfig.confirm = async () => ({ ok: true });
    await bare.commands.startWorker({ profile: 'plain pi' });
    assert.equal(vscodeStub.messages[0], 'Could not start plain pi: there is no such file (spawn pi ENOENT). Install it: npm install -g @earendil-works/pi-coding-agent (pi 1.x needs Node ≥ 22.19)');
  });

  it('a defaultProfile that names a profile of the settings that is invalid says so, and why, and offers to open the settings', async () => {
    // As the settings are read: the profile has no command, so it is not offered.
    const { settings } = readSettings((k) => (k === 'profiles' ? [{ name: 'mine', dialect: 'pi' }] : k === 'defaultProfile' ? 'mine' : undefined));
    const { commands } = harness({ settings });
    disposables.push(commands);
    vscodeStub.folder = '/tmp';
    vscodeStub.choices.push('Open Settings');
    const r = await commands.startWorker();
    assert.equal(r.status, 'cancelled');
    const said = 'rpcWorkers.defaultProfile "mine" names a profile of your settings that is invalid (command: a profile needs a command), so it is not offered';
    assert.deepEqual(vscodeStub.placeHolders, ['rpcWorkers.defaultProfile "mine" is invalid: which worker to start?']);
    assert.deepEqual(vscodeStub.messages, [`RPC Workers: ${said}`]);
    assert.deepEqual(vscodeStub.buttons, [['Open Settings']]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(vscodeStub.executed, [['workbench.action.openSettings', 'rpcWorkers.profiles']]);
  });

  it('Forget Always-Allowed Actions for an id the host does not have says so', async () => {
    const { commands } = harness();
    disposables.push(commands);
    const r = await commands.forgetAllowed({ workerId: 'w9-0ld1d000' });
    assert.equal(r.status, 'not_found');
    // In the words every other command says an id of an earlier window in.
    assert.deepEqual(vscodeStub.messages, ['RPC Workers: Forget Always-Allowed Actions: No worker has the id w9-0ld1d000: worker ids are given anew in each window']);
  });

  it('Forget Always-Allowed Actions for a worker of the window that is no longer running names it', async () => {
    const { commands } = harness();
    disposables.push(commands);
    const r = await commands.forgetAllowed({ workerId: 'w1' });
    assert.equal(r.status, 'not_found');
    assert.deepEqual(vscodeStub.messages, ['RPC Workers: Forget Always-Allowed Actions: Demo worker is no longer running']);
  });

  // An ACP agent streaming a turn: its protocol has no steer (the log's composer offers none either).
  const acp = { workerId: 'w1', name: 'Demo worker', status: 'running', streaming: true, compacting: false, midTurn: { steer: false, followUp: 'host' } } as WorkerState;

  it('Steer of a worker that cannot be steered says so before anything is typed, and offers Follow Up and Redirect', async () => {
    const { commands, sent } = harness({ workers: [acp] });
    disposables.push(commands);
    const r = await vscodeStub.commands.get('rpcWorkers.steer')!({ kind: 'worker', workerId: 'w1' }) as { status: string };
    assert.equal(r.status, 'error');
    assert.deepEqual(vscodeStub.asked, [], 'a message was asked for, then refused');
    assert.deepEqual(sent, []);
    assert.match(vscodeStub.messages[0], /^Demo worker cannot be steered inside its turn/);
    assert.deepEqual(vscodeStub.buttons[0], ['Follow Up', 'Redirect']);
  });

  it('a prompt typed while such a worker streams is offered as Follow Up or Redirect, not as a Steer that would fail', async () => {
    const { commands, sent } = harness({ workers: [acp] });
    disposables.push(commands);
    vscodeStub.answers.push('and the tests');
    await vscodeStub.commands.get('rpcWorkers.prompt')!({ kind: 'worker', workerId: 'w1' });
    assert.deepEqual(vscodeStub.buttons, [['Follow Up', 'Redirect']]);
    assert.doesNotMatch(vscodeStub.messages[0], /Steer/);
    assert.deepEqual(sent, []);
  });
  it('Steer from the palette with no steerable worker streaming names the one that takes none, and does not say no ACP agent takes one', async () => {
    // Claude (ACP) takes a steer and is idle; Copilot (ACP) streams and takes none.
    const claude = { workerId: 'w2', name: 'Claude', status: 'running', streaming: false, compacting: false, midTurn: { steer: true, followUp: 'host' } } as WorkerState;
    const copilot = { ...acp, name: 'GitHub Copilot' } as WorkerState;
    const { commands, sent } = harness({ workers: [claude, copilot] });
    disposables.push(commands);
    const r = await vscodeStub.commands.get('rpcWorkers.steer')!() as { status: string };
    assert.equal(r.status, 'cancelled');
    assert.deepEqual(sent, []);
    assert.match(vscodeStub.messages[0], /GitHub Copilot takes none/);
    assert.doesNotMatch(vscodeStub.messages[0], /an ACP agent takes none/, 'Claude, an ACP agent, takes a steer');
  });

  it('Steer from the palette with nothing streaming says there is no turn to steer', async () => {
    const { commands } = harness({ workers: [] });
    disposables.push(commands);
    await vscodeStub.commands.get('rpcWorkers.steer')!();
    assert.match(vscodeStub.messages[0], /^No worker is streaming a turn/);
  });

  it('Stop All counts only the workers it stopped: one that had exited or failed is cleared, not counted; none running is said so', async () => {
    const worker = (workerId: string, status: WorkerState['status']) => ({ workerId, name: workerId, status, streaming: false, compacting: false }) as WorkerState;
    const { commands } = harness({ workers: [worker('w1', 'running'), worker('w2', 'exited'), worker('w3', 'failed'), worker('w4', 'starting')] });
    disposables.push(commands);
    await commands.stopAll();
    assert.deepEqual(vscodeStub.statusMessages, ['$(check) Stopped 2 workers']);
    const gone = harness({ workers: [worker('w2', 'exited')] });
    disposables.push(gone.commands);
    await gone.commands.stopAll();
    assert.deepEqual(vscodeStub.statusMessages, ['$(check) Stopped 2 workers', 'No worker was running']);
  });
});
