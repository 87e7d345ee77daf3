// The history with real processes: a writer killed with SIGKILL in the middle of a line, two
// writers on one directory at once (two windows on one workspace), and a host embedding the
// core killed while its worker runs (a window reload as the history sees it).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { HistoryStore } from '../../src/core/history';
import { HOST_PROCESS } from '../fixtures/faults-helpers';
import { fakeSpec, ROOT } from '../helpers/supervisor';

const WRITER = path.join(ROOT, 'test/fixtures/history-writer.ts');
let dir: string;
const children = new Set<ChildProcess>();

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rpc-history-proc-'));
});
afterEach(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  rmSync(dir, { recursive: true, force: true });
});

function store(): HistoryStore {
  const made = HistoryStore.create({ dir });
  if (!made.ok) throw new Error(made.error);
  return made.store;
}

/** Runs the writer fixture; `lines` resolves at its first stdout line matching, `exited` with its exit. */
function writer(config: Record<string, unknown>) {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, JSON.stringify({ dir, ...config })], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, out, err })));
  const line = (prefix: string) => new Promise<string>((resolve, reject) => {
    const check = () => {
      const hit = out.split('\n').find((l) => l.startsWith(prefix));
      if (hit) {
        child.stdout!.off('data', check);
        resolve(hit.slice(prefix.length));
      }
    };
    child.stdout!.on('data', check);
    void exited.then((e) => reject(new Error(`the writer exited (${e.code ?? e.signal}) before "${prefix}": ${e.out} ${e.err}`)));
  });
  return { child, exited, line };
}

/** Resolves when the file changes (or now, if `ready` already holds). */
function changed(file: string): Promise<void> {
  return new Promise((resolve) => {
    const w = watch(file, () => {
      w.close();
      resolve();
    });
  });
}

