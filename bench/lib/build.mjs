// The product's bundles built into a directory of our own, with the entries and options of
// esbuild.mjs (which builds on import, so it cannot be imported): the smoke test measures the
// sources as they are, and start-up reports the minified sizes the .vsix would carry.
import path from 'node:path';
import { builtinsOnce, vscodeOnce } from '../../scripts/importsOnce.mjs';
import { zodBundle, zodLater } from '../../scripts/zodLater.mjs';
import { laterBundle, LATER_FILE, uiLater } from '../../scripts/uiLater.mjs';
import { ROOT } from './common.mjs';

const options = (production) => {
  const common = { bundle: true, minify: production, sourcemap: false, logLevel: 'error', absWorkingDir: ROOT };
  // esbuild.mjs's define for the Node bundles (zod's navigator probe).
  const nodeOnly = { platform: 'node', target: 'node20', format: 'cjs', define: { navigator: 'undefined' } };
  return { common, node: { ...common, ...nodeOnly } };
};

export async function buildBundles(outdir, { production = false } = {}) {
  const esbuild = await import('esbuild');
  const { common, node } = options(production);
  const out = (name) => path.join(outdir, name);
  await Promise.all([
    esbuild.build({ ...node, entryPoints: ['src/ui/boot.ts'], outfile: out('extension.js'), external: ['vscode'] }),
    esbuild.build({ ...node, entryPoints: ['src/ui/extension.ts'], outfile: out('extension-main.js'), external: ['vscode'], plugins: [vscodeOnce, builtinsOnce, zodLater, uiLater] }),
    esbuild.build(laterBundle(node, out(LATER_FILE))),
    esbuild.build(zodBundle(node, out('zod-mini.js'))),
    esbuild.build({ ...node, entryPoints: ['src/core/index.ts'], outfile: out('core.js') }),
    esbuild.build({ ...node, entryPoints: ['src/demo/demoWorker.ts'], outfile: out('demo-worker.js') }),
    esbuild.build({ ...node, entryPoints: ['src/guard/piGuardExtension.ts'], outfile: out('pi-guard.js') }),
    esbuild.build({ ...common, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: ['src/webview/main.ts'], outfile: out('webview.js') }),
  ]);
  return outdir;
}

/** A bench-only bundle of `bench/lib/<name>.ts` (not a product bundle): its file in `outdir`. */
async function buildBenchEntry(outdir, name) {
  const esbuild = await import('esbuild');
  const outfile = path.join(outdir, `${name}.js`);
  await esbuild.build({ ...options(false).node, entryPoints: [`bench/lib/${name}.ts`], outfile });
  return outfile;
}

/** bench/handover.mjs's decode thread. */
export const buildDecodeThread = (outdir) => buildBenchEntry(outdir, 'decode-thread');
/** bench/events.mjs's floor reader. */
export const buildFloorReader = (outdir) => buildBenchEntry(outdir, 'floor-reader');
