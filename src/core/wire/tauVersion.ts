// τ's version, for the tree's tooltip: read from the package's metadata beside the console script
// (a venv's `lib/python3.X/site-packages/ffwf_tau_coding_agent-<version>.dist-info`), which costs
// no process; else asked with `--version` ("tau 0.15.0") while the worker starts. Never fails
// for not knowing: an unknown version is null.
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { whichOnPath, type Preflight } from './piVersion';
import { askVersion } from './askVersion';

const DIST_INFO = /^ffwf_tau_coding_agent-(\d+\.\d+\.\d+[^/]*)\.dist-info$/;

function fromMetadata(script: string): string | null {
  try {
    const lib = path.join(path.dirname(realpathSync(script)), '..', 'lib');
    for (const py of readdirSync(lib)) {
      const site = path.join(lib, py, 'site-packages');
      let names: string[];
      try { names = readdirSync(site); } catch { continue; }
      for (const name of names) {
        const m = DIST_INFO.exec(name);
        if (m) return m[1];
      }
    }
  } catch { /* not a venv layout */ }
  return null;
}

/** Only τ's own console scripts are asked; `isTau` says whether `command` is one. */
export function tauPreflight(command: string, isTau: boolean, env: Record<string, string | undefined>, cwd: string, timeoutMs = 10_000): Promise<Preflight> {
  if (!isTau) return Promise.resolve({ ok: true, version: null });
  const script = path.isAbsolute(command) ? command : whichOnPath(command, env.PATH);
  const known = script ? fromMetadata(script) : null;
  if (known) return Promise.resolve({ ok: true, version: known });
  return Promise.resolve({ ok: true, version: null, later: askVersion(command, env, cwd, timeoutMs, (out) => out.match(/\b(\d+\.\d+\.\d+\S*)/)?.[1] ?? null) });
}
