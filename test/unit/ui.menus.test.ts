// Worker commands in the Command Palette against the same commands on a worker's row in the
// Sessions view (package.json menus): for one worker in each state, the palette offers what
// the row offers, unless a reason below says why not. The row's `when` is tested against the
// contextValue the tree gives that worker (describe.ts), the palette's against the context
// keys the window sets for it (contextValues).
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { HistoryCommands, type HistoryServices } from '../../src/ui/history/historyCommands';
import { viewCommands } from '../../src/ui/commands/viewCommands';
import { contextValues, workerContextValue } from '../../src/ui/views/describe';
import { any, canSteer, isIdle, isRunning, isStreaming } from '../../src/ui/commands/pickers';

const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
};

const dialog = [{ kind: 'dialog' }] as unknown as WorkerState['pendingInput'];

/** One worker in each state the tree shows. */
const STATES: Record<string, Pick<WorkerState, 'status' | 'streaming' | 'compacting'> & Partial<Pick<WorkerState, 'pendingInput' | 'compactUnavailable' | 'modes' | 'inputLost' | 'forkUnavailable' | 'modelUnavailable'>>> = {
  starting: { status: 'starting', streaming: false, compacting: false },
  idle: { status: 'running', streaming: false, compacting: false },
  'idle, asking': { status: 'running', streaming: false, compacting: false, pendingInput: dialog },
  // An ACP agent without compaction (Gemini, OpenCode), and one that lists session modes (Claude).
  'idle, no compaction': { status: 'running', streaming: false, compacting: false, compactUnavailable: 'the agent has no compaction' },
  'idle, with modes': { status: 'running', streaming: false, compacting: false, modes: [{ id: 'default', name: 'Default' }] },
  // An ACP agent (ACP v1 has no fork) that lists no model choice (the fake agent, Copilot's adapter).
  'idle, no fork or model choice': { status: 'running', streaming: false, compacting: false, forkUnavailable: 'ACP v1 has no fork', modelUnavailable: 'this agent offers no model choice over ACP' },
  streaming: { status: 'running', streaming: true, compacting: false },
  'streaming, asking': { status: 'running', streaming: true, compacting: false, pendingInput: dialog },
  compacting: { status: 'running', streaming: false, compacting: true },
  // Its stdin closed while it runs on (WorkerState.inputLost): nothing sent reaches it.
  'idle, input lost': { status: 'running', streaming: false, compacting: false, inputLost: true, modes: [{ id: 'default', name: 'Default' }] },
  'streaming, input lost': { status: 'running', streaming: true, compacting: false, inputLost: true, pendingInput: dialog },
  exited: { status: 'exited', streaming: false, compacting: false },
  stopped: { status: 'stopped', streaming: false, compacting: false },
  failed: { status: 'failed', streaming: false, compacting: false },
};

/**
 * Evaluates the `when` clauses these menus use: `a && b`, `!a`, `key`, `key == value`,
 * `key =~ /re/`, `true`/`false`. An editor is open and the workspace trusted.
 */
function holds(when: string | undefined, ctx: Record<string, string | boolean>): boolean {
  if (!when) return true;
  return when.split('&&').every((raw) => {
    const term = raw.trim();
    const re = /^(\S+) =~ \/(.+)\/$/.exec(term);
    if (re) return new RegExp(re[2]).test(String(ctx[re[1]] ?? ''));
    const eq = /^(\S+) == (\S+)$/.exec(term);
    if (eq) return ctx[eq[1]] === eq[2];
    if (term.startsWith('!')) return !ctx[term.slice(1)];
    if (term === 'true' || term === 'false') return term === 'true';
    assert.ok(/^[\w.]+$/.test(term), `a when term this test does not read: ${term}`);
    return ctx[term] === true;
  });
}

const ALWAYS = { editorIsOpen: true, isWorkspaceTrusted: true };

/** The states in which a worker's row offers `command` (any of its entries). */
export function rowOffers(command: string): string[] {
  const items = pkg.contributes.menus['view/item/context'].filter((m) => m.command === command);
  return Object.keys(STATES).filter((k) => {
    const ctx = { ...ALWAYS, view: 'rpcWorkers.sessions', viewItem: workerContextValue(STATES[k]) };
    return items.some((m) => holds(m.when, ctx));
  });
}

/** The states in which the palette offers `command` while that one worker is listed. */
export function paletteOffers(command: string): string[] {
  const entry = pkg.contributes.menus.commandPalette.find((m) => m.command === command);
  return Object.keys(STATES).filter((k) => holds(entry?.when, { ...ALWAYS, ...contextValues([STATES[k] as WorkerState]) }));
}

