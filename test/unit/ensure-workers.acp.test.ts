// The ACP agents' installer, its failure path: a failed `npm install` throws with npm's own
// words, leaves no `.complete` marker (so the next run installs again) and no lock; a name it does
// not know is refused with the names it does. (The success path is the real install that
// acp.agents.test.ts stands on.)
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ACP_AGENTS, acpAgentDir, ensureAcpAgent } from '../fixtures/acp-env.mjs';

describe('ensure-workers: the ACP agents installer', () => {
  const saved = { PATH: process.env.PATH, RPC_WORKERS_CACHE_DIR: process.env.RPC_WORKERS_CACHE_DIR };
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rpc-workers-acp-install-'));
    // An npm that fails as the registry does for a version it does not have.
    writeFileSync(path.join(dir, 'npm'), '#!/bin/sh\necho "npm error code ETARGET" >&2\necho "npm error notarget No matching version found for $*" >&2\nexit 1\n');
    chmodSync(path.join(dir, 'npm'), 0o755);
    process.env.PATH = `${dir}:${saved.PATH}`;
    process.env.RPC_WORKERS_CACHE_DIR = path.join(dir, 'cache');
  });
  afterEach(() => {
    process.env.PATH = saved.PATH;
    if (saved.RPC_WORKERS_CACHE_DIR === undefined) delete process.env.RPC_WORKERS_CACHE_DIR; else process.env.RPC_WORKERS_CACHE_DIR = saved.RPC_WORKERS_CACHE_DIR;
    rmSync(dir, { recursive: true, force: true });
  });

  it('a failed npm install throws, is not marked complete, and releases its lock', () => {
    const target = acpAgentDir('gemini');
    assert.equal(path.dirname(target), path.join(dir, 'cache'));
    assert.equal(path.basename(target), `acp-gemini-${ACP_AGENTS.gemini.version}`);
    assert.throws(() => ensureAcpAgent('gemini'), /^Error: npm install @google\/gemini-cli@0\.61\.0 exited 1: npm error code ETARGET \| npm error notarget No matching version/);
    assert.equal(existsSync(path.join(target, '.complete')), false);
    assert.deepEqual(readdirSync(path.join(dir, 'cache')).filter((f) => f.endsWith('.lock')), []);
    // A second attempt tries again rather than trusting the half-done folder.
    assert.throws(() => ensureAcpAgent('gemini'), /exited 1: npm error code ETARGET/);
  });

  it('an unknown agent is refused with the known names', () => {
    assert.throws(() => ensureAcpAgent('cursor'), /no ACP agent named "cursor" \(known: copilot, gemini, opencode, claude, codex\)/);
  });
});
