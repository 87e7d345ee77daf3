// Start Worker from Agent Card, as the command builds the worker's spec: the card's worker runs
// on a pi profile and is started as that profile's workers are, its session kept.
import { vscodeStub } from '../helpers/vscodeStub';
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import type { WorkerSpec } from '../../src/core/api';
import * as core from '../../src/core/index';
import { buildLaunch } from '../../src/core/worker/launch';
import { startAgentWorker, type AgentStartDeps } from '../../src/ui/commands/agentStart';
import { readSettings } from '../../src/ui/settings/settings';

describe('start from an agent card', () => {
  let ws: string;
  beforeEach(() => {
    vscodeStub.reset();
    ws = mkdtempSync(path.join(tmpdir(), 'agent-start-'));
    vscodeStub.folder = ws;
    mkdirSync(path.join(ws, '.pi', 'agents'), { recursive: true });
    writeFileSync(path.join(ws, '.pi', 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews.\nguard: false\n---\nReview.\n');
  });
  afterEach(() => rmSync(ws, { recursive: true, force: true }));

  function deps(launched: WorkerSpec[], piSessionDir: string): AgentStartDeps & { piSessionDir: string } {
    const { settings } = readSettings((k) => (k === 'profiles' ? [{ name: 'my pi', dialect: 'pi', command: 'pi' }] : undefined));
    return {
      settings: () => settings,
      extensionPath: '/ext',
      piSessionDir,
      core: () => core,
      log: { warn: () => undefined, info: () => undefined } as unknown as vscode.LogOutputChannel,
      defaultFolder: () => ws,
      firstTask: async () => undefined,
      launch: async (spec) => {
        launched.push(spec);
        return { status: 'cancelled' };
      },
    };
  }

  it('keeps the worker\'s session where the profile\'s workers keep theirs (--session-dir), not --no-session', async () => {
    const launched: WorkerSpec[] = [];
    const sessions = path.join(ws, 'storage', 'pi-sessions');
    await startAgentWorker({ arg: { agent: 'reviewer' }, source: 'api', submitter: 'test', programmatic: true }, deps(launched, sessions));
    assert.equal(launched.length, 1);
    assert.equal(launched[0].sessionDir, sessions);
    const built = buildLaunch(launched[0], { agentDirs: [path.join(ws, '.pi', 'agents')] });
    assert.ok(built.ok, !built.ok ? built.error : '');
    const args = built.ok ? built.launch.args : [];
    assert.deepEqual(args.slice(args.indexOf('--session-dir'), args.indexOf('--session-dir') + 2), ['--session-dir', sessions]);
    assert.ok(!args.includes('--no-session'), args.join(' '));
  });
});
