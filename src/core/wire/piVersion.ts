// Which pi a command runs, and whether it can run here, learned before the worker is spawned.
// pi 1.x (npm @earendil-works/pi-coding-agent) needs Node >= 22.19; on an older Node it dies
// at load with a SyntaxError about a missing export, which says nothing to a user. Where the
// command leads to pi's package (node_modules/.bin/pi is a link to its cli.js; on Windows npm's
// pi.cmd names it), its package.json gives the version and the Node it needs, and the `node` its
// `#!/usr/bin/env node` line would find on the worker's PATH (or the shim's node.exe beside it)
// is asked for its version. Otherwise (a launcher script, a wrapper)
// `<command> --version` says the version.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { askVersion } from './askVersion';
import { windowsNames } from '../pathExt';

export interface PiPackage {
  name: string;
  version: string;
  /** `engines.node`, e.g. ">=22.19.0". */
  node: string | null;
  /** The interpreter its bin names (`node` for `#!/usr/bin/env node`), when it is found by PATH. */
  interpreter: string | null;
  /** The node.exe beside an npm `.cmd` shim, which the shim runs instead of the one on PATH. */
  interpreterFile?: string;
}

/**
 * `later`: the version, when it must be asked of the program itself (`--version`); the host runs
 * that beside the worker's own start-up instead of before it.
 */
export type Preflight = { ok: true; version: string | null; later?: Promise<string | null> } | { ok: false; error: string };

const PACKAGE_NAME = /(^|\/)pi-coding-agent$/;

