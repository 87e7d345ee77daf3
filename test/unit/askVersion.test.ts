// A worker's `--version` that never answers (src/core/wire/askVersion.ts): pi 1.x runs behind a
// launcher script, so the program asked is a child of the process spawned. In time the answer is
// null and nothing the command started is left running.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endCommand } from '../../src/core/wire/askVersion';
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
      // In a group of its own, as a worker is: the tree's end signals each group it holds, and
      // where the host's own group cannot be read (macOS has no /proc) the host's would be one.
      const group = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2]);
      assert.ok(started.every((pid) => group(pid) !== group(process.pid)), 'the command runs in the host\'s process group');
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

  // The timer's end of a command that did not answer in time (endCommand), given what it can know.
  it('a command whose process has exited and been reaped is not signalled: its pid may be another process\'s now', async () => {
    // The launcher exited, leaving a program that holds its output open; its pid was free to be
    // reused, and `other` stands for the process that got it.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
    try {
      await waitUntil(() => other.pid !== undefined && isAlive(other.pid), 'the other process to run');
      // Signals are recorded, not sent: a signal's effect is not seen at once, and this one must not be sent at all.
      const sent: [number, string | number | undefined][] = [];
      const kill = process.kill;
      process.kill = (pid: number, sig?: string | number) => (sent.push([pid, sig]), true);
      try {
        endCommand({ pid: other.pid, exitCode: 0, signalCode: null, kill: () => true });
      } finally {
        process.kill = kill;
      }
      assert.deepEqual(sent, [], 'a process that took the exited command\'s pid was signalled');
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('a process table that cannot be read (ps failed): no throw from the timer, and the process spawned is ended', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
    try {
      await waitUntil(() => child.pid !== undefined && isAlive(child.pid), 'the command to run');
      endCommand(child, () => {
        throw new Error('spawnSync ps ENOENT');
      });
      await waitUntil(() => !isAlive(child.pid!), 'the process spawned to be ended', 5_000);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
