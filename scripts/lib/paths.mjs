// Where the test infrastructure keeps things outside the repo.
import { homedir, tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, mkdirSync } from 'node:fs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `RPC_WORKERS_CACHE_DIR`, else `$XDG_CACHE_HOME/rpc-workers`, else `~/.cache/rpc-workers`. */
export function cacheDir() {
  if (process.env.RPC_WORKERS_CACHE_DIR) return resolve(process.env.RPC_WORKERS_CACHE_DIR);
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'rpc-workers');
}

/** A fresh temp directory (under os.tmpdir()), e.g. for a throw-away user-data dir. */
export function makeTempDir(prefix) {
  mkdirSync(tmpdir(), { recursive: true });
  return mkdtempSync(join(tmpdir(), `rpc-workers-${prefix}-`));
}

/** Is the module at `metaUrl` the script node was started with? */
export function isMain(metaUrl) {
  return !!process.argv[1] && fileURLToPath(metaUrl) === resolve(process.argv[1]);
}
