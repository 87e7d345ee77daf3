import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { auditKindCall, auditToolCall, extractPaths, extractRelativeNames, patchPaths } from '../../src/core/guard/audit';
import { resolveGuard, type ResolvedPolicy } from '../../src/core/guard/policy';
import { permissionVerdict } from '../../src/core/guard/wall';
import type { AgentEvent, Untimed } from '../../src/core/events/agentEvent';
import { auditToolCallOf, AuditWhenRun, type AuditPort } from '../../src/core/worker/toolAudit';

describe('guard audit: judging reported tool calls of workers without an in-process guard', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;

  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-audit-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
    fs.symlinkSync(tmp, path.join(ws, 'up'));
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a write inside the root is no violation and reports where it lands', () => {
    assert.deepEqual(auditToolCall(policy, 'write', { path: 'src/a.ts', content: 'x' }, ws), { violation: null, paths: [path.join(ws, 'src/a.ts')] });
  });

  it('the path of write and edit is judged where it lands', () => {
    for (const tool of ['write', 'edit']) {
      const r = auditToolCall(policy, tool, { path: '../escape.txt' }, ws);
      assert.match(r.violation ?? '', new RegExp(`^${tool} "\\.\\./escape\\.txt": outside the allowed paths`), tool);
      assert.deepEqual(r.paths, [path.join(tmp, 'escape.txt')]);
    }
    assert.match(auditToolCall(policy, 'write', { path: 'up/x', content: '' }, ws).violation ?? '', /^write "up\/x": outside/);
  });

  it('τ\'s write replaces a symlink it names (a temp file renamed over it): a link outside to a file inside is a write outside', () => {
    // A dotfiles repo as workspace: ~/.bashrc outside links to ws/bashrc inside.
    const home = path.join(tmp, 'home');
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(path.join(ws, 'bashrc'), 'x');
    fs.symlinkSync(path.join(ws, 'bashrc'), path.join(home, '.bashrc'));
    const w = auditToolCall(policy, 'write', { path: path.join(home, '.bashrc'), content: 'y' }, ws);
    assert.match(w.violation ?? '', /^write ".*home\/\.bashrc": outside the allowed paths/);
    assert.deepEqual(w.paths, [path.join(ws, 'bashrc'), path.join(home, '.bashrc')], 'both places are said');
    // An edit writes through the link, into the workspace.
    assert.equal(auditToolCall(policy, 'edit', { path: path.join(home, '.bashrc'), old_string: 'x', new_string: 'y' }, ws).violation, null);
  });

  it('.. after a symlink is judged as the kernel and as Node read it, for a write that replaces too', async () => {
    // pnpm's layout: node_modules/foo links two folders down; `..` climbs back differently.
    fs.mkdirSync(path.join(ws, 'node_modules/.pnpm/foo@1.0.0/node_modules/foo'), { recursive: true });
    fs.symlinkSync('.pnpm/foo@1.0.0/node_modules/foo', path.join(ws, 'node_modules/foo'));
    const linkTo = path.join(ws, 'node_modules/foo');
    const raw = `${linkTo}/../../../../../${path.relative(path.resolve(linkTo, '../../../../..'), path.join(tmp, 'escaped.txt'))}`;
    for (const tool of ['write', 'edit']) {
      assert.match(auditToolCall(policy, tool, { path: raw }, ws).violation ?? '', /: outside the allowed paths .*removed as text first/, tool);
    }
    assert.match((await auditKindCall(policy, 'edit', [raw], ws)).violation ?? '', /^edit ".*": outside the allowed paths .*removed as text first/);
  });

  it('nested edits and patch text are looked into', () => {
    assert.deepEqual(extractPaths({ edits: [{ file_path: 'a' }, { file_path: 'b' }], content: 'path: c' }), ['a', 'b']);
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n*** Add File: .env\n*** End Patch';
    assert.deepEqual(patchPaths(patch), ['src/a.ts', '.env']);
    assert.match(auditToolCall(policy, 'apply_patch', { input: patch }, ws).violation ?? '', /forbidden .*\.env"$/);
    assert.deepEqual(patchPaths('--- a/src/x.ts\n+++ b/src/x.ts\n--- /dev/null'), ['src/x.ts']);
    // Copilot CLI 1.0.102's diff of a new file: the old side is git's "a/dev/null".
    assert.deepEqual(patchPaths('--- a/dev/null\n+++ b/src/new.txt'), ['src/new.txt']);
  });

  it('read-only tools are never violations, even outside', () => {
    for (const tool of ['read', 'grep', 'find', 'ls']) {
      assert.deepEqual(auditToolCall(policy, tool, { path: '/etc/passwd' }, ws), { violation: null, paths: [] });
    }
  });

  it('bash cannot be audited by path: a violation unless the policy allows bash', () => {
    assert.match(auditToolCall(policy, 'bash', { command: 'echo hi > src/a' }, ws).violation ?? '', /cannot be audited by path/);
    // The refusal names the setting that would allow it, and its price.
    assert.match(auditToolCall(policy, 'bash', { command: 'ls' }, ws).violation ?? '', /rpcWorkers\.guard\.allowBash allows it, and what a shell writes is then not confined/);
    const withBash = resolveGuard({ allowedPaths: [ws], forbiddenPaths: [], bash: true }, ws) as ResolvedPolicy;
    assert.equal(auditToolCall(withBash, 'bash', { command: 'rm -rf /' }, ws).violation, null);
  });

  it('hostile argument values are refused, not crashed on', () => {
    assert.match(auditToolCall(policy, 'write', { path: 'a\0b' }, ws).violation ?? '', /NUL byte/);
    assert.match(auditToolCall(policy, 'write', null, ws).violation ?? '', /no "path" the audit can judge/);
  });

  it('fails closed: a tool it does not know to be read-only or how to judge is flagged', () => {
    for (const [tool, args] of [
      ['write_file', { filepath: '../escape.txt', content: 'x' }],
      ['save', { output: '../escape.txt' }],
      ['python', { code: 'open("/etc/x", "w")' }],
      ['todo', { items: ['x'] }],
      ['mcp__fs__write', { path: 'src/inside.ts' }],
    ] as const) {
      assert.match(auditToolCall(policy, tool, args, ws).violation ?? '', /not a tool the audit knows/, tool);
    }
  });

  it('fails closed: a known tool with an argument it does not know, or no path, is flagged', () => {
    const deep = { path: 'src/ok.ts', content: 'x', options: { a: { b: { c: { path: '../deep.txt' } } } } };
    assert.match(auditToolCall(policy, 'write', deep, ws).violation ?? '', /argument "options" is not one the audit knows/);
    assert.match(auditToolCall(policy, 'edit', { file: '../x', old_string: 'a', new_string: 'b' }, ws).violation ?? '', /argument "file"|no "path"/);
    assert.match(auditToolCall(policy, 'write', { path: 42, content: 'x' }, ws).violation ?? '', /no "path" the audit can judge/);
    assert.match(auditToolCall(policy, 'apply_patch', { input: 'no file names here' }, ws).violation ?? '', /names no file/);
    // τ's own shapes pass when inside.
    assert.equal(auditToolCall(policy, 'edit', { path: 'src/a.ts', old_string: 'a', new_string: 'b', replace_all: true }, ws).violation, null);
    assert.equal(auditToolCall(policy, 'write', { path: 'src/a.ts', content: 'x', encoding: 'utf-8' }, ws).violation, null);
  });
});

