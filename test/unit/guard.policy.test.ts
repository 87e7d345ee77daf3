import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  GuardSpecError, judgePath, policyFromSettings, policyFromWire, policyToWire, resolveGuard, type ResolvedPolicy,
} from '../../src/core/guard/policy';
import { probeCaseInsensitive } from '../../src/core/guard/paths';

describe('guard policy: a hostile path corpus against real directories and symlinks', () => {
  let tmp: string;
  let ws: string;
  let outside: string;
  let policy: ResolvedPolicy;

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-policy-')));
    ws = path.join(tmp, 'ws');
    outside = path.join(tmp, 'outside');
    for (const d of ['src', '.git', 'outside-dir-placeholder']) fs.mkdirSync(path.join(ws, d), { recursive: true });
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(ws, '.git', 'config'), 'x');
    fs.writeFileSync(path.join(ws, '.env'), 'SECRET=1');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'outside');
    fs.symlinkSync(outside, path.join(ws, 'out-dir'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'out-file'));
    fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
    fs.symlinkSync('../outside', path.join(ws, 'rel-up'));
    fs.symlinkSync('src', path.join(ws, 'inside-link'));
    fs.symlinkSync('.git', path.join(ws, 'gitlink'));
    fs.symlinkSync('loop2', path.join(ws, 'loop1'));
    fs.symlinkSync('loop1', path.join(ws, 'loop2'));
    fs.linkSync(path.join(outside, 'secret.txt'), path.join(ws, 'hard.txt'));
    // What every pnpm install makes: node_modules/foo links two folders down into .pnpm.
    fs.mkdirSync(path.join(ws, 'node_modules/.pnpm/foo@1.0.0/node_modules/foo'), { recursive: true });
    fs.symlinkSync('.pnpm/foo@1.0.0/node_modules/foo', path.join(ws, 'node_modules/foo'));
    fs.mkdirSync(path.join(ws, 'deep/a/b'), { recursive: true });
    fs.symlinkSync('deep/a/b', path.join(ws, 'short'));
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const judge = (p: unknown, cwd = ws) => judgePath(policy, p, cwd);
  const denied = (p: unknown, rule: RegExp, cwd = ws) => {
    const v = judge(p, cwd);
    assert.equal(v.allowed, false, `${JSON.stringify(p)} should be denied, got ${v.rule}`);
    assert.match(v.rule, rule, `${JSON.stringify(p)}: ${v.rule}`);
    return v;
  };
  const allowed = (p: string, resolved: string, cwd = ws) => {
    const v = judge(p, cwd);
    assert.equal(v.allowed, true, `${JSON.stringify(p)} should be allowed, got ${v.rule}`);
    assert.equal(v.resolved, resolved);
    assert.match(v.rule, /^allowed /);
  };

  describe('allowed', () => {
    it('relative, absolute and not-yet-existing paths inside the root', () => {
      allowed('src/a.ts', path.join(ws, 'src/a.ts'));
      allowed(path.join(ws, 'src/b.ts'), path.join(ws, 'src/b.ts'));
      allowed('new/deep/dir/file.txt', path.join(ws, 'new/deep/dir/file.txt'));
      allowed('src/./c.ts', path.join(ws, 'src/c.ts'));
      allowed('src//d.ts/', path.join(ws, 'src/d.ts'));
      allowed('missing/../src/e.ts', path.join(ws, 'src/e.ts'));
    });
    it('a symlink that stays inside is judged at its target', () => {
      allowed('inside-link/x.ts', path.join(ws, 'src/x.ts'));
    });
    it('Unicode look-alikes of .git are other names, and they stay inside', () => {
      allowed('\uFF0E\uFF47\uFF49\uFF54/config', path.join(ws, '\uFF0E\uFF47\uFF49\uFF54/config')); // fullwidth
      allowed('.g\u0456t/config', path.join(ws, '.g\u0456t/config')); // Cyrillic i
      allowed('.envelope', path.join(ws, '.envelope'));
    });
    it('a very long path inside the root is judged, not refused', () => {
      const long = `${'a/'.repeat(3000)}f.txt`;
      allowed(long, path.join(ws, long));
    });
    it('relative paths resolve against the cwd, not the root', () => {
      allowed('x.ts', path.join(ws, 'src/x.ts'), path.join(ws, 'src'));
    });
  });

  describe('escapes', () => {
    it('../ and absolute paths outside the root', () => {
      assert.equal(denied('../outside/x', /^outside the allowed paths/).resolved, path.join(outside, 'x'));
      denied('../../../../../../etc/passwd', /^outside/);
      denied('/etc/passwd', /^outside/);
      denied('src/../../outside/x', /^outside/);
      denied('../ws-sibling/x', /^outside/); // a common prefix is not containment
    });
    it('symlinked directories and files pointing out', () => {
      assert.equal(denied('out-dir/x', /^outside/).resolved, path.join(outside, 'x'));
      assert.equal(denied('out-file', /^outside/).resolved, path.join(outside, 'secret.txt'));
      assert.equal(denied('rel-up/new.txt', /^outside/).resolved, path.join(outside, 'new.txt'));
    });
    it('a refusal through a symlink says where the path leads, not only the rule', () => {
      // `write "out-dir/x": outside the allowed paths ["…/ws"]` read as a contradiction: out-dir is in ws.
      assert.equal(denied('out-dir/x', /^outside/).rule, `outside the allowed paths ${JSON.stringify([ws])} (it leads to ${JSON.stringify(path.join(outside, 'x'))})`);
      assert.match(denied(path.join(ws, 'gitlink/config'), /^forbidden/).rule, /^forbidden ".*\*\*\/\.git" \(it leads to ".*\/ws\/\.git\/config"\)$/);
      // A path that lands where it reads says nothing more.
      assert.equal(denied('/etc/passwd', /^outside/).rule, `outside the allowed paths ${JSON.stringify([ws])}`);
      assert.equal(denied('src/../../outside/x', /^outside/).rule, `outside the allowed paths ${JSON.stringify([ws])}`);
    });
    it('a dangling symlink is judged where the write would create the file', () => {
      assert.equal(denied('dangling', /^outside/).resolved, path.join(outside, 'not-yet.txt'));
    });
    it('.. after a symlink climbs from the target, as the kernel does', () => {
      assert.equal(denied(path.join(ws, 'out-dir') + '/../escaped.txt', /^outside/).resolved, path.join(tmp, 'escaped.txt'));
    });
    it('.. after a pnpm symlink: the kernel stays inside, pi (Node) removes the .. as text and lands outside: refused', () => {
      // Five `..` climb from the link's target back to ws for the kernel, from ws/node_modules/foo
      // three folders above ws as text: the same tail lands in ws or in `outside`.
      const linkTo = path.join(ws, 'node_modules/foo');
      const textual = path.resolve(linkTo, '../../../../..');
      const raw = `${linkTo}/../../../../../${path.relative(textual, path.join(outside, 'escaped.txt'))}`;
      const v = denied(raw, /^outside the allowed paths .* \(read with "\.\." removed as text first, as pi and Node-based agents write it\)$/);
      assert.equal(v.resolved, path.join(outside, 'escaped.txt'));
    });
    it('.. after a symlink pointing out: the text stays inside, the kernel lands outside: refused, naming the kernel\'s reading', () => {
      for (const raw of [path.join(ws, 'out-dir') + '/../escaped.txt', 'out-dir/../escaped.txt']) {
        const v = denied(raw, /^outside the allowed paths .* \(read with symlinks followed before "\.\.", as the OS writes it for a tool that passes the path as is: it leads to ".*\/escaped\.txt"\)$/);
        assert.equal(v.resolved, path.join(tmp, 'escaped.txt'), raw);
      }
      // Apart but both inside: allowed, where pi writes it.
      allowed(`${ws}/short/../x.ts`, path.join(ws, 'x.ts'));
    });
    it('~ and @ are read the way pi reads them', () => {
      assert.equal(denied('~/x', /^outside/).resolved, path.join(os.homedir(), 'x'));
      denied('~', /^outside/);
      denied('@/etc/passwd', /^outside/);
      denied('~root/.bashrc', /^refused: "~user"/);
    });
    it('a name pi reads apart from the OS (a leading @): the OS\'s reading is judged too, for a tool that passes it as is', () => {
      // pi writes `@at-out/x` to ws/at-out/x (inside); τ, codex and the OS write it through the
      // symlink `@at-out`, outside.
      fs.symlinkSync(outside, path.join(ws, '@at-out'));
      fs.mkdirSync(path.join(ws, 'at-out'));
      const v = denied('@at-out/x', /^outside the allowed paths/);
      assert.equal(v.resolved, path.join(outside, 'x'));
      allowed('@src/y.ts', path.join(ws, 'src/y.ts'));
    });
    it('a file URL is read the way pi 1.x reads it (fileURLToPath, percent-decoded), not as a folder named "file:"', () => {
      assert.equal(denied('file:///etc/passwd', /^outside/).resolved, '/etc/passwd');
      assert.equal(denied(`file://${outside}/x`, /^outside/).resolved, path.join(outside, 'x'));
      denied(`file://${ws}/%2egit/config`, /^forbidden/);
      denied('@file:///etc/passwd', /^outside/);
      denied('file://elsewhere/etc/passwd', /^refused: a file URL pi cannot read/);
      allowed(`file://${ws}/src/url.ts`, path.join(ws, 'src/url.ts'));
    });
    it('a hard link is refused: writing it changes the outside file too', () => {
      denied('hard.txt', /^refused: hard-linked file \(2 links\)/);
    });
  });

  describe('forbidden inside the root', () => {
    it('.git in every spelling', () => {
      for (const p of ['.git', '.git/', '.git/config', '.git/.', '.git/hooks/pre-commit', 'sub/mod/.git/config', path.join(ws, '.git/HEAD')]) {
        denied(p, /^forbidden ".*\*\*\/\.git"$/);
      }
    });
    it('.git by case, trailing dots and spaces, and a symlink to it', () => {
      for (const p of ['.GIT/config', '.Git/hooks/x', '.git./config', '.git /config', '.git\u00A0/config', '.git::$DATA']) {
        denied(p, /^forbidden .*\.git"$/);
      }
      assert.equal(denied('gitlink/config', /^forbidden/).resolved, path.join(ws, '.git/config'));
    });
    it('.git with a code point HFS+ ignores in names (git\'s CVE-2014-9390): on such a volume it is .git', () => {
      for (const p of ['.g\u200Cit/hooks/pre-commit', '.gi\uFEFFt/config', '\u200E.git/config', '.\u206Avscode/settings.json']) denied(p, /^forbidden/);
    });
    it('.env and .env.* anywhere', () => {
      for (const p of ['.env', '.ENV', '.env.local', 'packages/app/.env.production', '.env:stream']) denied(p, /^forbidden .*\.env/);
    });
    it('node_modules anywhere', () => {
      for (const p of ['node_modules/x/index.js', 'packages/a/node_modules/b/c.js', 'NODE_MODULES/y']) denied(p, /^forbidden .*node_modules"$/);
    });
    it('relative to a cwd below the root', () => {
      denied('../.git/config', /^forbidden/, path.join(ws, 'src'));
    });
  });

  describe('refused outright', () => {
    it('NUL bytes, empty, non-strings, overlong paths, symlink loops, relative cwd', () => {
      denied('src/a\0.ts', /^refused: NUL byte/);
      denied('', /^refused: empty path/);
      denied(42, /^refused: path is not a string/);
      denied('a'.repeat(40000), /^refused: path longer than/);
      denied('loop1/x', /^refused: symlink loop/);
      denied('src/a.ts', /^refused: cwd/, 'relative/cwd');
    });
  });

  describe('explicit specs', () => {
    it('allowed paths narrow the root, forbidden wins, and the defaults still apply', () => {
      const p = resolveGuard({ allowedPaths: [path.join(ws, 'src'), path.join(ws, '.git')], forbiddenPaths: [path.join(ws, 'src/generated')] }, ws);
      assert.ok(p);
      assert.equal(judgePath(p, 'src/a.ts', ws).allowed, true);
      assert.match(judgePath(p, 'README.md', ws).rule, /^outside/);
      assert.match(judgePath(p, 'src/generated/x.ts', ws).rule, /^forbidden ".*src\/generated"$/);
      assert.match(judgePath(p, '.git/config', ws).rule, /^forbidden/);
      assert.equal(p.bash, false);
    });
    it('no guard for false/undefined; bash only when the spec says so', () => {
      assert.equal(resolveGuard(false, ws), null);
      assert.equal(resolveGuard(undefined, ws), null);
      assert.equal(resolveGuard({ allowedPaths: [ws], forbiddenPaths: [], bash: true }, ws)?.bash, true);
    });
    it('an invalid spec throws instead of meaning no guard', () => {
      const bad: unknown[] = [
        { allowedPaths: ['relative'], forbiddenPaths: [] },
        { allowedPaths: [`${ws}\0`], forbiddenPaths: [] },
        { allowedPaths: [ws] },
        { allowedPaths: [ws], forbiddenPaths: [], allowed_paths: [] },
        { allowedPaths: [ws], forbiddenPaths: [`${ws}/**/../x`] },
      ];
      for (const spec of bad) assert.throws(() => resolveGuard(spec as never, ws), GuardSpecError, JSON.stringify(spec));
      assert.throws(() => resolveGuard(true, 'relative-root'), GuardSpecError);
    });
    it('an empty allowed list allows nothing', () => {
      const p = resolveGuard({ allowedPaths: [], forbiddenPaths: [] }, ws);
      assert.match(judgePath(p as ResolvedPolicy, 'src/a.ts', ws).rule, /^outside the allowed paths \[\]/);
    });
  });

  describe('case sensitivity', () => {
    it('allowed paths ignore case only where the volume does', () => {
      const upper = path.join(ws.toUpperCase(), 'x.txt');
      assert.equal(judgePath(resolveGuard(true, ws, { caseInsensitive: true }) as ResolvedPolicy, upper, ws).allowed, true);
      assert.equal(judgePath(resolveGuard(true, ws, { caseInsensitive: false }) as ResolvedPolicy, upper, ws).allowed, false);
    });
    it('probing finds this volume as the OS formats it', function () {
      if (process.platform !== 'linux') this.skip();
      assert.equal(probeCaseInsensitive(ws), false);
    });
  });

  describe('links that mean another process', () => {
    // /proc/self is the process that looks: the guard resolved the host's own fds and cwd, and a
    // worker writing /proc/self/fd/N writes what its own fd N is, somewhere the guard never saw.
    it('a path through /proc/self, /proc/thread-self or /dev/fd is refused, though the host\'s own link lands inside', function () {
      if (process.platform !== 'linux') this.skip();
      const fd = fs.openSync(path.join(ws, 'src', 'open-in-host.txt'), 'w');
      try {
        for (const raw of [`/proc/self/fd/${fd}`, `/dev/fd/${fd}`, `/proc/thread-self/fd/${fd}`, `/proc/${process.pid}/fd/${fd}`]) {
          const v = judgePath(policy, raw, ws);
          assert.equal(v.allowed, false, raw);
          assert.match(v.rule, /^refused: .*another process/, raw);
        }
      } finally {
        fs.closeSync(fd);
      }
    });
  });

  describe('settings', () => {
    it('workspace-relative globs, absolute paths and ${workspaceFolder}', () => {
      const spec = policyFromSettings({ allowed: ['src', '${workspaceFolder}/docs', '/abs/x'], forbidden: ['**/*.pem', 'secrets/'] }, '/w');
      assert.deepEqual(spec, { allowedPaths: ['/w/src', '/w/docs', '/abs/x'], forbiddenPaths: ['/w/**/*.pem', '/w/secrets/'], bash: false });
      assert.deepEqual(policyFromSettings({ allowed: [], bash: true }, '/w'), { allowedPaths: ['/w'], forbiddenPaths: [], bash: true });
    });
    it('entries it cannot honour throw rather than being dropped', () => {
      // A ".." after a wildcard: refused relative as it is absolute, not normalised into the folder's parent.
      for (const e of ['~/x', '${env:HOME}/x', '**/*.{pem,key}', 'a\0b', '', 'src/*/../..', '**/../..', '${workspaceFolder}/*/../x']) {
        assert.throws(() => policyFromSettings({ forbidden: [e] }, '/w'), GuardSpecError, e);
      }
      assert.throws(() => policyFromSettings({}, 'rel'), GuardSpecError);
    });
    it('a settings glob forbids what it names and nothing else', () => {
      const p = resolveGuard(policyFromSettings({ forbidden: ['**/*.pem'] }, ws), ws) as ResolvedPolicy;
      assert.match(judgePath(p, 'keys/id.pem', ws).rule, /^forbidden ".*\*\*\/\*\.pem"$/);
      assert.equal(judgePath(p, 'keys/id.pub', ws).allowed, true);
    });
    it('a backslash between folders (settings written on Windows) is a separator on every system', () => {
      // Read as one name with a backslash in it, `secrets\\**` forbade nothing on Linux and macOS.
      const p = resolveGuard(policyFromSettings({ allowed: ['src\\**'], forbidden: ['src\\secrets\\**', '${workspaceFolder}\\src\\*.pem'] }, ws), ws) as ResolvedPolicy;
      assert.match(judgePath(p, 'src/secrets/key', ws).rule, /^forbidden ".*secrets\/\*\*"$/);
      assert.equal(judgePath(p, 'src/id.pem', ws).allowed, false);
      assert.equal(judgePath(p, 'src/a.ts', ws).allowed, true);
      // A folder whose own name holds a backslash (Linux allows one) keeps it.
      assert.deepEqual(policyFromSettings({ allowed: ['${workspaceFolder}\\src', 'lib'] }, '/w/a\\b').allowedPaths, ['/w/a\\b/src', '/w/a\\b/lib']);
    });
    it('a colon is an ordinary character off Windows: a glob still covers what follows it', () => {
      const p = resolveGuard(policyFromSettings({ forbidden: ['backups/*.sql'] }, ws), ws) as ResolvedPolicy;
      for (const name of ['backups/db-2024-01-01.sql', 'backups/db-2024-01-01T10:00.sql', 'a:b.code-workspace', '.git:x/config']) {
        assert.equal(judgePath(p, name, ws).allowed, false, name);
      }
      assert.equal(judgePath(p, 'backups/db-2024-01-01T10:00.txt', ws).allowed, true);
    });
  });

  describe('wire', () => {
    it('the policy survives the trip to the extension', () => {
      const back = policyFromWire(JSON.parse(JSON.stringify(policyToWire(policy, ws))));
      assert.ok(back.ok);
      assert.equal(back.cwd, ws);
      for (const p of ['src/a.ts', '.git/config', 'out-dir/x', '.env.local']) {
        assert.deepEqual(judgePath(back.policy, p, ws), judgePath(policy, p, ws), p);
      }
    });
    it('a malformed wire value is an error', () => {
      assert.equal(policyFromWire({ allowedPaths: [ws], forbiddenPaths: [], bash: 'yes', cwd: ws }).ok, false);
      assert.equal(policyFromWire(null).ok, false);
    });
  });
});
