// signalTree never signals the host's own process group. On Linux /proc names it; off Linux
// (macOS) the process table from `ps` does. Simulated here: a child Node that believes it is on
// darwin, with a `ps` on PATH that prints a table where the host and a tree member share a group
// (a command spawned without a group of its own), and process.kill recording instead of signalling.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SRC = pathToFileURL(path.resolve(__dirname, '../../src/core/worker/processTree.ts')).href;

/** signalTree's signals in a darwin Node whose `ps` prints `table` (with `$$` for the child's own pid). */
function signalsOnDarwin(bin: string, table: string): { target: number; sig: string }[] {
  writeFileSync(path.join(bin, 'ps'), `#!/bin/sh\ncat <<'EOF' | sed "s/HOST/$RPC_TEST_HOST_PID/g"\n${table}\nEOF\n`);
  chmodSync(path.join(bin, 'ps'), 0o755);
  const code = `Object.defineProperty(process, 'platform', { value: 'darwin' });
process.env.RPC_TEST_HOST_PID = String(process.pid);
const { signalTree } = (await import(${JSON.stringify(SRC)})).default;
const sent = [];
process.kill = (target, sig) => { sent.push({ target, sig }); return true; };
const host = process.pid;
signalTree([{ pid: 900001, ppid: host, pgid: 4242, start: 'Sun Dec 6 10:00:01 2026', zombie: false }, { pid: 900002, ppid: 900001, pgid: 777, start: 'Sun Dec 6 10:00:02 2026', zombie: false }], 'SIGKILL');
process.stdout.write(JSON.stringify(sent));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' });
  return JSON.parse(out) as { target: number; sig: string }[];
}

describe('processTree: signalTree spares the host\'s own group off Linux', () => {
  let bin: string;
  beforeEach(() => (bin = mkdtempSync(path.join(tmpdir(), 'own-group-'))));
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  it('the group `ps` gives the host is not signalled; the other group and the live processes are', () => {
    const sent = signalsOnDarwin(bin, [
      '  HOST     1  4242 S    Sun Dec  6 09:00:00 2026',
      '900001  HOST  4242 S    Sun Dec  6 10:00:01 2026',
      '900002 900001   777 S    Sun Dec  6 10:00:02 2026',
    ].join('\n'));
    assert.deepEqual(sent.filter((s) => s.target < 0).map((s) => s.target), [-777]);
    assert.deepEqual(sent.filter((s) => s.target > 0).map((s) => s.target).sort(), [900001, 900002]);
  });

});
