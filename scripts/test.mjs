#!/usr/bin/env node
// `npm test`: build, then every suite, then ONE closing line summing them all:
//   N passed, N failed[, N skipped]
// Suites, each counted on its own:
//   lint     ESLint over the tree (`npm run lint`) and Prettier over the files it formats
//            (`npm run format:check`): each one check, counted as one test
//   unit     plain-Node mocha (.mocharc.json), spec output here, totals via scripts/mocha-totals-reporter.cjs
//   host     test/host/ inside a real extension host: desktop VS Code when VSCODE_EXECUTABLE_PATH
//            is set, else code-server + headless Chromium (scripts/run-host-tests.mjs) on each
//            of two VS Code versions, one row each: the engines floor (code-server 4.100.3,
//            VS Code 1.100) and today's (code-server 4.139.1, VS Code 1.139)
//   ui       the UI scenarios of UI_SCENARIOS (scripts/ui-scenarios/): the workbench driven as a
//            person drives it (clicks, keys, the palette) in today's code-server + headless
//            Chromium, each scenario one test; their screenshots go to a temporary folder
//   package  the .vsix checked (vsce ls) and installed into both code-servers, activated, and
//            its demo worker started there (scripts/test-package.mjs)
// Before them, the real workers the suites drive (τ from PyPI, pi 1.x with its Node, the five ACP
// agents from npm) are installed
// into the cache when missing (scripts/ensure-workers.mjs); a failed install is one failure, said
// plainly, and the suites that need the worker then fail on their own with the same reason.
// A suite that cannot run (no host, crash, timeout) counts as one failure, and so does a failed
// build (type check): nothing is skipped silently. Exit status is non-zero when anything failed or no test ran.
//
// Options: --only lint,unit,host,ui,package   run only these suites
//          --code-server floor,current   which code-servers the host and package suites run on (default both)
//          --floor smoke|full         the floor's smoke subset (default, FLOOR_SMOKE_GREP), or the whole host suite there too
//          --no-build                 skip `node esbuild.mjs`
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, makeTempDir } from './lib/paths.mjs';
import { cleanup, onCleanup } from './lib/proc.mjs';
import { buildExtension } from './lib/build.mjs';

const argv = process.argv.slice(2);
const onlyArg = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;
const only = onlyArg ? new Set(onlyArg.split(',')) : null;
const wants = (suite) => !only || only.has(suite);
const csArg = argv.includes('--code-server') ? argv[argv.indexOf('--code-server') + 1] : 'floor,current';
// The floor runs the smoke subset by default: with the whole suite on both versions npm test took
// about 33 min on 2 busy CPUs (unit 18, host 6.3 + 3.5, package 4); see README, Tests.
const floorArg = argv.includes('--floor') ? argv[argv.indexOf('--floor') + 1] : 'smoke';
if (!['full', 'smoke'].includes(floorArg)) throw new Error(`--floor takes full or smoke, not ${floorArg}`);
/**
 * The floor's smoke subset (--floor smoke): activation, every command, the Sessions tree and the
 * event log's page, the parts most bound to the VS Code API's version. A mocha grep on the
 * suites' names.
 */
export const FLOOR_SMOKE_GREP = '^(activation|UI commands|UI Sessions tree|UI event log webview) ';
const UNIT_TIMEOUT_MS = 30 * 60_000;
/** Unit test files run at once (mocha --parallel; its default is one fewer than the CPUs: one here). */
const UNIT_JOBS = 2;
/**
 * The UI scenarios CI runs: one or more for each thing a person does (start, stream, abort,
 * redirect, stop, names, a question, the editor as the agent's hands, a bad setting, a missing
 * program, a protocol warning, an untrusted folder, history after a reload, a long past log, many
 * workers, the walkthrough, real τ, pi and ACP agents, a turn refused for a login, a day's work with the
 * guard, compact, export, a worktree merged and discarded, a past session deleted, an ACP worker's session verbs, the log at narrow widths, a withdrawn question, a past question's answer not in view, an exit on its own, one turn end). The others (themes, the driver's self-test,
 * the slow reload and quiet-turn ones) are run by hand.
 */
