// 4. Start-up. Spawn to `started` (the host's start(): spawn, readiness probe) for the fake
// worker in both dialects and for real pi with the mock LLM, beside a bare script that spawns
// the same program and sends the same probe; alternating. Then extension activation: the
// bundle loaded in plain Node with `vscode` stubbed (bench/lib/vscode-stub.cjs), require() and
// activate() timed in a fresh process each, beside a trivial extension; and each bundle's size,
// as built (dist/) and minified for the .vsix (built here into a temp dir).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startMockLlm } from '../test/fixtures/mock-llm.mjs';
import { makePiAgentDir, PI_VERSIONS, piEnv, piRpcArgs, removePiAgentDir } from '../test/fixtures/pi-env.mjs';
import { buildBundles } from './lib/build.mjs';
import { BareWorker, WIRE, ROOT, distDir, fakeArgs, fakeSpec, figure, loadCore, log, round } from './lib/common.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The host's probe, as a bare script sends it: τ asks for capabilities, then state; pi for state. */
export async function bareStart(command, args, dialect, env) {
  const t0 = performance.now();
  const w = new BareWorker(command, args, { env });
  const wire = WIRE[dialect];
  try {
    const first = w.next((v) => wire.isResponse(v, 1), 60_000, 'probe answer');
    w.send(wire.probe(1));
    await first;
    if (dialect === 'tau') {
      const state = w.next((v) => wire.isResponse(v, 2), 60_000, 'get_state answer');
      w.send({ jsonrpc: '2.0', id: 2, method: 'get_state', params: {} });
      await state;
    }
    return performance.now() - t0;
  } finally {
    await w.stop();
  }
}

export async function hostStart(host, spec) {
  const t0 = performance.now();
  const r = await host.start(spec);
  const ms = performance.now() - t0;
  if (r.status !== 'started') throw new Error(`start: ${r.error}`);
  await host.stop(r.workerId);
  return ms;
}

export async function alternate(count, product, baseline) {
  await product();
  await baseline();
  const pairs = [];
  for (let i = 0; i < count; i++) {
    const p = {};
    if (i % 2 === 0) {
      p.product = await product();
      p.baseline = await baseline();
    } else {
      p.baseline = await baseline();
      p.product = await product();
    }
    pairs.push(p);
  }
  return pairs;
}

/** One window's activation; `storage`: its global storage, where the entry keeps its code cache (src/ui/boot.ts). */
function activateOnce(file, storage) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [path.join(HERE, 'lib/activate-child.cjs'), file], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ACTIVATE_STORAGE: storage } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`activation child exited ${code}: ${err.slice(-2000)}`))));
  });
}

