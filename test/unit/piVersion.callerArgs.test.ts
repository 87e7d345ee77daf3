// A pi profile with args of its own (`"args": ["-e", "./guard.ts"]`, `["--thinking", "high"]`)
// still runs pi itself: its version is read from its package.json as without args. Unknown, a
// pi 1.x was taken for one whose abort does not reach a compaction (Abort of a running Compact
// was refused with that false reason), and one on a too-old Node was not said in plain words.
// Only `--version` is not asked of a command given args (`node worker.mjs` would answer Node's).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { piPreflight, piTraits } from '../../src/core/wire/piVersion';

describe('pi\'s version with args of the caller\'s own', () => {
  let dir: string;
  let cli: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pi-caller-args-'));
    const pkg = path.join(dir, 'node_modules', '@earendil-works', 'pi-coding-agent');
    mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@earendil-works/pi-coding-agent', version: '1.6.0', engines: { node: '>=22.19.0' } }));
    cli = path.join(pkg, 'dist', 'cli.js');
    // A script no one may run here: the version must come from the package, not from `--version`.
    writeFileSync(cli, '#!/bin/sh\nexit 9\n');
    chmodSync(cli, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the version from pi\'s package.json, so that a pi 1.x gets its traits', async () => {
    const r = await piPreflight(cli, ['--thinking', 'high'], { PATH: process.env.PATH }, dir);
    assert.deepEqual(r, { ok: true, version: '1.6.0' });
    assert.equal(piTraits(r.ok ? r.version : null).abortCancelsCompaction, true);
  });

  it('asks nothing of a command that is not pi\'s own (`node worker.mjs`): the version stays unknown', async () => {
    const r = await piPreflight(process.execPath, [path.join(dir, 'worker.mjs')], { PATH: process.env.PATH }, dir);
    assert.deepEqual(r, { ok: true, version: null });
  });
});
