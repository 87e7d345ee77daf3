// An esbuild plugin: `import * as path from 'node:path'` (and node:os) in a bundle read the
// module's names once, as plain constants. Left alone, esbuild wraps `require('node:path')` in a
// copy of its own per importing module (__toESM: a getter per name; the extension has ten such
// imports of node:path and three of node:os, about 250 getters at load). Only modules whose
// names are plain values are listed: node:fs's `promises` is a getter that loads a module.
import { createRequire } from 'node:module';

const NS = 'builtins-once';
const MODULES = /^node:(?:path|os)$/;
const require = createRequire(import.meta.url);

/** @type {import('esbuild').Plugin} */
export const builtinsOnce = {
  name: NS,
  setup(build) {
    build.onResolve({ filter: MODULES }, (args) => (args.namespace === NS ? { path: args.path, external: true } : { path: args.path, namespace: NS }));
    build.onLoad({ filter: /.*/, namespace: NS }, (args) => {
      const names = Object.keys(require(args.path)).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
      const lines = names.map((n) => `export const ${n} = m.${n};`);
      return { contents: `const m = require(${JSON.stringify(args.path)});\nexport default m;\n${lines.join('\n')}\n`, loader: 'js' };
    });
  },
};
