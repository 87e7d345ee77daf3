// One build for every bundle the product ships. `--production` minifies and drops sourcemaps
// (what the .vsix carries); `--watch` rebuilds on change.
import * as esbuild from 'esbuild';
import { execFileSync } from 'node:child_process';
import { builtinsOnce, vscodeOnce } from './scripts/importsOnce.mjs';
import { zodBundle, zodLater } from './scripts/zodLater.mjs';
import { laterBundle, LATER_FILE, uiLater } from './scripts/uiLater.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const skipTypecheck = process.argv.includes('--no-typecheck');

const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  // VS Code's extension host (1.101+) traps the global `navigator` with a getter that logs
  // "navigator is now a global in nodejs" for every extension that reads it; zod's Cloudflare
  // probe (`typeof navigator`, run as each object schema is made) is such a read. Nothing in
  // these Node bundles wants a browser's navigator, so the name is compiled out of them.
  define: { navigator: 'undefined' },
};

/** @type {esbuild.BuildOptions[]} */
const bundles = [
  // The extension's entry: it loads the adapter below through V8's code cache (src/ui/boot.ts).
  { ...node, entryPoints: ['src/ui/boot.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // The VS Code adapter. `vscode` is provided by the extension host; it and node:path/os are read once.
  { ...node, entryPoints: ['src/ui/extension.ts'], outfile: 'dist/extension-main.js', external: ['vscode'], plugins: [vscodeOnce, builtinsOnce, zodLater, uiLater] },
  // The parts only a command runs, which the adapter loads on first use (scripts/uiLater.mjs).
  laterBundle(node, `dist/${LATER_FILE}`),
  // zod/mini, which the adapter loads on its first schema (scripts/zodLater.mjs).
  zodBundle(node, 'dist/zod-mini.js', { every: watch }),
  // The host-agnostic core, for scripts and other Node programs.
  { ...node, entryPoints: ['src/core/index.ts'], outfile: 'dist/core.js' },
  // The built-in demo worker: speaks τ's protocol, needs no LLM.
  { ...node, entryPoints: ['src/demo/demoWorker.ts'], outfile: 'dist/demo-worker.js' },
  // The write guard pi loads with `-e`.
  { ...node, entryPoints: ['src/guard/piGuardExtension.ts'], outfile: 'dist/pi-guard.js' },
  // The event log's script, run inside the webview.
  { bundle: true, platform: 'browser', target: 'es2022', format: 'iife', sourcemap: !production, minify: production,
    logLevel: 'warning', entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js' },
  // The suite that runs inside a real extension host (not shipped).
  ...(production ? [] : [{ ...node, entryPoints: ['test/host/index.ts'], outfile: 'dist-test/host/index.js', external: ['vscode', 'mocha'], plugins: [vscodeOnce] }]),
];

import { existsSync } from 'node:fs';
const present = bundles.filter((b) => !b.entryPoints || existsSync(b.entryPoints[0]));

if (!skipTypecheck && !watch) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.'], { stdio: 'inherit' });
}
if (watch) {
  for (const b of present) (await esbuild.context(b)).watch();
} else {
  await Promise.all(present.map((b) => esbuild.build(b)));
}
