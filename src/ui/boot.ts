// The extension's entry (dist/extension.js): it loads the extension itself (dist/extension-main.js)
// through V8's code cache, kept in the extension's global storage, so that a window after the
// first does not compile the bundle again. Compiling it was most of activation: 4.3-5.2 ms of
// its 6-7 ms load, against 0.6-0.9 ms from the cache (bench/startup.mjs measures both windows).
// The parts only a command or an agent's question runs are a bundle of their own
// (dist/extension-later.js, loaded on first use: scripts/uiLater.mjs), through a cache of its own;
// so is the core (dist/core.js), which the first worker's start or history listing loads.
// Any trouble with the cache and the bundle is compiled as usual; nothing is lost but the time.
// It imports nothing of the extension and only the types of `vscode`: this file is all that
// runs before the bundle. Its imports are named, as esbuild copies every name of a module
// imported whole (a getter each: node:fs has about a hundred) on every window's path.
import { promises as fsp, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import type * as vscode from 'vscode';

/** What became of the cache: taken, refused by V8 (another V8, other flags), or not there yet. */
export type CacheUse = 'used' | 'rejected' | 'none';

export interface Loaded {
  exports: Record<string, unknown>;
  cache: CacheUse;
  /** Where its cache is kept. */
  file: string;
  /** Writes the cache, unless it was used: after activation, off its path, so the functions activation compiled are in it. */
  save(): Promise<void>;
}

// Node's own wrapper, on the bundle's first line so that its other lines keep their numbers.
const HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const TAIL = '\n})';

/**
 * The cache of one build of the bundle: V8 checks a cache against its own version and flags and
 * the source's length only, so the name carries the bundle's size and time of writing too.
 */
function cacheFile(dir: string, file: string): string {
  const s = statSync(file);
  return join(dir, `${basename(file, '.js')}-${s.size}-${Math.round(s.mtimeMs)}-${process.versions.v8}.cache`);
}

/**
 * Writes the cache aside and renames it (another window reading it meanwhile sees the old file or
 * the new one), then lets go of the caches of earlier builds of the same bundle.
 */
async function write(target: string, data: Buffer, bundle: string): Promise<void> {
  const dir = dirname(target);
  await fsp.mkdir(dir, { recursive: true });
  const aside = `${target}.${process.pid}.tmp`;
  await fsp.writeFile(aside, data);
  await fsp.rename(aside, target);
  const earlier = (await fsp.readdir(dir)).filter((f) => f.startsWith(`${basename(bundle, '.js')}-`) && f.endsWith('.cache') && f !== basename(target));
  await Promise.all(earlier.map((f) => fsp.rm(join(dir, f), { force: true })));
}

/**
 * Runs the CommonJS bundle `file` as `require` would, compiled from its code cache in `dir` when
 * there is one. `save` writes the cache after the bundle has run, so the functions it compiled
 * meanwhile (activation's) are in it too. `siblings`: what the bundle's `require` of these
 * names returns instead of Node's module (another bundle loaded through its own cache).
 */
export function loadWithCodeCache(file: string, dir: string, siblings: Record<string, () => unknown> = {}): Loaded {
  const target = cacheFile(dir, file);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(target);
  } catch {
    // No cache yet: this load makes it.
  }
  let script: Script;
  let run: (...args: unknown[]) => void;
  try {
    script = new Script(HEAD + readFileSync(file, 'utf8') + TAIL, { filename: file, cachedData });
    run = script.runInThisContext() as typeof run;
  } catch {
    // The cache's trouble is not the extension's: the bundle as usual, its own errors surfacing there.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path at run time, which esbuild must not bundle
    return { exports: require(file) as Record<string, unknown>, cache: 'none', file: target, save: () => Promise.resolve() };
  }
  const cache: CacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} as Record<string, unknown> };
  const nodeRequire = createRequire(file);
  const bundleRequire = Object.assign((id: string) => (Object.hasOwn(siblings, id) ? siblings[id]() : nodeRequire(id)), nodeRequire);
  run(module.exports, bundleRequire, module, file, dirname(file));
  return { exports: module.exports, cache, file: target, save: () => (cache === 'used' ? Promise.resolve() : write(target, script.createCachedData(), file)) };
}

/** How long after a bundle's load its cache is written (the first views render meanwhile, or the command runs). */
const SAVE_AFTER_MS = 3000;

/** A bundle this window loaded, and its cache's writing (once). */
class Bundle {
  private saving: Promise<void> | undefined;
  constructor(readonly loaded: Loaded) {
    setTimeout(() => void this.saveOnce(), SAVE_AFTER_MS).unref?.();
  }

  saveOnce(): Promise<void> {
    return (this.saving ??= Promise.resolve().then(() => this.loaded.save()).catch(() => {
      // A cache that cannot be written costs the next window the compilation, nothing else.
    }));
  }
}

let main: Bundle | undefined;
/** dist/extension-later.js, which the bundle requires on first use (src/ui/later.ts). */
let later: Bundle | undefined;
/** dist/core.js, which the bundle requires by its path on first use (extension.ts). */
let core: Bundle | undefined;

export function activate(context: vscode.ExtensionContext): unknown {
  const dir = join(context.globalStorageUri.fsPath, 'code-cache');
  const laterFile = join(__dirname, 'extension-later.js');
  const coreFile = join(__dirname, 'core.js');
  // Through caches of their own as well: a later window's first command compiles none of the
  // later bundle, and its first start compiles none of the core's 900 KB (62 ms of its 150 ms
  // load in plain Node, against 14 ms from the cache; the rest is its modules' own code).
  const siblings = {
    './extension-later.js': () => (later ??= new Bundle(loadWithCodeCache(laterFile, dir))).loaded.exports,
    // By the path the bundle requires it as (extension.ts), which may name it through a link.
    [join(context.extensionPath, 'dist', 'core.js')]: () => (core ??= new Bundle(loadWithCodeCache(coreFile, dir))).loaded.exports,
  };
  main = new Bundle(loadWithCodeCache(join(__dirname, 'extension-main.js'), dir, siblings));
  return (main.loaded.exports.activate as (c: vscode.ExtensionContext) => unknown)(context);
}

/** What became of each bundle's cache in this window (the activation bench and its tests read it). */
export function codeCache(): CacheUse | undefined {
  return main?.loaded.cache;
}

export function laterCodeCache(): CacheUse | undefined {
  return later?.loaded.cache;
}

export function coreCodeCache(): CacheUse | undefined {
  return core?.loaded.cache;
}

/** Writes this window's cache of the bundle now unless it has been (the activation bench's first window waits for it); resolves with its file. */
export async function saveCodeCache(): Promise<string | undefined> {
  await main?.saveOnce();
  return main?.loaded.file;
}

export async function deactivate(): Promise<void> {
  try {
    await (main?.loaded.exports.deactivate as (() => unknown) | undefined)?.();
  } finally {
    await Promise.all([main?.saveOnce(), later?.saveOnce(), core?.saveOnce()]);
  }
}
