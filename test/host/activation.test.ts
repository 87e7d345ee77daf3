// The extension as a user gets it: it activates in a real extension host, registers every
// command its manifest contributes, and a worker started through its API answers.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Supervisor } from '../../src/core/api';

const EXTENSION_ID = 'rpc-workers.rpc-workers';

interface Manifest { contributes?: { commands?: Array<{ command: string; title: string }> } }

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded in this host`);
  return ext;
}

describe('activation', () => {
  it('activates', async () => {
    const ext = extension();
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command that package.json contributes', async () => {
    const ext = extension();
    await ext.activate();
    // Read the manifest from disk, so this test follows package.json as it changes.
    const manifest = JSON.parse(fs.readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')) as Manifest;
    const contributed = (manifest.contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  it('starts a demo worker through the extension API, and it answers', async function () {
    this.timeout(60_000);
    const ext = extension();
    // The extension's API is the core's Supervisor (src/core/api.ts).
    const api = (await ext.activate()) as Partial<Supervisor> | undefined;
    assert.equal(typeof api?.start, 'function', `the extension's API has no start(); it exports ${JSON.stringify(api)}`);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the host opened no workspace folder');
    const r = await api!.start!({
      dialect: 'tau',
      command: process.execPath,
      args: [path.join(ext.extensionPath, 'dist', 'demo-worker.js')],
      cwd: folder.uri.fsPath,
    });
    assert.equal(r.status, 'started', `start() answered ${JSON.stringify(r)}`);
    if (r.status !== 'started') return;
    // 'started' means the worker answered its readiness probe; its state says so too.
    assert.equal(r.state.workerId, r.workerId);
    assert.ok(r.pid > 0, `no pid in ${JSON.stringify(r)}`);
    const s = await api!.stop!(r.workerId);
    assert.equal(s.status, 'stopped', `stop() answered ${JSON.stringify(s)}`);
  });
});
