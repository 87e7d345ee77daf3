// The Node bundles never read the global `navigator`: VS Code's extension host (1.101+) traps it
// and logs a deprecation error for the extension that does (zod's Cloudflare probe did, once per
// schema module). esbuild.mjs compiles the name out; this reads what it made (`npm test` and
// `npm run test:unit` build first).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

describe('bundles: globals the extension host traps', () => {
  before(function () {
    this.timeout(120_000);
    if (!existsSync(path.join(ROOT, 'dist', 'extension.js'))) execFileSync(process.execPath, ['esbuild.mjs', '--no-typecheck'], { cwd: ROOT, stdio: 'inherit' });
  });
  for (const bundle of ['dist/extension.js', 'dist/extension-main.js', 'dist/extension-later.js', 'dist/zod-mini.js', 'dist/core.js', 'dist/demo-worker.js']) {
    it(`${bundle} does not read navigator`, () => {
      const code = readFileSync(path.join(ROOT, bundle), 'utf8');
      const reads = [...code.matchAll(/.{0,40}\bnavigator\b.{0,40}/g)].map((m) => m[0]);
      assert.deepEqual(reads, []);
    });
  }
});
