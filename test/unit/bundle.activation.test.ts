// Activation does nothing the first command can do (issue 24): loading dist/extension.js and
// running activate() under the bench's vscode stub loads neither node:crypto nor
// node:child_process (a worker's start or the exit-time kill needs them), and the bundle does
// not carry the host-to-page message schemas, which only the page parses; activation builds no
// zod schema (settings, command arguments and the rest are validated by schemas made on their
// first parse); and the bundle copies the `vscode` namespace once, not once per module that
// imports it (`npm test` and `npm run test:unit` build first). The entry (dist/extension.js, src/ui/boot.ts)
// runs the bundle (dist/extension-main.js) from V8's code cache from the second window on.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
/** What VS Code loads: the entry, which runs the bundle. */
const ENTRY = path.join(ROOT, 'dist', 'extension.js');
const BUNDLE = path.join(ROOT, 'dist', 'extension-main.js');
/** One window's activation under the bench's vscode stub, its global storage in `storage`. */
function activation(storage: string, env: NodeJS.ProcessEnv = {}): { builtins: string[]; api: number; codeCache: string | null } {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bench', 'lib', 'activate-child.cjs'), ENTRY], { encoding: 'utf8', env: { ...process.env, ACTIVATE_STORAGE: storage, ...env } });
  return JSON.parse(out.trim().split('\n').pop()!) as { builtins: string[]; api: number; codeCache: string | null };
}

describe('bundles: what activation loads', () => {
  before(function () {
    this.timeout(120_000);
    if (!existsSync(BUNDLE)) execFileSync(process.execPath, ['esbuild.mjs', '--no-typecheck'], { cwd: ROOT, stdio: 'inherit' });
  });
  let storage: string;
  beforeEach(() => (storage = mkdtempSync(path.join(tmpdir(), 'rpc-workers-storage-'))));
  afterEach(() => rmSync(storage, { recursive: true, force: true }));

  it('the first window makes the code cache and the next one runs the bundle from it', () => {
    const first = activation(storage);
    assert.deepEqual([first.codeCache, first.api > 0], ['none', true]);
    assert.equal(readdirSync(path.join(storage, 'code-cache')).filter((f) => f.startsWith('extension-main-') && f.endsWith('.cache')).length, 1);
    const next = activation(storage);
    assert.deepEqual([next.codeCache, next.api], ['used', first.api]);
  });

  it('load + activate() + deactivate() loads neither node:crypto nor node:child_process', () => {
    const { builtins, api } = activation(storage);
    assert.ok(api > 0, 'activate() returned the API');
    assert.ok(builtins.includes('fs'), `the list is read: ${builtins.join(', ')}`);
    assert.deepEqual(builtins.filter((m) => m === 'crypto' || m === 'child_process'), []);
  });

  it('load + activate() + deactivate() makes no zod schema', () => {
    // V8's call counts (NODE_V8_COVERAGE) of the bundle's functions: zod's $constructor makes an
    // Internals for every schema it builds, so a count above 0 means activation built one.
    const dir = mkdtempSync(path.join(tmpdir(), 'rpc-workers-coverage-'));
    try {
      activation(storage, { NODE_V8_COVERAGE: dir });
      const scripts = readdirSync(dir).flatMap((f) => (JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { result: Coverage[] }).result);
      const bundle = scripts.find((s) => s.url.endsWith('/dist/extension-main.js'));
      assert.ok(bundle, `the bundle's coverage is there: ${scripts.map((s) => s.url).join(', ')}`);
      const code = readFileSync(BUNDLE, 'utf8');
      const start = code.indexOf('// node_modules/zod/v4/core/core.js');
      const next = /\n\/\/ (?:node_modules|src)\//g;
      next.lastIndex = start + 1;
      const end = next.exec(code)?.index ?? code.length;
      assert.ok(start >= 0, "the development bundle names zod's core.js");
      const internals = bundle.functions.filter((f) => f.functionName === 'Internals' && f.ranges[0].startOffset > start && f.ranges[0].endOffset < end);
      assert.equal(internals.length, 1, "zod's $constructor has one Internals");
      assert.equal(internals[0].ranges[0].count, 0, 'zod schemas were built at activation');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('dist/extension-main.js requires vscode once and copies none of its names', () => {
    // esbuild wraps each module's `import * as vscode` in a copy of the API's names of its own
    // (scripts/importsOnce.mjs explains); the modules share one module that reads the names they
    // use as constants, with no getter per name (as `export * from 'vscode'` made).
    const code = readFileSync(BUNDLE, 'utf8');
    assert.equal(code.match(/require\("vscode"\)/g)?.length, 1);
    assert.doesNotMatch(code, /__(?:reExport|toESM)\([^()]*require\("vscode"\)/);
    assert.match(code, /var (\w+) = require\("vscode"\);\nvar \w+ = \1\.\w+;/);
  });

  it('dist/extension-main.js copies none of node:path\'s and node:os\'s names either (scripts/importsOnce.mjs)', () => {
    const code = readFileSync(BUNDLE, 'utf8');
    assert.doesNotMatch(code, /__toESM\(require\("node:(?:path|os)"\)\)/);
    assert.equal(code.match(/require\("node:path"\)/g)?.length, 1);
  });

  it('dist/extension-main.js does not build the host-to-page schemas (protocol/hostMessages.ts)', () => {
    const code = readFileSync(BUNDLE, 'utf8');
    assert.deepEqual(code.match(/\bhostMessageSchema\b|src\/protocol\/hostMessages\.ts/g), null);
  });
});

interface Coverage {
  url: string;
  functions: { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[] }[];
}
