// pi's extension UI requests as VS Code UI, in a real workbench: a dialog is answered through
// the real QuickPick / InputBox, and one whose timeout passes is dismissed as cancelled.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { UiRequest } from '../../src/core/api';
import { answerUiRequest, closesIn, handleUiNotice, type NoticeSinks } from '../../src/ui/host/extensionUi';
import { extensionApi, waitFor } from './ui.support';

const req = (over: Partial<UiRequest>): UiRequest => ({ workerId: 'w1', id: 'r1', method: 'select', ...over });
const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

describe('UI extension dialogs (pi)', function () {
  this.timeout(30_000);

  for (const method of ['select', 'confirm', 'input', 'editor'] as const) {
    it(`${method}: dismissed as cancelled when its timeout passes`, async () => {
      const t0 = Date.now();
      const r = await answerUiRequest(req({ method, title: `Pick (${method})`, options: ['a', 'b'], message: 'Sure?', timeout: 400 }), 'pi');
      assert.deepEqual(r, { cancelled: true });
      assert.ok(Date.now() - t0 < 10_000, 'the dialog was not dismissed at its timeout');
      if (method === 'editor') {
        const open = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'untitled');
        assert.equal(open.length, 0, 'the editor dialog left its document open');
      }
    });
  }

  // A dialog its turn's abort made moot is closed (the worker was answered cancelled already).
  for (const method of ['select', 'confirm', 'input', 'editor'] as const) {
    it(`${method}: closed as cancelled when the worker no longer waits on it`, async () => {
      const moot = new AbortController();
      const answer = answerUiRequest(req({ method, title: `Moot (${method})`, options: ['a', 'b'], signal: moot.signal }), 'pi');
      const pending = Symbol('pending');
      assert.equal(await Promise.race([answer, new Promise((res) => setTimeout(() => res(pending), 300))]), pending, 'the dialog ended before it was made moot');
      moot.abort('the turn was aborted');
      assert.deepEqual(await answer, { cancelled: true });
      const open = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'untitled');
      assert.equal(open.length, 0, 'the dialog left a document open');
    });
  }

  // VS Code shows one quick input at a time: the Command Palette, or another worker's question,
  // hid a pi dialog and answered it cancelled in the person's name.
  for (const method of ['select', 'confirm', 'input'] as const) {
    it(`${method}: hidden by another quick input, it is put aside, not answered; Answer Open Questions… brings it back`, async () => {
      const api = await extensionApi();
      const { questions } = api.__ui;
      const moot = new AbortController();
      const answer = answerUiRequest(req({ method, title: `Aside (${method})`, options: ['first', 'second'], prefill: 'typed', signal: moot.signal }), 'pi', questions);
      await waitFor(api, 'the dialog on screen', () => questions.onScreen === `Aside (${method})`);
      const other = vscode.window.showQuickPick(['something else']);
      await waitFor(api, 'the dialog put aside', () => questions.asideCount === 1);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await other;
      const pending = Symbol('pending');
      assert.equal(await Promise.race([answer, Promise.resolve(pending)]), pending, 'the hidden dialog was answered');
      const back = await vscode.commands.executeCommand<{ count: number }>('rpcWorkers.answerQuestions');
      assert.equal(back.count, 1);
      await waitFor(api, 'the dialog on screen again', () => questions.onScreen === `Aside (${method})`);
      let r: unknown;
      for (let i = 0; i < 100 && r === undefined; i++) {
        await accept();
        r = await Promise.race([answer, new Promise((res) => setTimeout(() => res(undefined), 50))]);
      }
      assert.deepEqual(r, method === 'select' ? { value: 'first' } : method === 'confirm' ? { confirmed: true } : { value: 'typed' }, 'answered by the person');
    });
  }

  it('a dialog put aside and then made moot ends cancelled and leaves nothing aside', async () => {
    const api = await extensionApi();
    const { questions } = api.__ui;
    const moot = new AbortController();
    const answer = answerUiRequest(req({ method: 'select', title: 'Aside then moot', options: ['a'], signal: moot.signal }), 'pi', questions);
    await waitFor(api, 'the dialog on screen', () => questions.onScreen === 'Aside then moot');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(api, 'the dialog put aside', () => questions.asideCount === 1);
    moot.abort('the turn was aborted');
    assert.deepEqual(await answer, { cancelled: true });
    assert.equal(questions.asideCount, 0);
  });

  it('a timed dialog that waited its turn says the time it has left, not the time it asked for', () => {
    assert.equal(closesIn(40_000, 10_000), 'closes in 30 s');
    assert.equal(closesIn(10_200, 10_000), 'closes in 1 s', 'never "0 s" while it is still up');
  });

  it('select: the picked option is the answer', async () => {
    const answer = answerUiRequest(req({ method: 'select', title: 'Which?', options: ['first', 'second'] }), 'pi');
    // The workbench says nothing when the QuickPick is up: accept until the dialog answers.
    let r: unknown;
    for (let i = 0; i < 100 && r === undefined; i++) {
      await accept();
      r = await Promise.race([answer, new Promise((res) => setTimeout(() => res(undefined), 50))]);
    }
    assert.deepEqual(r, { value: 'first' });
  });

  it('input: the typed (prefilled) value is the answer', async () => {
    const answer = answerUiRequest(req({ method: 'input', title: 'Name?', prefill: 'prefilled' }), 'pi');
    let r: unknown;
    for (let i = 0; i < 100 && r === undefined; i++) {
      await accept();
      r = await Promise.race([answer, new Promise((res) => setTimeout(() => res(undefined), 50))]);
    }
    assert.deepEqual(r, { value: 'prefilled' });
  });

  it('notices: setStatus, set_editor_text and widgets reach their sinks', () => {
    const seen: string[] = [];
    const sinks: NoticeSinks = {
      setStatus: (id, key, text) => seen.push(`status ${id} ${key} ${text}`),
      setEditorText: (id, text) => seen.push(`editor ${id} ${text}`),
      log: (id, text) => seen.push(`log ${id} ${text}`),
      workerName: () => 'pi',
    };
    handleUiNotice({ workerId: 'w1', method: 'setStatus', params: { statusKey: 'k', statusText: 'Turn 3 running' } }, sinks);
    handleUiNotice({ workerId: 'w1', method: 'setStatus', params: { statusKey: 'k' } }, sinks);
    handleUiNotice({ workerId: 'w1', method: 'set_editor_text', params: { text: 'draft' } }, sinks);
    handleUiNotice({ workerId: 'w1', method: 'setWidget', params: { widgetKey: 'x', widgetLines: ['a', 'b'] } }, sinks);
    assert.deepEqual(seen, ['status w1 k Turn 3 running', 'status w1 k undefined', 'editor w1 draft', 'log w1 [widget x]\na\nb']);
  });
});
