// `npm start` says which real workers it found and how to install the others (issue 28, major 3),
// and offers those found only where `npm test` installed them through links on code-server's PATH.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeWorkers, findWorkers, linkWorkers, personsPath } from '../../scripts/lib/workers-found.mjs';

describe('npm start: the real workers it finds', () => {
  let dir: string;
  const saved = process.env.RPC_WORKERS_CACHE_DIR;
  beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), 'rpcw-found-')); });
  afterEach(() => {
    if (saved === undefined) delete process.env.RPC_WORKERS_CACHE_DIR;
    else process.env.RPC_WORKERS_CACHE_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });
  const exe = (file: string) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o755);
    return file;
  };

  it('names each worker it did not find with the command that installs it', () => {
    const found = findWorkers({ pathEnv: path.join(dir, 'empty'), cache: false });
    assert.deepEqual(found.links, []);
    assert.deepEqual(describeWorkers(found), [
      '  τ: not found. Install it with: pipx install ffwf-tau-coding-agent   (Python 3.12 or newer)',
      '  pi: not found. Install it with: npm install -g @earendil-works/pi-coding-agent   (Node 22.19 or newer)',
      '  ACP copilot: not found. Install it with: npm install -g @github/copilot',
      '  ACP gemini: not found. Install it with: npm install -g @google/gemini-cli',
      '  ACP opencode: not found. Install it with: npm install -g opencode-ai',
      '  ACP claude: not found. Install it with: npm install -g @agentclientprotocol/claude-agent-acp',
      '  ACP codex: not found. Install it with: npm install -g @agentclientprotocol/codex-acp',
    ]);
  });

  it('finds a worker on PATH, or in the workspace\'s node_modules/.bin, as the extension does', () => {
    const tau = exe(path.join(dir, 'bin', 'ffwf-tau'));
    const pi = exe(path.join(dir, 'ws', 'node_modules', '.bin', 'pi'));
    const found = findWorkers({ workspace: path.join(dir, 'ws'), pathEnv: path.join(dir, 'bin'), cache: false });
    assert.deepEqual(found.workers.map((w: { found: { command: string } | null }) => w.found?.command), [tau, pi, undefined, undefined, undefined, undefined, undefined]);
    assert.deepEqual(found.links, []);
    assert.match(describeWorkers(found)[0], /^ {2}τ: found \(on your PATH: .*ffwf-tau\); Start Worker offers it/);
    assert.match(describeWorkers(found)[1], /^ {2}pi: found \(in the workspace's node_modules\/\.bin: .*pi\); Start Worker offers it/);
  });

  it('offers a worker npm test installed in the cache through a link first on PATH, not its whole folder', () => {
    process.env.RPC_WORKERS_CACHE_DIR = path.join(dir, 'cache');
    const tau = exe(path.join(dir, 'cache', 'tau-0.15.0', 'bin', 'ffwf-tau'));
    exe(path.join(dir, 'cache', 'tau-0.15.0', 'bin', 'python3'));
    const found = findWorkers({ pathEnv: path.join(dir, 'empty') });
    assert.equal(found.workers[0].found, null, 'an install not marked complete is not offered');
    writeFileSync(path.join(dir, 'cache', 'tau-0.15.0', '.complete'), '0.15.0\n');
    const again = findWorkers({ pathEnv: path.join(dir, 'empty') });
    assert.equal(again.workers[0].found?.command, tau);
    const bin = linkWorkers(again.links.filter((l: { name: string }) => l.name === 'ffwf-tau'), path.join(dir, 'links'));
    assert.equal(readlinkSync(path.join(bin!, 'ffwf-tau')), tau);
  });
  // `npm start` runs under npm, which puts this repository's node_modules/.bin (and its parents')
  // first on PATH: its pi is the devDependency 0.73.1, not a pi of the person's.
  it('under npm, the repository\'s own node_modules/.bin is not "your PATH": its pi is named the devDependency, and the person\'s own pi wins', () => {
    const repo = path.join(dir, 'repo');
    exe(path.join(repo, 'node_modules', '.bin', 'pi'));
    const ownPi = exe(path.join(dir, 'usr', 'bin', 'pi'));
    const npmPath = [path.join(repo, 'node_modules', '.bin'), path.join(dir, 'node_modules', '.bin'), path.join(dir, 'usr', 'bin')].join(path.delimiter);
    const clean = personsPath(npmPath, repo);
    assert.equal(clean, path.join(dir, 'usr', 'bin'));
    assert.equal(findWorkers({ pathEnv: clean, cache: false }).workers[1].found?.command, ownPi);
    // Without a pi of the person's (nor npm test's pi 1.x), this repository's devDependency is offered under its own name.
    process.env.RPC_WORKERS_CACHE_DIR = path.join(dir, 'cache');
    const found = findWorkers({ pathEnv: personsPath(npmPath.split(path.delimiter).slice(0, 2).join(path.delimiter), repo) });
    assert.match(describeWorkers(found)[1], /^ {2}pi: found \(pi 0\.73\.1, this repository's devDependency: /);
  });
});