describe('guard audit: a call the agent says the kind of (ACP)', () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-kind-'));
  const policy = resolveGuard(true, ws) as ResolvedPolicy;
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('reading kinds pass; a shell passes only with bash; an edit is judged by every path it names; any other kind fails closed', async () => {
    for (const kind of ['read', 'search', 'think', 'fetch']) assert.equal((await auditKindCall(policy, kind, [], ws)).violation, null, kind);
    assert.match((await auditKindCall(policy, 'execute', [], ws)).violation ?? '', /bash is not allowed/);
    assert.match((await auditKindCall(policy, 'execute', [], ws)).violation ?? '', /rpcWorkers\.guard\.allowBash allows it, and what a shell writes is then not confined/);
    const withBash = resolveGuard({ allowedPaths: [ws], forbiddenPaths: [], bash: true }, ws) as ResolvedPolicy;
    assert.equal((await auditKindCall(withBash, 'execute', [], ws)).violation, null);
    assert.equal((await auditKindCall(policy, 'edit', [path.join(ws, 'src', 'a.ts')], ws)).violation, null);
    assert.match((await auditKindCall(policy, 'edit', [path.join(ws, 'ok.ts'), '/etc/passwd'], ws)).violation ?? '', /^edit "\/etc\/passwd"/);
    assert.match((await auditKindCall(policy, 'delete', [], ws)).violation ?? '', /names no path/);
    assert.match((await auditKindCall(policy, 'other', [], ws)).violation ?? '', /does not say it only reads/);
  });

  it('a Gemini subagent (kind think, "Delegating to agent ...") fails closed: its own calls are never reported', async () => {
    // Gemini CLI 0.61.0's invoke_agent, where the host's policy denying it did not take: the
    // subagent's writes would run unseen by the guard. Any other think call still passes.
    const title = "Delegating to agent 'generalist'";
    assert.match((await auditKindCall(policy, 'think', [], ws, [], title)).violation ?? '', /^a subagent \("generalist"\): its tool calls are not reported/);
    assert.equal((await auditKindCall(policy, 'think', [], ws, [], 'Thinking about the plan')).violation, null);
    assert.equal((await auditKindCall(policy, 'read', [], ws, [], title)).violation, null);
    const ask = { toolKind: 'think', title, args: null, diffs: [], locations: [] };
    assert.deepEqual(await permissionVerdict(policy, ask, ws), { veto: null, judged: false }, 'put to the person, audited when it runs');
    assert.match((await permissionVerdict(policy, ask, ws, true)).veto ?? '', /^a subagent \("generalist"\).*abort its turn$/);
  });

  it('an edit is judged by the relative names its input holds under other fields too, against the forbidden names only', async () => {
    const names = extractRelativeNames({ path: 'src/a.ts', target_file: '.vscode/settings.json', branch: 'feature/x', old_string: '.git/x' });
    assert.deepEqual(names, ['.vscode/settings.json', 'feature/x']);
    assert.match((await auditKindCall(policy, 'edit', [path.join(ws, 'src', 'a.ts')], ws, names)).violation ?? '', /^edit "\.vscode\/settings\.json": forbidden/);
    const narrow = resolveGuard({ allowedPaths: [path.join(ws, 'src')], forbiddenPaths: [], bash: false }, ws) as ResolvedPolicy;
    assert.equal((await auditKindCall(narrow, 'edit', [path.join(ws, 'src', 'a.ts')], ws, ['feature/x', 'docs/y'])).violation, null);
  });
});

