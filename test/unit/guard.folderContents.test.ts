import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { auditKindCall } from '../../src/core/guard/audit';
import { forbiddenInside } from '../../src/core/guard/contents';
import { resolveGuard, type ResolvedPolicy } from '../../src/core/guard/policy';
import { permissionVerdict } from '../../src/core/guard/wall';

describe('guard: a delete or a move of a folder is judged by what the folder holds', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;
  const put = (rel: string, text = 'x') => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  };
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-folder-')));
    ws = path.join(tmp, 'ws');
    put('pkg/src/a.ts');
    put('pkg/.env', 'K=v');
    put('web/index.html');
    put('web/node_modules/x/index.js');
    put('conf/.vscode/settings.json', '{}');
    put('vendor/lib/.git/config');
    put('notes/a.md');
    put('plain/a/b.txt');
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const ask = (toolKind: string, paths: string[]) => ({ toolKind, args: null, diffs: [], locations: paths.map((p) => ({ path: p, line: null })) });

  it('deleting a folder that holds a forbidden name is refused by the wall and flagged by the audit, naming the file inside', async () => {
    const cases: Array<[string, RegExp]> = [
      ['pkg', /^delete "pkg": the folder holds "pkg\/\.env", which would be deleted with it: forbidden ".*\*\*\/\.env"$/],
      ['web', /^delete "web": the folder holds "web\/node_modules", which would be deleted with it: forbidden ".*\*\*\/node_modules"$/],
      ['conf', /^delete "conf": the folder holds "conf\/\.vscode", .*forbidden ".*\*\*\/\.vscode"$/],
      ['vendor', /^delete "vendor": the folder holds "vendor\/lib\/\.git", .*forbidden ".*\*\*\/\.git"$/],
      [ws, /^delete ".*ws": the folder holds ".*ws\/\.git", .*forbidden/],
    ];
    fs.mkdirSync(path.join(ws, '.git'), { recursive: true });
    for (const [raw, expected] of cases) {
      assert.match((await permissionVerdict(policy, ask('delete', [raw]), ws)).veto ?? '', expected, raw);
      assert.match((await auditKindCall(policy, 'delete', [raw], ws)).violation ?? '', expected, raw);
    }
  });

  it('moving such a folder away is refused too; a folder holding nothing forbidden is deleted or moved freely', async () => {
    const veto = (await permissionVerdict(policy, ask('move', ['pkg', 'pkg2']), ws)).veto ?? '';
    assert.match(veto, /^move "pkg": the folder holds "pkg\/\.env", which would be moved or replaced with it: forbidden/);
    assert.match((await auditKindCall(policy, 'move', [path.join(ws, 'web'), path.join(ws, 'site')], ws)).violation ?? '', /holds ".*web\/node_modules"/);
    assert.deepEqual(await permissionVerdict(policy, ask('delete', ['plain']), ws), { veto: null, judged: true });
    assert.deepEqual(await permissionVerdict(policy, ask('move', ['plain', 'plain2']), ws), { veto: null, judged: true });
    assert.equal((await auditKindCall(policy, 'delete', ['plain'], ws)).violation, null);
  });

  it('a move whose new name makes its contents forbidden is refused by the destination\'s name', async () => {
    assert.match((await permissionVerdict(policy, ask('move', ['notes', '.vscode']), ws)).veto ?? '', /^move "\.vscode": forbidden/);
    assert.match((await auditKindCall(policy, 'move', ['notes', 'a/.git'], ws)).violation ?? '', /^move "a\/\.git": forbidden/);
  });

  it('a symlink inside is judged by its own name, not followed: a link to a forbidden file passes, a link named .env does not', async () => {
    put('links/keep.txt');
    fs.symlinkSync(path.join(ws, 'pkg'), path.join(ws, 'links', 'to-pkg'));
    fs.symlinkSync(path.join(ws, 'pkg', '.env'), path.join(ws, 'links', 'env-link'));
    assert.deepEqual(await permissionVerdict(policy, ask('delete', ['links']), ws), { veto: null, judged: true });
    fs.symlinkSync(path.join(ws, 'plain', 'a', 'b.txt'), path.join(ws, 'links', '.env'));
    assert.match((await permissionVerdict(policy, ask('delete', ['links']), ws)).veto ?? '', /holds "links\/\.env"/);
    // A delete of a link to a folder removes the link: what the folder holds stays.
    fs.symlinkSync(path.join(ws, 'pkg'), path.join(ws, 'pkg-link'));
    assert.deepEqual(await permissionVerdict(policy, ask('delete', ['pkg-link']), ws), { veto: null, judged: true });
  });

  it('a folder too big to walk is refused, saying so, rather than passed unchecked; entries at any depth count', async () => {
    put('big/a/b/c.txt');
    put('big/d.txt');
    // big holds a, a/b, a/b/c.txt and d.txt.
    assert.equal(await forbiddenInside(policy.forbidden, path.join(ws, 'big'), { limit: 4 }), null);
    assert.deepEqual(await forbiddenInside(policy.forbidden, path.join(ws, 'big'), { limit: 3 }), { kind: 'unchecked', reason: 'the folder holds more than 3 entries, more than the guard walks to look for a forbidden one' });
  });
});