export const UI_SCENARIOS = ['activity-bar', 'walkthrough', 'demo-stream', 'demo-abort', 'demo-redirect-selection', 'demo-stop', 'stop-and-names',
  'acp-approval', 'acp-hands', 'acp-question-aside', 'composer-drafts', 'default-profile-typo', 'missing-agent', 'protocol-warning', 'untrusted',
  'reload-history', 'past-log-long', 'many-workers', 'tau-worker', 'pi-dialog', 'real-workers', 'claude-no-key', 'keyboard', 'turn-login',
  'day-work', 'session-verbs', 'narrow-log', 'todays-fixes'];
const UI_TIMEOUT_MS = 25 * 60_000;

const results = []; // { suite, host, passed, failed, pending, failures?, seconds, error }

function banner(text) {
  console.log(`\n===== ${text} =====`);
}

/** `seconds`: the step's own time, where it was not the last thing before this call. */
function record(suite, host, t0, totals, error = null, seconds = (Date.now() - t0) / 1000) {
  const r = { suite, host, passed: 0, failed: 0, pending: 0, ...(totals ?? {}), seconds, error };
  // A suite that did not finish or did not report is a failure, never a silent zero.
  if (error && r.failed === 0) r.failed = 1;
  results.push(r);
  return r;
}

function readJson(file) {
  try { return JSON.parse(readFileSync(file, 'utf8')); } catch { return null; }
}

