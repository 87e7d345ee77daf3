// Granting the workspace trust brings back the Event Log's usual empty hint: the host tells each
// page with its list of workers (no longer `untrusted`), as it does when the page loads. Neither
// the host tests nor the UI driver can grant trust (VS Code asks the person); the stub's grant
// fires onDidGrantWorkspaceTrust as VS Code does, with isTrusted already true.
import { vscodeStub } from '../helpers/vscodeStub';
import * as assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import { parseHostMessage, type HostMessage } from '../../src/protocol/hostMessages';
import { EventLog } from '../../src/ui/eventLog/eventLogView';
import { WorkerSelection } from '../../src/ui/views/workerSelection';
import { emptyLogHint } from '../../src/webview/emptyHint';

/** An Event Log over a supervisor with no workers, its side bar view resolved on a webview that keeps what is posted to it. */
function sideBarLog() {
  const posted: HostMessage[] = [];
  const listeners: Array<(raw: unknown) => void> = [];
  const webview = {
    options: {}, html: '', cspSource: 'vscode-resource:',
    asWebviewUri: (u: unknown) => u,
    onDidReceiveMessage: (l: (raw: unknown) => void) => (listeners.push(l), { dispose() {} }),
    postMessage: async (m: unknown) => {
      const parsed = parseHostMessage(m);
      assert.ok(parsed.success, JSON.stringify(m));
      posted.push(parsed.data);
      return true;
    },
  };
  const view = { webview, visible: true, onDidChangeVisibility: () => ({ dispose() {} }), onDidDispose: () => ({ dispose() {} }), show() {} };
  const off = () => () => {};
  const supervisor = { limits: { eventStoreSize: 1000 }, list: () => [], onEvent: off, onState: off, onRemoved: off, onOutput: off, state: () => ({ status: 'not_found' }) } as unknown as Supervisor;
  const selection = new WorkerSelection();
  const log = { warn() {}, info() {}, error() {}, debug() {}, trace() {} };
  const eventLog = new EventLog({ supervisor, extensionUri: { fsPath: '/ext', path: '/ext', scheme: 'file' } as never, selection, log: log as never });
  eventLog.resolveWebviewView(view as never);
  /** The page says it is ready, as its script does once it runs. */
  const ready = () => listeners.forEach((l) => l({ type: 'ready' }));
  const hint = () => {
    const last = posted.filter((m) => m.type === 'workers').at(-1);
    assert.ok(last && last.type === 'workers', 'the page was told its workers');
    // What the page's empty log says of it (main.ts: list.trust(msg.untrusted === true)).
    return emptyLogHint(last.untrusted === true);
  };
  return { eventLog, selection, posted, ready, hint, dispose: () => (eventLog.dispose(), selection.dispose()) };
}

describe('ui: granting the workspace trust', () => {
  beforeEach(() => vscodeStub.reset());
  afterEach(() => vscodeStub.reset());

  it("the Event Log's empty hint says how to start a worker again, not that none starts", () => {
    vscodeStub.trusted = false;
    const log = sideBarLog();
    log.ready();
    assert.match(log.hint(), /not trusted/);
    vscodeStub.grantTrust();
    assert.match(log.hint(), /^No worker selected\. Start one from the Sessions view/);
    log.dispose();
  });
});
