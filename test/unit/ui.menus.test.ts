// Worker commands in the Command Palette against the same commands on a worker's row in the
// Sessions view (package.json menus): for one worker in each state, the palette offers what
// the row offers, unless a reason below says why not. The row's `when` is tested against the
// contextValue the tree gives that worker (describe.ts), the palette's against the context
// keys the window sets for it (contextValues).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { WorkerState } from '../../src/core/api';
import { contextValues, workerContextValue } from '../../src/ui/views/describe';

const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
};

/** One worker in each state the tree shows. */
const STATES: Record<string, Pick<WorkerState, 'status' | 'streaming' | 'compacting'>> = {
  starting: { status: 'starting', streaming: false, compacting: false },
  idle: { status: 'running', streaming: false, compacting: false },
  streaming: { status: 'running', streaming: true, compacting: false },
  compacting: { status: 'running', streaming: false, compacting: true },
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

describe('worker commands: the palette offers what the row offers', () => {
  it('Forget Always-Allowed Actions: a live worker\'s, on its row and in the palette (the allowances end with the worker)', () => {
    const live = ['starting', 'idle', 'streaming', 'compacting'];
    assert.deepEqual(rowOffers('rpcWorkers.forgetAllowed'), live);
    assert.deepEqual(paletteOffers('rpcWorkers.forgetAllowed'), live);
  });
});