describe('guard: a call that says its own cwd', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-cwd-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, 'pkg', 'sub'), { recursive: true });
    fs.mkdirSync(path.join(tmp, 'elsewhere'));
    // A link out of the workspace that only the call's cwd has beside it.
    fs.symlinkSync(path.join(tmp, 'elsewhere'), path.join(ws, 'pkg', 'sub', 'out'));
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const ask = (toolKind: string, args: Record<string, unknown>) => ({ toolKind, title: 'mcp__fs__save', args, diffs: [], locations: [] });

  it('a relative path is judged from the call\'s cwd, not the worker\'s: a link beside that cwd, or ".." from it, leads out', async () => {
    const sub = path.join(ws, 'pkg', 'sub');
    for (const kind of ['other', 'edit']) {
      // From the worker's folder "out/x.txt" is ws/out/x.txt, inside; the tool writes sub/out/x.txt, outside.
      assert.match((await permissionVerdict(policy, ask(kind, { cwd: sub, path: 'out/x.txt' }), ws)).veto ?? '', /"[^"]*\/pkg\/sub\/out\/x\.txt": outside the allowed paths/, kind);
    }
    // The worker in a subfolder, the call's cwd the workspace itself: "../x" is outside.
    assert.match((await permissionVerdict(policy, ask('other', { cwd: ws, target: '../x' }), path.join(ws, 'pkg'))).veto ?? '', /outside the allowed paths/);
    // Nested under the object that says the cwd, and a relative cwd read from the worker's folder.
    assert.match((await permissionVerdict(policy, ask('other', { cwd: 'pkg/sub', edits: [{ file_path: 'out/y' }] }), ws)).veto ?? '', /outside the allowed paths/);
    // The audit after the fact reads the same paths.
    const args = { workdir: sub, path: 'out/z' };
    assert.match((await auditKindCall(policy, 'edit', extractPaths(args), ws, extractRelativeNames(args))).violation ?? '', /^edit ".*\/sub\/out\/z": outside/);
  });

  it('a relative name under an unknown field is judged against the forbidden names from the call\'s cwd; paths from a cwd inside pass', async () => {
    assert.match((await permissionVerdict(policy, ask('other', { cwd: path.join(ws, 'pkg'), save: '.git/config' }), tmp)).veto ?? '', /forbidden/);
    assert.deepEqual(await permissionVerdict(policy, ask('other', { cwd: path.join(ws, 'pkg'), path: 'sub/a.txt', branch: 'feature/x' }), ws), { veto: null, judged: true });
    assert.deepEqual(extractPaths({ cwd: '/w', path: 'a', abs: '/b', home: '~/c' }), ['/w', `/w${path.sep}a`, '/b', '~/c']);
  });
});

