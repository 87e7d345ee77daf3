// esbuild plugins: a module imported whole (`import * as vscode from 'vscode'`) is read once per
// bundle, as plain constants. Left alone, esbuild wraps its `require` in a copy of its own per
// importing module (__toESM: a getter for each name), and each use then goes through a getter:
// for `vscode`, two hundred names about forty modules over, the largest single cost of loading
// the extension; for node:path and node:os, ten and three more copies. Here each such module is
// one module of constants the bundle shares, so each `vscode.window` is a direct reference.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * The plugin for the modules `filter` matches: each read once, as the constants `names(module)`
 * lists (null: copied whole, `export *`, as esbuild would once).
 */
function importsOnce(ns, filter, names) {
  return {
    name: ns,
    /** @param {import('esbuild').PluginBuild} build */
    setup(build) {
      build.onResolve({ filter }, (args) => (args.namespace === ns ? { path: args.path, external: true } : { path: args.path, namespace: ns }));
      build.onLoad({ filter: /.*/, namespace: ns }, (args) => {
        const spec = JSON.stringify(args.path);
        const list = names(args.path);
        if (!list) return { contents: `export * from ${spec};`, loader: 'js' };
        return { contents: `const m = require(${spec});\nexport default m;\n${list.map((n) => `export const ${n} = m.${n};`).join('\n')}\n`, loader: 'js' };
      });
    },
  };
}

/** Every .ts file under `dir` (scripts/zodLater.mjs reads the sources with it too). */
export function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** The API's top-level names that the sources read as `vscode.X`; null when @types/vscode is not there. */
export function usedApiNames(root = ROOT) {
  let dts;
  try {
    dts = readFileSync(path.join(root, 'node_modules/@types/vscode/index.d.ts'), 'utf8');
  } catch {
    return null;
  }
  const api = new Set([...dts.matchAll(/^\texport (?:class|enum|namespace|function|const|let|var) (\w+)/gm)].map((m) => m[1]));
  const used = new Set();
  for (const file of ['src', 'test/host'].flatMap((d) => tsFiles(path.join(root, d)))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bvscode\.([A-Za-z_$][\w$]*)/g)) if (api.has(m[1])) used.add(m[1]);
  }
  return [...used].sort();
}

/**
 * `vscode`: the names the sources use (`vscode.X` in src/ and test/host/ that @types/vscode
 * declares). Without the declarations (not a development checkout), copied once as before.
 */
export const vscodeOnce = importsOnce('vscode-once', /^vscode$/, () => usedApiNames());

/**
 * node:path and node:os: all their names, which are plain values. Not node:fs, whose `promises`
 * is a getter that loads a module.
 */
export const builtinsOnce = importsOnce('builtins-once', /^node:(?:path|os)$/, (module) =>
  Object.keys(require(module)).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default'));
