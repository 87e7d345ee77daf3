// Resuming a past session by hand and after a reload: the profile's env is read again from
// settings a worker can write, so a resume that would give the worker an env it was not started
// with asks the person (by hand) or does not happen (after a reload), as a normal start would.
import * as assert from 'node:assert/strict';
import { vscodeStub } from '../helpers/vscodeStub';
import { HistoryCommands, type HistoryServices } from '../../src/ui/history/historyCommands';
import { envDigest, type ResumeRecord } from '../../src/ui/history/resumeRecord';
import type { SessionSummary } from '../../src/core/history/format';
import type { WorkerSpec } from '../../src/core/api';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const session = { id: 's1', name: 'mine', status: 'interrupted', endReason: 'interrupted', exit: null, turns: 2, archived: false, dialect: 'pi', startedAt: 1, filesTouched: [] } as unknown as SessionSummary;

function commands(opts: { env: Record<string, string>; record: Partial<ResumeRecord>; gate?: { ok: true } | { ok: false; error: string; cancelled?: boolean } }) {
  const started: WorkerSpec[] = [];
  const asked: boolean[] = [];
  const record: ResumeRecord = { spec: { dialect: 'pi', command: '/bin/pi', cwd: '/ws', name: 'mine' }, session: { id: 'a', file: '/s/a.jsonl' }, previous: null, resumedInto: null, at: 1, ...opts.record };
  const quiet = () => undefined;
  const s = {
    supervisor: { list: () => [], start: async (spec: WorkerSpec) => (started.push(spec), { status: 'started', workerId: 'w1' }) },
    past: { loaded: true, load: async () => undefined, sessions: () => [session], summary: (id: string) => (id === 's1' ? session : undefined), resumeRecord: (id: string) => (id === 's1' ? record : undefined), sessionOf: () => null, store: () => null, resumed: async () => undefined },
    eventLog: { panelSessions: [], setEarlier: quiet, show: async () => undefined },
    tree: { reveal: async () => undefined },
    selection: { current: undefined, set: quiet },
    log: { info: quiet, warn: quiet, error: quiet },
    profiles: () => [{ name: 'mine', env: opts.env }],
    confirmLaunch: async (programmatic: boolean) => (asked.push(programmatic), opts.gate ?? { ok: true as const }),
    markdown: () => '',
  } as unknown as HistoryServices;
  return { h: new HistoryCommands(s), started, asked };
}

