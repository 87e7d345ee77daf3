// Pure parts of the history UI: the words a past session and a worker's usage are shown with,
// what is stored to resume a session (no secrets, no repeated task), and the history settings.
import * as assert from 'node:assert/strict';
import { ago, deleteDetail, endWords, lastTurnWords, pastDescription, pickDetail, ranAt, tokens, usageWords } from '../../src/ui/history/words';
import { resumeRecordsSchema, resumeSpec, storableSpec } from '../../src/ui/history/resumeRecord';
import { historyLimits, readSettings } from '../../src/ui/settings/settings';
import type { WorkerUsage } from '../../src/core/api';

// Local times, so that the words do not depend on the machine's time zone.
const NOW = new Date(2027, 0, 15, 16, 30).getTime();
const base = { turns: 1, filesTouched: [] as string[], startedAt: new Date(2027, 0, 15, 14, 2).getTime(), endedAt: NOW - 120_000, archived: false };

describe('history words', () => {
  it('says how a session ended as a person would', () => {
    assert.equal(endWords({ status: 'interrupted', endReason: 'interrupted', exit: null }), 'interrupted by reload');
    assert.equal(endWords({ status: 'ended', endReason: 'stopped', exit: { code: 143, signal: null } }), 'stopped');
    assert.equal(endWords({ status: 'ended', endReason: 'failed', exit: { code: 2, signal: null } }), 'failed (exit code 2)');
    // A start the host ended (SIGTERM) or that exited: the signal or code is not the reason, the error is.
    assert.equal(endWords({ status: 'ended', endReason: 'failed', exit: { code: null, signal: 'SIGTERM', started: false } }), 'failed to start');
    assert.equal(endWords({ status: 'ended', endReason: 'exited', exit: { code: null, signal: 'SIGKILL' } }), 'exited (SIGKILL)');
    assert.equal(endWords({ status: 'ended', endReason: 'exited', exit: { code: 0, signal: null } }), 'exited');
    assert.equal(endWords({ status: 'live', endReason: null, exit: null }), 'running in another window');
  });

  // Issue 28, minor 9: a reload's stop ends a running turn ("Turn ended: the worker stopped" in
  // the log); an idle worker's session was interrupted with every turn over.
  it('tells a session interrupted mid-turn from one interrupted while idle, as its log does', () => {
    const stoppedByReload = { status: 'interrupted' as const, endReason: 'interrupted', exit: { code: null, signal: 'SIGTERM' } };
    const midTurn = { ...stoppedByReload, lastTurnEndReason: 'stopped' };
    const idle = { ...stoppedByReload, lastTurnEndReason: 'done' };
    assert.equal(endWords(midTurn), 'interrupted mid-turn by reload');
    assert.equal(endWords(idle), 'interrupted by reload while idle');
    assert.equal(lastTurnWords(midTurn), 'the worker stopped: the reload cut it short');
    assert.equal(lastTurnWords(idle), 'done');
    assert.equal(lastTurnWords({ ...idle, status: 'ended', endReason: 'stopped', lastTurnEndReason: 'max_turns' }), 'the turn limit was reached');
    assert.equal(lastTurnWords({ ...idle, lastTurnEndReason: null }), null);
    assert.equal(pastDescription({ ...base, turns: 2, ...midTurn }, null, NOW), 'today 14:02 · interrupted mid-turn · 2 turns');
    assert.equal(pastDescription({ ...base, turns: 2, ...idle }, null, NOW), 'today 14:02 · interrupted while idle · 2 turns');
    // A host that died keeps no end: whether a turn ran is not known, and nothing is claimed.
    assert.equal(endWords({ status: 'interrupted', endReason: 'interrupted', exit: null, lastTurnEndReason: 'done' }), 'interrupted by reload');
  });

  it('describes a past session in one line, counting in words', () => {
    assert.equal(pastDescription({ ...base, status: 'interrupted', endReason: 'interrupted', exit: null, filesTouched: ['/a', '/b'] }, null, NOW), 'today 14:02 · interrupted by reload · 1 turn · 2 files');
    assert.equal(pastDescription({ ...base, turns: 3, status: 'ended', endReason: 'stopped', exit: null, archived: true }, 's-x', NOW), 'today 14:02 · resumed · 3 turns · archived');
    assert.equal(ranAt(new Date(2027, 0, 15, 0, 5).getTime(), NOW), 'today 00:05');
    assert.equal(ranAt(new Date(2027, 0, 14, 23, 59).getTime(), NOW), 'yesterday 23:59');
    assert.equal(ranAt(new Date(2027, 0, 11, 9, 7).getTime(), NOW), 'Mon 09:07');
    assert.equal(ranAt(new Date(2027, 0, 3, 9, 7).getTime(), NOW), '3 Jan 09:07');
    assert.equal(ranAt(new Date(2026, 11, 3, 9, 7).getTime(), NOW), '3 Dec 2026');
    assert.equal(ago(NOW - 5_000, NOW), 'just now');
    assert.equal(ago(NOW - 3 * 3_600_000, NOW), '3 h ago');
    assert.equal(ago(NOW - 4 * 86_400_000, NOW), '4 days ago');
  });

  it('the Delete confirmation and the session picker count in words: "1 turn", not "1 turns"', () => {
    assert.equal(deleteDetail({ events: 17, turns: 1 }), 'Its log (17 events, 1 turn) is deleted from this workspace\'s history. The files it changed stay as they are.');
    assert.equal(deleteDetail({ events: 1, turns: 0 }), 'Its log (1 event, 0 turns) is deleted from this workspace\'s history. The files it changed stay as they are.');
    assert.equal(pickDetail({ startedAt: 0, turns: 1, dialect: 'tau' }, () => 'then'), 'then · 1 turn · tau');
  });

  it('shows usage without inventing what the worker did not report', () => {
    const u: WorkerUsage = { scope: 'session', input: 1200, output: 7, cacheRead: null, cacheWrite: null, contextTokens: 16_384, contextWindow: 32_768, cost: 0.0012, at: NOW };
    assert.equal(usageWords(u), 'ctx 16k/33k (50%) · 1.2k in, 7 out · $0.0012');
    assert.equal(usageWords({ ...u, scope: 'last_call', cost: null, contextTokens: 42 }), 'ctx 42/33k · last call: 1.2k in, 7 out');
    assert.equal(usageWords({ ...u, input: null, output: null, contextTokens: null, cost: null }), null);
    assert.equal(usageWords(null), null);
    // A cost the worker reported as nothing (a free or local model) is known, and said; only an unreported one is left out.
    assert.equal(usageWords({ ...u, cost: 0 }), 'ctx 16k/33k (50%) · 1.2k in, 7 out · $0.0000');
    assert.equal(tokens(999), '999');
    assert.equal(tokens(2_500_000), '2.5M');
  });
});

