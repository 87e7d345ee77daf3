// The README's example of the core used from a script ("Embedding the host"), run as written: read
// out of README.md, saved as the file it says, beside the core bundled as `dist/core.js` is, with
// `pi` on the PATH the fake worker. The one change: its `/repo` is a folder of this test's.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { FAKE_WORKER, ROOT } from '../helpers/supervisor';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

describe('the README\'s embedding example', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(path.join(tmpdir(), 'readme-embed-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('runs as written against the bundled core, and redirects the worker', async () => {
    const section = README.slice(README.indexOf('## Embedding the host'));
    const m = /save this as `([\w.-]+\.[cm]?js)`[\s\S]*?```js\n([\s\S]*?)```/.exec(section);
    assert.ok(m, 'the section has no js example saved as a named file');
    const file = m[1];
    const core = path.join(dir, 'node_modules/rpc-workers/dist/core.js');
    // As esbuild.mjs bundles it for scripts.
    await esbuild.build({ entryPoints: [path.join(ROOT, 'src/core/index.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs', define: { navigator: 'undefined' }, outfile: core, logLevel: 'silent' });
    const repo = path.join(dir, 'repo');
    const bin = path.join(dir, 'bin');
    mkdirSync(repo);
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'pi'), `#!/bin/sh\nexec "${process.execPath}" "${FAKE_WORKER}" --dialect pi "$@"\n`);
    chmodSync(path.join(bin, 'pi'), 0o755);
    writeFileSync(path.join(dir, file), m[2].replaceAll("'/repo'", JSON.stringify(repo)));
    const run = await promisify(execFile)(process.execPath, [file], { cwd: dir, env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` }, timeout: 20_000 })
      .catch((e: { stderr?: string; message: string }) => assert.fail(`${file} failed: ${e.stderr || e.message}`));
    assert.match(run.stdout, /agent_settled/);
    assert.match(run.stdout, /^redirected (true|false)$/m);
  });
});
