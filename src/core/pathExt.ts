// The file names Windows tries for a command on PATH: the name with each of PATHEXT's
// extensions, in order (npm's claude-agent-acp.cmd, pip's ffwf-tau.exe), or the name alone when it
// already ends in one. The extensionless file npm writes beside a .cmd (a sh script for Git Bash)
// is not a program Windows can start, so a bare name is never taken as it is.
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

export function windowsNames(name: string, pathExt = process.env.PATHEXT): string[] {
  const exts = (pathExt || DEFAULT_PATHEXT).split(';').filter(Boolean).map((e) => e.toLowerCase());
  return exts.some((e) => name.toLowerCase().endsWith(e)) ? [name] : exts.map((e) => name + e);
}

/**
 * Whether a command names a file (from the worker's folder when relative) rather than a program
 * to look up on the PATH: on Windows "\\" separates folders too (`C:\\Tools\\pi.exe`, `.\\bin\\agent.cmd`).
 */
export function isPathCommand(command: string, platform = process.platform): boolean {
  return command.includes('/') || (platform === 'win32' && command.includes('\\'));
}
