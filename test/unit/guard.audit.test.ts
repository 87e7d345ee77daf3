import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { auditToolCall, extractPaths, patchPaths } from '../../src/core/guard/audit';
import { resolveGuard, type ResolvedPolicy } from '../../src/core/guard/policy';

describe('guard audit: judging reported tool calls of workers without an in-process guard', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-audit-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.symlinkSync(tmp, path.join(ws, 'up'));
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a write inside the root is no violation and reports where it lands', () => {
    assert.deepEqual(auditToolCall(policy, 'write', { path: 'src/a.ts', content: 'x' }, ws), { violation: null, paths: [path.join(ws, 'src/a.ts')] });
  });

  it('each path key is judged, and the first bad one is the violation', () => {
    for (const key of ['path', 'file_path', 'filePath', 'target', 'destination']) {
      const r = auditToolCall(policy, 'write_file', { [key]: '../escape.txt' }, ws);
      assert.match(r.violation ?? '', /^write_file "\.\.\/escape\.txt": outside the allowed paths/, key);
      assert.deepEqual(r.paths, [path.join(tmp, 'escape.txt')]);
    }
    const r = auditToolCall(policy, 'move', { paths: ['src/ok.ts', 'up/x', '.git/config'] }, ws);
    assert.match(r.violation ?? '', /^move "up\/x": outside/);
    assert.equal(r.paths.length, 3);
  });

  it('nested edits and patch text are looked into', () => {
    assert.deepEqual(extractPaths({ edits: [{ file_path: 'a' }, { file_path: 'b' }], content: 'path: c' }), ['a', 'b']);
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n*** Add File: .env\n*** End Patch';
    assert.deepEqual(patchPaths(patch), ['src/a.ts', '.env']);
    assert.match(auditToolCall(policy, 'apply_patch', { input: patch }, ws).violation ?? '', /forbidden .*\.env"$/);
    assert.deepEqual(patchPaths('--- a/src/x.ts\n+++ b/src/x.ts\n--- /dev/null'), ['src/x.ts']);
  });

  it('read-only tools are never violations, even outside', () => {
    for (const tool of ['read', 'grep', 'find', 'ls']) {
      assert.deepEqual(auditToolCall(policy, tool, { path: '/etc/passwd' }, ws), { violation: null, paths: [] });
    }
  });

  it('bash cannot be audited by path: a violation unless the policy allows bash', () => {
    assert.match(auditToolCall(policy, 'bash', { command: 'echo hi > src/a' }, ws).violation ?? '', /cannot be audited by path/);
    const withBash = resolveGuard({ allowedPaths: [ws], forbiddenPaths: [], bash: true }, ws) as ResolvedPolicy;
    assert.equal(auditToolCall(withBash, 'bash', { command: 'rm -rf /' }, ws).violation, null);
  });

  it('hostile argument values are refused, not crashed on', () => {
    assert.match(auditToolCall(policy, 'write', { path: 'a\0b' }, ws).violation ?? '', /NUL byte/);
    assert.equal(auditToolCall(policy, 'write', null, ws).violation, null);
    assert.equal(auditToolCall(policy, 'todo', { items: ['x'] }, ws).violation, null);
  });
});
