// Activation does nothing the first command can do (issue 24): loading dist/extension.js and
// running activate() under the bench's vscode stub loads neither node:crypto nor
// node:child_process (a worker's start or the exit-time kill needs them), and the bundle does
// not carry the host-to-page message schemas, which only the page parses (`npm test` and
// `npm run test:unit` build first).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'extension.js');

describe('bundles: what activation loads', () => {
  before(function () {
    this.timeout(120_000);
    if (!existsSync(BUNDLE)) execFileSync(process.execPath, ['esbuild.mjs', '--no-typecheck'], { cwd: ROOT, stdio: 'inherit' });
  });

  it('load + activate() + deactivate() loads neither node:crypto nor node:child_process', () => {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bench', 'lib', 'activate-child.cjs'), BUNDLE], { encoding: 'utf8' });
    const { builtins, api } = JSON.parse(out.trim().split('\n').pop()!) as { builtins: string[]; api: number };
    assert.ok(api > 0, 'activate() returned the API');
    assert.ok(builtins.includes('fs'), `the list is read: ${builtins.join(', ')}`);
    assert.deepEqual(builtins.filter((m) => m === 'crypto' || m === 'child_process'), []);
  });

  it('dist/extension.js does not build the host-to-page schemas (protocol/hostMessages.ts)', () => {
    const code = readFileSync(BUNDLE, 'utf8');
    assert.deepEqual(code.match(/\bhostMessageSchema\b|src\/protocol\/hostMessages\.ts/g), null);
  });
});
