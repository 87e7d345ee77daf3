// What the commands are given: their argument (from a keybinding, the tree, another extension)
// and the message a selection becomes.
import * as assert from 'node:assert/strict';
import { parseCommandArg } from '../../src/ui/commands/commandArgs';
import { fenceFor } from '../../src/protocol/backticks';
import { buildSelectionMessage, selectedLines } from '../../src/ui/commands/selection';

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
    // The editor's context menu passes its Uri: nothing was said by a caller, so nothing is taken from it.
    assert.deepEqual(parseCommandArg(uri, 'editor'), { arg: {}, source: 'editor', submitter: 'user', programmatic: false });
  });

  it('an empty worker id is refused by name, not read as no worker (which would ask the person to pick one)', () => {
    assert.match(String(parseCommandArg({ workerId: '', message: 'hi' }, 'palette').error), /invalid command argument: workerId: must not be empty/);
  });

  it('a caller that does not say who it is: unknown from a keybinding or task, the person from the editor', () => {
    assert.equal(parseCommandArg({ workerId: 'w1', message: 'hi' }, 'palette').submitter, 'unknown');
    const fromEditor = parseCommandArg({ workerId: 'w1' }, 'editor');
    assert.deepEqual([fromEditor.source, fromEditor.submitter], ['editor', 'user']);
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

  it("Forget Always-Allowed Actions' rule: a key or all, checked like the rest", () => {
    assert.deepEqual(parseCommandArg({ workerId: 'w1', key: 'execute: ls' }, 'palette').arg, { workerId: 'w1', key: 'execute: ls' });
    assert.equal(parseCommandArg({ workerId: 'w1', all: true }, 'palette').arg.all, true);
    assert.match(String(parseCommandArg({ workerId: 'w1', all: 'yes' }, 'palette').error), /invalid command argument: all: all must be true or false/);
    assert.match(String(parseCommandArg({ workerId: 'w1', key: 7 }, 'palette').error), /invalid command argument: key: key must be a string/);
  });
});
