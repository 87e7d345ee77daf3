// The parts of the extension that only a command or an agent's question runs, loaded on first use: they
// are a bundle of their own (dist/extension-later.js, scripts/uiLater.mjs), so that a first window,
// which has no code cache yet, does not compile them at activation (issue 24).
import { trustState } from './settings/trust';

export type LaterParts = typeof import('./laterParts');

let parts: LaterParts | undefined;

export function later(): LaterParts {
  if (!parts) {
    let loaded: LaterParts;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle makes this require('./extension-later.js')
      loaded = require('./laterParts') as LaterParts;
    } catch (error) {
      // What the command's failure says: Node's own words name a stat or a module, not what failed.
      throw new Error(`RPC Workers could not load dist/extension-later.js, which its commands and agents' questions run: ${(error as Error).message}. Reload the window; if that does not help, reinstall the extension.`, { cause: error });
    }
    // That bundle has copies of the modules both use; trust's is the one with state (the host
    // tests swap it), so the copy there asks this one.
    if (loaded.trustState !== trustState) loaded.trustState.isTrusted = () => trustState.isTrusted();
    parts = loaded;
  }
  return parts;
}
