// The Sessions tree's Past sessions rows, on a listing stub: which verbs a row's menu offers (its
// context value), whether a click opens its log, and the group's row.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type { SessionSummary } from '../../src/core/history/format';
import { HistoryTreePart } from '../../src/ui/history/historyTree';
import type { PastSessions } from '../../src/ui/history/pastSessions';

const session = (id: string, over: Partial<SessionSummary> = {}): SessionSummary => ({
  id, workerId: `w-${id}`, name: `Session ${id}`, dialect: 'pi', cwd: '/w', command: 'pi', model: null, workerVersion: null, status: 'ended', startedAt: 0, endedAt: 1000,
  endReason: 'stopped', exit: null, lastWriteAt: 1000, turns: 1, lastTurnEndReason: 'done', filesTouched: [], events: 10, lost: 0, lastError: null, archived: false, ...over,
} as SessionSummary);

function part(sessions: SessionSummary[], resumable: string[], over: Partial<PastSessions> = {}) {
  const past = {
    enabled: true, loaded: true, error: null, showArchived: false, evictedSessions: null, unreadable: [],
    sessions: () => sessions, archivedCount: () => 0, summary: (id: string) => sessions.find((s) => s.id === id),
    resumeRecord: (id: string) => (resumable.includes(id) ? { resumedInto: null } : undefined), load: async () => {}, ...over,
  } as unknown as PastSessions;
  return new HistoryTreePart(past);
}

describe('UI Past sessions rows', () => {
  beforeEach(() => vscodeStub.reset());

  it("a row's menu: Resume only where a record can resume it (not an evicted one), Unarchive only for an archived one", () => {
    const t = part([session('a'), session('b', { status: 'evicted' }), session('c', { archived: true }), session('d')], ['a', 'b', 'c']);
    const context = (id: string) => t.item({ kind: 'past', sessionId: id }).contextValue;
    assert.equal(context('a'), 'rpcPastSession.ended.resumable.pi');
    assert.equal(context('b'), 'rpcPastSession.evicted.pi', 'its log is gone: nothing to resume');
    assert.equal(context('c'), 'rpcPastSession.ended.resumable.pi.archived');
    assert.equal(context('d'), 'rpcPastSession.ended.pi');
  });

  it("a session another window still runs: its tooltip says it runs there and that Resume waits, as its menu does (not 'Ended', not 'possible')", () => {
    const t = part([session('a', { status: 'live', endedAt: null }), session('b', { status: 'evicted' })], ['a', 'b']);
    const tip = (id: string) => (t.item({ kind: 'past', sessionId: id }).tooltip as { value: string }).value;
    assert.match(tip('a'), /- Now: running in another window/);
    assert.doesNotMatch(tip('a'), /Ended/);
    assert.match(tip('a'), /- Resume: not while it runs in another window/);
    assert.equal(t.item({ kind: 'past', sessionId: 'a' }).contextValue, 'rpcPastSession.live.pi', 'its menu offers no Resume');
    assert.match(tip('b'), /- Resume: not possible: the history bound removed its events/);
  });

  it("a click opens a session's log, except an evicted one's, which has none", () => {
    const t = part([session('a'), session('b', { status: 'evicted' })], []);
    assert.deepEqual(t.item({ kind: 'past', sessionId: 'a' }).command?.arguments, [{ sessionId: 'a' }]);
    assert.equal(t.item({ kind: 'past', sessionId: 'b' }).command, undefined);
  });

  it('the group opens on its sessions, and does not offer to open when none is shown (all archived and hidden)', () => {
    const shown = part([session('a')], []);
    assert.equal(shown.item({ kind: 'pastGroup' }).collapsibleState, vscodeStub.collapsible.Expanded);
    const hidden = part([], [], { archivedCount: () => 2 } as Partial<PastSessions>);
    assert.deepEqual(hidden.roots(), [{ kind: 'pastGroup' }]);
    const group = hidden.item({ kind: 'pastGroup' });
    assert.equal(group.collapsibleState, vscodeStub.collapsible.None);
    assert.equal(group.description, 'none · 2 archived hidden');
  });
});
