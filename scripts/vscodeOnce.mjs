// An esbuild plugin: every `import * as vscode from 'vscode'` in a bundle shares one namespace
// object. Left alone, esbuild wraps `require('vscode')` in its own copy per importing module
// (__toESM: a getter for each of the API's several hundred names, about forty modules over):
// the largest single cost of loading the extension. Here the modules import one re-export,
// which copies the API once.
const NS = 'vscode-once';

/** @type {import('esbuild').Plugin} */
export const vscodeOnce = {
  name: NS,
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === NS ? { path: 'vscode', external: true } : { path: 'vscode', namespace: NS }));
    build.onLoad({ filter: /.*/, namespace: NS }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};
