// A session the history's bound evicted whole: its events are gone and only its record stays, so
// its row, its tooltip and its Delete confirmation count no events kept (they counted the removed ones).
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HistoryStore } from '../../src/core/history';
import { HistoryTreePart } from '../../src/ui/history/historyTree';
import type { PastSessions } from '../../src/ui/history/pastSessions';
import { deleteDetail } from '../../src/ui/history/words';

let dir: string;
let store: HistoryStore | null = null;
beforeEach(() => {
  vscodeStub.reset();
  dir = mkdtempSync(path.join(tmpdir(), 'rpc-history-'));
});
afterEach(async () => {
  await store?.close();
  store = null;
  rmSync(dir, { recursive: true, force: true });
});

describe('an evicted past session', () => {
  it('counts no events kept: not in the listing, not in its tooltip, not in its Delete confirmation', async () => {
    const made = HistoryStore.create({ dir, limits: { maxSessions: 1 } });
    if (!made.ok) throw new Error(made.error);
    store = made.store;
    for (const name of ['old', 'new']) {
      const r = store.open({ workerId: `w-${name}`, name, dialect: 'pi', cwd: dir, command: 'node' });
      if (!r.ok) throw new Error(r.error);
      for (let i = 0; i < 3; i++) store.append(r.sessionId, { type: 'message_update', timestamp: 1_700_000_000_000 + i, delta: `d${i}` });
      await store.end(r.sessionId, { reason: 'exited', code: 0 });
    }
    await store.flush();
    const { sessions } = await store.list();
    const old = sessions.find((s) => s.name === 'old');
    assert.equal(old?.status, 'evicted');
    assert.equal(old.events, 0, 'its events are gone');
    const past = { sessions: () => sessions, summary: (id: string) => sessions.find((s) => s.id === id), resumeRecord: () => undefined } as unknown as PastSessions;
    const tip = (new HistoryTreePart(past).item({ kind: 'past', sessionId: old.id }).tooltip as { value: string }).value;
    assert.match(tip, /- Events kept: none \(3 removed by the history bound: more than 1 session was kept\)/);
    assert.equal(deleteDetail(old), 'Its record is deleted from this workspace\'s history (the history bound removed its log already). The files it changed stay as they are.');
  });
});