describe('history resume', () => {
  beforeEach(() => vscodeStub.reset());

  it('resumes unasked with the env the session was started with', async () => {
    const { h, started } = commands({ env: { KEY: 'k' }, record: { envDigest: envDigest({ KEY: 'k', ELECTRON_RUN_AS_NODE: '1' }) } });
    assert.equal((await h.resume({ sessionId: 's1', kind: 'past' })).status, 'resumed');
    assert.deepEqual(started[0]?.env, { KEY: 'k' });
    assert.deepEqual(vscodeStub.messages, []);
  });

  it('does not resume after a reload with an env changed since the start, and says why', async () => {
    const { h, started } = commands({ env: { KEY: 'k', NODE_OPTIONS: '--require ./x.js' }, record: { envDigest: envDigest({ KEY: 'k' }) } });
    const [r] = await h.resumeInterrupted();
    assert.equal(r?.status, 'error');
    assert.match(String(r?.error), /env of profile "mine" is not the one "mine" was started with.*not resumed after the reload/);
    assert.equal(started.length, 0);
  });

  it('does not resume after a reload when the launch configuration changed, and says which session and why', async () => {
    const gate = { ok: false as const, error: 'While a worker ran (in this window or before it was reloaded), what configures the next worker changed:\n• /ws/.pi/agents/reviewer.md' };
    const { h, started, asked } = commands({ env: { KEY: 'k' }, record: { envDigest: envDigest({ KEY: 'k' }) }, gate });
    const [r] = await h.resumeInterrupted();
    assert.deepEqual([r?.status, started.length, asked], ['error', 0, [true]]);
    assert.match(String(r?.error), /"mine" was not resumed after the reload\. While a worker ran.*\n• \/ws\/\.pi\/agents\/reviewer\.md/);
    assert.match(vscodeStub.messages[0] ?? '', /not resumed after the reload/);
  });

  it('asks before a resume by hand with a changed env, and starts nothing when not confirmed', async () => {
    const { h, started } = commands({ env: { KEY: 'other' }, record: { envDigest: envDigest({ KEY: 'k' }) } });
    vscodeStub.choices.push(undefined);
    assert.equal((await h.resume({ sessionId: 's1', kind: 'past' })).status, 'cancelled');
    assert.equal(started.length, 0);
    // Another extension's call (a session id, no tree node) cannot be asked: refused, said.
    const r = await h.resume({ sessionId: 's1' });
    assert.deepEqual([r.status, started.length], ['error', 0]);
    assert.match(String(r.error), /Nothing was resumed: resume it from the Sessions view/);
    vscodeStub.choices.push('Resume With This Env');
    assert.equal((await h.resume({ sessionId: 's1', kind: 'past' })).status, 'resumed');
    assert.deepEqual(started[0]?.env, { KEY: 'other' });
  });

  it('takes a record of an older version (no digest) as changed when the profile gives an env', async () => {
    const { h, started } = commands({ env: { KEY: 'k' }, record: {} });
    assert.equal((await h.resumeInterrupted())[0]?.status, 'error');
    assert.equal(started.length, 0);
  });

  it('passes the gate of a normal start: a by-hand resume may ask, an automatic one cannot', async () => {
    const gate = { ok: false as const, error: 'While a worker ran, what configures the next worker changed' };
    const { h, started, asked } = commands({ env: {}, record: {}, gate });
    assert.equal((await h.resumeInterrupted())[0]?.status, 'error');
    assert.equal((await h.resume({ sessionId: 's1', kind: 'past' })).status, 'error');
    assert.equal((await h.resume({ sessionId: 's1' })).status, 'error');
    assert.deepEqual([asked, started.length], [[true, false, true], 0]);
  });
});

describe('the past sessions\' listing', () => {
  it('redraws the tree when what a row\'s tooltip says changes (events, lost, last turn, model), not only its name or status', async () => {
    const { PastSessions } = await import('../../src/ui/history/pastSessions');
    const host = { onState: () => () => undefined, onRemoved: () => () => undefined, loaded: false, shutDown: false } as never;
    const memento = { get: (_k: string, d: unknown) => d, update: async () => undefined } as never;
    const row = { id: 's-abc-0123abcd', name: 'mine', status: 'live', endReason: null, exit: null, turns: 2, archived: false, dialect: 'pi', startedAt: 1, endedAt: null, filesTouched: [], events: 10, lost: 0, lastTurnEndReason: 'done', model: 'm1' };
    let listed = row;
    const past = new PastSessions(host, memento, true, undefined, async () => ({ sessions: [listed as never], evictedSessions: { count: 0, lastAt: null }, unreadable: [] }));
    let redraws = 0;
    past.onDidChange(() => redraws++);
    await past.load();
    await past.load();
    assert.equal(redraws, 1, 'the same listing redraws nothing');
    listed = { ...row, events: 500, lost: 3, lastTurnEndReason: 'error', model: 'm2' };
    await past.load();
    assert.equal(redraws, 2, 'a listing whose counts changed redraws the rows');
    past.dispose();
  });
});