export async function run({ fakeCount = 20, piCount = 5, activations = 30, realPi = true, ...opts } = {}) {
  const core = loadCore(opts);
  const figures = [];
  const host = core.createSupervisor();
  try {
    for (const dialect of ['pi', 'tau']) {
      const pairs = await alternate(fakeCount, () => hostStart(host, fakeSpec(dialect)), () => bareStart(process.execPath, fakeArgs(dialect), dialect));
      figures.push(figure({
        bench: 'startup', name: `fake worker (${dialect}): spawn → started`, unit: 'ms', better: 'lower', pairs,
        baselineName: 'bare spawn + the same probe', note: `${pairs.length} starts each`,
      }));
      log(`  startup fake ${dialect}: host ${round(figures.at(-1).product.median, 1)} ms, bare ${round(figures.at(-1).baseline.median, 1)} ms`);
    }
    for (const pi of realPi && piCount > 0 ? PI_VERSIONS : []) {
      const llm = await startMockLlm();
      const dir = await makePiAgentDir({ baseUrl: llm.baseUrl });
      try {
        const env = piEnv(dir);
        const spec = { dialect: 'pi', command: pi.command(), cwd: ROOT, model: 'mock/mock-1', env, name: 'bench pi' };
        const pairs = await alternate(piCount, () => hostStart(host, spec), () => bareStart(pi.command(), piRpcArgs(), 'pi', env));
        figures.push(figure({
          bench: 'startup', name: `real pi ${pi.version}: spawn → started`, unit: 'ms', better: 'lower', pairs,
          baselineName: 'bare spawn + get_state',
          note: `${pairs.length} starts each; the host's start includes learning pi's version (${pi.one ? '`pi --version`: pi 1.x runs behind a launcher script' : 'its package.json'})`,
        }));
        log(`  startup real pi ${pi.version}: host ${round(figures.at(-1).product.median, 1)} ms, bare ${round(figures.at(-1).baseline.median, 1)} ms`);
      } finally {
        await llm.close();
        await removePiAgentDir(dir);
      }
    }
  } finally {
    await host.dispose();
  }

  // Activation, in plain Node under the vscode stub (not a real extension host).
  const tmp = mkdtempSync(path.join(tmpdir(), 'rpc-workers-bench-'));
  try {
    const trivial = path.join(tmp, 'trivial-extension.js');
    writeFileSync(trivial, 'exports.activate = () => ({}); exports.deactivate = () => {};\n');
    const prodDir = path.join(tmp, 'production');
    await buildBundles(prodDir, { production: true });
    const dist = distDir(opts);
    // A window's first activation of a build compiles the bundle and leaves its code cache for the
    // next windows (a storage of its own each run); a later window compiles from the cache (one
    // storage kept, its cache made before the runs). The dev bundle is measured as a first window.
    let fresh = 0;
    const firstWindow = () => path.join(tmp, `storage-${fresh++}`);
    const kept = path.join(tmp, 'storage-kept');
    const prodFile = path.join(prodDir, 'extension.js');
    await activateOnce(prodFile, kept);
    const variants = [
      ['dist/extension.js (as built)', path.join(dist, 'extension.js'), firstWindow, 'none'],
      ['minified extension.js (.vsix), a first window (no code cache yet)', prodFile, firstWindow, 'none'],
      ['minified extension.js (.vsix), later windows (code cache)', prodFile, () => kept, 'used'],
    ];
    for (const [label, file, storage, expected] of variants) {
      const runs = [];
      const base = [];
      for (let i = 0; i < activations; i++) {
        const pair = i % 2 ? [await activateOnce(trivial, firstWindow()), await activateOnce(file, storage())].reverse() : [await activateOnce(file, storage()), await activateOnce(trivial, firstWindow())];
        // A figure says which it measured: a run that found no cache where one was kept is not a later window's.
        if (pair[0].codeCache !== expected) throw new Error(`activation of ${label}: the code cache was ${pair[0].codeCache}, expected ${expected}`);
        runs.push(pair[0]);
        base.push(pair[1]);
      }
      for (const key of ['requireMs', 'activateMs']) {
        figures.push(figure({
          bench: 'startup', name: `activation, ${label}: ${key === 'requireMs' ? 'load (require)' : 'activate()'}`, unit: 'ms', better: 'lower',
          pairs: runs.map((r, i) => ({ product: r[key], baseline: base[i][key] })),
          baselineName: 'a trivial extension, same harness', note: 'plain Node with a vscode stub, fresh process each, not a real extension host',
        }));
      }
    }
    // Bundle sizes: as built and minified (what the .vsix carries), with gzip for reference.
    for (const [label, dir] of [['dist', dist], ['minified', prodDir]]) {
      for (const name of readdirSync(dir).filter((f) => f.endsWith('.js')).sort()) {
        const file = path.join(dir, name);
        const bytes = statSync(file).size;
        const gz = gzipSync(readFileSync(file)).length;
        figures.push({ bench: 'startup', name: `bundle size, ${label}/${name}`, unit: 'KiB', better: 'lower', product: { n: 1, min: round(bytes / 1024, 1), median: round(bytes / 1024, 1), p95: round(bytes / 1024, 1), max: round(bytes / 1024, 1) }, baseline: null, baselineName: null, ratio: null, diff: null, goal: null, met: null, note: `gzip ${round(gz / 1024, 1)} KiB` });
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return { figures };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (k, d) => (process.argv.includes(k) ? process.argv[process.argv.indexOf(k) + 1] : d);
  const out = await run({ fakeCount: Number(arg('--n', 20)), piCount: Number(arg('--pi', 5)), activations: Number(arg('--activations', 30)) });
  for (const f of out.figures) console.log(`${f.name}: ${f.product.median} ${f.unit}${f.baseline ? ` vs ${f.baseline.median}` : ''} ${f.note ?? ''}`);
}