describe('past session rows', () => {
  /** The commands a past session's row offers, for the contextValue the tree gives it (historyTree.ts). */
  const offered = (viewItem: string) => [...new Set(pkg.contributes.menus['view/item/context'].filter((m) => m.command.startsWith('rpcWorkers.history.') && holds(m.when, { ...ALWAYS, view: 'rpcWorkers.sessions', viewItem })).map((m) => m.command))].sort();
  it('an evicted session offers neither Open Log nor Export (its events are gone), an ended one does', () => {
    const evicted = offered('rpcPastSession.evicted.pi');
    const ended = offered('rpcPastSession.ended.resumable.pi');
    for (const command of ['rpcWorkers.history.openLog', 'rpcWorkers.history.exportMarkdown']) {
      assert.ok(!evicted.includes(command), `${command} on an evicted row`);
      assert.ok(ended.includes(command), `${command} on an ended row`);
    }
    assert.ok(evicted.includes('rpcWorkers.history.delete'), 'its record can still be deleted');
  });

  it('the palette offers Show Archived Sessions or Hide Archived Sessions, whichever the view title offers, never the one that would change nothing', () => {
    const palette = (command: string, shown: boolean) => holds(pkg.contributes.menus.commandPalette.find((m) => m.command === command)?.when, { ...ALWAYS, 'rpcWorkers.history.showArchived': shown });
    const title = (command: string, shown: boolean) => pkg.contributes.menus['view/title'].some((m) => m.command === command && holds(m.when, { ...ALWAYS, view: 'rpcWorkers.sessions', 'rpcWorkers.history.showArchived': shown }));
    for (const shown of [false, true]) {
      for (const command of ['rpcWorkers.history.showArchived', 'rpcWorkers.history.hideArchived']) {
        assert.equal(palette(command, shown), title(command, shown), `${command} with archived sessions ${shown ? 'shown' : 'hidden'}`);
      }
    }
  });
});

