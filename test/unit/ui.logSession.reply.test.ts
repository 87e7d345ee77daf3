// A composer's request answered after its page switched to another worker: the reply (its `seq`)
// still reaches the page that asked, naming the worker it is about, so a send that failed can be
// given back into that worker's draft (webview/pendingSends.ts). News of a worker the page does
// not show is still not sent.
import { vscodeStub } from '../helpers/vscodeStub';
import * as assert from 'node:assert/strict';
import { parseHostMessage, type HostMessage } from '../../src/protocol/hostMessages';
import { LogSession, type LogHost } from '../../src/ui/eventLog/logSession';

/** A sidebar page, loaded and ready, showing `workerId`; what is posted to it is kept. */
function readyPage(workerId: string) {
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
  const log = {
    extensionUri: { fsPath: '/ext', path: '/ext', scheme: 'file' },
    storeLimit: 1000,
    label: () => undefined,
    lookup: () => undefined,
    workerList: () => [],
    trusted: () => true,
    lookingChanged() {},
    warn() {},
  } as unknown as LogHost;
  const session = new LogSession({ webview: webview as never, log, fixed: false, visible: () => true });
  session.setWorker(workerId);
  listeners.forEach((l) => l({ type: 'ready' }));
  const results = () => posted.filter((m) => m.type === 'result');
  return { session, results, say: (raw: unknown) => listeners.forEach((l) => l(raw)) };
}

const failed = { action: 'prompt', status: 'error', message: 'Prompting A failed: busy', tone: 'error' as const };

describe('ui event log: the reply to a page switched to another worker', () => {
  beforeEach(() => vscodeStub.reset());

  it("reaches the page that asked, with its worker and its request id; another worker's news does not", async () => {
    const { session, results } = readyPage('B');
    session.result('A', failed, 7);
    session.result('A', { ...failed, message: 'Prompting A failed: from the palette' });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(results(), [{ type: 'result', workerId: 'A', ...failed, seq: 7 }]);
    session.dispose();
  });
});

describe('ui event log: the reply to a page that is not loaded', () => {
  beforeEach(() => vscodeStub.reset());

  it('waits for the page to be ready again, then reaches it with its request id', async () => {
    const { session, results, say } = readyPage('A');
    // The log's tab is hidden (VS Code unloads its page) while a follow-up waits for the turn to end.
    session.unload();
    session.result('A', failed, 7);
    session.result('A', { ...failed, message: 'news from the palette' });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(results(), []);
    say({ type: 'ready' });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(results(), [{ type: 'result', workerId: 'A', ...failed, seq: 7 }]);
    session.dispose();
  });
});
