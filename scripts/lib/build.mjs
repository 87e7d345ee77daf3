// The one way the scripts build the extension: `node esbuild.mjs` (type check, then bundles,
// including dist-test/host/index.js). Returns true when it succeeded.
import { spawnSync } from 'node:child_process';
import { repoRoot } from './paths.mjs';

export function buildExtension({ typecheck = true, production = false, quiet = false } = {}) {
  const args = ['esbuild.mjs', ...(typecheck ? [] : ['--no-typecheck']), ...(production ? ['--production'] : [])];
  return spawnSync(process.execPath, args, { cwd: repoRoot, stdio: quiet ? 'ignore' : 'inherit' }).status === 0;
}
