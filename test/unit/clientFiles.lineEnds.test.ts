import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Untimed } from '../../src/core/events/agentEvent';
import { resolveGuard, type ResolvedPolicy } from '../../src/core/guard/policy';
import { ClientFiles } from '../../src/core/worker/clientFiles';
import { crlfFile } from '../../src/core/worker/lineEnds';

// Agents read a CRLF file with its \r\n and write it back with \n. Through an open document the
// editor keeps the document's line ends; a file that is not open is written by the host, which
// must keep them too, or a one-line change is a whole-file diff.
describe('client files: a write to a file that is not open keeps its line ends', () => {
  let ws: string;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'client-eol-')));
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  /** The host's files, the file not open in the editor. */
  function files(guarded = true) {
    const events: Untimed[] = [];
    const policy = guarded ? (resolveGuard(true, ws) as ResolvedPolicy) : null;
    const cf = new ClientFiles({
      workerId: 'w1', offered: true, root: ws, cwd: ws, policy,
      files: { read: async () => null, write: async () => false },
      emit: (e) => events.push(e), report: (e) => events.push(e), judged: () => undefined,
    });
    const bytes = () => events.filter((e) => e.type === 'client_file').map((e) => (e.data as { bytes?: number }).bytes);
    return { cf, bytes };
  }

  for (const guarded of [true, false]) {
    it(`${guarded ? 'a guarded' : 'an unguarded'} worker: a CRLF file written with \\n stays CRLF, its byte count the one written`, async () => {
      const file = path.join(ws, 'win.txt');
      fs.writeFileSync(file, 'one\r\ntwo\r\nthree\r\n');
      const { cf, bytes } = files(guarded);
      const { content } = await cf.read(file, null, null);
      assert.equal(content, 'one\r\ntwo\r\nthree\r\n', 'read as it is');
      await cf.write(file, 'one\nTWO\nthree\n');
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\r\nTWO\r\nthree\r\n');
      assert.deepEqual(bytes(), [Buffer.byteLength('one\r\nTWO\r\nthree\r\n')]);
    });
  }

  it('an LF file stays LF', async () => {
    const file = path.join(ws, 'unix.txt');
    fs.writeFileSync(file, 'one\ntwo\n');
    const { cf, bytes } = files();
    await cf.write(file, 'one\nTWO\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\n');
    assert.deepEqual(bytes(), [8]);
  });

  it('a new file is written as given', async () => {
    const file = path.join(ws, 'sub', 'new.txt');
    const { cf, bytes } = files();
    await cf.write(file, 'a\nb\r\nc\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'a\nb\r\nc\n');
    assert.deepEqual(bytes(), [7]);
  });

  it('a CRLF file written with text that has \\r\\n already and lone \\n: no \\r\\r\\n', async () => {
    const file = path.join(ws, 'win.txt');
    fs.writeFileSync(file, 'α\r\nβ\r\n');
    const { cf, bytes } = files();
    await cf.write(file, 'α\r\nβ\nγ\r\n\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'α\r\nβ\r\nγ\r\n\r\n');
    assert.deepEqual(bytes(), [Buffer.byteLength('α\r\nβ\r\nγ\r\n\r\n')]);
  });

  it('a long CRLF file replaced by a short text: nothing of it is left, no hole before the text', async () => {
    const file = path.join(ws, 'long.txt');
    fs.writeFileSync(file, 'x'.repeat(100).concat('\r\n').repeat(1000));
    const { cf } = files();
    await cf.write(file, 'short\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'short\r\n');
  });

  it('a CRLF file written with CRLF text is written as given (a lone \\r kept)', async () => {
    const file = path.join(ws, 'win.txt');
    fs.writeFileSync(file, 'a\r\nb\r\n');
    const { cf } = files();
    await cf.write(file, 'a\r\nb\rc\r\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'a\r\nb\rc\r\n');
  });

  it('a file is CRLF as VS Code reads it: more than half of its line ends hold a \\r', () => {
    const is = (text: string) => crlfFile(Buffer.from(text, 'utf8'));
    assert.equal(is('a\r\nb\r\nc\n'), true, 'two of three');
    assert.equal(is('a\r\nb\nc\r\nd\n'), false, 'half');
    assert.equal(is('a\nb\r\nc\r\n'), true, 'the first line end is not what decides');
    assert.equal(is('a\r\nb\r'), true, 'a lone \\r counts with \\r\\n, as in VS Code');
    assert.equal(is('one line'), false, 'no line end: as given');
    assert.equal(is(''), false, 'empty: as given');
  });
});
