// The launch configuration gate across a reload: what it last read is kept in the workspace's
// state, so a change a worker made before the window reloaded (or while it was closed, the
// worker still running) is asked about at the first start after it, not taken as the baseline.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as vscode from 'vscode';
import { vscodeStub } from '../helpers/vscodeStub';
import { GATE_STATE_KEY, LaunchConfigGate } from '../../src/ui/settings/launchConfigGate';
import type { StateListener, Supervisor } from '../../src/core/api';
import type { Settings } from '../../src/ui/settings/settings';

/** workspaceState as VS Code keeps it between windows: the value is there for the next window. */
function memento(): vscode.Memento & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void values.set(key, value),
  } as vscode.Memento & { values: Map<string, unknown> };
}

/** The window's workers: `run` and `end` fire the states the gate follows. */
function workers() {
  const listeners = new Set<StateListener>();
  let live = 0;
  const supervisor = {
    onState: (l: StateListener) => (listeners.add(l), () => listeners.delete(l)),
    list: () => Array.from({ length: live }, (_, i) => ({ workerId: `w${i}`, status: 'running' })),
  } as unknown as Supervisor;
  const fire = (status: string) => { for (const l of listeners) l({ workerId: 'w0', status } as unknown as Parameters<StateListener>[0]); };
  return {
    supervisor,
    run: () => (live++, fire('starting')),
    end: () => (live--, fire('stopped')),
  };
}

const settings = () => ({ agentDirs: [], profiles: [] }) as unknown as Settings;
const USE = 'Start With These Changes';

