// Small file operations the history shares: whole-file replacement by atomic rename (a reader
// or another window sees the old file or the new one, never half of either), and reading a
// JSON file against a schema.
import { randomUUID } from 'node:crypto';
import { promises as fsp, renameSync, rmSync, writeFileSync } from 'node:fs';
import { en } from 'zod/locales';
import type * as z from 'zod/mini';
import type { LazySchema } from '../../protocol/lazySchema';

const tmpName = (file: string) => `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;

export function replaceFileSync(file: string, text: string): void {
  const tmp = tmpName(file);
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

export async function replaceFile(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = tmpName(file);
  try {
    await fsp.writeFile(tmp, data, { mode: 0o600 });
    await fsp.rename(tmp, file);
  } catch (error) {
    await fsp.rm(tmp, { force: true });
    throw error;
  }
}

export type JsonRead<T> = { ok: true; value: T } | { ok: false; missing: boolean; error: string };

// zod/mini says only "Invalid input" unless a locale is loaded, and dist/extension-later.js (which
// lists past sessions) has none: a record that does not fit is named in English words here.
let english: z.core.$ZodErrorMap | undefined;

export async function readJson<T extends z.ZodMiniType>(file: string, schema: LazySchema<T>): Promise<JsonRead<z.infer<T>>> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, missing: code === 'ENOENT', error: (error as Error).message };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, missing: false, error: `not JSON: ${(error as Error).message}` };
  }
  const parsed = schema.safeParse(raw, { error: (english ??= en().localeError) });
  if (!parsed.success) return { ok: false, missing: false, error: parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { ok: true, value: parsed.data as z.infer<T> };
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
