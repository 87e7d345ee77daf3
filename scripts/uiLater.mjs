// The parts of the extension that only a command or an agent's question runs (the worker and
// history commands, the worktree actions, the questions, dialogs and notices) are a bundle of their
// own, dist/extension-later.js, which src/ui/later.ts requires on first use. A first window has no code cache
// (src/ui/boot.ts), and V8 pre-parses every function of the bundle it compiles, run or not: about
// 27 µs a KB here (issue 24), paid at activation for code only a command runs.
import { builtinsOnce, vscodeOnce } from './importsOnce.mjs';
import { zodLater } from './zodLater.mjs';

/** The bundle file, beside the extension's bundle in dist/. */
export const LATER_FILE = 'extension-later.js';
/** Its entry: what src/ui/later.ts requires. */
export const LATER_ENTRY = 'src/ui/laterParts.ts';

/** The esbuild plugin for the extension's bundle: src/ui/later.ts's `require('./laterParts')` is the other bundle. */
export const uiLater = {
  name: 'ui-later',
  /** @param {import('esbuild').PluginBuild} build */
  setup(build) {
    build.onResolve({ filter: /^\.\/laterParts$/ }, (args) => {
      if (!args.importer.endsWith('src/ui/later.ts') || args.kind !== 'require-call') throw new Error(`${args.importer}: only src/ui/later.ts requires ./laterParts (scripts/uiLater.mjs)`);
      return { path: `./${LATER_FILE}`, external: true };
    });
  },
};

/** The options of dist/extension-later.js, given esbuild.mjs's options for a Node bundle. */
export const laterBundle = (node, outfile) => ({
  ...node,
  entryPoints: [LATER_ENTRY],
  outfile,
  external: ['vscode'],
  // zod through the same forwarders: one dist/zod-mini.js, loaded once, for both bundles.
  plugins: [vscodeOnce, builtinsOnce, zodLater],
});