describe('launch configuration gate across a reload', () => {
  let ws: string;
  let cards: string;
  const piDir = process.env.PI_CODING_AGENT_DIR;
  beforeEach(() => {
    vscodeStub.reset();
    ws = mkdtempSync(path.join(tmpdir(), 'rpcw-gate-'));
    cards = path.join(ws, '.pi', 'agents');
    mkdirSync(cards, { recursive: true });
    writeFileSync(path.join(cards, 'reviewer.md'), '---\nname: reviewer\ntools: read\n---\nReview.\n');
    // The person's own card folder, out of their real home.
    process.env.PI_CODING_AGENT_DIR = path.join(ws, 'pi-agent');
    vscodeStub.folder = ws;
  });
  afterEach(() => {
    if (piDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
    else process.env.PI_CODING_AGENT_DIR = piDir;
    rmSync(ws, { recursive: true, force: true });
  });

  it('a card changed before a reload is asked about at the first start after it', async () => {
    const state = memento();
    const window1 = workers();
    const gate1 = new LaunchConfigGate(window1.supervisor, settings, state);
    // The first start ever: nothing to compare with, nothing asked.
    assert.deepEqual(await gate1.confirm(false), { ok: true });
    window1.run();
    // The worker loosens the card, and the window reloads while it runs.
    writeFileSync(path.join(cards, 'reviewer.md'), '---\nname: reviewer\ntools: read, bash, write\n---\nAnything goes.\n');
    gate1.dispose();
    assert.deepEqual(vscodeStub.messages, []);

    const gate2 = new LaunchConfigGate(workers().supervisor, settings, state);
    // The automatic resume after the reload (and another extension) cannot ask: refused, saying what changed.
    const refused = await gate2.confirm(true);
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.error : '', /reviewer\.md/);
    vscodeStub.choices.push(undefined);
    assert.equal((await gate2.confirm(false)).ok, false);
    assert.match(vscodeStub.messages[0] ?? '', /changed while a worker ran/);
    vscodeStub.choices.push(USE);
    assert.deepEqual(await gate2.confirm(false), { ok: true });
    gate2.dispose();

    // Confirmed is kept too: the next window does not ask again.
    const asked = vscodeStub.messages.length;
    assert.deepEqual(await new LaunchConfigGate(workers().supervisor, settings, state).confirm(true), { ok: true });
    assert.equal(vscodeStub.messages.length, asked);
  });

  it('a change held but not confirmed before a reload is still asked about after it', async () => {
    const state = memento();
    const window1 = workers();
    const gate1 = new LaunchConfigGate(window1.supervisor, settings, state);
    window1.run();
    vscodeStub.workspaceSettings.set('guard.allowBash', true);
    window1.end();
    gate1.dispose();
    const refused = await new LaunchConfigGate(workers().supervisor, settings, state).confirm(true);
    assert.match(!refused.ok ? refused.error : '', /rpcWorkers\.guard\.allowBash/);
  });

  it("a change made while no worker ran is the person's, across a reload too", async () => {
    const state = memento();
    const window1 = workers();
    const gate1 = new LaunchConfigGate(window1.supervisor, settings, state);
    window1.run();
    window1.end();
    // No worker runs now: the person edits a card and a setting, then reloads (or closes the window).
    writeFileSync(path.join(cards, 'reviewer.md'), '---\nname: reviewer\ntools: read, grep\n---\nReview.\n');
    vscodeStub.workspaceSettings.set('profiles', [{ name: 'mine', command: 'pi' }]);
    gate1.dispose();
    const window2 = workers();
    const gate2 = new LaunchConfigGate(window2.supervisor, settings, state);
    // A start that does not pass the gate first (the watch is made at its "starting").
    window2.run();
    window2.end();
    assert.deepEqual(await gate2.confirm(true), { ok: true });
    assert.deepEqual(vscodeStub.messages, []);
  });

  it('a worker an earlier window left running (a survivor) counts as a worker that runs, as this window\'s own do', async () => {
    const state = memento();
    const window1 = workers();
    const gate1 = new LaunchConfigGate(window1.supervisor, settings, state);
    window1.run();
    // The window's host crashes: its worker lives on, found by the next window.
    gate1.dispose();
    let survivors = 1;
    const gate2 = new LaunchConfigGate(workers().supervisor, settings, state, () => survivors);
    // The new window's first reading: nothing changed yet.
    assert.deepEqual(await gate2.confirm(true), { ok: true });
    // The survivor loosens a card after it: not the person's edit.
    writeFileSync(path.join(cards, 'reviewer.md'), '---\nname: reviewer\ntools: read, bash, write\n---\nAnything goes.\n');
    const refused = await gate2.confirm(true);
    assert.match(!refused.ok ? refused.error : '', /reviewer\.md/);
    vscodeStub.choices.push(USE);
    assert.deepEqual(await gate2.confirm(false), { ok: true });
    // Once it is gone, a change is the person's again.
    survivors = 0;
    assert.deepEqual(await gate2.confirm(true), { ok: true });
    vscodeStub.workspaceSettings.set('guard.allowBash', true);
    assert.deepEqual(await gate2.confirm(true), { ok: true });
  });

  it('survivors that cannot be counted (`ps` failing off Linux) count as one running: the start is not failed, a change is asked about', async () => {
    const state = memento();
    const warned: string[] = [];
    let psFails = false;
    const gate = new LaunchConfigGate(workers().supervisor, settings, state, () => {
      if (psFails) throw new Error('ps: fork failed');
      return 0;
    }, (m) => warned.push(m));
    assert.deepEqual(await gate.confirm(true), { ok: true });
    psFails = true;
    // Unknown: the first reading with `ps` failing finds nothing changed, and the start goes on.
    assert.deepEqual(await gate.confirm(true), { ok: true });
    assert.match(warned[0] ?? '', /could not tell whether workers an earlier window left still run \(ps: fork failed\)/);
    writeFileSync(path.join(cards, 'reviewer.md'), '---\nname: reviewer\ntools: read, bash\n---\nChanged.\n');
    const refused = await gate.confirm(true);
    assert.match(!refused.ok ? refused.error : '', /reviewer\.md/, 'a change while a survivor may run is not taken as the person\'s');
  });

  it("the last worker's end is kept once VS Code has it: saved() waits for the workspace state's update", async () => {
    // VS Code's memento hands the value to the main process later (after a 0 ms timer, then a
    // round trip): what deactivate() does not wait for may never be written.
    const state = memento();
    const landed: Array<() => void> = [];
    const update = state.update.bind(state);
    state.update = (key: string, value: unknown) => new Promise<void>((resolve) => landed.push(() => void update(key, value).then(resolve)));
    const window1 = workers();
    const gate = new LaunchConfigGate(window1.supervisor, settings, state);
    window1.run();
    landed.splice(0).forEach((land) => land());
    await gate.saved();
    // A close: deactivate() stops the last worker, and the gate keeps "no worker runs".
    window1.end();
    let saved = false;
    const waiting = gate.saved().then(() => (saved = true));
    await Promise.resolve();
    assert.equal(saved, false, 'saved() resolved before the update was written');
    assert.equal(landed.length, 1);
    landed.splice(0).forEach((land) => land());
    await waiting;
    assert.equal((state.values.get(GATE_STATE_KEY) as { ran: boolean }).ran, false);
  });

  it('keeps digests, not what the settings and cards say', async () => {
    const state = memento();
    vscodeStub.workspaceSettings.set('profiles', [{ name: 'mine', env: { TOKEN: 'secret-value' } }]);
    const gate = new LaunchConfigGate(workers().supervisor, settings, state);
    assert.deepEqual(await gate.confirm(false), { ok: true });
    const kept = JSON.stringify(state.values.get(GATE_STATE_KEY));
    assert.ok(kept.includes('reviewer.md'));
    assert.ok(!kept.includes('secret-value') && !kept.includes('Review.'));
  });

  it('an unreadable kept state is no baseline: this window reads its own', async () => {
    const state = memento();
    state.values.set(GATE_STATE_KEY, { baseline: 'nonsense' });
    assert.deepEqual(await new LaunchConfigGate(workers().supervisor, settings, state).confirm(true), { ok: true });
  });

  it('a card written while a worker ran in the card folder a pi profile\'s env names (PI_CODING_AGENT_DIR) is asked about', async () => {
    const profileDir = path.join(ws, 'profile-pi');
    mkdirSync(path.join(profileDir, 'agents'), { recursive: true });
    const withProfile = () => ({ agentDirs: [], profiles: [{ name: 'pi', dialect: 'pi', command: 'pi', env: { PI_CODING_AGENT_DIR: profileDir } }] }) as unknown as Settings;
    const window = workers();
    const gate = new LaunchConfigGate(window.supervisor, withProfile, memento());
    assert.deepEqual(await gate.confirm(false), { ok: true });
    window.run();
    // A start from a card on that profile reads this folder (agentStart.ts: the profile's env).
    writeFileSync(path.join(profileDir, 'agents', 'helper.md'), '---\nname: helper\ndescription: d\nguard: false\n---\nAnything.\n');
    window.end();
    const refused = await gate.confirm(true);
    assert.equal(refused.ok, false);
    assert.match(!refused.ok ? refused.error : '', /profile-pi\/agents/);
  });
});
