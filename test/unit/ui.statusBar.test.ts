// The status bar (the workers' count, the text pi's extensions set with setStatus) and their notifications.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { WorkersStatusBar } from '../../src/ui/views/statusBar';
import { handleUiNotice } from '../../src/ui/host/extensionUi';

type Item = { text: string; tooltip: unknown; visible: boolean };

describe('UI status bar', () => {
  const names: Record<string, string> = { w1: 'pi', w2: 'pi #2' };
  const supervisor = {
    list: () => [], onState: () => () => {}, onRemoved: () => () => {},
    state: (id: string) => (names[id] ? { status: 'running', workerId: id, state: { name: names[id] } } : { status: 'not_found', workerId: id }),
  } as unknown as Supervisor;
  let bar: WorkersStatusBar;
  beforeEach(() => (bar = new WorkersStatusBar(supervisor)));
  afterEach(() => bar.dispose());
  const notices = () => (bar as unknown as { notices: Item }).notices;

  it("an extension's status in its theme's colours shows as its text, without the terminal's escape codes", () => {
    // What pi's own example extensions send: ctx.ui.setStatus('preset', ctx.ui.theme.fg('accent', 'preset:fast')).
    bar.setNotice('w1', 'preset', '\x1b[38;5;39mpreset:fast\x1b[39m');
    bar.setNotice('w1', 'mode', '\x1b[38;2;1;2;3m\x1b[1m● plan\x1b[22m\x1b[39m \x1b]8;;https://x\x07link\x1b]8;;\x07');
    assert.equal(notices().text, 'preset:fast | ● plan link');
    assert.equal(notices().visible, true);
  });

  it("two workers' statuses: the tooltip says which worker set which", () => {
    bar.setNotice('w1', 'preset', 'preset:fast');
    bar.setNotice('w2', 'preset', 'preset:slow');
    assert.equal(notices().text, 'preset:fast | preset:slow');
    assert.equal(notices().tooltip, 'pi: preset:fast\npi #2: preset:slow');
  });

  it('a status of escape codes or blanks alone clears it', () => {
    bar.setNotice('w1', 'preset', 'preset:fast');
    bar.setNotice('w1', 'preset', '\x1b[39m \t');
    assert.equal(notices().visible, false);
  });

  it('the count says the workers waiting for the person (the badge\'s number), and stands out while any does', () => {
    const live = { ...supervisor, list: () => [{ status: 'running', streaming: false }, { status: 'running', streaming: true }] } as unknown as Supervisor;
    const own = new WorkersStatusBar(live);
    const item = own.item as unknown as Item & { backgroundColor?: { id: string } };
    assert.equal(item.text, '$(sync~spin) 2 · 1 streaming');
    own.setWaiting(1);
    assert.equal(item.text, '$(sync~spin) 2 · 1 streaming · $(bell-dot) 1 needs input');
    assert.equal(item.backgroundColor?.id, 'statusBarItem.warningBackground');
    own.setWaiting(0);
    assert.equal(item.text, '$(sync~spin) 2 · 1 streaming');
    assert.equal(item.backgroundColor, undefined);
    own.dispose();
  });

  it("an extension's notification in its theme's colours is said as plain text", () => {
    vscodeStub.reset();
    const sinks = { setStatus() {}, setEditorText() {}, log() {}, workerName: () => 'pi' };
    handleUiNotice({ workerId: 'w1', method: 'notify', params: { message: '\x1b[38;5;196mBuild failed\x1b[39m', notifyType: 'error' } }, sinks);
    assert.deepEqual(vscodeStub.messages, ['pi: Build failed']);
  });
});
