// The extension's entry loads its bundle through V8's code cache (src/ui/boot.ts): the first load
// makes the cache, the next one compiles from it, a cache V8 refuses is made again, a new build
// gets a cache of its own, and whatever the cache, the bundle runs as `require` would run it.
// Each load runs in a process of its own, as each window's does: within one process V8 finds the
// script in its own memory and never reads the cache.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const BOOT = path.resolve(__dirname, '..', '..', 'src', 'ui', 'boot.ts');

interface Load { cache: string; answer: number; file: string; dir: string; strict: boolean }
/** One window's load: loadWithCodeCache in a new process, its cache saved afterwards. */
function loadWithCodeCache(bundle: string, cacheDir: string): Load {
  const code = `const { loadWithCodeCache } = require(${JSON.stringify(BOOT)});
const l = loadWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)});
const e = l.exports;
l.save().then(() => console.log(JSON.stringify({ cache: l.cache, answer: e.answer(), file: e.file, dir: e.dir, strict: e.strict })));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()) as Load;
}

describe('boot: the bundle through its code cache', () => {
  let dir: string;
  let bundle: string;
  let cacheDir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rpc-workers-boot-'));
    bundle = path.join(dir, 'bundle.js');
    cacheDir = path.join(dir, 'cache');
    // Strict mode from its first line, a sibling required by a relative path, its own file names.
    writeFileSync(path.join(dir, 'sibling.js'), 'module.exports = { n: 41 };\n');
    writeFileSync(bundle, '"use strict";\nconst s = require("./sibling");\nmodule.exports = { answer: () => s.n + 1, file: __filename, dir: __dirname, strict: (function () { return this === undefined; })() };\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const caches = () => readdirSync(cacheDir).filter((f) => f.endsWith('.cache'));

  it('the first load makes the cache, the next compiles from it; both run the bundle as require would', () => {
    const first = loadWithCodeCache(bundle, cacheDir);
    assert.deepEqual(first, { cache: 'none', answer: 42, file: bundle, dir, strict: true });
    assert.equal(caches().length, 1);
    assert.deepEqual(loadWithCodeCache(bundle, cacheDir), { ...first, cache: 'used' });
    assert.equal(caches().length, 1, 'a cache that was used is not written again');
  });

  it('a cache V8 refuses is made again, and the bundle still runs', () => {
    loadWithCodeCache(bundle, cacheDir);
    writeFileSync(path.join(cacheDir, caches()[0]), Buffer.from('not a code cache'));
    const refused = loadWithCodeCache(bundle, cacheDir);
    assert.deepEqual([refused.cache, refused.answer], ['rejected', 42]);
    assert.equal(loadWithCodeCache(bundle, cacheDir).cache, 'used');
  });

  it('a new build of the bundle gets a cache of its own', () => {
    loadWithCodeCache(bundle, cacheDir);
    writeFileSync(bundle, '"use strict";\nmodule.exports = { answer: () => 7 };\n');
    const rebuilt = loadWithCodeCache(bundle, cacheDir);
    assert.deepEqual([rebuilt.cache, rebuilt.answer], ['none', 7]);
    assert.equal(caches().length, 1, "the earlier build's cache is let go");
    assert.equal(loadWithCodeCache(bundle, cacheDir).cache, 'used');
  });

  it("the bundle's own error surfaces as require's would", () => {
    writeFileSync(bundle, '"use strict";\nthrow new Error("the bundle failed");\n');
    assert.throws(() => loadWithCodeCache(bundle, cacheDir), /the bundle failed/);
  });

  it('the bundle\'s require of a sibling named to it returns what the entry gives (dist/extension-later.js), and Node\'s module otherwise', () => {
    writeFileSync(bundle, '"use strict";\nmodule.exports = { answer: () => require("./sibling").n + require("./later.js").n };\n');
    const code = `const { loadWithCodeCache } = require(${JSON.stringify(BOOT)});
const l = loadWithCodeCache(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)}, { './later.js': () => ({ n: 1000 }) });
console.log(l.exports.answer());`;
    assert.equal(execFileSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8' }).trim(), '1041');
  });
});
