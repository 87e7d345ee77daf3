// A tests module (extensionTestsPath) for scripts/test-package.mjs: runs in a host where the
// extension was INSTALLED from the .vsix (no extensionDevelopmentPath pointing at the repo) and
// checks what a user would get. Plain CommonJS, no build step, no mocha: three checks, counted.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

const EXTENSION_ID = 'rpc-workers.rpc-workers';

exports.run = async function run() {
  const results = { passed: 0, failed: 0, pending: 0 };
  const check = async (name, fn) => {
    try { await fn(); results.passed++; console.log(`  ✔ ${name}`); }
    catch (err) { results.failed++; console.log(`  ✘ ${name}\n      ${String(err && err.message || err).split('\n').join('\n      ')}`); }
  };
  const expectedDir = process.env.RPC_WORKERS_EXPECT_EXTENSIONS_DIR;
  console.log('package: the extension installed from the .vsix');
  let ext;
  await check('is installed from the .vsix into the extensions dir (not loaded from the repo)', () => {
    ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    assert.ok(expectedDir, 'RPC_WORKERS_EXPECT_EXTENSIONS_DIR is not set');
    assert.ok(ext.extensionPath.startsWith(expectedDir + path.sep), `loaded from ${ext.extensionPath}, not from ${expectedDir}`);
    assert.equal(fs.existsSync(path.join(ext.extensionPath, 'src')), false, 'the .vsix carries sources');
  });
  const commands = ext ? (ext.packageJSON.contributes?.commands ?? []).map((c) => c.command) : [];
  await check(`activates on its first command (${commands[0] ?? 'none'})`, async () => {
    assert.ok(ext, 'not installed');
    assert.ok(commands.length > 0, 'the manifest contributes no command');
    // The package test opens an empty folder, so no workspaceContains event fires; another
    // activation event (onStartupFinished, say) may still have activated it: said, not failed.
    if (ext.isActive) console.log('    (already active through an activation event before the command ran)');
    // Not awaited: a command may open an input box and wait for a person. The extension is
    // activated before its handler runs, so isActive turns true either way.
    const ran = Promise.resolve(vscode.commands.executeCommand(commands[0])).catch((err) => err);
    const deadline = Date.now() + 30_000;
    while (!ext.isActive && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(ext.isActive, true, 'not active 30 s after running its command');
    const outcome = await Promise.race([ran, new Promise((r) => setTimeout(() => r('still running'), 2000))]);
    if (outcome instanceof Error) throw new Error(`the command failed: ${outcome.message}`);
  });
  await check('registers every contributed command', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = commands.filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });
  console.log(`HOST-TOTALS passed=${results.passed} failed=${results.failed} pending=${results.pending}`);
  if (process.env.RPC_WORKERS_STATS_FILE) fs.writeFileSync(process.env.RPC_WORKERS_STATS_FILE, JSON.stringify({ suite: 'package', ...results }));
  if (results.failed > 0) throw new Error(`${results.failed} package check(s) failed`);
};