describe('resume records', () => {
  it('store no environment but the demo runtime switch, no task, no earlier resume', () => {
    const spec = storableSpec({
      dialect: 'pi', command: '/bin/pi', cwd: '/ws', name: 'mine', sessionDir: '/s', env: { OPENAI_API_KEY: 'sk-secret', ELECTRON_RUN_AS_NODE: '1' },
      task: 'do it', taskProvenance: { source: 'task', submitter: 'x' }, resume: { id: 'old', file: '/s/old.jsonl' },
    });
    assert.deepEqual(spec, { dialect: 'pi', command: '/bin/pi', cwd: '/ws', name: 'mine', sessionDir: '/s', env: { ELECTRON_RUN_AS_NODE: '1' } });
    assert.ok(!JSON.stringify(spec).includes('sk-secret'));
  });

  it('resume with the profile\'s env again and the session asked for', () => {
    const record = { spec: { dialect: 'pi' as const, command: '/bin/pi', cwd: '/ws', name: 'mine', sessionDir: '/s' }, session: { id: 'a', file: '/s/a.jsonl' }, previous: null, resumedInto: null, at: 1 };
    assert.deepEqual(resumeSpec(record, { OPENAI_API_KEY: 'k' }), { ...record.spec, env: { OPENAI_API_KEY: 'k' }, resume: { id: 'a', file: '/s/a.jsonl' } });
    assert.deepEqual(resumeSpec(record, undefined), { ...record.spec, resume: { id: 'a', file: '/s/a.jsonl' } });
  });

  it('are read back through a schema: a broken record is refused, not trusted', () => {
    assert.equal(resumeRecordsSchema.safeParse({ 's-1': { spec: { dialect: 'pi', command: '', cwd: '/ws' }, session: { id: null, file: null }, previous: null, resumedInto: null, at: 1 } }).success, false);
    assert.equal(resumeRecordsSchema.safeParse({ 's-1': { spec: { dialect: 'tau', command: 'x', cwd: '/ws' }, session: { id: 'a', file: null }, previous: null, resumedInto: null, at: 1 } }).success, true);
  });
});

describe('history settings', () => {
  it('have defaults and bytes for the host', () => {
    const { settings, errors } = readSettings(() => undefined);
    assert.deepEqual(errors, []);
    assert.deepEqual(settings.history, { enabled: true, maxSessions: 200, maxSessionMiB: 32, maxTotalMiB: 256, resumeInterrupted: false });
    assert.deepEqual(historyLimits(settings.history), { maxSessions: 200, maxSessionBytes: 32 * 1024 * 1024, maxTotalBytes: 256 * 1024 * 1024 });
  });

  it('name a bad value and use the default', () => {
    const { settings, errors } = readSettings((k) => (k === 'history.maxSessions' ? 0 : k === 'history.resumeInterrupted' ? 'yes' : undefined));
    assert.equal(settings.history.maxSessions, 200);
    assert.equal(settings.history.resumeInterrupted, false);
    assert.equal(errors.length, 2);
    assert.match(errors[0], /rpcWorkers\.history\.maxSessions is invalid \(must be at least 1\)/);
  });

  it('never give the host a total below one session', () => {
    const { settings } = readSettings((k) => (k === 'history.maxSessionMiB' ? 64 : k === 'history.maxTotalMiB' ? 8 : undefined));
    assert.equal(historyLimits(settings.history).maxTotalBytes, 64 * 1024 * 1024);
  });
});