/** `a` compared to `b`, both "x.y.z" (missing parts are 0; pre-release tags are ignored). */
export function compareVersions(a: string, b: string): number {
  const pa = a.replace(/^v/, '').split(/[.+-]/).slice(0, 3).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.replace(/^v/, '').split(/[.+-]/).slice(0, 3).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** The least version a `>=x.y.z` range (as pi's engines field says it) allows; null for other ranges. */
export function minimumOf(range: string | null): string | null {
  const m = range?.trim().match(/^>=\s*v?(\d+(?:\.\d+){0,2})$/);
  return m ? m[1] : null;
}

/** pi's package.json, found from the command (a relative path from `cwd`) by following links and walking up from the file. */
export function findPiPackage(command: string, env: Record<string, string | undefined>, cwd?: string): PiPackage | null {
  let file: string;
  try {
    // A relative path is from the worker's folder (`cwd`), as spawn reads it; not from the host's own.
    const resolved = command.includes('/') || command.includes(path.sep) ? path.resolve(cwd ?? '.', command) : whichOnPath(command, env.PATH);
    if (!resolved) return null;
    file = realpathSync(resolved);
  } catch {
    return null;
  }
  // On Windows the command is npm's .cmd shim, not a link to pi's script: the shim names the script.
  let beside: string | undefined;
  if (/\.cmd$/i.test(file)) {
    const target = cmdShimTarget(file);
    if (!target) return null;
    const nodeExe = path.join(path.dirname(file), 'node.exe');
    if (existsSync(nodeExe)) beside = nodeExe;
    try {
      file = realpathSync(target);
    } catch {
      return null;
    }
  }
  let dir = path.dirname(file);
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown; engines?: { node?: unknown } };
      if (typeof pkg.name === 'string' && PACKAGE_NAME.test(pkg.name) && typeof pkg.version === 'string') {
        const found: PiPackage = { name: pkg.name, version: pkg.version, node: typeof pkg.engines?.node === 'string' ? pkg.engines.node : null, interpreter: shebangInterpreter(file) };
        return beside ? { ...found, interpreterFile: beside } : found;
      }
    } catch {
      // no package.json here, or not JSON: keep walking up
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/**
 * The script an npm `.cmd` shim runs: its last `"%dp0%\…" %*` (`"%~dp0\…"` in older npm), as a
 * path from the shim's folder. null when the file says no such thing.
 */
export function cmdShimTarget(shim: string): string | null {
  try {
    const m = [...readFileSync(shim, 'utf8').matchAll(/"%~?dp0%?\\([^"]+)"\s+%\*/g)].at(-1);
    return m ? path.resolve(path.dirname(shim), ...m[1].split('\\')) : null;
  } catch {
    return null;
  }
}

function shebangInterpreter(file: string): string | null {
  try {
    const head = readFileSync(file, 'utf8').slice(0, 200).split('\n', 1)[0];
    const m = head.match(/^#!\s*\S*\/env\s+(?:-S\s+)?(\S+)/);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}

/** The file `name` runs from `pathVar`: on Windows through PATHEXT (pathExt.ts), as cross-spawn finds it (launchCommand.ts). */
export function whichOnPath(name: string, pathVar: string | undefined): string | null {
  const windows = process.platform === 'win32';
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const file of windows ? windowsNames(name) : [name]) {
      const candidate = path.join(dir, file);
      try {
        // Windows has no executable bit: its X_OK asks only whether the file is there.
        if (windows) {
          if (!statSync(candidate).isFile()) continue;
        } else accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return null;
}

/** The words for a pi that needs a newer Node than the one it would run on. */
export function nodeTooOld(piVersion: string, needs: string, nodeVersion: string, nodePath: string | null): string {
  const minimum = minimumOf(needs) ?? needs;
  return `pi ${piVersion} needs Node ≥ ${minimum}; this Node is ${nodeVersion.replace(/^v/, '')}${nodePath ? ` (${nodePath})` : ''}. `
    + 'Put a newer Node first on the worker\'s PATH (the profile\'s env), or run pi through a launcher that names its Node.';
}

/**
 * Learns the version of pi behind `command` (asked of it only when it runs without arguments of the caller's own) and refuses, in plain words, a pi whose Node is too
 * old. Never fails for not knowing: an unknown version is `null`.
 */
export async function piPreflight(command: string, callerArgs: readonly string[], env: Record<string, string | undefined>, cwd: string, timeoutMs = 10_000): Promise<Preflight> {
  // pi's package is read whatever the args (a profile's `-e ./guard.ts` still runs pi itself).
  const pkg = findPiPackage(command, env, cwd);
  if (pkg) {
    const minimum = minimumOf(pkg.node);
    if (minimum && pkg.interpreter === 'node') {
      const node = pkg.interpreterFile ?? whichOnPath('node', env.PATH);
      const nodeVersion = node ? readNodeVersion(node) : null;
      if (nodeVersion && compareVersions(nodeVersion, minimum) < 0) return { ok: false, error: nodeTooOld(pkg.version, pkg.node!, nodeVersion, node) };
    }
    return { ok: true, version: pkg.version };
  }
  // `node some-worker.mjs` is not pi's own command line: its version is not asked (`node
  // --version` would answer Node's, and a worker script might not know the flag at all).
  if (callerArgs.length > 0) return { ok: true, version: null };
  return { ok: true, version: null, later: askVersion(command, env, cwd, timeoutMs, (out) => out.trim().match(/^v?(\d+\.\d+\.\d+\S*)$/m)?.[1] ?? null) };
}

function readNodeVersion(node: string): string | null {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * pi's stderr when it died at load on a Node that lacks what it imports, in plain words; null
 * for any other stderr. For launches the preflight could not see through.
 */
export function explainLoadFailure(stderr: string): string | null {
  const m = stderr.match(/SyntaxError: The requested module '(node:[\w/]+)' does not provide an export named '(\w+)'/);
  if (!m) return null;
  return `this pi needs a newer Node than the one that ran it (Node has no ${m[2]} in ${m[1]}; pi 1.x needs Node ≥ 22.19)`;
}

/** What the pi dialect does differently by version. */
export interface PiTraits {
  /** pi 1.x: `agent_settled` follows `agent_end` once nothing (retry, compaction, queue) remains. */
  sendsSettled: boolean | null;
  /** pi 1.x: `abort` cancels a running compaction (`compaction_end {aborted: true}`). */
  abortCancelsCompaction: boolean;
}

export function piTraits(version: string | null): PiTraits {
  if (version === null) return { sendsSettled: null, abortCancelsCompaction: false };
  const one = compareVersions(version, '1.0.0') >= 0;
  // Before 1.0 (0.73.1 is the last @mariozechner release) there is none; were one to come, the
  // turn tracker learns it from the first agent_settled it sees.
  return { sendsSettled: one ? true : null, abortCancelsCompaction: one };
}