describe('a past session\'s events for the export', () => {
  it('name what the history no longer has of it: evicted, a torn last line, unreadable lines', async () => {
    const { PastSessions } = await import('../../src/ui/history/pastSessions');
    const host = { onState: () => () => undefined, onRemoved: () => () => undefined } as never;
    const memento = { get: (_k: string, d: unknown) => d, update: async () => undefined } as never;
    const past = new PastSessions(host, memento, true);
    const store = {
      read: async () => ({ status: 'read', session: { name: 'mine', evictedEvents: { events: 7 }, lost: 3, lastError: 'ENOSPC: no space left on device' }, events: [], torn: { bytes: 12, offset: 0 }, badLines: { count: 2, first: null } }),
    } as never;
    const r = await past.eventsWithEarlier(store, 's1');
    assert.deepEqual(r.missing, [
      'the oldest 7 events of "mine": the history\'s size bound (rpcWorkers.history.maxSessionMiB) removed them',
      'the unfinished last line of "mine" (12 bytes: its write was cut short)',
      '2 lines of "mine" that could not be read as events',
      '3 events of "mine" that never reached the history (the last error: ENOSPC: no space left on device)',
    ]);
    past.dispose();
  });

  it('counts one of each in the singular ("1 line", not "1 lines")', async () => {
    const { PastSessions } = await import('../../src/ui/history/pastSessions');
    const host = { onState: () => () => undefined, onRemoved: () => () => undefined } as never;
    const memento = { get: (_k: string, d: unknown) => d, update: async () => undefined } as never;
    const past = new PastSessions(host, memento, true);
    const store = {
      read: async () => ({ status: 'read', session: { name: 'mine', evictedEvents: { events: 1 }, lost: 1, lastError: null }, events: [], torn: { bytes: 1, offset: 0 }, badLines: { count: 1, first: null } }),
    } as never;
    const r = await past.eventsWithEarlier(store, 's1');
    assert.deepEqual(r.missing, [
      'the oldest event of "mine": the history\'s size bound (rpcWorkers.history.maxSessionMiB) removed it',
      'the unfinished last line of "mine" (1 byte: its write was cut short)',
      '1 line of "mine" that could not be read as an event',
      '1 event of "mine" that never reached the history (events came faster than the disk took them)',
    ]);
    past.dispose();
  });
});

describe('a past τ session\'s events for the export', () => {
  it("name its tool calls' arguments and results as not in them: τ's events carry none, and its messages went with its worker", async () => {
    const { PastSessions } = await import('../../src/ui/history/pastSessions');
    const host = { onState: () => () => undefined, onRemoved: () => () => undefined } as never;
    const memento = { get: (_k: string, d: unknown) => d, update: async () => undefined } as never;
    const past = new PastSessions(host, memento, true);
    // As τ 0.15.0 sends them (test/fixtures/streams/tau-0.15.0-compaction.jsonl): no args, no result.
    const events = [
      { type: 'tool_execution_start', timestamp: 2, tool_call_id: 'call_1', tool_name: 'bash' },
      { type: 'tool_execution_end', timestamp: 3, tool_call_id: 'call_1', tool_name: 'bash', is_error: false },
    ];
    const read = (dialect: string) => ({ read: async () => ({ status: 'read', session: { name: 'mine', dialect }, events, torn: null, badLines: { count: 0, first: null } }) }) as never;
    assert.deepEqual((await past.eventsWithEarlier(read('tau'), 's1')).missing, [
      'the arguments and results of the tool calls of "mine": τ\'s events carry none, and its messages, which have them, ended with its worker',
    ]);
    // An ACP agent's call may end with no result: it said none, nothing is missing.
    assert.deepEqual((await past.eventsWithEarlier(read('acp'), 's1')).missing, []);
    past.dispose();
  });
});

describe('the export of a session resumed at every reload, more times than the log reads back', () => {
  it('names the earlier sessions it leaves out, not starting as if the conversation began there', async () => {
    const { PastSessions } = await import('../../src/ui/history/pastSessions');
    const host = { onState: () => () => undefined, onRemoved: () => () => undefined } as never;
    // s1 resumed as s2, …, s10 (rpcWorkers.history.resumeInterrupted after ten reloads).
    const book: Record<string, unknown> = {};
    for (let i = 1; i <= 10; i++) {
      book[`s${i}`] = { spec: { dialect: 'pi', command: 'pi', cwd: '/w' }, session: { id: `c${i}`, file: null }, previous: i > 1 ? `s${i - 1}` : null, resumedInto: i < 10 ? `s${i + 1}` : null, at: i };
    }
    const memento = { get: () => book, update: async () => undefined } as never;
    const past = new PastSessions(host, memento, true);
    const store = {
      read: async (id: string) => ({ status: 'read', session: { name: 'mine', dialect: 'pi' }, events: [{ type: 'prompt_sent', timestamp: Number(id.slice(1)), data: { text: `prompt of ${id}` } }], torn: null, badLines: { count: 0, first: null } }),
    } as never;
    const r = await past.eventsWithEarlier(store, 's10');
    const read = r.events.map((e) => (e.data as { text: string }).text);
    const leftOut = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8', 's9'].filter((id) => !read.includes(`prompt of ${id}`));
    assert.ok(leftOut.length > 0, 'the chain is longer than the log reads back');
    assert.ok(r.missing.some((m) => m.includes(`${leftOut.length} earlier session`)), `the export says ${leftOut.length} earlier sessions are not in it: ${JSON.stringify(r.missing)}`);
    past.dispose();
  });
});

