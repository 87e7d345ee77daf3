// A worker's `--version` that never answers (src/core/wire/askVersion.ts): pi 1.x runs behind a
// launcher script, so the program asked is a child of the process spawned. In time the answer is
// null and nothing the command started is left running.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { piPreflight } from '../../src/core/wire/piVersion';
import { tauPreflight } from '../../src/core/wire/tauVersion';
import { isAlive, waitUntil, withToken } from '../helpers/supervisor';

describe('--version asked of a worker that does not answer', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'ask-version-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A launcher that starts the program (a sleep named by `token`) and waits for it, as pi 1.x's does. */
  function launcher(name: string, token: string): string {
    const file = path.join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${JSON.stringify(process.execPath)} -e "setTimeout(() => {}, 600000)" ${token} &\nwait\n`);
    chmodSync(file, 0o755);
    return file;
  }

  for (const [who, preflight] of [
    ['pi', (cmd: string) => piPreflight(cmd, [], { PATH: process.env.PATH }, dir, 3_000)],
    ['τ', (cmd: string) => tauPreflight(cmd, true, { PATH: process.env.PATH }, dir, 3_000)],
  ] as const) {
    it(`${who}: the answer is null, and the launcher and the program it started are ended`, async () => {
      const token = `ask-version-${who === 'τ' ? 'tau' : who}-${process.pid}`;
      const pre = await preflight(launcher(`${token}-cmd`, token));
      assert.ok(pre.ok && pre.later, 'the version is asked of the command');
      await waitUntil(() => withToken(token).length >= 2, 'the launcher and its program to run');
      const started = withToken(token);
      assert.equal(await pre.later, null);
      await waitUntil(() => started.every((pid) => !isAlive(pid)), `nothing of the command to be left (${started.join(', ')})`, 5_000);
    });
  }

  it('a program that answers in time: its version', async () => {
    const file = path.join(dir, 'pi');
    writeFileSync(file, '#!/bin/sh\necho 1.6.0\n');
    chmodSync(file, 0o755);
    const pre = await piPreflight(file, [], { PATH: process.env.PATH }, dir, 10_000);
    assert.equal(pre.ok && (await pre.later), '1.6.0');
  });
});
