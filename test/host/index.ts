// Entry of the suite that runs INSIDE a real VS Code extension host (desktop VS Code via
// @vscode/test-electron, or code-server's web workbench via scripts/run-host-tests.mjs).
// Exports `run()` as the extension host expects; it settles when mocha is done and rejects when
// a test failed, so the host's exit code tells the outcome.
//
// esbuild bundles this file to dist-test/host/index.js. The `require` template below is a glob
// esbuild resolves at build time (./**/*.test.ts): every test file under test/host/ is in the
// bundle, and each is evaluated only when required here, after mocha has set up its globals.
// The list of files to load is read from test/host/ on disk, so a new *.test.ts file needs no
// registration; one added after the last build fails loudly ("not found in bundle").
import Mocha from 'mocha';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** test/host/ in the source tree: dist-test/host/index.js → ../../test/host. */
const SOURCE_DIR = path.resolve(__dirname, '..', '..', 'test', 'host');

function testFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...testFiles(dir, r));
    else if (entry.name.endsWith('.test.ts')) out.push(r);
  }
  return out.sort();
}

export interface HostTotals { passed: number; failed: number; pending: number; failures: string[] }

/** `Suite test: first line of the message`: the runner's summary names each failure (CI keeps only the tail). */
function failureLine(test: Mocha.Runnable, err: unknown): string {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 300);
  return message ? `${test.fullTitle()}: ${message}` : test.fullTitle();
}

export function run(): Promise<void> {
  // Stack traces in failures point at test/host/*.ts, not at the bundle.
  process.setSourceMapsEnabled(true);
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    // The runner says whether its terminal takes colours (the host itself has no TTY).
    color: process.env.RPC_WORKERS_COLOR === '1',
    timeout: Number(process.env.RPC_WORKERS_HOST_TEST_TIMEOUT ?? 60_000),
    grep: process.env.RPC_WORKERS_HOST_GREP || undefined,
  });
  const files = testFiles(SOURCE_DIR);
  if (files.length === 0) return Promise.reject(new Error(`no *.test.ts files under ${SOURCE_DIR}`));

  // What `mocha.loadFiles()` does for each file, with the bundled module instead of a path.
  for (const rel of files) {
    const file = path.join(SOURCE_DIR, rel);
    mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_PRE_REQUIRE, globalThis, file, mocha);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the build-time glob above, evaluated now, between mocha's pre-require and require events
    const mod: unknown = require(`./${rel.replace(/\.test\.ts$/, '')}.test.ts`);
    mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_REQUIRE, mod, file, mocha);
    mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_POST_REQUIRE, globalThis, file, mocha);
  }

  return new Promise((resolve, reject) => {
    try {
      const failureLines: string[] = [];
      const runner = mocha.run((failures) => {
        const stats = runner.stats;
        const totals: HostTotals = {
          passed: stats?.passes ?? 0,
          failed: Math.max(failures, stats?.failures ?? 0),
          pending: stats?.pending ?? 0,
          failures: failureLines,
        };
        // The machine-readable result: one line the runners parse, and a file when asked for.
        console.log(`HOST-TOTALS passed=${totals.passed} failed=${totals.failed} pending=${totals.pending}`);
        const statsFile = process.env.RPC_WORKERS_STATS_FILE;
        if (statsFile) {
          try { fs.writeFileSync(statsFile, JSON.stringify({ suite: 'host', ...totals })); } catch (err) { console.error(`cannot write ${statsFile}: ${String(err)}`); }
        }
        if (totals.failed > 0) reject(new Error(`${totals.failed} host test(s) failed`));
        else if (totals.passed + totals.pending === 0) reject(new Error('the host suite ran no test'));
        else resolve();
      });
      runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, err) => failureLines.push(failureLine(test, err)));
    } catch (err) {
      console.error(err);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
