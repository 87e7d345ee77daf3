import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cardGuard, defaultAgentDirs, findCard, loadAgentCards, parseAgentCard } from '../../src/core/cards/agentCards';
import { MAX_CARD_BYTES } from '../../src/core/regularFile';
import { buildLaunch } from '../../src/core/worker/launch';

const card = (front: string, body = 'You are a helper.') => `---\n${front}\n---\n\n${body}\n`;

describe('agent cards', () => {
  let tmp: string;
  let wsDir: string;
  let userDir: string;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cards-'));
    wsDir = path.join(tmp, 'ws', '.pi', 'agents');
    userDir = path.join(tmp, 'user', 'agents');
    fs.mkdirSync(wsDir, { recursive: true });
    fs.mkdirSync(userDir, { recursive: true });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('reads pi\'s own subagent example cards', () => {
    const dir = path.resolve('node_modules/@mariozechner/pi-coding-agent/examples/extensions/subagent/agents');
    const { cards, errors } = loadAgentCards([dir]);
    assert.deepEqual(errors, []);
    assert.deepEqual(cards.map((c) => c.name), ['planner', 'reviewer', 'scout', 'worker']);
    const planner = cards[0];
    assert.deepEqual(planner?.tools, ['read', 'grep', 'find', 'ls']);
    assert.equal(planner?.model, 'claude-sonnet-4-5');
    assert.match(planner?.prompt ?? '', /^You are a planning specialist/);
    assert.equal(planner?.guard, true);
    assert.equal(cards[3]?.tools, undefined);
  });

  it('all fields, tools as a list, guard paths, CRLF and a BOM', () => {
    const text = '\uFEFF---\r\nname: implementer\r\ndescription: Implements\r\ntools: [read, edit, write]\r\nmodel: mock-1\r\n'
      + 'allowed_paths: [src, "${workspaceFolder}/test"]\r\nforbidden_paths: "src/generated, v2"\r\n---\r\nDo it.\r\n';
    const r = parseAgentCard(text, '/x/implementer.md');
    assert.ok(r.ok, r.ok ? '' : r.reason);
    assert.deepEqual(r.card, {
      name: 'implementer', description: 'Implements', tools: ['read', 'edit', 'write'], model: 'mock-1', guard: true,
      allowedPaths: ['src', '${workspaceFolder}/test'], forbiddenPaths: ['src/generated, v2'], prompt: 'Do it.', file: '/x/implementer.md',
    });
    assert.deepEqual(cardGuard(r.card, '/w'), { allowedPaths: ['/w/src', '/w/test'], forbiddenPaths: ['/w/src/generated, v2'], bash: false });
  });

  it('guard defaults on; only guard: false turns it off', () => {
    const on = parseAgentCard(card('name: a\ndescription: d'), 'a.md');
    assert.ok(on.ok);
    assert.equal(on.card.guard, true);
    assert.deepEqual(cardGuard(on.card, '/w'), { allowedPaths: ['/w'], forbiddenPaths: [], bash: false });
    const off = parseAgentCard(card('name: b\ndescription: d\nguard: false'), 'b.md');
    assert.ok(off.ok);
    assert.equal(cardGuard(off.card, '/w'), false);
  });

  it('allowed_paths: [] allows no write at all, not the whole workspace', () => {
    // As `tools: []` is no tools: the empty list a card writes is what it asks for, not a default.
    const none = parseAgentCard(card('name: r\ndescription: d\nallowed_paths: []\nforbidden_paths: []'), 'r.md');
    assert.ok(none.ok);
    assert.deepEqual(cardGuard(none.card, '/w'), { allowedPaths: [], forbiddenPaths: [], bash: false });
    const onlyForbidden = parseAgentCard(card('name: f\ndescription: d\nforbidden_paths: [dist]'), 'f.md');
    assert.ok(onlyForbidden.ok);
    assert.deepEqual(cardGuard(onlyForbidden.card, '/w'), { allowedPaths: ['/w'], forbiddenPaths: ['/w/dist'], bash: false });
  });

  it('invalid cards are reported with file and reason; the others still load', () => {
    const bad: Record<string, string> = {
      'no-front.md': 'just text',
      'bad-yaml.md': card('name: [unclosed\ndescription: d'),
      'no-desc.md': card('name: nodesc'),
      'bad-name.md': card('name: "../evil"\ndescription: d'),
      'guard-str.md': card('name: g\ndescription: d\nguard: no'),
      'typo.md': card('name: t\ndescription: d\nallowedPaths: [src]'),
      'contradiction.md': card('name: c\ndescription: d\nguard: false\nforbidden_paths: [x]'),
      'bad-tool.md': card('name: bt\ndescription: d\ntools: "read, rm -rf"'),
      'dup-key.md': card('name: dk\ndescription: d\nguard: true\nguard: false'),
      'list.md': card('- a\n- b'),
      // A near miss of a key is refused, not dropped: "tool" gave a read-only card every tool.
      'tool.md': card('name: tl\ndescription: d\ntool: read'),
      'modle.md': card('name: ml\ndescription: d\nmodle: x/y'),
      'gaurd.md': card('name: gd\ndescription: d\ngaurd: false'),
      'forbiden.md': card('name: fb\ndescription: d\nforbiden_paths: [x]'),
    };
    for (const [f, text] of Object.entries(bad)) fs.writeFileSync(path.join(wsDir, f), text);
    fs.writeFileSync(path.join(wsDir, 'good.md'), card('name: good\ndescription: fine'));
    fs.writeFileSync(path.join(wsDir, 'notes.txt'), 'ignored');
    const { cards, errors } = loadAgentCards([wsDir]);
    assert.deepEqual(cards.map((c) => c.name), ['good']);
    const reasons = Object.fromEntries(errors.map((e) => [path.basename(e.file), e.reason]));
    assert.deepEqual(Object.keys(reasons).sort(), Object.keys(bad).sort());
    assert.match(reasons['no-front.md'] ?? '', /no YAML front matter/);
    assert.match(reasons['bad-yaml.md'] ?? '', /not valid YAML/);
    assert.match(reasons['no-desc.md'] ?? '', /^description: /);
    assert.match(reasons['bad-name.md'] ?? '', /^name: a name is/);
    assert.match(reasons['guard-str.md'] ?? '', /guard must be true or false/);
    assert.match(reasons['typo.md'] ?? '', /unknown key "allowedPaths" \(did you mean "allowed_paths"\?\)/);
    assert.match(reasons['contradiction.md'] ?? '', /guard is false/);
    assert.match(reasons['bad-tool.md'] ?? '', /^tools\.1: tool names/);
    assert.match(reasons['dup-key.md'] ?? '', /not valid YAML/);
    assert.match(reasons['list.md'] ?? '', /not a mapping/);
    assert.equal(reasons['tool.md'], 'unknown key "tool" (did you mean "tools"?)');
    assert.equal(reasons['modle.md'], 'unknown key "modle" (did you mean "model"?)');
    assert.equal(reasons['gaurd.md'], 'unknown key "gaurd" (did you mean "guard"?)');
    assert.equal(reasons['forbiden.md'], 'unknown key "forbiden_paths" (did you mean "forbidden_paths"?)');
  });

  it('says what is wrong with a field in its own words, not zod\'s ("Invalid input", "Too small")', () => {
    const reason = (front: string) => {
      const r = parseAgentCard(card(front), 'c.md');
      return r.ok ? 'loaded' : r.reason;
    };
    assert.equal(reason('name: x'), 'description: a card needs a description');
    assert.equal(reason('name: 123\ndescription: d'), 'name: name must be a string');
    assert.equal(reason('name: x\ndescription: "  "'), 'description: description is empty');
    assert.equal(reason('name: x\ndescription: d\ntools: 5'), 'tools: tools is a list of tool names, or one string of them separated by ","');
    assert.equal(reason('name: x\ndescription: d\nallowed_paths: 5'), 'allowed_paths: a path, or a list of paths (strings)');
    assert.equal(reason('name: x\ndescription: d\nmodel: 5'), 'model: model must be a string');
    assert.equal(reason('name: x\ndescription: d\nmodel: ""'), 'model: model is empty (leave it out for the pi profile\'s model)');
  });

  it('an empty tools list is no tools (pi --no-tools), not pi\'s defaults; tools left out or blank is the defaults', () => {
    const tools = (front: string) => {
      const r = parseAgentCard(card(`name: x\ndescription: d\nguard: false\n${front}`), 'x.md');
      assert.ok(r.ok, r.ok ? '' : r.reason);
      return r.card.tools;
    };
    assert.deepEqual(tools('tools: []'), []);
    assert.deepEqual(tools('tools: ""'), []);
    assert.equal(tools('tools:'), undefined);
    assert.equal(tools(''), undefined);
    fs.writeFileSync(path.join(wsDir, 'none.md'), card('name: none\ndescription: d\nguard: false\ntools: []'));
    const built = buildLaunch({ dialect: 'pi', command: 'pi', cwd: tmp, agent: 'none', agentDirs: [wsDir] }, {});
    assert.ok(built.ok, built.ok ? '' : built.error);
    assert.ok(built.launch.args.includes('--no-tools'), built.launch.args.join(' '));
    assert.ok(!built.launch.args.includes('--tools'), built.launch.args.join(' '));
    assert.deepEqual(built.launch.tools, []);
    // Guarded, the guard's own launch says the same.
    const guarded = buildLaunch({ dialect: 'pi', command: 'pi', cwd: tmp, agent: 'none', agentDirs: [wsDir], guard: true }, { piGuardPath: __filename });
    assert.ok(guarded.ok, guarded.ok ? '' : guarded.error);
    assert.ok(guarded.launch.args.includes('--no-tools') && !guarded.launch.args.includes('--tools'), guarded.launch.args.join(' '));
  });

  it('a key of another tool\'s cards (color, permissionMode, OpenCode\'s mode) is not taken for a misspelling: the card loads', () => {
    fs.writeFileSync(path.join(wsDir, 'claude.md'), card('name: cl\ndescription: d\ncolor: blue\npermissionMode: plan\ntools: read'));
    fs.writeFileSync(path.join(wsDir, 'opencode.md'), card('name: oc\ndescription: d\nmode: subagent\ntools: read'));
    const { cards, errors } = loadAgentCards([wsDir]);
    assert.deepEqual(errors, []);
    assert.deepEqual(cards.map((c) => [c.name, c.tools]).sort(), [['cl', ['read']], ['oc', ['read']]]);
  });

  it('looked up in order: the first card of a name wins, the rest are listed as shadowed', () => {
    fs.writeFileSync(path.join(wsDir, 'impl.md'), card('name: implementer\ndescription: workspace one'));
    fs.writeFileSync(path.join(userDir, 'impl.md'), card('name: implementer\ndescription: user one\nguard: false'));
    fs.writeFileSync(path.join(userDir, 'scout.md'), card('name: scout\ndescription: user scout'));
    const { cards, shadowed, errors } = loadAgentCards([wsDir, userDir, path.join(tmp, 'missing')]);
    assert.deepEqual(errors, []);
    assert.deepEqual(cards.map((c) => `${c.name}:${c.description}`), ['implementer:workspace one', 'scout:user scout']);
    assert.deepEqual(shadowed, [{ name: 'implementer', file: path.join(userDir, 'impl.md'), by: path.join(wsDir, 'impl.md') }]);
  });

  it('a card that links to a pipe or a device is an error, not a read that never ends (the host would hang)', () => {
    // A clone's `.pi/agents/x.md -> /dev/zero` or a FIFO: a read of it blocks or grows without
    // end, in the extension host's own thread. Loaded in a child, so that the old hang fails here.
    const fifo = path.join(tmp, 'pipe');
    execFileSync('mkfifo', [fifo]);
    fs.symlinkSync(fifo, path.join(wsDir, 'pipe.md'));
    fs.symlinkSync('/dev/zero', path.join(wsDir, 'zero.md'));
    fs.writeFileSync(path.join(wsDir, 'good.md'), card('name: good\ndescription: fine'));
    const script = `const { loadAgentCards } = require(${JSON.stringify(path.resolve('src/core/cards/agentCards.ts'))}); process.stdout.write(JSON.stringify(loadAgentCards([${JSON.stringify(wsDir)}])));`;
    const out = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(out.signal, null, 'loading the cards did not end');
    const loaded = JSON.parse(out.stdout) as { cards: Array<{ name: string }>; errors: Array<{ file: string; reason: string }> };
    assert.deepEqual(loaded.cards.map((c) => c.name), ['good']);
    assert.deepEqual(loaded.errors.map((e) => [path.basename(e.file), e.reason]), [['pipe.md', 'not a regular file'], ['zero.md', 'not a regular file']]);
  });

  it('an oversized card and an unlistable directory are errors, not crashes', () => {
    fs.writeFileSync(path.join(wsDir, 'big.md'), card('name: big\ndescription: d', 'x'.repeat(300 * 1024)));
    const notDir = path.join(tmp, 'file-not-dir');
    fs.writeFileSync(notDir, '');
    const { cards, errors } = loadAgentCards([wsDir, notDir]);
    assert.equal(cards.length, 0);
    assert.deepEqual(errors.map((e) => [path.basename(e.file), e.reason.replace(/\d+/, 'N')]), [
      ['big.md', 'larger than N bytes'], ['file-not-dir', 'cannot list (ENOTDIR)'],
    ]);
  });

  it('a card whose size the file system understates (a link into /proc) is refused at the cap, not read to its end', function () {
    // procfs says 0 bytes of /proc/kallsyms (megabytes): a reader that trusts the stat takes it all.
    const big = '/proc/kallsyms';
    let size = 0;
    try {
      size = fs.readFileSync(big).length;
    } catch {
      // Absent or closed: nothing to link to.
    }
    if (size <= MAX_CARD_BYTES) this.skip();
    fs.symlinkSync(big, path.join(wsDir, 'kallsyms.md'));
    const { cards, errors } = loadAgentCards([wsDir]);
    assert.equal(cards.length, 0);
    assert.deepEqual(errors.map((e) => [path.basename(e.file), e.reason]), [['kallsyms.md', `larger than ${MAX_CARD_BYTES} bytes`]]);
  });

  it('default dirs: workspace first, then $PI_CODING_AGENT_DIR/agents or ~/.pi/agent/agents, then extras', () => {
    assert.deepEqual(defaultAgentDirs('/w', { PI_CODING_AGENT_DIR: '/pi' }, ['/extra']), ['/w/.pi/agents', '/pi/agents', '/extra']);
    assert.deepEqual(defaultAgentDirs(undefined, {}), [path.join(os.homedir(), '.pi/agent/agents')]);
    assert.deepEqual(defaultAgentDirs(undefined, { PI_CODING_AGENT_DIR: '~/alt' }), [path.join(os.homedir(), 'alt/agents')]);
    // Relative, as pi reads it: from the worker's folder (the workspace folder unless given).
    assert.deepEqual(defaultAgentDirs('/w', { PI_CODING_AGENT_DIR: 'pi-home' }), ['/w/.pi/agents', '/w/pi-home/agents']);
    assert.deepEqual(defaultAgentDirs('/w', { PI_CODING_AGENT_DIR: 'pi-home' }, [], '/w/sub'), ['/w/.pi/agents', '/w/sub/pi-home/agents']);
  });

  it('guard paths the guard cannot honour make the card invalid, named with the card\'s key, not offered to fail at its start', () => {
    fs.writeFileSync(path.join(wsDir, 'home.md'), card('name: home\ndescription: d\nallowed_paths: ~/notes'));
    fs.writeFileSync(path.join(wsDir, 'empty.md'), card('name: empty\ndescription: d\nforbidden_paths: [secrets, ""]'));
    fs.writeFileSync(path.join(wsDir, 'ok.md'), card('name: ok\ndescription: d\nallowed_paths: [src, "${workspaceFolder}/test"]'));
    const { cards, errors } = loadAgentCards([wsDir]);
    assert.deepEqual(cards.map((c) => c.name), ['ok']);
    assert.deepEqual(errors, [
      { file: path.join(wsDir, 'empty.md'), reason: 'forbidden_paths: "": empty or NUL byte' },
      { file: path.join(wsDir, 'home.md'), reason: 'allowed_paths: "~/notes": "~" is not expanded, write an absolute path' },
    ]);
  });

  it('a start naming a card that did not load says why it did not, not only that it is unknown', () => {
    fs.writeFileSync(path.join(wsDir, 'scout.md'), card('name: scout\ndescription: d\ntool: read'));
    fs.writeFileSync(path.join(wsDir, 'planner.md'), card('name: planner\ndescription: d'));
    const built = buildLaunch({ dialect: 'pi', command: 'pi', cwd: tmp, agent: 'scout', agentDirs: [wsDir] }, {});
    assert.deepEqual(built, { ok: false, error: `unknown agent "scout"; available: planner; not loaded: ${path.join(wsDir, 'scout.md')}: unknown key "tool" (did you mean "tools"?)` });
    assert.deepEqual(findCard([], 'x', [{ file: '/w/x.md', reason: 'no YAML front matter' }]), { ok: false, error: 'unknown agent "x"; no agent card loaded; not loaded: /w/x.md: no YAML front matter' });
  });

  it('findCard: the card, or an error naming the available ones', () => {
    fs.writeFileSync(path.join(wsDir, 'a.md'), card('name: scout\ndescription: d'));
    fs.writeFileSync(path.join(wsDir, 'b.md'), card('name: planner\ndescription: d'));
    const { cards } = loadAgentCards([wsDir]);
    const hit = findCard(cards, 'scout');
    assert.ok(hit.ok);
    assert.equal(hit.card.name, 'scout');
    assert.deepEqual(findCard(cards, 'Scout'), { ok: false, error: 'unknown agent "Scout"; available: planner, scout' });
    assert.deepEqual(findCard([], 'x'), { ok: false, error: 'unknown agent "x"; no agent cards were found' });
  });
});
