// The host's own write of an agent's file, made to the physical path the guard judged and only if
// the file there is still the one judged: between the check and the write (an awaited editor step)
// the agent's shell, or any process, may swap a symlink in, and a write by the path's spelling
// would follow it out of the policy. Node has no openat(), so this is as far as it goes: the last
// name is opened without following a link and the opened file is compared with the judged one,
// but the folders above it are still walked by the kernel at open time, so they can still race.
// A folder swapped for a link there is caught for an existing file (another inode is opened, and
// refused before a byte is written); for a new file the write is refused too, but only after the
// open made an empty file where the link led (and mkdir may have made folders there).
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/** The file at the judged path is not the one judged: nothing was written. */
export class ChangedUnderCheck extends Error {}

/** Not defined on Windows, where a write does not follow a link's last name the same way anyway. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Writes `content` (UTF-8) over the file at `place`, a physical path (its folders symlink-free)
 * the guard judged, `judged` its stat then (null: no file was there, and one is made).
 * Throws ChangedUnderCheck when what is there now is not what was judged.
 */
export async function writeJudged(place: string, judged: Stats | null, content: string): Promise<void> {
  const folder = path.dirname(place);
  if (!judged) await mkdir(folder, { recursive: true });
  // Not O_TRUNC: the file is emptied only once it is known to be the judged one. O_EXCL for a new
  // file: one that appeared since the check (a link, another file's hard link) is not taken over.
  const flags = constants.O_WRONLY | NOFOLLOW | (judged ? 0 : constants.O_CREAT | constants.O_EXCL);
  let handle: FileHandle;
  try {
    handle = await open(place, flags, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the last name is a link now; EEXIST: a new file's name is taken; ENOENT: it is gone.
    if (code === 'ELOOP' || code === 'EEXIST' || code === 'ENOENT' || code === 'EMLINK') throw new ChangedUnderCheck(`${code} opening ${place}`);
    throw error;
  }
  try {
    const now = await handle.stat();
    if (!now.isFile()) throw new ChangedUnderCheck(`${place} is no longer a regular file`);
    if (judged) {
      if (now.dev !== judged.dev || now.ino !== judged.ino) throw new ChangedUnderCheck(`${place} is another file than the one judged`);
      // A hard link made since: the write would change that other name's file too.
      if (now.nlink > judged.nlink) throw new ChangedUnderCheck(`${place} was hard-linked since it was judged`);
    } else {
      // Each cause said as found: the folder moved, the name is another file's, or a hard link.
      const [folderNow, there] = await Promise.all([realpath(folder), lstat(place)]);
      if (folderNow !== folder) throw new ChangedUnderCheck(`the folder of ${place} is not the one judged: it leads to ${folderNow} now`);
      if (there.dev !== now.dev || there.ino !== now.ino) throw new ChangedUnderCheck(`${place} is another file than the one just made`);
      if (now.nlink !== 1) throw new ChangedUnderCheck(`${place} was hard-linked as it was made`);
    }
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}
