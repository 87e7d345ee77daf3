// Run by bench/startup.mjs: `node activate-child.cjs <extension.js>` loads the bundle with
// `vscode` resolved to bench/lib/vscode-stub.cjs and times require() and activate(), then
// deactivate(). Prints one JSON line, with the built-in modules loaded by then (`builtins`:
// test/unit/bundle.activation.test.ts holds activation to loading none it can defer).
'use strict';
const Module = require('node:module');
const path = require('node:path');
const STUB = path.join(__dirname, 'vscode-stub.cjs');
const original = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? STUB : original.call(this, request, ...rest);
};
// As many names as the real API: the bundle's cost of importing `vscode` is per name.
if (Object.keys(require(STUB)).length < 150) throw new Error('the vscode stub lacks the API\'s names (node_modules/@types/vscode not found)');
const file = path.resolve(process.argv[2]);
const root = path.resolve(__dirname, '../..');
const context = {
  subscriptions: [], extensionPath: root, extensionUri: require(STUB).Uri.file(root), extensionMode: 1,
  globalState: { get: (_k, d) => d, update: async () => {}, keys: () => [] },
  workspaceState: { get: (_k, d) => d, update: async () => {}, keys: () => [] },
  // ACTIVATE_STORAGE: the global storage, where the extension keeps its code cache (src/ui/boot.ts):
  // bench/startup.mjs gives a new one for a first window and the same one again for the next.
  storageUri: undefined, globalStorageUri: require(STUB).Uri.file(process.env.ACTIVATE_STORAGE || path.join(require('node:os').tmpdir(), 'rpc-workers-bench-storage')),
  logUri: require(STUB).Uri.file(require('node:os').tmpdir()), environmentVariableCollection: {},
  secrets: { get: async () => undefined, store: async () => {}, delete: async () => {} },
  asAbsolutePath: (p) => path.join(root, p),
};
(async () => {
  const t0 = performance.now();
  const ext = require(file);
  const t1 = performance.now();
  const api = await ext.activate(context);
  const t2 = performance.now();
  // The code cache this activation found (src/ui/boot.ts), read before deactivate() writes one.
  const codeCache = ext.codeCache?.() ?? null;
  await ext.deactivate?.();
  for (const d of context.subscriptions) d?.dispose?.();
  const heapMB = process.memoryUsage().heapUsed / 1024 / 1024;
  const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice('NativeModule '.length));
  process.stdout.write(JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, totalMs: t2 - t0, api: api ? Object.keys(api).length : 0, heapMB, builtins, codeCache }) + '\n');
  process.exit(0);
})().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + '\n');
  process.exit(1);
});