describe('worker commands: the palette offers what the row offers', () => {
  it('Compact and Switch Mode… are on the rows of the workers they can work on only (the Event Log greys them out alike)', () => {
    assert.deepEqual(rowOffers('rpcWorkers.compact'), ['idle', 'idle, asking', 'idle, with modes', 'idle, no fork or model choice']);
    assert.deepEqual(rowOffers('rpcWorkers.switchMode'), ['idle, with modes']);
  });

  it('the palette offers Compact and Switch Mode… only while an idle worker can take them (the demo worker alone has no modes)', () => {
    assert.deepEqual(paletteOffers('rpcWorkers.compact'), rowOffers('rpcWorkers.compact'));
    assert.deepEqual(paletteOffers('rpcWorkers.switchMode'), ['idle, with modes']);
  });

  it('Fork Session and Switch Model… are not on the row of a worker that cannot take them at all, nor in the palette when no idle worker can', () => {
    const idle = ['idle', 'idle, asking', 'idle, no compaction', 'idle, with modes'];
    assert.deepEqual(rowOffers('rpcWorkers.fork'), idle);
    assert.deepEqual(rowOffers('rpcWorkers.switchModel'), idle);
    assert.deepEqual(paletteOffers('rpcWorkers.fork'), idle);
    assert.deepEqual(paletteOffers('rpcWorkers.switchModel'), idle);
    // New Session works on every idle worker that reads its input.
    assert.deepEqual(rowOffers('rpcWorkers.newSession'), [...idle, 'idle, no fork or model choice']);
  });

  it('Forget Always-Allowed Actions: a live worker\'s, on its row and in the palette (the allowances end with the worker)', () => {
    const live = ['starting', 'idle', 'idle, asking', 'idle, no compaction', 'idle, with modes', 'idle, no fork or model choice', 'streaming', 'streaming, asking', 'compacting', 'idle, input lost', 'streaming, input lost'];
    assert.deepEqual(rowOffers('rpcWorkers.forgetAllowed'), live);
    assert.deepEqual(paletteOffers('rpcWorkers.forgetAllowed'), live);
  });

  it('a worker that no longer reads its input: neither its row nor the palette offers what sends it something; Stop, its log, output, pid and Export still are', () => {
    const deaf = ['idle, input lost', 'streaming, input lost'];
    const needInput = ['prompt', 'steer', 'followUp', 'redirect', 'abort', 'compact', 'switchMode', 'switchModel', 'newSession', 'fork', 'answerQuestions', 'redirectWithSelection', 'sendSelection'];
    for (const c of needInput) {
      const command = `rpcWorkers.${c}`;
      assert.deepEqual([...rowOffers(command), ...paletteOffers(command)].filter((k) => deaf.includes(k)), [], `${command} is offered for a worker that no longer reads its input`);
    }
    for (const c of ['stop', 'exportMarkdown', 'showOutput', 'openEventLogPanel', 'copyPid', 'forgetAllowed']) {
      const command = `rpcWorkers.${c}`;
      assert.deepEqual(rowOffers(command).filter((k) => deaf.includes(k)), pkg.contributes.menus['view/item/context'].some((m) => m.command === command) ? deaf : [], `${command}: its row`);
      assert.deepEqual(paletteOffers(command).filter((k) => deaf.includes(k)), deaf, `${command}: the palette`);
    }
    // With other workers about, the palette's verbs offer it in none of their pickers; Stop's picker does.
    for (const k of deaf) {
      const s = STATES[k] as WorkerState;
      assert.deepEqual([isRunning(s), isStreaming(s), isIdle(s), canSteer(s), any(s)], [false, false, false, false, true], k);
    }
  });

  /**
   * Where the palette offers more than the row, and why. The palette's keys say what some worker
   * does, not which; a command the palette offers then picks among the workers it fits, or says
   * why none does. Anything else the palette offers beyond the row is a mismatch.
   */
  const WIDER: Record<string, { states: string[]; why: string }> = {
    'rpcWorkers.prompt': { states: ['starting', 'streaming', 'streaming, asking', 'compacting'], why: 'a starting worker is waited for, a streaming one is offered steer or follow-up (Commands.send), a compacting one refuses in words' },
    'rpcWorkers.redirect': { states: ['starting', 'compacting'], why: 'a starting worker is waited for; no key tells a compacting worker from a streaming one, and its refusal is said' },
    'rpcWorkers.steer': { states: ['compacting'], why: 'no key tells a compacting worker from a streaming one' },
    'rpcWorkers.followUp': { states: ['compacting'], why: 'no key tells a compacting worker from a streaming one' },
    'rpcWorkers.answerQuestions': { states: ['starting', 'idle', 'idle, no compaction', 'idle, with modes', 'idle, no fork or model choice', 'streaming', 'compacting'], why: 'no key says a question waits; the command says none does' },
  };

  const rowCommands = [...new Set(pkg.contributes.menus['view/item/context'].filter((m) => /viewItem =~ \/\^rpcWorker\\\./.test(m.when ?? '')).map((m) => m.command))];

  it('every worker command a row offers is in the palette for that worker', () => {
    assert.ok(rowCommands.length >= 15, `worker row commands found: ${rowCommands.join(', ')}`);
    for (const command of rowCommands) {
      const palette = paletteOffers(command);
      assert.deepEqual(rowOffers(command).filter((k) => !palette.includes(k)), [], `${command}: the row offers it where the palette hides it`);
    }
  });

  for (const command of rowCommands) {
    it(`${command}: the palette offers it where the row does${WIDER[command] ? `, and more only where said (${WIDER[command].why})` : ''}`, () => {
      const row = rowOffers(command);
      assert.deepEqual(paletteOffers(command).filter((k) => !row.includes(k)), WIDER[command]?.states ?? []);
    });
  }
});