describe('guard: a folder moved is judged by where what it holds lands', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-moved-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'drafts'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'drafts', '001_drop_users.sql'), 'DROP TABLE users;');
    fs.mkdirSync(path.join(ws, 'notes'));
    fs.writeFileSync(path.join(ws, 'notes', 'a.md'), '');
    // A forbidden pattern with a wildcard under its folder: the folder itself is not forbidden.
    fs.mkdirSync(path.join(ws, 'vault'));
    const forbiddenPaths = [path.join(ws, 'migrations', '*.sql'), path.join(ws, 'vault', '*', '*.sql')];
    policy = resolveGuard({ allowedPaths: [ws], forbiddenPaths }, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const ask = (paths: string[]) => ({ toolKind: 'move', args: null, diffs: [], locations: paths.map((p) => ({ path: p, line: null })) });

  it('moving a folder to a name under which a file it holds is forbidden is refused, naming that file', async () => {
    const expected = /^move "drafts": the folder holds "drafts\/001_drop_users\.sql", which would land at "migrations\/001_drop_users\.sql": forbidden ".*migrations\/\*\.sql"$/;
    assert.match((await permissionVerdict(policy, ask(['drafts', 'migrations']), ws)).veto ?? '', expected);
    assert.match((await auditKindCall(policy, 'move', ['drafts', 'migrations'], ws)).violation ?? '', expected);
    // A file moved there itself is judged by its new name, as before.
    assert.match((await permissionVerdict(policy, ask(['drafts/001_drop_users.sql', 'migrations/001.sql']), ws)).veto ?? '', /^move "migrations\/001\.sql": forbidden/);
  });

  it('moved to a folder that is there already, it is judged where `mv` puts it too: inside that folder, under its own name', async () => {
    assert.match((await permissionVerdict(policy, ask(['drafts', 'vault']), ws)).veto ?? '', /^move "drafts": the folder holds "drafts\/001_drop_users\.sql", which would land at "vault\/drafts\/001_drop_users\.sql": forbidden/);
  });

  it('a folder whose files are not forbidden under the new name moves freely', async () => {
    assert.deepEqual(await permissionVerdict(policy, ask(['notes', 'migrations']), ws), { veto: null, judged: true });
    assert.deepEqual(await permissionVerdict(policy, ask(['drafts', 'archive']), ws), { veto: null, judged: true });
  });
});

describe('guard: the walk of a folder deleted or moved lets the event loop run', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-yield-')));
    ws = path.join(tmp, 'ws');
    // 3,000 entries in 30 folders, a forbidden name in the last one: found only by a walk of all.
    for (let d = 0; d < 30; d++) {
      fs.mkdirSync(path.join(ws, 'many', `d${d}`), { recursive: true });
      for (let f = 0; f < 99; f++) fs.writeFileSync(path.join(ws, 'many', `d${d}`, `f${f}.txt`), '');
    }
    fs.writeFileSync(path.join(ws, 'many', 'd29', '.env'), 'K=v');
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  // The editor's thread is the host's only one: a walk that held it to the end froze the editor
  // while an agent's delete was judged. A callback queued after the judgement starts runs before
  // its verdict only if the walk let the event loop turn.
  const ranFirst = async <T>(judging: () => T | Promise<T>): Promise<{ ran: boolean; verdict: T }> => {
    let ran = false;
    const verdict = judging();
    setImmediate(() => (ran = true));
    const settled = await verdict;
    return { ran, verdict: settled };
  };

  it('the wall and the audit judge a folder of 3,000 entries without holding the thread to the end, and still find the forbidden one', async () => {
    const deleting = { toolKind: 'delete', args: null, diffs: [], locations: [{ path: 'many', line: null }] };
    const wall = await ranFirst(() => permissionVerdict(policy, deleting, ws));
    assert.equal(wall.ran, true, 'the event loop ran while the wall walked');
    assert.match(wall.verdict.veto ?? '', /^delete "many": the folder holds "many\/d29\/\.env", which would be deleted with it/);
    const audit = await ranFirst(() => auditKindCall(policy, 'move', ['many', 'moved'], ws));
    assert.equal(audit.ran, true, 'the event loop ran while the audit walked');
    assert.match(audit.verdict.violation ?? '', /^move "many": the folder holds "many\/d29\/\.env", which would be moved or replaced with it/);
  });
});
