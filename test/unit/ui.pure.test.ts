// The UI's pure modules: settings validation, the selection message, command arguments,
// profiles, the words and icons of the tree and status bar, results, and the webview protocol.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkerState } from '../../src/core/api';
import { parseCommandArg } from '../../src/ui/commands/commandArgs';
import { contextValues, dialectLine, statusText, turnDescription, workerContextValue, workerDescription, workerIcon, commandLine, logWorkerList } from '../../src/ui/views/describe';
import { demoSpec, findExecutable, findFirstExecutable, profileChoices, searchDirs, TAU_COMMANDS } from '../../src/ui/settings/profiles';
import { resultSentence, resultTone } from '../../src/ui/commands/resultWords';
import { buildSelectionMessage, fenceFor, selectedLines } from '../../src/ui/commands/selection';
import { DEFAULT_LIMITS } from '../../src/core/worker/limits';
import { DEFAULT_LIMITS as LEAF_DEFAULTS } from '../../src/core/worker/defaultLimits';
import { LazyHost } from '../../src/ui/host/lazyHost';
import { hostLimits, readSettings, SETTINGS } from '../../src/ui/settings/settings';
import { hostMessageSchema, MAX_FIELD_CHARS, slimEvent, webviewMessageSchema } from '../../src/protocol/messages';
import * as manifest from '../../package.json';

function st(over: Partial<WorkerState> = {}): WorkerState {
  return {
    workerId: 'w1', name: 'W', status: 'running', streaming: false, afterTurn: null, compacting: false, workerVersion: null, pid: 1, cwd: '/w', dialect: 'tau', command: '/usr/bin/node',
    args: ['demo worker.js'], model: 'm', sessionId: null, session: null, usage: null, agent: null, guarded: false, writeGuard: null, tools: null, turnCount: 0, lastEndReason: null, lastError: null,
    exitCode: null, signal: null, startedAt: 0, protocolErrors: 0, eventsDropped: 0, stderrTail: [], stdoutTail: [], filesTouched: [], turns: [], pendingInput: [], mode: null, compactUnavailable: null, midTurn: { steer: true, followUp: 'worker' }, ...over,
  };
}

