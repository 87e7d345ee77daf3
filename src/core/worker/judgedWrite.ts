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
 * `adapt`: over an existing file, what is written is made from `content` and the file's present
 * bytes, read from the file judged (opened once, after its check: no second path to race).
 * Returns the text written. Throws ChangedUnderCheck when what is there now is not what was judged.
 */
export async function writeJudged(place: string, judged: Stats | null, content: string, adapt?: (text: string, present: Buffer) => string): Promise<string> {
  const folder = path.dirname(place);
  if (!judged) await mkdir(folder, { recursive: true });
  // Not O_TRUNC: the file is emptied only once it is known to be the judged one. O_EXCL for a new
  // file: one that appeared since the check (a link, another file's hard link) is not taken over.
  const flags = NOFOLLOW | (judged ? 0 : constants.O_CREAT | constants.O_EXCL);
  let reading = judged !== null && adapt !== undefined;
  let handle: FileHandle;
  try {
    handle = await openJudged(place, flags | (reading ? constants.O_RDWR : constants.O_WRONLY));
  } catch (error) {
    // A file that may be written but not read (rare) is written as given, as before.
    if (!reading || (error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
    reading = false;
    handle = await openJudged(place, flags | constants.O_WRONLY);
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
    const text = reading && adapt ? adapt(content, await readAt(handle, now.size)) : content;
    await handle.truncate(0);
    await handle.writeFile(text, 'utf8');
    return text;
  } finally {
    await handle.close();
  }
}

/** Opens the judged path; a link, a taken name or a gone file there now is ChangedUnderCheck. */
async function openJudged(place: string, flags: number): Promise<FileHandle> {
  try {
    return await open(place, flags, 0o666);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the last name is a link now; EEXIST: a new file's name is taken; ENOENT: it is gone.
    if (code === 'ELOOP' || code === 'EEXIST' || code === 'ENOENT' || code === 'EMLINK') throw new ChangedUnderCheck(`${code} opening ${place}`);
    throw error;
  }
}

/**
 * The whole file, by positioned reads: the handle's own position stays at 0, where the write
 * that follows starts (a plain read would leave it at the end, and the write after a hole).
 */
async function readAt(handle: FileHandle, size: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const buffer = Buffer.alloc(Math.max(size - position, 64 * 1024));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return Buffer.concat(chunks);
    chunks.push(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
}
