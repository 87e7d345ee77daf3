// zod/mini, out of the extension's bundle and loaded on its first use. Activation builds no schema
// (src/protocol/lazySchema.ts), yet compiling zod's 30 KB and running its module code were about
// 1.5 ms of a first window's activation (issue 24: the first window of a build has no code cache).
// Here the extension's bundle imports a module of forwarders instead, one for each name the sources
// call, which requires dist/zod-mini.js (the bundle built from zodBundle below) on the first call.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsFiles } from './importsOnce.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
/** The bundle file, beside the extension's bundle in dist/. */
export const ZOD_FILE = 'zod-mini.js';

/** Every function zod/mini exports (zodBundle's `every`). */
const zodFunctions = () => {
  const zod = require('zod/mini');
  return Object.keys(zod).filter((n) => typeof zod[n] === 'function');
};

/**
 * The functions of zod/mini that the sources call as `z.X` (through whatever name each file
 * imports it as). A name imported by itself (`import { string } from 'zod/mini'`) fails the build:
 * the forwarders export only these names.
 */
export function usedZodNames(root = ROOT) {
  const zod = require('zod/mini');
  const used = new Set();
  for (const file of tsFiles(path.join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    // Any other import of zod/mini (a name by itself, a default, a re-export) would reach no forwarder.
    // (`export * as z from` too: the files importing that `z` are not read.)
    for (const m of text.matchAll(/^(?:import\b(?!(?: type\b| \* as \w+ from))|export\b(?! type\b))[^;]*['"]zod\/mini['"]/gm)) {
      throw new Error(`${path.relative(root, file)}: "${m[0]}": the extension's bundle reaches zod/mini only as \`import * as z from 'zod/mini'\` (scripts/zodLater.mjs)`);
    }
    for (const [, alias] of text.matchAll(/^import \* as (\w+) from ['"]zod\/mini['"]/gm)) {
      for (const m of text.matchAll(new RegExp(`\\b${alias}\\.([A-Za-z_$][\\w$]*)`, 'g'))) if (typeof zod[m[1]] === 'function') used.add(m[1]);
    }
  }
  return [...used].sort();
}

/** The esbuild plugin for the extension's bundle: `zod/mini` is the forwarders. */
export const zodLater = {
  name: 'zod-later',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    // A `z.X` the scan above missed would be undefined at run time, which esbuild only warns of.
    build.initialOptions.logOverride = { ...build.initialOptions.logOverride, 'import-is-undefined': 'error' };
    build.onResolve({ filter: /^zod\/mini$/ }, () => ({ path: 'zod/mini', namespace: 'zod-later' }));
    build.onResolve({ filter: /^\.\/zod-mini\.js$/, namespace: 'zod-later' }, (args) => ({ path: args.path, external: true }));
    build.onLoad({ filter: /.*/, namespace: 'zod-later' }, () => {
      const names = usedZodNames();
      const contents = [
        'let zod;',
        `const loadZod = () => (zod ??= require(${JSON.stringify(`./${ZOD_FILE}`)}));`,
        // Bound under names of their own: some of zod's (`enum`) are reserved words.
        ...names.map((n) => `const zod_${n} = (...a) => loadZod().${n}(...a);`),
        `export { ${names.map((n) => `zod_${n} as ${n}`).join(', ')} };`,
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The options of dist/zod-mini.js, given esbuild.mjs's options for a Node bundle. `every`: all of
 * zod/mini's functions, for `--watch`, which builds this file once while the forwarders follow
 * each edit (a name first used then would be missing from it until the watch restarted).
 */
export const zodBundle = (node, outfile, { every = false } = {}) => ({
  ...node,
  // The names the forwarders call, not zod's whole namespace (its locales alone are 250 KB).
  stdin: { contents: `export { ${(every ? zodFunctions() : usedZodNames()).join(', ')} } from 'zod/mini';`, resolveDir: ROOT, loader: 'js' },
  outfile,
});