describe('ui settings', () => {
  it('uses the defaults when nothing is set, and passes them to the host limits', () => {
    const { settings, errors } = readSettings(() => undefined);
    assert.deepEqual(errors, []);
    assert.equal(settings.maxWorkers, 4);
    assert.deepEqual(hostLimits(settings), { maxWorkers: 4, maxPromptBytes: 32768, commandTimeoutMs: 30000, settleTimeoutMs: 60000, eventStoreSize: 10000 });
  });

  it('names an invalid value and uses its default', () => {
    const values: Record<string, unknown> = { maxWorkers: 0, commandTimeoutMs: 2.5, trace: 'yes', eventLogSize: 500 };
    const { settings, errors } = readSettings((k) => values[k]);
    assert.equal(settings.maxWorkers, 4);
    assert.equal(settings.commandTimeoutMs, 30000);
    assert.equal(settings.trace, false);
    assert.equal(settings.eventLogSize, 500);
    assert.equal(errors.length, 3);
    assert.match(errors[0], /^rpcWorkers\.maxWorkers is invalid \(must be at least 1\); using the default 4$/);
    assert.match(errors.join('\n'), /rpcWorkers\.commandTimeoutMs is invalid \(must be a whole number\)/);
  });

  it('keeps the valid profiles and names each invalid or duplicate one', () => {
    const profiles = [
      { name: 'tau', dialect: 'tau', command: 'tau', args: ['--mode', 'rpc'] },
      { name: 'bad', dialect: 'gpt', command: 'x' },
      { name: 'tau', dialect: 'pi', command: 'pi' },
      { dialect: 'pi', command: 'pi' },
    ];
    const { settings, errors } = readSettings((k) => (k === 'profiles' ? profiles : undefined));
    assert.deepEqual(settings.profiles.map((p) => p.name), ['tau']);
    assert.equal(errors.length, 3);
    assert.match(errors[0], /profiles\[1\] is invalid \(dialect: dialect must be "pi", "tau" or "acp"\)/);
    assert.match(errors[1], /profiles\[2\]: a profile named "tau" comes earlier/);
    assert.match(errors[2], /profiles\[3\] is invalid \(name:/);
  });

  it('package.json declares every setting with the same default and range', () => {
    const props = (manifest as unknown as { contributes: { configuration: { properties: Record<string, { default: unknown; minimum?: number; maximum?: number; description?: string; markdownDescription?: string }> } } }).contributes.configuration.properties;
    for (const [key, spec] of Object.entries(SETTINGS)) {
      const p = props[`rpcWorkers.${key}`];
      assert.ok(p, `rpcWorkers.${key} is not contributed`);
      assert.deepEqual(p.default, spec.default, `default of ${key}`);
      assert.ok(p.description || p.markdownDescription, `${key} has no description`);
      const check = spec.schema.safeParse(p.default);
      assert.ok(check.success, `the contributed default of ${key} fails its own schema`);
      if (p.minimum !== undefined) assert.equal(spec.schema.safeParse(p.minimum - 1).success, false, `${key}: below the contributed minimum is accepted`);
      if (p.maximum !== undefined) assert.equal(spec.schema.safeParse(p.maximum + 1).success, false, `${key}: above the contributed maximum is accepted`);
    }
  });
});

describe('ui lazy host', () => {
  it('answers with the core\'s own default limits before the core is loaded', () => {
    const lazy = new LazyHost(() => assert.fail('the core was loaded'), {});
    assert.deepEqual(lazy.limits, DEFAULT_LIMITS);
    assert.equal(lazy.loaded, false);
  });
});

describe('default limits', () => {
  it('package.json declares the host limits\' defaults of the one copy (core/worker/defaultLimits.ts)', () => {
    const props = (manifest as unknown as { contributes: { configuration: { properties: Record<string, { default: unknown }> } } }).contributes.configuration.properties;
    // Each host limit a setting sets, by the setting's name.
    const declared = { maxWorkers: 'maxWorkers', maxPromptBytes: 'maxPromptBytes', commandTimeoutMs: 'commandTimeoutMs', settleTimeoutMs: 'settleTimeoutMs', eventLogSize: 'eventStoreSize' } as const;
    for (const [setting, limit] of Object.entries(declared)) {
      assert.equal(props[`rpcWorkers.${setting}`]?.default, LEAF_DEFAULTS[limit], `rpcWorkers.${setting}'s default`);
    }
    assert.deepEqual(Object.keys(hostLimits(readSettings(() => undefined).settings)).sort(), Object.values(declared).sort(), 'a host limit set by a setting is missing here');
  });
});

describe('ui selection message', () => {
  it('names the path and line range and fences the code', () => {
    const m = buildSelectionMessage({ path: 'src/a.ts', startLine: 3, endLine: 5, languageId: 'typescript', code: 'const a = 1;\nconst b = 2;', instruction: 'Rename a' });
    assert.equal(m, 'Rename a\n\nFrom `src/a.ts`, lines 3-5:\n\n```typescript\nconst a = 1;\nconst b = 2;\n```\n');
  });

  it('uses a default instruction, a single line range, and no language for plain text', () => {
    const m = buildSelectionMessage({ path: 'notes.txt', startLine: 7, endLine: 7, languageId: 'plaintext', code: 'hello\n', instruction: '  ' });
    assert.match(m, /^Look at this code/);
    assert.ok(m.includes('From `notes.txt`, line 7:\n\n```\nhello\n```\n'), m);
  });

  it('a fence longer than any backtick run in the code', () => {
    assert.equal(fenceFor('no ticks'), '```');
    assert.equal(fenceFor('a ```` b ` c'), '`````');
    const m = buildSelectionMessage({ path: 'x.md', startLine: 1, endLine: 3, code: '```js\nx\n```', instruction: 'Fix' });
    assert.ok(m.includes('````\n```js\nx\n```\n````'), m);
  });

  it('line ranges: the cursor line when empty; a selection ending at column 0 leaves that line out', () => {
    assert.deepEqual(selectedLines({ start: { line: 4, character: 2 }, end: { line: 4, character: 2 }, isEmpty: true }), { startLine: 5, endLine: 5, wholeLines: true });
    assert.deepEqual(selectedLines({ start: { line: 1, character: 0 }, end: { line: 4, character: 0 }, isEmpty: false }), { startLine: 2, endLine: 4, wholeLines: false });
    assert.deepEqual(selectedLines({ start: { line: 1, character: 3 }, end: { line: 1, character: 9 }, isEmpty: false }), { startLine: 2, endLine: 2, wholeLines: false });
  });
});

describe('ui command arguments', () => {
  it('no argument or a Uri: the default source, asked for everything', () => {
    assert.deepEqual(parseCommandArg(undefined, 'palette'), { arg: {}, source: 'palette', submitter: 'user', programmatic: false });
    const uri = { scheme: 'file', path: '/a', fsPath: '/a' };
    assert.equal(parseCommandArg(uri, 'editor').source, 'editor');
  });

  it('a tree node: source tree, only its worker', () => {
    assert.deepEqual(parseCommandArg({ kind: 'worker', workerId: 'w1' }, 'palette'), { arg: { workerId: 'w1' }, source: 'tree', submitter: 'user', programmatic: false });
  });

  it('an argument object: source api unless named, and bad fields are named', () => {
    const p = parseCommandArg({ workerId: 'w1', message: 'hi' }, 'palette');
    assert.equal(p.source, 'api');
    assert.equal(p.programmatic, true);
    assert.equal(p.arg.message, 'hi');
    assert.equal(parseCommandArg({ workerId: 'w1', source: 'task', submitter: 'ext.x' }, 'palette').submitter, 'ext.x');
    assert.match(String(parseCommandArg({ workerId: 3 }, 'palette').error), /invalid command argument: workerId/);
    assert.match(String(parseCommandArg({ streamingBehavior: 'later' }, 'palette').error), /streamingBehavior/);
  });
});

describe('ui profiles', () => {
  it('offers the configured profiles, pi when found, and the demo worker', () => {
    const choices = profileChoices({ configured: [{ name: 'mine', dialect: 'tau', command: 'tau', args: ['--mode', 'rpc'] }], extensionPath: '/ext', piPath: '/bin/pi' });
    assert.deepEqual(choices.map((c) => [c.name, c.origin]), [['mine', 'settings'], ['pi', 'detected'], ['Demo worker', 'builtin']]);
    assert.deepEqual(choices[1].spec('/ws'), { dialect: 'pi', command: '/bin/pi', name: 'pi', cwd: '/ws' });
    assert.equal(profileChoices({ configured: [], extensionPath: '/ext', piPath: null }).length, 1);
  });

  it('offers τ when ffwf-tau (or tau) is found, with its sessions in the extension storage; a τ profile may allow discovery', () => {
    const choices = profileChoices({ configured: [], extensionPath: '/ext', piPath: null, tauPath: '/venv/bin/ffwf-tau', tauSessionDir: '/storage/tau-sessions' });
    assert.deepEqual(choices.map((c) => [c.name, c.origin, c.dialect]), [['τ', 'detected', 'tau'], ['Demo worker', 'builtin', 'tau']]);
    assert.deepEqual(choices[0].spec('/ws'), { dialect: 'tau', command: '/venv/bin/ffwf-tau', name: 'τ', cwd: '/ws', sessionDir: '/storage/tau-sessions' });
    const configured = profileChoices({
      configured: [{ name: 'my tau', dialect: 'tau', command: '/venv/bin/ffwf-tau', discovery: true }], extensionPath: '/ext', piPath: null,
      tauPath: '/venv/bin/ffwf-tau', tauSessionDir: '/s',
    });
    // The detected τ is the configured one: offered once, as the person configured it.
    assert.deepEqual(configured.map((c) => c.name), ['my tau', 'Demo worker']);
    assert.equal(configured[0].spec('/ws').discovery, true);
    assert.equal(configured[0].spec('/ws').sessionDir, '/s');
    assert.match(configured[0].detail, /discovery on/);
  });

  it('finds τ as ffwf-tau before tau, on the search path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tau-bin-'));
    try {
      for (const name of ['tau', 'ffwf-tau']) {
        writeFileSync(join(dir, name), '#!/bin/sh\n');
        chmodSync(join(dir, name), 0o755);
      }
      assert.equal(findFirstExecutable(TAU_COMMANDS, ['/nonexistent', dir]), join(dir, 'ffwf-tau'));
      rmSync(join(dir, 'ffwf-tau'));
      assert.equal(findFirstExecutable(TAU_COMMANDS, [dir]), join(dir, 'tau'));
      assert.equal(findFirstExecutable(TAU_COMMANDS, ['/nonexistent']), null);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the demo worker runs on the host runtime as Node, even where that is Electron', () => {
    const spec = demoSpec('/ext', '/ws', '/opt/electron');
    assert.equal(spec.command, '/opt/electron');
    assert.deepEqual(spec.args, ['/ext/dist/demo-worker.js']);
    assert.equal(spec.env?.ELECTRON_RUN_AS_NODE, '1');
  });

  it('finds an executable in the workspace node_modules/.bin before PATH, and skips what is not executable', () => {
    const root = mkdtempSync(join(tmpdir(), 'ui-profiles-'));
    const ws = join(root, 'ws');
    const bin = join(ws, 'node_modules', '.bin');
    const onPath = join(root, 'path');
    mkdirSync(bin, { recursive: true });
    mkdirSync(onPath);
    writeFileSync(join(onPath, 'pi'), '#!/bin/sh\n');
    chmodSync(join(onPath, 'pi'), 0o755);
    assert.equal(findExecutable('pi', searchDirs([ws], onPath)), join(onPath, 'pi'));
    writeFileSync(join(bin, 'pi'), '#!/bin/sh\n');
    chmodSync(join(bin, 'pi'), 0o644);
    if (process.getuid?.() !== 0) assert.equal(findExecutable('pi', [bin]), null, 'a non-executable file was taken');
    chmodSync(join(bin, 'pi'), 0o755);
    assert.equal(findExecutable('pi', searchDirs([ws], onPath)), join(bin, 'pi'));
    assert.equal(findExecutable('nope', searchDirs([ws], onPath)), null);
  });
});

