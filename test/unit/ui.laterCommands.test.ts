// Commands registered at activation whose class is made on the first call (src/ui/laterCommands.ts):
// every id is VS Code's at once, nothing is made until one runs, each runs its own handler, and the
// id lists activation registers are exactly what Commands and HistoryCommands register.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { LaterCommands, type RegisterCommand } from '../../src/ui/laterCommands';
import { Commands, type CommandServices } from '../../src/ui/commands/commands';
import { COMMANDS_OF_COMMANDS } from '../../src/ui/commands/ids';
import { HistoryCommands, type HistoryServices } from '../../src/ui/history/historyCommands';
import { HISTORY_COMMANDS } from '../../src/ui/history/historyIds';

/** A part that registers `ids` (each answering its id and arguments) and counts its making and disposal. */
function part(ids: string[], counts = { made: 0, disposed: 0 }) {
  return {
    counts,
    make: (register: RegisterCommand): vscode.Disposable => {
      counts.made++;
      const regs = ids.map((id) => register(id, (...args: unknown[]) => ({ id, args })));
      return { dispose: () => { counts.disposed++; for (const r of regs) r.dispose(); } };
    },
  };
}

describe('LaterCommands: commands now, their class on the first call', () => {
  beforeEach(() => vscodeStub.reset());

  it('registers every id with VS Code at once and makes the part only when one runs, once', async () => {
    const p = part(['a', 'b']);
    const later = new LaterCommands(['a', 'b'], p.make);
    assert.deepEqual([...vscodeStub.commands.keys()].sort(), ['a', 'b']);
    assert.equal(p.counts.made, 0, 'made at registration');
    assert.deepEqual(await vscodeStub.commands.get('b')!('x', 2), { id: 'b', args: ['x', 2] });
    assert.deepEqual(await vscodeStub.commands.get('a')!(), { id: 'a', args: [] });
    assert.equal(p.counts.made, 1);
    later.dispose();
    assert.equal(p.counts.disposed, 1, 'the part is disposed with it');
    assert.deepEqual([...vscodeStub.commands.keys()], [], 'the commands are unregistered');
  });

  it('`part` makes it without a command (what the host tests and the automatic resume reach)', () => {
    const p = part(['a']);
    const later = new LaterCommands(['a'], p.make);
    assert.equal(later.part, later.part);
    assert.equal(p.counts.made, 1);
  });

  it('disposed before any command ran, it makes nothing and says the extension is shutting down', () => {
    const p = part(['a']);
    const later = new LaterCommands(['a'], p.make);
    later.dispose();
    assert.throws(() => later.part, /the extension is shutting down/);
    assert.equal(p.counts.made, 0);
  });

  it('a part that registers an id activation did not, or leaves one without a handler, fails loudly', () => {
    assert.throws(() => new LaterCommands(['a'], part(['a', 'c']).make).part, /c is not among the commands registered for it at activation/);
    assert.throws(() => new LaterCommands(['a', 'b'], part(['a']).make).part, /registered at activation, yet without a handler: b/);
  });

  it('activation registers exactly the ids Commands registers', () => {
    const services = {
      supervisor: { onEvent: () => () => {}, onState: () => () => {}, list: () => [] },
      settings: () => ({}), selection: { current: undefined }, outputs: {}, eventLog: {}, tree: {}, extensionPath: '/ext', tauSessionDir: '/tmp/tau', launchConfig: {},
    } as unknown as CommandServices;
    const commands = new Commands(services);
    assert.deepEqual([...vscodeStub.commands.keys()].sort(), [...COMMANDS_OF_COMMANDS].sort());
    commands.dispose();
  });

  it('activation registers exactly the ids HistoryCommands registers', () => {
    const h = new HistoryCommands({} as HistoryServices);
    assert.deepEqual([...vscodeStub.commands.keys()].sort(), Object.values(HISTORY_COMMANDS).sort());
    h.dispose();
  });
});