describe('guard audit: a Codex move applied without a question', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-move-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Audited as the worker does it (toolAudit.ts), the call reported running, never asked. */
  async function audited(event: AgentEvent): Promise<Untimed[]> {
    const reports: Untimed[] = [];
    const port = { cwd: ws, dialect: {}, connection: {}, turns: { streaming: false }, request: <T>(p: Promise<T>) => p, report: (e: Untimed) => reports.push(e), abort: async () => undefined } as unknown as AuditPort;
    await auditToolCallOf(port, { policy, onViolation: 'flag' }, event);
    return reports;
  }

  it('the move\'s source, named only as the key of its changes (Zed\'s codex-acp rawInput), is judged: a forbidden or outside source is flagged', async () => {
    const dest = path.join(ws, 'env.txt');
    for (const source of [path.join(ws, '.env'), path.join(tmp, 'outside.txt')]) {
      // PatchApplyBegin as the call's input; its locations and diff name the destination only.
      const args = { call_id: 'c1', auto_approved: true, changes: { [source]: { type: 'update', unified_diff: '', move_path: dest } } };
      const event: AgentEvent = { type: 'tool_execution_start', timestamp: 0, tool_call_id: 'c1', tool_kind: 'edit', tool_name: 'edit', title: 'Edit env.txt', args, locations: [{ path: dest, line: null }], diffs: [{ path: dest, oldText: '', newText: '' }], data: { status: 'in_progress' } };
      const reports = await audited(event);
      assert.equal(reports.length, 1, source);
      assert.match(String(reports[0]!.error), new RegExp(`^edit ${JSON.stringify(source).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: (forbidden|outside)`));
    }
    // Asked (Zed's codex-acp puts the same map in its question's rawInput), the wall refuses it.
    const ask = { toolKind: 'edit', args: { changes: { [path.join(ws, '.env')]: { type: 'update', move_path: dest } } }, diffs: [], locations: [{ path: dest, line: null }] };
    assert.match((await permissionVerdict(policy, ask, ws)).veto ?? '', /\.env": forbidden/);
    // A move inside passes.
    const inside = { changes: { [path.join(ws, 'a.txt')]: { type: 'update', unified_diff: '', move_path: dest } } };
    assert.deepEqual(await audited({ type: 'tool_execution_start', timestamp: 0, tool_call_id: 'c2', tool_kind: 'edit', args: inside, diffs: [{ path: dest, oldText: '', newText: '' }] }), []);
  });
});