describe('history with real processes', function () {
  this.timeout(60_000);

  it('a writer killed with SIGKILL mid-line: the torn line alone is lost and reported, the session reads as interrupted', async () => {
    // Lines of 20 KB written 64 bytes per write call: the file is inside a line almost always.
    const w = writer({ sessions: 1, events: 0, forever: true, payloadBytes: 20_000, limits: { maxWriteBytes: 64 } });
    const id = (await w.line('OPENED ')).trim();
    const file = path.join(dir, `${id}.jsonl`);
    // Wait for some whole lines first.
    for (;;) {
      try {
        if (statSync(file).size > 200_000) break;
      } catch {
        // not created yet
      }
      await new Promise((r) => setImmediate(r));
    }
    // Stopped, the file holds still: killed only once it is seen to end inside a line.
    for (;;) {
      w.child.kill('SIGSTOP');
      const buf = readFileSync(file);
      if (buf.length > 0 && buf[buf.length - 1] !== 0x0a) break;
      const next = changed(file);
      w.child.kill('SIGCONT');
      await next;
    }
    w.child.kill('SIGKILL');
    const exit = await w.exited;
    assert.equal(exit.signal, 'SIGKILL');
    const raw = readFileSync(file);
    const wholeLines = raw.toString('utf8').split('\n').length - 1;
    const tornBytes = raw.length - (raw.lastIndexOf(0x0a) + 1);
    assert.ok(tornBytes > 0);

    const r = await store().read(id);
    assert.equal(r.status, 'read', 'error' in r ? r.error : '');
    if (r.status !== 'read') return;
    assert.deepEqual(r.torn, { bytes: tornBytes, offset: raw.length - tornBytes });
    assert.equal(r.events.length, wholeLines, 'every whole line read back');
    assert.deepEqual(r.events.map((e) => e.data!.seq), Array.from({ length: wholeLines }, (_, i) => i), 'in order, none missing');
    assert.equal(r.badLines.count, 0);
    assert.equal(r.session.status, 'interrupted');
    assert.equal(r.session.endReason, 'interrupted');
    assert.equal(readFileSync(file).length, raw.length, 'the file is left as it was');
  });

  it('two writers on one directory at once: every session and every event of both, and no record lost or broken', async () => {
    const config = { sessions: 12, events: 400, rename: true };
    const a = writer(config);
    const b = writer(config);
    const [ea, eb] = await Promise.all([a.exited, b.exited]);
    assert.equal(ea.code, 0, ea.err);
    assert.equal(eb.code, 0, eb.err);
    const done = [ea, eb].map((e) => JSON.parse(e.out.split('\n').find((l) => l.startsWith('DONE '))!.slice(5)) as { ids: string[]; errors: unknown[] });
    assert.deepEqual(done.map((d) => d.errors), [[], []]);
    const listing = await store().list();
    assert.deepEqual(listing.unreadable, []);
    const ids = done.flatMap((d) => d.ids);
    assert.deepEqual(listing.sessions.map((s) => s.id).sort(), [...ids].sort());
    for (const s of listing.sessions) {
      assert.equal(s.status, 'ended');
      assert.equal(s.events, 400);
      assert.equal(s.archived, true, 'each archived by one writer or the other');
      assert.match(s.name, /^renamed by \d+$/);
    }
    const reads = await Promise.all(ids.map((id) => store().read(id)));
    for (const r of reads) {
      assert.equal(r.status, 'read');
      if (r.status !== 'read') continue;
      assert.deepEqual(r.events.map((e) => e.data!.seq), Array.from({ length: 400 }, (_, i) => i));
      assert.equal(r.torn, null);
    }
  });

  it('two writers evicting at once under a small total bound: no broken record, each kept session whole', async () => {
    const limits = { maxTotalBytes: 64 * 1024, maxSessionBytes: 32 * 1024 };
    const config = { sessions: 15, events: 100, limits };
    const [ea, eb] = await Promise.all([writer(config).exited, writer(config).exited]);
    assert.equal(ea.code, 0, ea.err);
    assert.equal(eb.code, 0, eb.err);
    const listing = await store().list();
    assert.deepEqual(listing.unreadable, []);
    assert.equal(listing.sessions.length, 30);
    const kept = listing.sessions.filter((s) => s.status !== 'evicted');
    assert.ok(listing.evictedSessions.count > 0 && kept.length > 0);
    assert.ok(kept.reduce((n, s) => n + s.bytes, 0) <= limits.maxTotalBytes);
    for (const s of kept) {
      const r = await store().read(s.id);
      assert.equal(r.status, 'read');
      if (r.status === 'read') assert.equal(r.events.length, 100);
    }
  });

  it('a host embedding the core killed while its worker runs: its session reads back as interrupted', async () => {
    const core = path.join(dir, 'core.js');
    await esbuild.build({ entryPoints: [path.join(ROOT, 'src/core/index.ts')], outfile: core, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'silent' });
    const historyDir = path.join(dir, 'history');
    const child = spawn(process.execPath, [HOST_PROCESS, JSON.stringify({ core, host: { historyDir }, workers: [{ spec: fakeSpec('pi'), prompt: 'say still going' }] })], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const exited = new Promise((r) => child.once('exit', r));
    const ready = await new Promise<{ workers: Array<{ workerId: string }> }>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const hit = out.split('\n').find((l) => l.startsWith('READY ') || l.startsWith('FAILED '));
        if (hit?.startsWith('READY ')) resolve(JSON.parse(hit.slice(6)));
        else if (hit) reject(new Error(hit));
      });
    });
    const made = HistoryStore.create({ dir: historyDir });
    assert.ok(made.ok);
    if (!made.ok) return;
    let [s] = (await made.store.list()).sessions;
    assert.equal(s.status, 'live', 'while its host runs');
    child.kill('SIGKILL');
    await exited;
    [s] = (await made.store.list()).sessions;
    assert.equal(s.workerId, ready.workers[0].workerId);
    assert.equal(s.status, 'interrupted');
    assert.equal(s.endReason, 'interrupted');
    assert.equal(s.endedAt, null);
  });
});