describe('the profile a resume takes its env from', () => {
  it('is the first start\'s, not the session\'s name the resumed worker runs under ("mine #2", a rename)', async () => {
    const { h, started } = commands({ env: { KEY: 'k' }, record: { spec: { dialect: 'pi', command: '/bin/pi', cwd: '/ws', name: 'mine #2' }, profile: 'mine', envDigest: envDigest({ KEY: 'k' }) } });
    assert.equal((await h.resume({ sessionId: 's1', kind: 'past' })).status, 'resumed');
    assert.deepEqual(started[0]?.env, { KEY: 'k' });
  });

  it('is carried to the record of the worker that resumed a session', async () => {
    const { PastSessions } = await import('../../src/ui/history/pastSessions');
    const book: Record<string, unknown> = {};
    const memento = { get: (k: string, d: unknown) => book[k] ?? d, update: async (k: string, v: unknown) => void (book[k] = v) } as never;
    let listener: ((s: unknown) => void) | undefined;
    const host = {
      loaded: true, host: () => ({ history: { sessionOf: (w: string) => (w === 'w1' ? 'old' : 'new') } }),
      onState: (l: (s: unknown) => void) => ((listener = l), () => undefined), onRemoved: () => () => undefined, state: () => ({ status: 'not_found' }),
    } as never;
    const past = new PastSessions(host, memento, true);
    past.startedWorker('w1', { dialect: 'pi', command: 'pi', cwd: '/ws', name: 'mine', env: { KEY: 'k' } });
    listener!({ workerId: 'w1', status: 'running', session: { id: 'a', file: null } });
    // The resume runs under the session's name; its state comes before the resume is recorded.
    past.startedWorker('w2', { dialect: 'pi', command: 'pi', cwd: '/ws', name: 'mine #2', env: { KEY: 'k' } });
    listener!({ workerId: 'w2', status: 'running', session: { id: 'b', file: null } });
    await past.resumed('old', 'w2');
    assert.equal(past.resumeRecord('new')?.profile, 'mine');
    assert.equal(past.resumeRecord('old')?.profile, 'mine');
    past.dispose();
  });
});

describe('the resume records of sessions a listing could not read', () => {
  it('are kept: a history folder or a session record unreadable for a moment does not take Resume away for good', async () => {
    const { PastSessions } = await import('../../src/ui/history/pastSessions');
    const { listSessions } = await import('../../src/core/history/listing');
    const record = { spec: { dialect: 'pi', command: 'pi', cwd: '/w' }, session: { id: 'c1', file: null }, previous: null, resumedInto: null, at: 1 };
    const book: Record<string, unknown> = { 'rpcWorkers.history.resume': { 's-abc-0123abcd': record } };
    const memento = { get: (k: string, d: unknown) => book[k] ?? d, update: async (k: string, v: unknown) => void (book[k] = v) } as never;
    const host = { loaded: false, shutDown: false, list: () => [], onState: () => () => undefined, onRemoved: () => () => undefined } as never;
    // The history's folder is not a folder that can be read now (ENOTDIR: the listing names it unreadable).
    let dir = __filename;
    const past = new PastSessions(host, memento, true, undefined, () => listSessions(dir, () => false));
    await past.load();
    assert.equal(past.unreadable.length, 1);
    assert.ok(past.resumeRecord('s-abc-0123abcd'), 'its resume record is kept while the folder cannot be read');
    // Its own record half-read (not JSON): the session is named unreadable, not gone.
    dir = mkdtempSync(path.join(tmpdir(), 'rpc-history-'));
    writeFileSync(path.join(dir, 's-abc-0123abcd.meta.json'), '{"version":1,');
    await past.load();
    assert.deepEqual(past.unreadable.map((u) => u.file), ['s-abc-0123abcd.meta.json']);
    assert.ok(past.resumeRecord('s-abc-0123abcd'), 'its resume record is kept while its session record cannot be read');
    rmSync(dir, { recursive: true, force: true });
    past.dispose();
  });
});

