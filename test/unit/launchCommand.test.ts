// What the host spawns for a program a person named (launchCommand.ts). On Windows npm installs
// each program as a .cmd shim, which Node's spawn neither finds on PATH nor (since 20.12) starts.
// This machine runs Linux, so Windows is simulated: a child Node sets process.platform to win32
// before cross-spawn (and its `which`, `isexe`) is loaded, which read it at load. Node's own path
// module stays POSIX there, so paths are written with "/" and one folder is put on PATH.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchCommand, spawnProgram } from '../../src/core/worker/launchCommand';

const src = (file: string) => pathToFileURL(path.resolve(__dirname, '../../src', file)).href;

/** Runs `body` (an async function's body, its value printed as JSON) in a Node that believes it is on Windows. */
function asWindows(body: string, env: Record<string, string>): unknown {
  // tsx compiles the sources as CommonJS: their exports are the import's default.
  const code = `Object.defineProperty(process, 'platform', { value: 'win32' });
const load = async (url) => (await import(url)).default;
const out = await (async () => { ${body} })();
process.stdout.write(JSON.stringify(out));`;
  const { comspec: _unset, ...inherited } = process.env;
  const childEnv: NodeJS.ProcessEnv = { ...inherited, ...env };
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { env: childEnv, encoding: 'utf8' });
  return JSON.parse(stdout);
}

