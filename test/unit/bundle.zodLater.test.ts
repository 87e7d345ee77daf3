// scripts/zodLater.mjs: the forwarders the extension's bundle has for zod/mini are the names the
// sources call, whatever each file calls zod; an import the forwarders cannot serve fails the build.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const load = () => import('../../scripts/zodLater.mjs');

describe('bundles: zod/mini loaded on first use (scripts/zodLater.mjs)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'rpc-workers-zodlater-'));
    mkdirSync(path.join(root, 'src', 'deep'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, text: string) => writeFileSync(path.join(root, 'src', file), text);

  it('lists the functions called through each file\'s name for zod, and not types or other objects', async () => {
    write('a.ts', "import * as z from 'zod/mini';\nexport const a = z.object({ n: z.optional(z.string()) });\nexport type A = z.infer<typeof a>;\n");
    write('deep/b.ts', 'import * as zm from "zod/mini";\nexport const b = zm.enum([\'x\']);\nconst notZod = { string: 1 };\nexport const c = notZod.string;\n');
    assert.deepEqual((await load()).usedZodNames(root), ['enum', 'object', 'optional', 'string']);
  });

  it('refuses a name imported by itself, a default import and a re-export, naming the file', async () => {
    const { usedZodNames } = await load();
    for (const line of ["import { string } from 'zod/mini';", "import zod from 'zod/mini';", "export * from 'zod/mini';", "export { string } from 'zod/mini';", "export * as z from 'zod/mini';"]) {
      write('a.ts', `${line}\n`);
      assert.throws(() => usedZodNames(root), (e: Error) => e.message.startsWith('src/a.ts: ') && e.message.includes(line.slice(0, -1)), line);
    }
  });

  it('passes a type-only import', async () => {
    write('a.ts', "import type * as z from 'zod/mini';\nexport type T = z.ZodMiniType;\n");
    assert.deepEqual((await load()).usedZodNames(root), []);
  });

  it('reads an import without its semicolon (prettier checks only some files)', async () => {
    write('a.ts', "import * as z from 'zod/mini'\nexport const a = z.string()\n");
    assert.deepEqual((await load()).usedZodNames(root), ['string']);
  });

  it('a name of zod the forwarders lack fails the build, not the first parse', async () => {
    // A use the scan does not see (here a file outside src/): esbuild only warned, and the name was undefined at run time.
    write('entry.ts', "import * as z from 'zod/mini';\nexport const a = z.base64();\n");
    const { zodLater } = await load();
    await assert.rejects(
      esbuild.build({ entryPoints: [path.join(root, 'src', 'entry.ts')], bundle: true, write: false, platform: 'node', format: 'cjs', logLevel: 'silent', plugins: [zodLater] }),
      (e: Error) => /base64/.test(e.message),
    );
  });

  it('--watch builds a zod/mini with every function, as the forwarders follow each edit and it is built once', async () => {
    const { zodBundle } = await load();
    const outfile = path.join(root, 'zod-mini.js');
    await esbuild.build({ ...zodBundle({ bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent' }, outfile, { every: true }) });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle just built
    const built = require(outfile) as Record<string, unknown>;
    assert.equal(typeof built.base64, 'function', 'a function the sources do not call yet');
  });
});
