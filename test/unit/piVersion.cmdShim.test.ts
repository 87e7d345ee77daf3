// On Windows npm installs pi as pi.cmd, a batch file that names pi's script: the host reads that
// name to find pi's package.json, so that a pi 1.x whose Node is too old is refused before it
// starts in the same words as elsewhere (not by pi's SyntaxError at load). The shim's own text is
// read, so this runs here as on Windows (the shim is not run).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cmdShimTarget, findPiPackage, piPreflight } from '../../src/core/wire/piVersion';

// What npm 10's cmd-shim writes for a global install (CRLF, `%dp0%`).
const SHIM = [
  '@ECHO off', 'GOTO start', ':find_dp0', 'SET dp0=%~dp0', 'EXIT /b', ':start', 'SETLOCAL', 'CALL :find_dp0', '',
  'IF EXIST "%dp0%\\node.exe" (', '  SET "_prog=%dp0%\\node.exe"', ') ELSE (', '  SET "_prog=node"', '  SET PATHEXT=%PATHEXT:;.JS;=;%', ')', '',
  'endLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\node_modules\\@earendil-works\\pi-coding-agent\\dist\\cli.js" %*', '',
].join('\r\n');

describe('pi behind an npm .cmd shim (Windows)', () => {
  let bin: string;
  let pkgDir: string;
  beforeEach(() => {
    bin = mkdtempSync(path.join(tmpdir(), 'pi-cmd-shim-'));
    pkgDir = path.join(bin, 'node_modules', '@earendil-works', 'pi-coding-agent');
    mkdirSync(path.join(pkgDir, 'dist'), { recursive: true });
    writeFileSync(path.join(pkgDir, 'package.json'), JSON.stringify({ name: '@earendil-works/pi-coding-agent', version: '1.6.0', engines: { node: '>=99.0.0' } }));
    writeFileSync(path.join(pkgDir, 'dist', 'cli.js'), '#!/usr/bin/env node\n');
    writeFileSync(path.join(bin, 'pi.cmd'), SHIM);
  });
  afterEach(() => rmSync(bin, { recursive: true, force: true }));

  it('reads the script a shim runs, in npm\'s form and the older %~dp0 one; a batch file that names none is not a shim', () => {
    assert.equal(cmdShimTarget(path.join(bin, 'pi.cmd')), path.join(pkgDir, 'dist', 'cli.js'));
    writeFileSync(path.join(bin, 'old.cmd'), '@IF EXIST "%~dp0\\node.exe" (\r\n  "%~dp0\\node.exe"  "%~dp0\\..\\tool\\bin\\run.js" %*\r\n) ELSE (\r\n  node  "%~dp0\\..\\tool\\bin\\run.js" %*\r\n)\r\n');
    assert.equal(cmdShimTarget(path.join(bin, 'old.cmd')), path.join(path.dirname(bin), 'tool', 'bin', 'run.js'));
    writeFileSync(path.join(bin, 'plain.cmd'), '@ECHO off\r\necho hello\r\n');
    assert.equal(cmdShimTarget(path.join(bin, 'plain.cmd')), null);
  });

  it('finds pi\'s package through the shim, and refuses a pi whose Node (by PATH) is too old', async () => {
    assert.deepEqual(findPiPackage(path.join(bin, 'pi.cmd'), {}), { name: '@earendil-works/pi-coding-agent', version: '1.6.0', node: '>=99.0.0', interpreter: 'node' });
    const env = { PATH: path.dirname(process.execPath) };
    const r = await piPreflight(path.join(bin, 'pi.cmd'), [], env, bin);
    assert.equal(r.ok, false);
    assert.equal(r.ok ? '' : r.error.split(';')[0], 'pi 1.6.0 needs Node ≥ 99.0.0');
    assert.ok(!r.ok && r.error.includes(`this Node is ${process.versions.node} (${process.execPath})`), r.ok ? '' : r.error);
  });

  it('asks the node.exe beside the shim, which the shim runs, not the one on PATH', async () => {
    const nodeExe = path.join(bin, 'node.exe');
    writeFileSync(nodeExe, '#!/bin/sh\necho v18.20.0\n');
    chmodSync(nodeExe, 0o755);
    const r = await piPreflight(path.join(bin, 'pi.cmd'), [], { PATH: path.dirname(process.execPath) }, bin);
    assert.ok(!r.ok && r.error.includes(`this Node is 18.20.0 (${nodeExe})`), r.ok ? 'started' : r.error);
  });

  it('a command that is a relative path is pi\'s from the worker\'s folder, not from the extension host\'s', async () => {
    // npm's link in the workspace: node_modules/.bin/pi -> ../@earendil-works/pi-coding-agent/dist/cli.js
    mkdirSync(path.join(bin, 'node_modules', '.bin'));
    symlinkSync(path.join('..', '@earendil-works', 'pi-coding-agent', 'dist', 'cli.js'), path.join(bin, 'node_modules', '.bin', 'pi'));
    const command = path.join('node_modules', '.bin', 'pi');
    assert.equal(findPiPackage(command, {}, bin)?.version, '1.6.0');
    // The host's own folder (this test's) is not the worker's: another pi, or none, may be there.
    assert.notEqual(process.cwd(), bin);
    const r = await piPreflight(command, [], { PATH: path.dirname(process.execPath) }, bin);
    assert.equal(r.ok ? `started, pi ${r.version}` : r.error.split(';')[0], 'pi 1.6.0 needs Node ≥ 99.0.0');
  });

  it('a shim whose script is not there is not pi\'s package: its version is asked of the command', async () => {
    rmSync(path.join(pkgDir, 'dist', 'cli.js'));
    assert.equal(findPiPackage(path.join(bin, 'pi.cmd'), {}), null);
  });
});