describe('launchCommand: what the host spawns for a named program', () => {
  let bin: string;
  let onlyCmd: string;
  before(() => {
    bin = mkdtempSync(path.join(tmpdir(), 'launch-win-'));
    // What `npm install -g @agentclientprotocol/claude-agent-acp` leaves on Windows: a .cmd shim
    // and, beside it, an extensionless sh script for Git Bash that Windows cannot start.
    writeFileSync(path.join(bin, 'claude-agent-acp.cmd'), '@ECHO off\r\nnode "%~dp0\\node_modules\\@agentclientprotocol\\claude-agent-acp\\dist\\index.js" %*\r\n');
    writeFileSync(path.join(bin, 'claude-agent-acp'), '#!/bin/sh\nexec node "$basedir/node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js" "$@"\n');
    chmodSync(path.join(bin, 'claude-agent-acp'), 0o755);
    writeFileSync(path.join(bin, 'ffwf-tau.exe'), 'MZ');
    // A shim made by hand, or by a package manager that writes no sh script.
    onlyCmd = mkdtempSync(path.join(tmpdir(), 'launch-win-cmd-'));
    writeFileSync(path.join(onlyCmd, 'claude-agent-acp.cmd'), '@ECHO off\r\n');
  });
  after(() => {
    rmSync(bin, { recursive: true, force: true });
    rmSync(onlyCmd, { recursive: true, force: true });
  });

  // Windows's PATHEXT is upper case on a file system that ignores case; this one does not.
  const winEnv = () => ({ PATH: bin, PATHEXT: '.com;.exe;.bat;.cmd' });

  it('on Windows, runs an npm .cmd shim through cmd.exe, each argument quoted for cmd and for the batch file', () => {
    const args = ['--flag', 'a b', 'say "hi"', 'x&y', 'a^b', '50%'];
    const out = asWindows(`const { launchCommand } = await load(${JSON.stringify(src('core/worker/launchCommand.ts'))});
      const l = launchCommand('claude-agent-acp', ${JSON.stringify(args)}, { env: { PATH: ${JSON.stringify(bin)}, PATHEXT: '.com;.exe;.bat;.cmd' }, cwd: ${JSON.stringify(bin)}, detached: false, windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] });
      return { command: l.command, args: l.args, options: l.options, file: l.file ?? null };`, winEnv()) as { command: string; args: string[]; options: Record<string, unknown>; file: string | null };
    const shim = path.join(bin, 'claude-agent-acp.cmd');
    assert.equal(out.command, 'cmd.exe', 'not started through cmd.exe (%ComSpec% when set)');
    assert.equal(out.file, shim);
    // The shim by its full path, so that its %~dp0 is its own folder; each argument in double
    // quotes (a quote doubled), which keeps &, ^ and spaces literal through cmd's parse and the
    // shim's %*; a % broken by an empty %cd:~,% so that no %VAR% is expanded.
    const line = [`"${shim}"`, '"--flag"', '"a b"', '"say ""hi"""', '"x&y"', '"a^b"', '"50%%cd:~,%"'].join(' ');
    assert.deepEqual(out.args, ['/d', '/e:on', '/v:off', '/s', '/c', `"${line}"`]);
    // Our own options are kept; cmd must get the line as written.
    assert.deepEqual(out.options, { env: { PATH: bin, PATHEXT: '.com;.exe;.bat;.cmd' }, cwd: bin, detached: false, windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'], windowsVerbatimArguments: true });
  });

  it('on Windows, starts an .exe itself, and names %ComSpec% for a program it cannot find', () => {
    const out = asWindows(`const { launchCommand } = await load(${JSON.stringify(src('core/worker/launchCommand.ts'))});
      const env = { PATH: ${JSON.stringify(bin)} };
      const exe = launchCommand('ffwf-tau', ['--version'], { env });
      const missing = launchCommand('codex-acp', [], { env });
      return { exe: { command: exe.command, args: exe.args, file: exe.file }, missing: { command: missing.command, args: missing.args, file: missing.file ?? null } };`,
    { ...winEnv(), comspec: 'C:\\Windows\\system32\\cmd.exe' }) as { exe: { command: string; args: string[]; file: string }; missing: { command: string; args: string[]; file: string | null } };
    assert.deepEqual(out.exe, { command: 'ffwf-tau', args: ['--version'], file: path.join(bin, 'ffwf-tau.exe') });
    // Not found: cmd.exe is asked, its exit 1 is reported as ENOENT (spawnProgram's hook).
    assert.equal(out.missing.command, 'C:\\Windows\\system32\\cmd.exe');
    assert.equal(out.missing.file, null);
    assert.deepEqual(out.missing.args, ['/d', '/e:on', '/v:off', '/s', '/c', '""codex-acp""']);
  });

  it('on Windows, the path look-ups find the .cmd, not the sh script beside it', () => {
    const out = asWindows(`const { whichOnPath } = await load(${JSON.stringify(src('core/wire/piVersion.ts'))});
      const { findExecutable } = await load(${JSON.stringify(src('ui/settings/profiles.ts'))});
      const { spawnFailure } = await load(${JSON.stringify(src('core/worker/workerProcess.ts'))});
      const enoent = Object.assign(new Error('spawn claude-agent-acp ENOENT'), { code: 'ENOENT' });
      return {
        which: whichOnPath('claude-agent-acp', ${JSON.stringify(bin)}),
        tau: whichOnPath('ffwf-tau', ${JSON.stringify(bin)}),
        find: findExecutable('claude-agent-acp', [${JSON.stringify(bin)}]),
        // Said when spawn failed: a .cmd alone on PATH is there, not a program to install.
        missing: spawnFailure('claude-agent-acp', enoent, { cwd: ${JSON.stringify(bin)}, path: ${JSON.stringify(onlyCmd)} }).missing,
      };`, winEnv()) as Record<string, unknown>;
    const shim = path.join(bin, 'claude-agent-acp.cmd');
    assert.deepEqual(out, { which: shim, tau: path.join(bin, 'ffwf-tau.exe'), find: shim, missing: false });
  });

  it('on Windows, a profile\'s command written with backslashes is a path, not a name on PATH, when it is not there', () => {
    const out = asWindows(`const { spawnFailure } = await load(${JSON.stringify(src('core/worker/workerProcess.ts'))});
      const enoent = (c) => Object.assign(new Error('spawn ' + c + ' ENOENT'), { code: 'ENOENT' });
      const fail = (c) => spawnFailure(c, enoent(c), { cwd: ${JSON.stringify(bin)}, path: ${JSON.stringify(bin)} });
      return { relative: fail(${JSON.stringify(String.raw`.\bin\agent.cmd`)}), absolute: fail(${JSON.stringify(String.raw`C:\Tools\tau\ffwf-tau.exe`)}) };`, winEnv()) as Record<string, { why: string; missing: boolean }>;
    assert.match(out.relative.why, new RegExp(`^there is no such file \\(relative to the worker's folder ${bin.replace(/[\\/.]/g, '\\$&')}\\)`), out.relative.why);
    assert.match(out.absolute.why, /^there is no such file/, out.absolute.why);
    for (const r of Object.values(out)) assert.doesNotMatch(r.why, /PATH/, r.why);
  });

  it('elsewhere, spawns the command and args as given, with our options', async () => {
    const options = { env: { PATH: bin, RPC_WORKERS_WORKER: 'mark' }, cwd: bin, detached: true, windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] as const };
    const args = ['a b', 'say "hi"', 'x&y', 'a^b', '50%'];
    const l = launchCommand('claude-agent-acp', args, { ...options, stdio: [...options.stdio] });
    assert.deepEqual({ command: l.command, args: l.args, options: l.options, file: l.file }, { command: 'claude-agent-acp', args, options: { ...options, stdio: [...options.stdio] }, file: undefined });
    // And a real program gets each argument untouched.
    const child = spawnProgram(process.execPath, ['-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    assert.deepEqual(JSON.parse(text), args);
  });
});
