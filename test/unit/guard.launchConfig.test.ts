// A change to what configures the next worker, made while a worker ran, is held for the person
// to confirm; one made while no worker ran passes. The worker here is the fake pi, unguarded,
// writing a card that shadows the person's through its real write tool.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Supervisor } from '../../src/core/api';
import { createSupervisor } from '../../src/core/supervisor';
import { cardFolderSources, fileSource, LaunchConfigWatch } from '../../src/core/guard/launchConfig';
import { MAX_CARD_BYTES } from '../../src/core/regularFile';
import { loadAgentCards } from '../../src/core/cards/agentCards';
import { fakeSpec, ofType, waitFor } from '../helpers/supervisor';

describe('guard: a change to how workers start, made while a worker ran, is confirmed', () => {
  let ws: string;
  let supervisor: Supervisor;
  let watch: LaunchConfigWatch;
  const live = () => supervisor.list().filter((s) => s.status === 'running' || s.status === 'starting').length;
  beforeEach(() => {
    ws = mkdtempSync(path.join(tmpdir(), 'rpcw-launchcfg-'));
    mkdirSync(path.join(ws, '.pi', 'agents'), { recursive: true });
    mkdirSync(path.join(ws, '.vscode'));
    writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{}');
    supervisor = createSupervisor();
    watch = new LaunchConfigWatch(() => [fileSource(path.join(ws, '.vscode', 'settings.json')), ...cardFolderSources(path.join(ws, '.pi', 'agents'))]);
    supervisor.onState((s) => {
      if (s.status === 'starting' || s.status === 'running') watch.started();
      else watch.observe(live());
    });
  });
  afterEach(async () => {
    await supervisor.dispose();
    rmSync(ws, { recursive: true, force: true });
  });

  it('a card written by a worker while it ran is held until confirmed; a change after it ended is the person\'s', async () => {
    const r = await supervisor.start({ ...fakeSpec('pi'), cwd: ws });
    if (r.status !== 'started') throw new Error(r.error);
    const settled = waitFor(supervisor, r.workerId, ofType('agent_settled'));
    const card = '---\nname: reviewer\ndescription: Reviews\ntools: read, bash\n---\nAnything goes.\n';
    await supervisor.prompt(r.workerId, `tool write ${JSON.stringify({ path: '.pi/agents/reviewer.md', content: card })}`);
    await settled;
    assert.equal((await supervisor.stop(r.workerId)).status, 'stopped');
    watch.observe(live());
    const card1 = path.join(ws, '.pi', 'agents', 'reviewer.md');
    assert.deepEqual(watch.pending(), [`${path.join(ws, '.pi', 'agents')}${path.sep} (its cards)`, card1].sort());
    watch.confirm();
    assert.deepEqual(watch.pending(), []);
    // The person edits the settings with no worker running: nothing to confirm.
    writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{"rpcWorkers.guard.allowBash": true}');
    watch.observe(live());
    assert.deepEqual(watch.pending(), []);
  });

  it('a settings change while a worker still runs is held at the next start\'s check', async () => {
    const r = await supervisor.start({ ...fakeSpec('pi'), cwd: ws });
    if (r.status !== 'started') throw new Error(r.error);
    writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{"rpcWorkers.profiles": []}');
    watch.observe(live());
    assert.deepEqual(watch.pending(), [path.join(ws, '.vscode', 'settings.json')]);
    // Put back as it was, there is nothing left to confirm.
    writeFileSync(path.join(ws, '.vscode', 'settings.json'), '{}');
    watch.observe(live());
    assert.deepEqual(watch.pending(), []);
  });
});

describe('guard: the launch configuration watch sees every card the card loader reads', () => {
  it('a card named *.MD, written while a worker ran, is held as a .md card is (the loader takes either case)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rpcw-launchcfg-'));
    try {
      const watch = new LaunchConfigWatch(() => cardFolderSources(dir));
      watch.started();
      writeFileSync(path.join(dir, 'Reviewer.MD'), '---\nname: reviewer\ndescription: d\nguard: false\n---\nbody\n');
      watch.observe(0);
      assert.equal(loadAgentCards([dir]).cards.length, 1, 'the loader takes the card');
      // The folder's set of cards changed too (a new card may shadow another of its name).
      assert.deepEqual(watch.pending(), [`${dir}${path.sep} (its cards)`, path.join(dir, 'Reviewer.MD')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('guard: the launch configuration watch reads only regular files', () => {
  it('a card folder holding a FIFO or a link to /dev/zero is read to its end (the extension host would hang)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rpcw-launchcfg-'));
    try {
      execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
      symlinkSync('/dev/zero', path.join(dir, 'zero.md'));
      writeFileSync(path.join(dir, 'card.md'), '---\nname: c\n---\n');
      // In a child: the old read of the FIFO never returned, and this test must end.
      const script = `const { cardFolderSources } = require(${JSON.stringify(path.resolve('src/core/guard/launchConfig.ts'))}); process.stdout.write(JSON.stringify(cardFolderSources(${JSON.stringify(dir)}).map((s) => [path.basename(s.label), s.read()])));`;
      const out = spawnSync(process.execPath, ['--import', 'tsx', '-e', `const path = require('node:path'); ${script}`], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(out.signal, null, 'reading the card folder did not end');
      const read = JSON.parse(out.stdout) as Array<[string, string | null]>;
      assert.deepEqual(read.slice(1), [['card.md', '---\nname: c\n---\n'], ['pipe.md', 'not a regular file'], ['zero.md', 'not a regular file']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a card larger than the card reader takes is read only up to that size: a huge file does not stall the host, and a change within it or to its size is still seen', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rpcw-launchcfg-'));
    try {
      const file = path.join(dir, 'huge.md');
      const body = Buffer.alloc(4 * MAX_CARD_BYTES, 'a');
      writeFileSync(file, body);
      const source = () => cardFolderSources(dir)[1]!;
      const first = source().read();
      assert.ok(first !== null && first.length < MAX_CARD_BYTES + 200, `read ${first?.length} characters of a ${body.length}-byte card`);
      // A byte within the cap changed, size and time put back: seen.
      const { atime, mtime } = statSync(file);
      body[MAX_CARD_BYTES - 1] = 0x62;
      writeFileSync(file, body);
      utimesSync(file, atime, mtime);
      const changed = source().read();
      assert.notEqual(changed, first);
      // Cut to the cap (the card reader would now take it): seen, and read whole.
      writeFileSync(file, body.subarray(0, MAX_CARD_BYTES));
      utimesSync(file, atime, mtime);
      assert.equal(source().read(), body.subarray(0, MAX_CARD_BYTES).toString('utf8'));
      // Grown past it again at the same time, one byte longer: seen.
      writeFileSync(file, body.subarray(0, MAX_CARD_BYTES + 1));
      utimesSync(file, atime, mtime);
      assert.notEqual(source().read(), changed);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a card whose size the file system understates (a link into /proc, a file grown since its stat) is read as the card reader reads it, whole', function () {
    // procfs says 0 bytes for a file of a thousand: it was read one byte past that, and called whole.
    if (process.platform !== 'linux') this.skip();
    const dir = mkdtempSync(path.join(tmpdir(), 'rpcw-launchcfg-'));
    try {
      symlinkSync('/proc/self/status', path.join(dir, 'status.md'));
      const read = cardFolderSources(dir)[1]!.read();
      assert.ok(read !== null && read.startsWith('Name:') && read.includes('\nPid:'), `read ${JSON.stringify(read?.slice(0, 40))}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
