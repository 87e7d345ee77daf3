// VS Code keeps its user settings (rpcWorkers.profiles, rpcWorkers.guard.*) outside any workspace:
// a guarded worker whose allowed paths cover the home folder could rewrite them and loosen the
// next worker's guard, as it could the workspace's `.vscode/`. Forbidding a folder that does not
// exist costs nothing, so every editor the extension may run in is listed, not only the one running.
import * as path from 'node:path';

/** The user-data folder names of VS Code and its builds (stable, Insiders, OSS, VSCodium). */
const PRODUCTS = ['Code', 'Code - Insiders', 'Code - OSS', 'VSCodium', 'VSCodium - Insiders'];
/** A remote extension host's data, under the remote home (Remote-SSH, WSL, dev containers). */
const SERVERS = ['.vscode-server', '.vscode-server-insiders', '.vscodium-server'];

/**
 * The folders holding the editor's settings on this system: each user-data folder's `User`
 * (settings.json, profiles' settings, tasks, keybindings) and `Machine` (a remote's settings).
 */
export function editorSettingsDirs(home: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string[] {
  const absolute = (p: string | undefined): p is string => p !== undefined && path.isAbsolute(p);
  const config = platform === 'win32' ? [env.APPDATA] : platform === 'darwin' ? [path.join(home, 'Library', 'Application Support')] : [env.XDG_CONFIG_HOME, path.join(home, '.config')];
  const dataHome = absolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  const userData = [
    ...config.filter(absolute).flatMap((base) => PRODUCTS.map((product) => path.join(base, product))),
    ...(absolute(env.VSCODE_PORTABLE) ? [path.join(env.VSCODE_PORTABLE, 'user-data')] : []),
    path.join(dataHome, 'code-server'),
    ...SERVERS.map((server) => path.join(home, server, 'data')),
  ];
  return [...new Set(userData.flatMap((dir) => [path.join(dir, 'User'), path.join(dir, 'Machine')]))];
}