describe('ui words and icons', () => {
  it('contextValue, icon and description follow the phase', () => {
    assert.equal(workerContextValue(st()), 'rpcWorker.idle.live');
    assert.equal(workerContextValue(st({ streaming: true })), 'rpcWorker.streaming.live');
    assert.equal(workerContextValue(st({ compacting: true, streaming: true })), 'rpcWorker.compacting.live');
    assert.equal(workerContextValue(st({ status: 'failed' })), 'rpcWorker.failed');
    assert.equal(workerIcon(st({ streaming: true })).id, 'sync~spin');
    assert.equal(workerIcon(st({ status: 'failed' })).id, 'error');
    assert.equal(workerIcon(st({ status: 'starting' })).id, 'loading~spin');
    assert.equal(workerDescription(st({ streaming: true })), 'streaming · m');
    // The tree says what the log's chip says, first (issue 28).
    assert.equal(workerDescription(st({})), 'idle · m');
    assert.equal(workerDescription(st({ status: 'failed', exitCode: 1, model: null })), 'failed · exit 1');
  });

  it('post-turn work (pi 1.x, agent_end → agent_settled) is said as such, not as a running turn; the version shows beside the dialect', () => {
    assert.equal(workerDescription(st({ streaming: true, afterTurn: 'retry' })), 'retrying after its turn · m');
    assert.equal(workerDescription(st({ streaming: true, afterTurn: 'compaction', compacting: true })), 'compacting after its turn · m');
    assert.equal(workerDescription(st({ streaming: true, afterTurn: 'settling' })), 'settling its turn · m');
    assert.equal(dialectLine(st({ dialect: 'pi', workerVersion: '1.6.0' })), 'pi 1.6.0');
    assert.equal(dialectLine(st({ dialect: 'pi', workerVersion: null })), 'pi (version not known)');
  });

  it('a turn: end reason, source, duration, tools and blocked calls', () => {
    const t = { index: 2, submissionId: null, source: 'palette', submitter: 'user', startedAt: 0, endedAt: 61_000, endReason: 'max_turns', error: null,
      tools: [{ toolCallId: 'a', toolName: 'bash', isError: false, blocked: true, blockedBy: 'guard', violation: null }] };
    assert.equal(turnDescription(t), 'max_turns · from Command Palette · 1 min 1 s · 1 tool, 1 blocked');
    assert.equal(turnDescription({ ...t, endedAt: null, endReason: null, tools: [] }), 'streaming · from Command Palette');
  });

  it('status bar: hidden with no worker, counts running and streaming', () => {
    assert.equal(statusText([]), null);
    assert.equal(statusText([{ status: 'stopped', streaming: false }]), null);
    const t = statusText([{ status: 'running', streaming: true }, { status: 'running', streaming: false }])!;
    assert.equal(t.text, '$(sync~spin) 2 · 1 streaming');
    assert.match(t.tooltip, /2 workers running, 1 streaming/);
  });

  it('context keys', () => {
    assert.deepEqual(contextValues([]), { 'rpcWorkers.hasWorkers': false, 'rpcWorkers.hasRunningWorkers': false, 'rpcWorkers.anyStreaming': false, 'rpcWorkers.anyIdle': false });
    assert.deepEqual(contextValues([st({ streaming: true }), st({ status: 'exited' })]), { 'rpcWorkers.hasWorkers': true, 'rpcWorkers.hasRunningWorkers': true, 'rpcWorkers.anyStreaming': true, 'rpcWorkers.anyIdle': false });
  });

  it('command lines are shell-quoted', () => {
    assert.equal(commandLine(st()), "/usr/bin/node 'demo worker.js'");
    assert.equal(commandLine(st({ command: 'x', args: ["it's"] })), `x 'it'\\''s'`);
  });

  it('results are said honestly', () => {
    assert.equal(resultSentence('prompt', 'W', { status: 'accepted' }), 'Prompt accepted by W');
    assert.match(resultSentence('abort', 'W', { status: 'not_streaming', note: 'ended by itself' }), /W is not streaming: there was no turn to abort \(ended by itself\)/);
    assert.equal(resultSentence('redirect', 'W', { status: 'error', error: 'boom' }), 'Redirecting W failed: boom');
    assert.equal(resultSentence('compact', 'W', { status: 'aborted' }), 'The compaction of W was cancelled');
    assert.equal(resultSentence('compact', 'W', { status: 'compacted', performed: true }), 'Compacted W');
    assert.equal(resultSentence('compact', 'W', { status: 'compacted', performed: false }), 'Nothing to compact in W');
    assert.equal(resultSentence('compact', 'W', { status: 'compacted', performed: false, note: 'Already compacted' }), 'Nothing to compact in W (Already compacted)');
  });

  it('a second Stop says the worker is already stopped, as information, by name', () => {
    assert.equal(resultSentence('stop', 'Demo worker #2', { status: 'not_found', workerId: 'w2-abcdef12' }), 'Demo worker #2 is already stopped');
    assert.equal(resultTone('stop', { status: 'not_found' }), 'info');
    assert.equal(resultTone('prompt', { status: 'not_found' }), 'error');
    assert.equal(resultTone('abort', { status: 'not_streaming' }), 'info');
    assert.equal(resultTone('abort', { status: 'aborted' }), 'ok');
  });

  it('Ctrl+Alt+R reaches its command with no worker running, so the command can say so (nothing hides it)', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { keybindings: Array<{ command: string; key: string; when?: string }>; commands: Array<{ command: string; enablement?: string }> };
    };
    const key = manifest.contributes.keybindings.find((k) => k.key === 'ctrl+alt+r');
    assert.equal(key?.command, 'rpcWorkers.redirectWithSelection');
    assert.doesNotMatch(key?.when ?? '', /Workers|streaming/i);
    const cmd = manifest.contributes.commands.find((c) => c.command === 'rpcWorkers.redirectWithSelection');
    assert.equal(cmd?.enablement, undefined, 'an enablement clause swallows the key press silently');
    // A disabled command is missing from the palette, and its name typed there ran another (issue 28).
    for (const id of ['rpcWorkers.startWorkerInWorktree', 'rpcWorkers.startDemoWorkerInWorktree']) {
      assert.equal(manifest.contributes.commands.find((c) => c.command === id)?.enablement, undefined, `${id} is disabled outside a repository instead of saying why`);
    }
  });

  it("the event log's worker list keeps stopped workers (their logs stay reachable), each once, under the name the host gave it", () => {
    const list = logWorkerList(
      [{ workerId: 'w2-b', name: 'Demo worker #2', status: 'running' }],
      [{ workerId: 'w1-a', name: 'Demo worker', status: 'stopped' }, { workerId: 'w2-b', name: 'Demo worker #2', status: 'stopped' }],
    );
    assert.deepEqual(list, [
      { workerId: 'w2-b', name: 'Demo worker #2', status: 'running' },
      { workerId: 'w1-a', name: 'Demo worker', status: 'stopped' },
    ]);
  });
});

