// An esbuild plugin: every `import * as vscode from 'vscode'` in a bundle shares one module that
// reads the API's names once. Left alone, esbuild wraps `require('vscode')` in its own copy per
// importing module (__toESM: a getter for each of the API's two hundred names, about forty
// modules over): the largest single cost of loading the extension. A shared `export * from
// 'vscode'` still copied the two hundred once, and left a getter on every use; here the module
// exports, as plain constants, the names the sources use (`vscode.X` in src/ and test/host/, that
// @types/vscode declares), so each `vscode.window` in the bundle is a direct reference.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NS = 'vscode-once';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function tsFiles(dir) {
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

/** @type {import('esbuild').Plugin} */
export const vscodeOnce = {
  name: NS,
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === NS ? { path: 'vscode', external: true } : { path: 'vscode', namespace: NS }));
    build.onLoad({ filter: /.*/, namespace: NS }, () => {
      const names = usedApiNames();
      // Without the declarations (not a development checkout), the names are copied as before.
      if (!names) return { contents: "export * from 'vscode';", loader: 'js' };
      return { contents: `const api = require('vscode');\n${names.map((n) => `export const ${n} = api.${n};`).join('\n')}\n`, loader: 'js' };
    });
  },
};