// The build is counted too: a type error is one failure, and the suites still run on the
// bundles (built again without the type check) so their results are not lost. A build that
// cannot bundle at all runs no suite.
function build() {
  banner('build: node esbuild.mjs');
  const t0 = Date.now();
  if (buildExtension()) {
    console.log(`build ok in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return true;
  }
  console.log('build FAILED; bundling again without the type check to tell a type error from a broken bundle');
  const bundled = buildExtension({ typecheck: false });
  record('build', bundled ? 'tsc' : 'esbuild', t0, { passed: 0, failed: 1, pending: 0 }, bundled ? 'type check failed' : 'bundling failed');
  return bundled;
}

async function workers() {
  banner('real workers: τ, pi 1.x and the five ACP agents (installed once into the cache)');
  const t0 = Date.now();
  const { ensureTau, ensurePi1, ensureAcpAgent, ACP_AGENTS } = await import('./ensure-workers.mjs');
  const errors = [];
  const acp = Object.values(ACP_AGENTS).map((a) => [`ACP ${a.name} (${a.package}@${a.version})`, () => ensureAcpAgent(a.name)]);
  for (const [name, ensure] of [['τ', ensureTau], ['pi 1.x', ensurePi1], ...acp]) {
    try { console.log(`${name}: ${ensure()}`); } catch (e) { console.error(`${name} could not be installed: ${e.message}`); errors.push(`${name}: ${e.message}`); }
  }
  if (errors.length) record('workers', 'install', t0, { passed: 0, failed: errors.length, pending: 0 }, errors.join('; '));
}

/** `npm run <script>`, its output here; resolves with its exit status. */
function npmRun(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    const unregister = onCleanup(() => { try { child.kill('SIGTERM'); } catch { /* gone */ } });
    child.on('close', (c, sig) => { unregister(); resolve(c ?? sig); });
  });
}

async function lintSuite() {
  banner('lint: ESLint, and Prettier over the files it formats');
  const t0 = Date.now();
  const failures = [];
  for (const script of ['lint', 'format:check']) {
    const code = await npmRun(script);
    console.log(`${script}: ${code === 0 ? 'clean' : `FAILED (exit ${code})`}`);
    if (code !== 0) failures.push(`${script} exited ${code}`);
  }
  return record('lint', 'node', t0, { passed: 2 - failures.length, failed: failures.length, pending: 0 }, failures.length ? failures.join('; ') : null);
}

async function unitSuite() {
  banner('unit: mocha (plain Node)');
  const t0 = Date.now();
  const dir = makeTempDir('unit');
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const statsFile = join(dir, 'stats.json');
  const reporter = join(repoRoot, 'scripts', 'mocha-totals-reporter.cjs');
  // Two files at a time: most of the suite waits on real workers and their mock model, so on 2
  // CPUs the suite took 516 s against 756 s one file at a time (7 Dec). Mocha gives each file
  // a process of its own; the workers it drives were installed into the cache before any suite ran.
  const child = spawn('npx', ['--no-install', 'mocha', '--parallel', '--jobs', String(UNIT_JOBS), '--reporter', reporter], {
    cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, RPC_WORKERS_STATS_FILE: statsFile },
  });
  let tail = '';
  child.stdout.on('data', (d) => { process.stdout.write(d); tail = (tail + d).slice(-4000); });
  const stop = () => { try { child.kill('SIGTERM'); } catch { /* gone */ } };
  const unregister = onCleanup(stop);
  const timer = setTimeout(() => { console.error(`TIMEOUT: the unit suite ran longer than ${UNIT_TIMEOUT_MS / 60000} min`); stop(); }, UNIT_TIMEOUT_MS);
  const code = await new Promise((resolve) => child.on('close', (c, sig) => resolve(c ?? sig)));
  clearTimeout(timer);
  unregister();
  const stats = readJson(statsFile);
  if (!stats) {
    if (/No test files found/.test(tail)) return record('unit', 'node', t0, { passed: 0, failed: 0, pending: 0 }, null);
    return record('unit', 'node', t0, null, `mocha exited ${code} without reporting totals`);
  }
  return record('unit', 'node', t0, stats, code !== 0 && stats.failed === 0 ? `mocha exited ${code}` : null);
}

/** The code-servers asked for (--code-server), as versions; a wrong name fails the run at once. */
async function codeServers() {
  const { resolveCodeServerVersion, CODE_SERVERS } = await import('./ensure-code-server.mjs');
  return csArg.split(',').filter(Boolean).map((name) => {
    const version = resolveCodeServerVersion(name);
    return { version, row: `VS Code ${CODE_SERVERS[version].vscode}` };
  });
}

const totalsError = (r, what) => (!r.totals ? `${what} reported no totals (exit ${r.exitCode})`
  : r.exitCode !== 0 && r.totals.failed === 0 ? `the host exited ${r.exitCode}` : null);

async function hostSuite() {
  const { runHostTests, pickHost } = await import('./run-host-tests.mjs');
  const host = pickHost();
  if (host === 'electron') {
    banner('host: extension-host suite on desktop VS Code (VSCODE_EXECUTABLE_PATH)');
    const t0 = Date.now();
    try {
      const r = await runHostTests({ host });
      return record('host', 'electron', t0, r.totals, totalsError(r, 'the suite'));
    } catch (err) {
      console.error(`host suite could not run: ${err.message}`);
      return record('host', 'electron', t0, null, err.message);
    }
  }
  const { FLOOR_VERSION } = await import('./ensure-code-server.mjs');
  for (const { version, row: name } of await codeServers()) {
    const smoke = version === FLOOR_VERSION && floorArg === 'smoke';
    const row = smoke ? `${name} smoke` : name;
    banner(`host: extension-host suite${smoke ? ` (smoke subset: ${FLOOR_SMOKE_GREP})` : ''} on ${name} (code-server ${version}) + headless Chromium`);
    const t0 = Date.now();
    try {
      const r = await runHostTests({ host, codeServer: version, label: `host ${row}`, ...(smoke ? { env: { RPC_WORKERS_HOST_GREP: FLOOR_SMOKE_GREP } } : {}) });
      record('host', row, t0, r.totals, totalsError(r, 'the suite'));
    } catch (err) {
      console.error(`host suite on ${row} could not run: ${err.message}`);
      record('host', row, t0, null, err.message);
    }
  }
}

/** scripts/ui-driver.mjs on UI_SCENARIOS: each `[ui] scenario <name>: ok` a pass, a scenario that never said ok a failure. */
async function uiSuite() {
  banner(`ui: ${UI_SCENARIOS.length} UI scenarios in code-server + headless Chromium`);
  const t0 = Date.now();
  const shots = makeTempDir('ui-shots');
  onCleanup(() => rmSync(shots, { recursive: true, force: true }));
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'ui-driver.mjs'), '--no-build', ...UI_SCENARIOS], {
    cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, RPC_WORKERS_SCREENSHOTS: shots },
  });
  const ok = new Set();
  let buffered = '';
  child.stdout.on('data', (d) => {
    process.stdout.write(d);
    buffered += d;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) {
      const m = /^\[ui\] scenario (\S+): ok\b/.exec(line);
      if (m) ok.add(m[1]);
    }
  });
  const stop = () => { try { child.kill('SIGTERM'); } catch { /* gone */ } };
  const unregister = onCleanup(stop);
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; console.error(`TIMEOUT: the UI scenarios ran longer than ${UI_TIMEOUT_MS / 60000} min`); stop(); }, UI_TIMEOUT_MS);
  const code = await new Promise((resolve) => child.on('close', (c, sig) => resolve(c ?? sig)));
  clearTimeout(timer);
  unregister();
  const failed = UI_SCENARIOS.filter((n) => !ok.has(n));
  const error = failed.length ? `${timedOut ? 'timed out; ' : ''}not ok: ${failed.join(', ')}` : code !== 0 ? `the driver exited ${code}` : null;
  return record('ui', 'VS Code 1.139', t0, { passed: ok.size, failed: failed.length, pending: 0 }, error);
}

async function packageSuite() {
  const { runPackageTest } = await import('./test-package.mjs');
  const servers = await codeServers();
  banner(`package: .vsix checked, then installed into ${servers.map((s) => s.row).join(' and ')}`);
  const t0 = Date.now();
  try {
    const runs = await runPackageTest({ codeServers: servers.map((s) => s.version) });
    for (const r of runs) record('package', r.row ?? 'vsix', r.t0 ?? t0, r.totals, r.error ?? (r.row === 'vsix' ? null : totalsError(r, 'the check')), r.seconds);
  } catch (err) {
    console.error(`package suite could not run: ${err.message}`);
    return record('package', 'vsix', t0, null, err.message);
  }
}

let bundled = true;
if (!argv.includes('--no-build')) bundled = build();
if (wants('lint')) await lintSuite();
if (bundled) {
  if (wants('unit') || wants('host') || wants('ui')) await workers();
  if (wants('unit')) await unitSuite();
  if (wants('host')) await hostSuite();
  if (wants('ui')) await uiSuite();
  if (wants('package')) await packageSuite();
}
await cleanup();

banner('summary');
const pad = (s, n) => String(s).padEnd(n);
console.log(`${pad('suite', 9)}${pad('host', 23)}${pad('passed', 8)}${pad('failed', 8)}${pad('skipped', 9)}time`);
for (const r of results) {
  console.log(`${pad(r.suite, 9)}${pad(r.host, 23)}${pad(r.passed, 8)}${pad(r.failed, 8)}${pad(r.pending, 9)}${r.seconds.toFixed(1)} s${r.error ? `  (${r.error.split('\n')[0]})` : ''}`);
}
// Each failed test by name, above the totals line: CI shows only the run's tail.
for (const r of results) {
  for (const line of r.failures ?? []) console.log(`failed in ${r.suite} (${r.host}): ${line}`);
}
if (!bundled) console.log('the build failed: no suite ran');
const sum = (k) => results.reduce((n, r) => n + r[k], 0);
const passed = sum('passed');
const failed = sum('failed');
const skipped = sum('pending');
const ok = failed === 0 && passed > 0;
if (passed === 0 && failed === 0) console.log('no test ran');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok ? 0 : 1);