describe('resuming a session already resumed in this window', () => {
  it('says the worker of this window that runs its conversation, not "running in another window"', async () => {
    vscodeStub.reset();
    const old = { id: 's1', name: 'mine', status: 'interrupted', endReason: 'interrupted', exit: null, turns: 2, archived: false, dialect: 'pi', startedAt: 1, filesTouched: [] } as unknown as SessionSummary;
    // Its resume (rpcWorkers.history.resumeInterrupted after the reload) runs here: its session is listed live, as this window writes it.
    const now = { ...old, id: 's2', status: 'live', endReason: null } as SessionSummary;
    const rec = (over: Partial<ResumeRecord>): ResumeRecord => ({ spec: { dialect: 'pi', command: '/bin/pi', cwd: '/ws', name: 'mine' }, session: { id: 'a', file: null }, previous: null, resumedInto: null, at: 1, ...over });
    const records: Record<string, ResumeRecord> = { s1: rec({ resumedInto: 's2' }), s2: rec({ previous: 's1' }) };
    const started: WorkerSpec[] = [];
    const s = {
      supervisor: { list: () => [{ workerId: 'w2', name: 'mine', status: 'running' }], start: async (spec: WorkerSpec) => (started.push(spec), { status: 'started', workerId: 'w3' }) },
      past: { loaded: true, load: async () => undefined, sessions: () => [old], summary: (id: string) => [old, now].find((x) => x.id === id), resumeRecord: (id: string) => records[id], sessionOf: (w: string) => (w === 'w2' ? 's2' : null), store: () => null },
      log: { info: () => undefined },
      confirmLaunch: async () => ({ ok: true }),
    } as unknown as HistoryServices;
    const r = await new HistoryCommands(s).resume({ sessionId: 's1', kind: 'past' });
    assert.equal(started.length, 0);
    assert.deepEqual([r.status, r.workerId], ['live', 'w2']);
    assert.match(String(r.error), /"mine" is already resumed: mine runs on its conversation/);
    assert.doesNotMatch(vscodeStub.messages.join('\n'), /another window/);
  });
});

describe('resuming a session the history evicted', () => {
  it('is refused with the bound that removed it, not as a worker that kept no conversation', async () => {
    vscodeStub.reset();
    const gone = { id: 's1', name: 'mine', status: 'evicted', endReason: 'exited', exit: null, turns: 2, archived: false, dialect: 'pi', startedAt: 1, filesTouched: [], removed: { at: 5, reason: 'more than 200 sessions were kept', events: 40, bytes: 4000 } } as unknown as SessionSummary;
    const s = {
      supervisor: { list: () => [], start: async () => assert.fail('nothing is started') },
      past: { loaded: true, load: async () => undefined, sessions: () => [gone], summary: (id: string) => (id === 's1' ? gone : undefined), resumeRecord: () => undefined, sessionOf: () => null, store: () => null },
      log: { info: () => undefined },
      confirmLaunch: async () => ({ ok: true }),
    } as unknown as HistoryServices;
    const r = await new HistoryCommands(s).resume({ sessionId: 's1' });
    assert.equal(r.status, 'evicted');
    assert.equal(r.error, '"mine" cannot be resumed: the history removed it (more than 200 sessions were kept)');
    assert.doesNotMatch(vscodeStub.messages.join('\n'), /kept no conversation/);
  });
});