describe('ui webview protocol', () => {
  it('accepts what the webview may send and rejects anything else', () => {
    assert.equal(webviewMessageSchema.safeParse({ type: 'send', workerId: 'w1', text: 'hi', mode: 'steer' }).success, true);
    for (const bad of [{ type: 'send', workerId: 'w1', text: 'hi', mode: 'shout' }, { type: 'eval', code: '1' }, { type: 'abort' }, { type: 'abort', workerId: '' }, null, 'ready']) {
      assert.equal(webviewMessageSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it('host messages: events must have a type and a timestamp', () => {
    assert.equal(hostMessageSchema.safeParse({ type: 'events', workerId: 'w', events: [{ type: 'x', timestamp: 1, extra: { a: 1 } }] }).success, true);
    assert.equal(hostMessageSchema.safeParse({ type: 'events', workerId: 'w', events: [{ type: 'x' }] }).success, false);
    assert.equal(hostMessageSchema.safeParse({ type: 'reset', worker: null, evicted: -1, storeLimit: 10 }).success, false);
  });

  it('slimEvent drops transcripts and nulls, and cuts big fields to a preview', () => {
    const big = 'x'.repeat(MAX_FIELD_CHARS + 10);
    const e = slimEvent({ type: 'agent_end', timestamp: 1, messages: [{ role: 'user' }], tool_results: [], end_reason: 'done', error: null, is_error: false, result: { output: big }, delta: big });
    assert.equal('messages' in e, false);
    assert.equal('tool_results' in e, false);
    assert.equal('error' in e, false);
    assert.equal(e.is_error, false);
    assert.equal(e.end_reason, 'done');
    assert.deepEqual(Object.keys(e.result as object).sort(), ['chars', 'preview', 'truncated']);
    assert.match(String(e.delta), /more characters not shown\]$/);
    assert.equal(hostMessageSchema.safeParse({ type: 'events', workerId: 'w', events: [e] }).success, true);
  });
});