describe('worker commands from the palette pick the workers their rows are on', () => {
  beforeEach(() => vscodeStub.reset());
  const worker = (over: Partial<WorkerState>) => ({ workerId: 'w1', name: 'W', status: 'running', streaming: false, compacting: false, pid: 4242, cwd: '/w', dialect: 'acp', ...over }) as WorkerState;
  const supervisorOf = (workers: WorkerState[], calls: string[]) => ({
    list: () => workers,
    state: (id: string) => ({ status: workers[0].status, workerId: id, state: workers[0] }),
    newSession: async (id: string) => (calls.push(id), { status: 'error', workerId: id, error: 'the worker is busy with a turn or a compaction', ms: 1 }),
  }) as unknown as Supervisor;

  it('New Session from the palette with only a streaming worker says none is idle, and asks the host nothing', async () => {
    const calls: string[] = [];
    const quiet = () => undefined;
    const h = new HistoryCommands({ supervisor: supervisorOf([worker({ streaming: true })], calls), selection: { current: undefined, set: quiet }, log: { info: quiet, warn: quiet, error: quiet } } as unknown as HistoryServices);
    assert.equal((await h.verb({}, 'New Session')).status, 'cancelled');
    assert.deepEqual(calls, []);
    assert.match(vscodeStub.messages[0] ?? '', /^No worker is idle/);
    h.dispose();
  });

  for (const verb of ['Fork Session', 'Switch Model'] as const) {
    it(`${verb} on a worker that cannot take it says why before it asks anything, and asks the host nothing`, async () => {
      const calls: string[] = [];
      const quiet = () => undefined;
      const acp = worker({ forkUnavailable: 'ACP v1 has no fork; start a new session instead', modelUnavailable: 'this agent offers no model choice over ACP' });
      const supervisor = { ...supervisorOf([acp], calls), fork: async (id: string) => (calls.push(id), { status: 'unsupported' }), setModel: async (id: string) => (calls.push(id), { status: 'unsupported' }) } as unknown as Supervisor;
      const h = new HistoryCommands({ supervisor, eventLog: { result: quiet }, selection: { current: undefined, set: quiet }, log: { info: quiet, warn: quiet, error: quiet } } as unknown as HistoryServices);
      // From its row (the worker named) and from the palette (picked): the same.
      for (const arg of [{ workerId: 'w1' }, {}]) {
        vscodeStub.reset();
        const r = await h.verb(arg, verb);
        assert.equal(r.status, arg.workerId ? 'unsupported' : 'cancelled', JSON.stringify(arg));
        assert.deepEqual(calls, []);
        assert.deepEqual(vscodeStub.asked, [], 'nothing was asked (no model, no worker)');
        const said = vscodeStub.messages.join(' | ');
        assert.match(said, verb === 'Fork Session' ? /W: ACP v1 has no fork; start a new session instead/ : /W: this agent offers no model choice over ACP/, said);
      }
      h.dispose();
    });
  }

  it('Switch Mode… from the palette offers only the idle workers that list modes, and names why the others cannot', async () => {
    const quiet = () => undefined;
    const demo = worker({ workerId: 'w1', name: 'Demo worker', dialect: 'tau' });
    const claude = worker({ workerId: 'w2', name: 'Claude', modes: [{ id: 'default', name: 'Manual' }, { id: 'plan', name: 'Plan' }], mode: 'default' });
    const modes: string[] = [];
    const workers = [demo, claude];
    const supervisor = {
      list: () => workers,
      state: (id: string) => ({ status: 'running', workerId: id, state: workers.find((w) => w.workerId === id) }),
      setMode: async (id: string, mode: string) => (modes.push(`${id}:${mode}`), { status: 'mode_set', workerId: id, mode }),
    } as unknown as Supervisor;
    const h = new HistoryCommands({ supervisor, eventLog: { result: quiet }, selection: { current: 'w1', set: quiet }, log: { info: quiet, warn: quiet, error: quiet } } as unknown as HistoryServices);
    // Claude is the one that fits: taken without a worker picker; its modes are asked.
    vscodeStub.answers.push((items: Array<{ label: string }>) => items.find((i) => i.label === 'Plan'));
    assert.equal((await h.switchMode({})).status, 'mode_set');
    assert.deepEqual(vscodeStub.asked, ['Switch Mode of Claude']);
    assert.deepEqual(modes, ['w2:plan']);
    // The demo alone: nothing is asked, and the reason is said.
    workers.splice(1);
    vscodeStub.reset();
    assert.equal((await h.switchMode({})).status, 'cancelled');
    assert.deepEqual(vscodeStub.asked, []);
    assert.deepEqual(vscodeStub.messages, ['No worker can take Switch Mode: Demo worker: it has no modes to switch between.']);
    h.dispose();
  });

  it("Copy PID from the palette with only an exited worker copies nothing: its pid names a process that is gone", async () => {
    const calls: string[] = [];
    const exited = worker({ status: 'exited' });
    const s = { supervisor: supervisorOf([exited], calls), eventLog: { label: () => 'W', stateOf: () => ({ workerId: 'w1', name: 'W' }) } } as unknown as Parameters<typeof viewCommands>[0];
    // As Commands.target: an argument's worker is taken as named, else the person picks among those the filter lets through.
    const target = async (raw: { workerId?: string } | undefined, pick: { filter: (w: WorkerState) => boolean; none: string }) =>
      raw?.workerId ? { workerId: raw.workerId } : pick.filter(exited) ? { workerId: 'w1' } : (vscodeStub.messages.push(pick.none), { status: 'cancelled' as const });
    const views = viewCommands(s, target as never);
    assert.equal((await views.copyPid({})).status, 'cancelled');
    assert.deepEqual(vscodeStub.messages, ['No running worker has a process id.']);
    // Named by an argument, an exited worker's pid is not copied either.
    assert.equal((await views.copyPid({ workerId: 'w1' }).catch(() => ({ status: 'threw' }))).status, 'not_found');
  });
});
