import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Untimed } from '../../src/core/events/agentEvent';
import { resolveGuard, type ResolvedPolicy } from '../../src/core/guard/policy';
import { ClientFiles } from '../../src/core/worker/clientFiles';

// The host checks a write's path, then awaits the editor, then writes: whatever the agent's shell
// (or any process) swaps in meanwhile must not move the write out of what was judged. The swap is
// made in the editor step, the await the write already has, so no timing is involved.
describe('client files: a write through the host lands where it was judged (check-then-write race)', () => {
  let tmp: string;
  let ws: string;
  let outside: string;
  let policy: ResolvedPolicy;
  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'client-race-')));
    ws = path.join(tmp, 'ws');
    outside = path.join(tmp, 'outside');
    fs.mkdirSync(ws);
    fs.mkdirSync(outside);
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** The host's files for a guarded worker, `swap` run in the editor step (the file is not open there). */
  function files(swap: () => void = () => undefined, guarded = true) {
    const events: Untimed[] = [];
    const cf = new ClientFiles({
      workerId: 'w1', offered: true, root: ws, cwd: ws, policy: guarded ? policy : null,
      files: { read: async () => null, write: async () => (swap(), false) },
      emit: (e) => events.push(e), report: (e) => events.push(e), judged: () => undefined,
    });
    return { cf, events };
  }

  for (const guarded of [true, false]) {
    const who = guarded ? 'a guarded worker' : 'an unguarded worker (its folder)';
    it(`${who}: a link swapped in for the file after the check is not followed`, async () => {
      const secret = path.join(outside, 'secret.txt');
      fs.writeFileSync(secret, 'keep');
      const file = path.join(ws, 'a.txt');
      fs.writeFileSync(file, 'old');
      const { cf, events } = files(() => {
        fs.unlinkSync(file);
        fs.symlinkSync(secret, file);
      }, guarded);
      // An unguarded worker has no guard: its write was checked (inside its folder), not judged.
      const words = guarded ? "changed under the guard's check" : 'changed after it was checked';
      await assert.rejects(cf.write(file, 'new'), new RegExp(`the file ${words}: nothing was written`));
      assert.equal(fs.readFileSync(secret, 'utf8'), 'keep');
      assert.ok(events.some((e) => e.is_error && String(e.error).includes(words)), 'the refusal is in the log');
    });
  }

  it('a dangling link swapped in for a new file after the check is not followed', async () => {
    const target = path.join(outside, 'made.txt');
    const file = path.join(ws, 'new.txt');
    const { cf } = files(() => fs.symlinkSync(target, file));
    await assert.rejects(cf.write(file, 'new'), /the file changed under the guard's check: nothing was written/);
    assert.equal(fs.existsSync(target), false);
  });

  it('a folder swapped for a link after the check: the file there is neither written nor emptied', async () => {
    fs.mkdirSync(path.join(ws, 'sub'));
    fs.writeFileSync(path.join(ws, 'sub', 'c.txt'), 'old');
    const there = path.join(outside, 'c.txt');
    fs.writeFileSync(there, 'keep');
    const { cf } = files(() => {
      fs.renameSync(path.join(ws, 'sub'), path.join(ws, 'sub.old'));
      fs.symlinkSync(outside, path.join(ws, 'sub'));
    });
    await assert.rejects(cf.write(path.join(ws, 'sub', 'c.txt'), 'new'), /the file changed under the guard's check: nothing was written/);
    assert.equal(fs.readFileSync(there, 'utf8'), 'keep');
  });

  it('a new file\'s folder swapped for a link after the check: the refusal says where the folder leads now', async () => {
    fs.mkdirSync(path.join(ws, 'sub'));
    const { cf } = files(() => {
      fs.renameSync(path.join(ws, 'sub'), path.join(ws, 'sub.old'));
      fs.symlinkSync(outside, path.join(ws, 'sub'));
    });
    const file = path.join(ws, 'sub', 'n.txt');
    await assert.rejects(cf.write(file, 'new'), (e: Error) => e.message.endsWith(`nothing was written (the folder of ${file} is not the one judged: it leads to ${outside} now)`));
    assert.equal(fs.readFileSync(path.join(outside, 'n.txt'), 'utf8'), '', 'made empty by the open, as judgedWrite.ts says, never written');
  });

  it('a new file hard-linked as it is made: the refusal says so, not that its folder moved', async () => {
    const file = path.join(ws, 'new.txt');
    const other = path.join(outside, 'other.txt');
    // The link is made between the write's open (which makes the file) and its look at what it
    // opened: the first stat of an opened file, here the write's own, makes it, then stats.
    const probe = await fs.promises.open(path.join(tmp, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { stat: (...a: unknown[]) => Promise<fs.Stats> };
    await probe.close();
    const stat = proto.stat;
    proto.stat = function (this: unknown, ...a: unknown[]) {
      proto.stat = stat;
      fs.linkSync(file, other);
      return stat.apply(this, a);
    };
    try {
      const { cf } = files();
      await assert.rejects(cf.write(file, 'new'), (e: Error) => e.message.endsWith(`nothing was written (${file} was hard-linked as it was made)`));
    } finally {
      proto.stat = stat;
    }
    assert.equal(fs.readFileSync(other, 'utf8'), '', 'the other name\'s file is not written');
  });

  it('a link in the path re-pointed after the check: the write lands where the link led when judged', async () => {
    fs.mkdirSync(path.join(ws, 'real'));
    fs.writeFileSync(path.join(ws, 'real', 'b.txt'), 'old');
    fs.symlinkSync(path.join(ws, 'real'), path.join(ws, 'alias'));
    fs.writeFileSync(path.join(outside, 'b.txt'), 'keep');
    const { cf } = files(() => {
      fs.unlinkSync(path.join(ws, 'alias'));
      fs.symlinkSync(outside, path.join(ws, 'alias'));
    });
    await cf.write(path.join(ws, 'alias', 'b.txt'), 'new');
    assert.equal(fs.readFileSync(path.join(outside, 'b.txt'), 'utf8'), 'keep');
    assert.equal(fs.readFileSync(path.join(ws, 'real', 'b.txt'), 'utf8'), 'new');
  });

  it('nothing swapped: a file is replaced whole, a new one made with its folders, the event as before', async () => {
    const file = path.join(ws, 'a.txt');
    fs.writeFileSync(file, 'a much longer old text');
    const { cf, events } = files();
    await cf.write(file, 'short');
    assert.equal(fs.readFileSync(file, 'utf8'), 'short');
    const deep = path.join(ws, 'x', 'y', 'n.txt');
    await cf.write(deep, 'héllo');
    assert.equal(fs.readFileSync(deep, 'utf8'), 'héllo');
    const written = events.filter((e) => e.type === 'client_file');
    assert.deepEqual(written.map((e) => e.data), [
      { op: 'write', path: file, through: 'disk', bytes: 5 },
      { op: 'write', path: deep, through: 'disk', bytes: 6 },
    ]);
  });
});
