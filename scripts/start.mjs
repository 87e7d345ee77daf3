#!/usr/bin/env node
// `npm start`: try the extension in a local code-server. Builds it, installs code-server if it
// is not in the cache yet (scripts/ensure-code-server.mjs), starts code-server on 127.0.0.1 with
// a throw-away profile and a copy of the sample workspace (test/workspace), and prints the URL
// to open: the workbench with this repo as extensionDevelopmentPath. Runs until Ctrl-C, then
// stops code-server. It says which real workers (τ, pi) it found, each of which Start Worker
// then offers, and how to install the others (scripts/lib/workers-found.mjs). The sample
// workspace is a git repository, so that Start Worker in New Worktree works in it.
//
// Options (through npm: `npm start -- --port N`; lib/start-args.mjs also reads what npm kept):
//          --port N (or env RPC_WORKERS_PORT; default 8080, or a free port when 8080 is taken)
//          --workspace DIR (open DIR itself instead of a copy of the sample workspace)
//          --no-build
import { execFileSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { repoRoot } from './lib/paths.mjs';
import { buildExtension } from './lib/build.mjs';
import { cleanup, onCleanup } from './lib/proc.mjs';
import { makeSandbox, startCodeServer, workbenchUrl, portFree, freePort } from './lib/code-server.mjs';
import { describeWorkers, findWorkers, linkWorkers, personsPath } from './lib/workers-found.mjs';
import { parseStartArgs } from './lib/start-args.mjs';

/** The sample workspace as a repository with one commit (worktrees need a commit to branch from). */
function makeRepository(folder) {
  const git = (...args) => execFileSync('git', args, { cwd: folder, stdio: 'pipe' });
  try {
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('-c', 'user.name=RPC Workers', '-c', 'user.email=rpc-workers@localhost', 'commit', '-q', '-m', 'The sample workspace');
    return null;
  } catch (e) {
    return `the sample workspace is not a git repository (${String(e.stderr || e.message).trim()}); Start Worker in New Worktree will say so`;
  }
}

const DEFAULT_PORT = 8080;

async function main() {
  const opts = parseStartArgs(process.argv.slice(2));
  if (opts.build) {
    console.log('[start] building the extension (node esbuild.mjs)');
    if (!buildExtension()) throw new Error('the build failed');
  }
  let port = opts.port;
  if (port == null) port = (await portFree(DEFAULT_PORT)) ? DEFAULT_PORT : await freePort();
  else if (!(await portFree(port))) throw new Error(`port ${port} on 127.0.0.1 is in use; choose another with --port N`);

  const sandbox = makeSandbox({ workspaceFrom: opts.workspace ? null : undefined, prefix: 'start' });
  const folder = opts.workspace ?? sandbox.workspace;
  const noRepo = opts.workspace ? null : makeRepository(folder);
  if (noRepo) console.warn(`[start] ${noRepo}`);
  // The person's PATH, not npm's: npm puts this repository's node_modules/.bin (pi 0.73.1) first.
  const pathEnv = personsPath(process.env.PATH ?? '');
  const found = findWorkers({ workspace: folder, pathEnv });
  const bin = linkWorkers(found.links, join(sandbox.root, 'workers-bin'));
  const env = { PATH: bin ? `${bin}${delimiter}${pathEnv}` : pathEnv };
  // The floor (VS Code 1.100): a built 1.139 workbench ignores the URL's extensionDevelopmentPath
  // unless its smoke-test driver is on, which only the test runners can do (an init script).
  const server = await startCodeServer({ sandbox, folder, port, env, version: 'floor' });
  const url = workbenchUrl({ origin: server.origin, folder, payload: { extensionDevelopmentPath: repoRoot } });
  console.log('');
  console.log(`[start] code-server is running on ${server.origin} (log: ${server.logFile})`);
  console.log(`[start] workspace: ${folder}${opts.workspace ? '' : ' (a copy of test/workspace, a git repository)'}`);
  console.log('[start] real workers (the Demo worker needs none):');
  for (const line of describeWorkers(found)) console.log(`[start] ${line}`);
  console.log('[start] open this URL (the extension is loaded from this repo as extensionDevelopmentPath):');
  console.log('');
  console.log(`  ${url}`);
  console.log('');
  console.log('[start] rebuild with `node esbuild.mjs` (or --watch) and run "Developer: Reload Window" to pick up changes.');
  console.log('[start] Ctrl-C stops code-server.');
  let stopping = false;
  onCleanup(() => { stopping = true; }); // runs before the server's own cleanup (latest first)
  const code = await new Promise((res) => server.child.once('exit', (c, sig) => res(c ?? sig)));
  if (stopping) return 0;
  console.error(`[start] code-server exited (${code}) on its own; last lines of its log are in ${server.logFile}`);
  return 1;
}

main().then(async (code) => { await cleanup(); process.exit(code); }, async (err) => {
  console.error(`[start] ${err.message}`);
  await cleanup();
  process.exit(1);
});
