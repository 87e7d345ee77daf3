// The host's record of open log tabs, across reloads (a new OpenTabs on the same workspace state
// is the next window): a tab that comes back without its page's state is given what it showed.
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { OpenTabs } from '../../src/ui/eventLog/openTabs';

/** The workspace state as VS Code keeps it between windows: keys and JSON values. */
function workspaceState(): vscode.Memento & { writes: number } {
  const values = new Map<string, string>();
  return {
    writes: 0,
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (JSON.parse(values.get(key)!) as T) : fallback),
    update(key: string, value: unknown) {
      this.writes++;
      values.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
  } as vscode.Memento & { writes: number };
}

describe('UI open log tabs record', () => {
  it('a tab that comes back with no state is given what a tab of the window before showed', () => {
    const state = workspaceState();
    new OpenTabs(state).record(['w1-aaaa']);
    const next = new OpenTabs(state);
    assert.equal(next.takeUnclaimed(), 'w1-aaaa');
    assert.equal(next.takeUnclaimed(), undefined, 'one record serves one tab');
  });

  it('a record a tab claimed by its own state is not given to another', () => {
    const state = workspaceState();
    new OpenTabs(state).record(['w1-aaaa', 'w2-bbbb']);
    const next = new OpenTabs(state);
    next.claim('w1-aaaa');
    assert.equal(next.takeUnclaimed(), 'w2-bbbb');
  });

  it('a tab not brought back yet keeps its record through the next reload', () => {
    const state = workspaceState();
    new OpenTabs(state).record(['w1-aaaa', 'w2-bbbb']);
    // Only the first tab was shown (VS Code brings a tab back when it is first shown).
    const second = new OpenTabs(state);
    second.claim('w1-aaaa');
    second.record(['w3-cccc']);
    const third = new OpenTabs(state);
    assert.equal(third.takeUnclaimed(), 'w2-bbbb');
    assert.equal(third.takeUnclaimed(), 'w3-cccc');
  });

  it('a closed tab leaves the record; the state is written only when the record changes', () => {
    const state = workspaceState();
    const tabs = new OpenTabs(state);
    tabs.record(['w1-aaaa']);
    tabs.record(['w1-aaaa']);
    assert.equal(state.writes, 1);
    tabs.record([]);
    assert.equal(new OpenTabs(state).takeUnclaimed(), undefined);
  });

  it('a record that is not a list of keys reads as none', () => {
    const state = workspaceState();
    void state.update('rpcWorkers.eventLog.openTabs', { not: 'a list' });
    assert.equal(new OpenTabs(state).takeUnclaimed(), undefined);
    void state.update('rpcWorkers.eventLog.openTabs', ['w1-aaaa', 7, null]);
    assert.equal(new OpenTabs(state).takeUnclaimed(), 'w1-aaaa');
  });
});
