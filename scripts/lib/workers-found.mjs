// Which real workers `npm start` can offer: τ and pi as the extension looks for them (the
// workspace's node_modules/.bin, then PATH), and, when they are not there, the copies `npm test`
// installed (τ and pi 1.x in the cache, pi 0.73.1 as this repo's devDependency). A worker found
// only in one of those is offered through a folder of links, put first on code-server's PATH
// (links, not the install's own folder: a venv's bin would also put its python first); one found
// nowhere is named with the command that installs it.
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ACP_AGENTS, acpAgentDir, pi1Command, pi1Dir, tauCommand, tauDir, PI1_VERSION, TAU_VERSION } from '../ensure-workers.mjs';
import { repoRoot } from './paths.mjs';

const executable = (file) => {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

function onPath(names, dirs) {
  for (const name of names) for (const dir of dirs) if (dir && executable(join(dir, name))) return join(dir, name);
  return null;
}

export const WORKERS = [
  {
    name: 'τ', commands: ['ffwf-tau', 'tau'],
    install: 'pipx install ffwf-tau-coding-agent   (Python 3.12 or newer)',
    config: '~/.tau/config.json (README: "Your first real worker")',
    cached: () => [{ file: tauCommand(), what: `τ ${TAU_VERSION} installed by npm test`, complete: join(tauDir(), '.complete') }],
  },
  {
    name: 'pi', commands: ['pi'],
    install: 'npm install -g @earendil-works/pi-coding-agent   (Node 22.19 or newer)',
    config: '~/.pi/agent/models.json and a profile naming the model (README: "Your first real worker")',
    cached: () => [
      { file: pi1Command(), what: `pi ${PI1_VERSION} installed by npm test`, complete: join(pi1Dir(), '.complete') },
      { file: join(repoRoot, 'node_modules', '.bin', 'pi'), what: 'pi 0.73.1, this repository\'s devDependency' },
    ],
  },
  // The ACP agents, by the command Start Worker looks for (src/ui/settings/profiles.ts ACP_AGENTS).
  ...Object.entries(ACP_AGENTS).map(([key, a]) => ({
    name: `ACP ${a.name}`, commands: [a.bin],
    install: `npm install -g ${a.package}`,
    config: 'its own key or login (README: "ACP agents")',
    cached: () => [{ file: a.command(), what: `${a.package} ${a.version} installed by npm test`, complete: join(acpAgentDir(key), '.complete') }],
  })),
];

/**
 * PATH as the person has it. `npm start` runs under npm, which puts this repository's
 * node_modules/.bin (and each parent folder's) first: there, pi is the devDependency 0.73.1, which
 * was then "found on your PATH" and, first on code-server's PATH too, shadowed the person's own pi
 * and the pi 1.x npm test installed. Without those folders it is offered for what it is (cached()).
 */
export function personsPath(pathEnv = process.env.PATH ?? '', root = repoRoot) {
  const npmBins = new Set();
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    npmBins.add(join(dir, 'node_modules', '.bin'));
    if (dirname(dir) === dir) break;
  }
  return pathEnv.split(delimiter).filter((d) => !d || !npmBins.has(resolve(d))).join(delimiter);
}

/**
 * Each worker: `{ name, found: { command, where } | null, install, config }`, and `links`, the
 * `{ name, target }` to make in a folder first on code-server's PATH (see linkWorkers).
 */
export function findWorkers({ workspace = null, pathEnv = process.env.PATH ?? '', cache = true } = {}) {
  const workspaceBin = workspace ? join(workspace, 'node_modules', '.bin') : null;
  const dirs = [...(workspaceBin ? [workspaceBin] : []), ...pathEnv.split(delimiter)];
  const links = [];
  const workers = WORKERS.map((w) => {
    const command = onPath(w.commands, dirs);
    const where = workspaceBin && dirname(command ?? '') === workspaceBin ? 'in the workspace\'s node_modules/.bin' : 'on your PATH';
    if (command) return { ...w, found: { command, where } };
    const copy = cache ? w.cached().find((c) => executable(c.file) && (!c.complete || existsSync(c.complete))) : null;
    if (!copy) return { ...w, found: null };
    links.push({ name: w.commands[0], target: copy.file });
    return { ...w, found: { command: copy.file, where: copy.what } };
  });
  return { workers, links };
}

/** Makes `links` in `dir` (emptied first); returns `dir` for PATH, or null when there are none. */
export function linkWorkers(links, dir) {
  if (!links.length) return null;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const l of links) symlinkSync(l.target, join(dir, l.name));
  return dir;
}

/** What `npm start` prints about them. */
export function describeWorkers({ workers }) {
  const lines = [];
  for (const w of workers) {
    if (w.found) lines.push(`  ${w.name}: found (${w.found.where}: ${w.found.command}); Start Worker offers it. It reads its model from ${w.config}.`);
    else lines.push(`  ${w.name}: not found. Install it with: ${w.install}`);
  }
  return lines;
}