describe('guard: which strings of a call\'s input are judged as paths', () => {
  let ws: string;
  let policy: ResolvedPolicy;
  before(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-shapes-')));
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  const mcp = (v: string) => ({ toolKind: 'other', title: 'mcp__search__grep', args: { path: path.join(ws, 'a.txt'), v }, diffs: [], locations: [] });

  it('words with a slash, a URL and a regular expression literal are no paths: the call is not refused', async () => {
    for (const s of ['and/or', '1/2', 'text/plain', 'feature/x', 'https://x/y', '/a+/', '/^v\\d+$/i', '/(foo|bar)/g', '/[a-z]*/']) {
      assert.deepEqual(await permissionVerdict(policy, mcp(s), ws), { veto: null, judged: true }, s);
    }
  });

  it('absolute, ~, file:// and ".." stay judged, also when they hold a pattern character but are no single-body literal', async () => {
    for (const s of ['/etc/passwd', '/etc/', '/', '//x', '~/x', '~', 'file:///etc/x', '../x', '..', 'a/../../x', '/tmp/a+b/c', '/a+/b/', '/a+/x.txt']) {
      assert.match((await permissionVerdict(policy, mcp(s), ws)).veto ?? '', /outside the allowed paths/, s);
    }
    // A field named for a path is judged whatever its shape.
    assert.match((await permissionVerdict(policy, { ...mcp('x'), args: { path: '/a+/' } }, ws)).veto ?? '', /outside the allowed paths/);
  });
});

describe('guard: a delete or a move removes the name it is given, not what a link there leads to', () => {
  let tmp: string;
  let ws: string;
  let home: string;
  let policy: ResolvedPolicy;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-rename-')));
    ws = path.join(tmp, 'ws');
    home = path.join(tmp, 'home');
    fs.mkdirSync(ws);
    fs.mkdirSync(home);
    // A dotfiles repository as the workspace: ~/.bashrc outside links to ws/bashrc inside.
    fs.writeFileSync(path.join(ws, 'bashrc'), 'x');
    fs.symlinkSync(path.join(ws, 'bashrc'), path.join(home, '.bashrc'));
    // A forbidden name that is a link to an allowed file.
    fs.writeFileSync(path.join(ws, 'env.real'), 'K=v');
    fs.symlinkSync(path.join(ws, 'env.real'), path.join(ws, '.env'));
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const ask = (toolKind: string, paths: string[]) => ({ toolKind, args: null, diffs: [], locations: paths.map((p) => ({ path: p, line: null })) });

  it('a link outside (or under a forbidden name) to a file inside, deleted or moved away, is a write outside (or forbidden): refused and flagged', async () => {
    const bashrc = path.join(home, '.bashrc');
    const env = path.join(ws, '.env');
    const dest = path.join(ws, 'moved');
    // codex-acp 2.6.0 asks about a move as kind edit, its source in the locations.
    for (const [kind, paths] of [['delete', [bashrc]], ['move', [bashrc, dest]], ['edit', [bashrc, dest]]] as const) {
      assert.match((await permissionVerdict(policy, ask(kind, [...paths]), ws)).veto ?? '', /\.bashrc": outside the allowed paths/, kind);
      assert.match((await auditKindCall(policy, kind, [...paths], ws)).violation ?? '', /\.bashrc": outside the allowed paths/, kind);
    }
    assert.match((await permissionVerdict(policy, ask('delete', [env]), ws)).veto ?? '', /\.env": forbidden/);
    assert.match((await auditKindCall(policy, 'move', [env, dest], ws)).violation ?? '', /\.env": forbidden/);
  });

  it('a move over an existing file or link: outside, or a link inside leading outside, is refused; a file inside to a new name passes', async () => {
    fs.writeFileSync(path.join(tmp, 'outside.txt'), 'o');
    fs.symlinkSync(path.join(tmp, 'outside.txt'), path.join(ws, 'out-link'));
    fs.writeFileSync(path.join(ws, 'a.txt'), 'a');
    for (const to of [path.join(tmp, 'outside.txt'), path.join(ws, 'out-link')]) {
      assert.match((await auditKindCall(policy, 'move', [path.join(ws, 'a.txt'), to], ws)).violation ?? '', /outside the allowed paths/, to);
    }
    assert.match((await auditKindCall(policy, 'move', [path.join(ws, '.git', 'config'), path.join(ws, 'c')], ws)).violation ?? '', /forbidden/);
    assert.equal((await auditKindCall(policy, 'move', [path.join(ws, 'a.txt'), path.join(ws, 'b.txt')], ws)).violation, null);
    assert.deepEqual(await permissionVerdict(policy, ask('move', [path.join(ws, 'a.txt'), path.join(ws, 'b.txt')]), ws), { veto: null, judged: true });
  });
});

describe('guard audit: what a call names after it started', () => {
  let tmp: string;
  let ws: string;
  let policy: ResolvedPolicy;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'guard-later-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    policy = resolveGuard(true, ws) as ResolvedPolicy;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** The worker's audit of calls as they run (worker.ts), its findings collected. */
  function auditor() {
    const reports: Untimed[] = [];
    const running: Array<Promise<void>> = [];
    const port = { cwd: ws, dialect: {}, connection: {}, turns: { streaming: false }, request: <T>(p: Promise<T>) => p, report: (e: Untimed) => reports.push(e), abort: async () => undefined } as unknown as AuditPort;
    const when = new AuditWhenRun((event) => {
      const p = auditToolCallOf(port, { policy, onViolation: 'flag' }, event);
      running.push(p);
      return p;
    });
    return { when, reports, settled: () => Promise.all(running) };
  }
  const ev = (type: string, status: string, over: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: 0, tool_call_id: 'c1', data: { status }, ...over });

  it('a running edit whose update names another path (Zed\'s codex-acp: a patch\'s changes as applied, as ended) is audited for it, once', async () => {
    const a = auditor();
    const inside = path.join(ws, 'a.txt');
    const source = path.join(ws, '.env');
    a.when.see(ev('tool_execution_start', 'in_progress', { tool_kind: 'edit', tool_name: 'edit', title: 'Edit a.txt', diffs: [{ path: inside, oldText: '', newText: 'x' }] }));
    await a.settled();
    assert.equal(a.reports.length, 0);
    // PatchApplyUpdated / PatchApplyEnd: the changes again, the move's source as their key.
    const update = ev('tool_execution_update', 'in_progress', { args: { changes: { [source]: { type: 'update', move_path: inside } } }, locations: [{ path: inside, line: null }] });
    a.when.see(update);
    a.when.see({ ...update, type: 'tool_execution_end', data: { status: 'completed' } });
    await a.settled();
    assert.equal(a.reports.length, 1, 'flagged once');
    assert.match(String(a.reports[0]!.error), /^edit ".*\/\.env": forbidden/);
    assert.equal(a.reports[0]!.tool_call_id, 'c1');
  });

  it('an update naming a new path beside one already flagged flags the new one only: the first finding is not reported again', async () => {
    const a = auditor();
    const env = path.join(ws, '.env');
    a.when.see(ev('tool_execution_start', 'in_progress', { tool_kind: 'edit', tool_name: 'edit', diffs: [{ path: env, oldText: '', newText: 'x' }] }));
    await a.settled();
    assert.equal(a.reports.length, 1);
    // codex-acp repeats the patch's changes as it applies them, one more file among them.
    a.when.see(ev('tool_execution_update', 'in_progress', { locations: [{ path: env, line: null }, { path: path.join(ws, 'b.txt'), line: null }] }));
    a.when.see(ev('tool_execution_update', 'in_progress', { args: { changes: { [env]: { type: 'update' }, [path.join(tmp, 'outside.txt')]: { type: 'add' } } } }));
    await a.settled();
    // Before, each update was judged whole: .env flagged three times, outside.txt hidden behind it.
    assert.equal(a.reports.length, 2);
    assert.match(String(a.reports[0]!.error), /\.env": forbidden/);
    assert.match(String(a.reports[1]!.error), /outside\.txt": outside the allowed paths/);
  });

  it('a running edit\'s update that comes after its turn ended, naming another path, is audited for it', async () => {
    const a = auditor();
    a.when.see(ev('tool_execution_start', 'in_progress', { tool_kind: 'edit', tool_name: 'edit', diffs: [{ path: path.join(ws, 'a.txt'), oldText: '', newText: 'x' }] }));
    // The turn ends (an abort; the host's own end) while the patch still applies.
    a.when.see({ type: 'agent_end', timestamp: 0, end_reason: 'aborted' });
    a.when.see(ev('tool_execution_end', 'completed', { locations: [{ path: path.join(ws, 'a.txt'), line: null }, { path: path.join(tmp, 'outside.txt'), line: null }] }));
    await a.settled();
    // Before, neither first seen (seen is kept across turns) nor still followed (running was cleared).
    assert.equal(a.reports.length, 1);
    assert.match(String(a.reports[0]!.error), /^edit ".*outside\.txt": outside the allowed paths/);
  });

  it('a pending call\'s update naming a path before it runs is judged when it runs; a call the wall judged is not audited again', async () => {
    const a = auditor();
    a.when.see(ev('tool_execution_start', 'pending', { tool_kind: 'edit', tool_name: 'edit', args: {} }));
    a.when.see(ev('tool_execution_update', 'pending', { locations: [{ path: path.join(tmp, 'outside.txt'), line: null }] }));
    a.when.see(ev('tool_execution_update', 'in_progress'));
    await a.settled();
    assert.equal(a.reports.length, 1);
    assert.match(String(a.reports[0]!.error), /outside\.txt": outside the allowed paths/);
    const b = auditor();
    b.when.see(ev('tool_execution_start', 'in_progress', { tool_kind: 'edit', diffs: [{ path: path.join(ws, 'b'), oldText: '', newText: '' }] }));
    b.when.judged('c1');
    b.when.see(ev('tool_execution_update', 'completed', { locations: [{ path: path.join(tmp, 'x'), line: null }] }));
    await b.settled();
    assert.equal(b.reports.length, 0);
  });

  it('a call first reported already completed (an ACP tool_call with status "completed") is audited, once', async () => {
    const a = auditor();
    const outside = path.join(tmp, 'outside.txt');
    // acpEvents.ts makes such a tool_call a tool_execution_end: there is no start to audit.
    const done = ev('tool_execution_end', 'completed', { tool_kind: 'edit', tool_name: 'edit', title: 'Edit outside.txt', locations: [{ path: outside, line: null }] });
    a.when.see(done);
    a.when.see(done);
    await a.settled();
    assert.equal(a.reports.length, 1, 'flagged once');
    assert.match(String(a.reports[0]!.error), /outside\.txt": outside the allowed paths/);
    // Nor is a call first seen as an update missed; one the wall judged first is not audited.
    a.when.see(ev('tool_execution_update', 'in_progress', { tool_call_id: 'c2', tool_kind: 'edit', tool_name: 'edit', locations: [{ path: outside, line: null }] }));
    a.when.judged('c3');
    a.when.see(ev('tool_execution_end', 'completed', { tool_call_id: 'c3', tool_kind: 'edit', tool_name: 'edit', locations: [{ path: outside, line: null }] }));
    await a.settled();
    assert.deepEqual(a.reports.map((r) => r.tool_call_id), ['c1', 'c2']);
  });

  it("a report that says nothing of its call (the host's own terminal output, ahead of the agent's tool_call) is not taken for the call's first report", async () => {
    const a = auditor();
    // terminals.ts emits the output of a terminal the host runs as an update of its call, which can
    // come before the agent's own tool_call for it: no kind, no name, no input, no paths.
    a.when.see(ev('tool_execution_update', 'in_progress', { tool_call_id: 't1', data: { terminalId: 'term-1', dropped: 0 } }));
    a.when.see(ev('tool_execution_start', 'in_progress', { tool_call_id: 't1', tool_kind: 'edit', tool_name: 'edit', locations: [{ path: path.join(tmp, 'outside.txt'), line: null }] }));
    await a.settled();
    assert.equal(a.reports.length, 1, 'the call is audited once, as its start says it');
    assert.match(String(a.reports[0]!.error), /outside\.txt": outside the allowed paths/);
  });

  it('a pending call reported again and again holds each path once, its diff as last said, and is judged with them when it runs', async () => {
    const audited: AgentEvent[] = [];
    const when = new AuditWhenRun(async (e) => void audited.push(e));
    const a = path.join(ws, 'a.txt');
    const b = path.join(ws, 'b.txt');
    when.see(ev('tool_execution_start', 'pending', { tool_kind: 'edit', tool_name: 'edit', diffs: [{ path: a, oldText: '', newText: '1' }], locations: [{ path: a, line: null }] }));
    // An agent that reports the call's whole diff again at each update, as the patch is made.
    for (let i = 2; i <= 50; i++) when.see(ev('tool_execution_update', 'pending', { diffs: [{ path: a, oldText: '', newText: String(i) }], locations: [{ path: a, line: null }, { path: b, line: null }] }));
    when.see(ev('tool_execution_update', 'in_progress'));
    assert.equal(audited.length, 1);
    assert.deepEqual(audited[0]!.diffs, [{ path: a, oldText: '', newText: '50' }]);
    assert.deepEqual(audited[0]!.locations, [{ path: a, line: null }, { path: b, line: null }]);
  });

  it("a call still held pending at its turn's end is let go; a report of it after the end that says what it is is audited", async () => {
    const a = auditor();
    const held = () => (a.when as unknown as { later: Map<string, unknown> }).later;
    const outside = [{ path: path.join(tmp, 'outside.txt'), line: null }];
    a.when.see(ev('tool_execution_start', 'pending', { tool_kind: 'edit', tool_name: 'edit', args: { content: 'x'.repeat(10_000) } }));
    a.when.see(ev('tool_execution_start', 'pending', { tool_call_id: 'c2', tool_kind: 'edit', tool_name: 'edit', args: {} }));
    assert.equal(held().size, 2);
    // Cancelled with the turn, never said to end: their input is not kept for the session's life.
    a.when.see({ type: 'agent_end', timestamp: 0, end_reason: 'aborted' });
    assert.equal(held().size, 0);
    // One runs after all: judged with what it said while held (an edit naming no path), then for the
    // path it names as it ends. One said to have failed never ran: not audited.
    a.when.see(ev('tool_execution_update', 'in_progress'));
    a.when.see(ev('tool_execution_update', 'completed', { tool_kind: 'edit', tool_name: 'edit', locations: outside }));
    a.when.see(ev('tool_execution_end', 'failed', { tool_call_id: 'c2', tool_kind: 'edit', tool_name: 'edit', locations: outside }));
    await a.settled();
    assert.deepEqual(a.reports.map((r) => r.tool_call_id), ['c1', 'c1']);
    assert.match(String(a.reports[0]!.error), /names no path the audit can judge/);
    assert.match(String(a.reports[1]!.error), /outside\.txt": outside the allowed paths/);
  });

  it("a call let go at its turn's end that runs after it, said by its status alone, is judged with what it said while held (until the next turn's end)", async () => {
    const a = auditor();
    const outside = [{ path: path.join(tmp, 'outside.txt'), line: null }];
    a.when.see(ev('tool_execution_start', 'pending', { tool_kind: 'edit', tool_name: 'edit', locations: outside }));
    a.when.see({ type: 'agent_end', timestamp: 0, end_reason: 'aborted' });
    // ACP's tool_call_update with its status only: the call ran, after the turn's end.
    a.when.see(ev('tool_execution_update', 'completed'));
    await a.settled();
    assert.deepEqual(a.reports.map((r) => r.tool_call_id), ['c1']);
    assert.match(String(a.reports[0]!.error), /outside\.txt": outside the allowed paths/);
    // What a call let go said is kept one turn more, not for the session's life.
    a.when.see(ev('tool_execution_start', 'pending', { tool_call_id: 'c2', tool_kind: 'edit', tool_name: 'edit', locations: outside }));
    a.when.see({ type: 'agent_end', timestamp: 0, end_reason: 'aborted' });
    a.when.see({ type: 'agent_end', timestamp: 0, end_reason: 'stop' });
    a.when.see(ev('tool_execution_update', 'completed', { tool_call_id: 'c2' }));
    await a.settled();
    assert.equal(a.reports.length, 1);
  });

  it('a call seen again (still reporting) is not the first the seen-set forgets', async () => {
    const audited: string[] = [];
    const when = new AuditWhenRun(async (e) => void audited.push(e.tool_call_id!));
    const read = (id: string, type = 'tool_execution_update') => ev(type, 'in_progress', { tool_call_id: id, tool_kind: 'read', tool_name: 'read' });
    for (let i = 0; i < 10_000; i++) when.see(read(`c${i}`, 'tool_execution_start'));
    // c0 reports again with nothing of itself (a terminal's output), c2 as itself: both are recent now.
    when.see(ev('tool_execution_update', 'in_progress', { tool_call_id: 'c0' }));
    when.see(read('c2'));
    // Two new calls past the bound: the two longest silent are forgotten.
    when.see(read('n1', 'tool_execution_start'));
    when.see(read('n2', 'tool_execution_start'));
    audited.length = 0;
    // A forgotten call's report is audited again as a first sighting; a remembered one's is not.
    for (const id of ['c0', 'c1', 'c2', 'c3']) when.see(read(id));
    assert.deepEqual(audited, ['c1', 'c3']);
  });
});
