// A composer's request whose command throws or rejects (the core failed to load, the extension is
// shutting down, the command is gone) is answered to its page all the same, as an error: the page
// gives the message back into its box and says why. Unanswered, it said "Prompt sent…" for ever
// and the message was lost. The error is written to the extension's log too.
import { vscodeStub } from '../helpers/vscodeStub';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Supervisor } from '../../src/core/api';
import { parseHostMessage, type HostMessage } from '../../src/protocol/hostMessages';
import { EventLog } from '../../src/ui/eventLog/eventLogView';
import { PendingSends } from '../../src/webview/pendingSends';
import { WorkerSelection } from '../../src/ui/views/workerSelection';

/** An Event Log with one worker, its side bar view resolved on a webview that keeps what is posted to it. */
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
  const worker = { workerId: 'w1', name: 'Fixer', status: 'running', eventsDropped: 0 };
  const supervisor = { limits: { eventStoreSize: 1000 }, list: () => [worker], onEvent: off, onState: off, onRemoved: off, onOutput: off, state: () => ({ status: 'running', state: worker }), events: () => [] } as unknown as Supervisor;
  const selection = new WorkerSelection();
  const logged: string[] = [];
  const keep = (m: string) => void logged.push(m);
  const log = { warn: keep, info() {}, error: keep, debug() {}, trace() {} };
  const eventLog = new EventLog({ supervisor, extensionUri: { fsPath: '/ext', path: '/ext', scheme: 'file' } as never, selection, log: log as never });
  eventLog.resolveWebviewView(view as never);
  const say = (m: unknown) => listeners.forEach((l) => l(m));
  say({ type: 'ready' });
  return { eventLog, posted, logged, say, dispose: () => (eventLog.dispose(), selection.dispose()) };
}

describe('ui: an Event Log request whose command fails', () => {
  const commands = vscode.commands as unknown as { executeCommand: (...args: unknown[]) => Promise<unknown> };
  const original = commands.executeCommand;
  beforeEach(() => vscodeStub.reset());
  afterEach(() => {
    commands.executeCommand = original;
    vscodeStub.reset();
  });

  for (const [how, fail] of [
    ['rejects', async () => Promise.reject(new Error("command 'rpcWorkers.prompt' not found"))],
    ['throws', () => { throw new Error("command 'rpcWorkers.prompt' not found"); }],
  ] as const) {
    it(`a send whose command ${how} is answered to its page as an error (its message goes back), and logged`, async () => {
      commands.executeCommand = fail as never;
      const log = sideBarLog();
      log.say({ type: 'send', workerId: 'w1', text: 'hello', mode: 'prompt', req: 7 });
      const reply = await waitFor(() => log.posted.find((m) => m.type === 'result'));
      assert.deepEqual(reply, { type: 'result', workerId: 'w1', action: 'prompt', status: 'error', message: "Prompting Fixer failed: command 'rpcWorkers.prompt' not found", tone: 'error', seq: 7 });
      // What the page does with it (composerPanel.ts): the message it sent is back in the box.
      const pending = new PendingSends({ get: () => '', set() {} });
      pending.sent('w1', { action: 'prompt', text: 'hello' }, 7);
      assert.ok(reply.type === 'result');
      assert.deepEqual(pending.reply('w1', reply, ''), { line: { text: reply.message, cls: 'error' }, restore: 'hello' });
      assert.ok(log.logged.some((m) => m.includes("command 'rpcWorkers.prompt' not found")), log.logged.join('\n'));
      log.dispose();
    });
  }

  it('a command that answered before it threw is not answered twice', async () => {
    const log = sideBarLog();
    commands.executeCommand = async (_id: unknown, arg: unknown) => {
      log.eventLog.result('w1', { action: 'abort', status: 'aborted', message: 'Aborted the turn of Fixer', tone: 'ok' }, (arg as { reply: string }).reply);
      throw new Error('late');
    };
    log.say({ type: 'abort', workerId: 'w1', req: 3 });
    await waitFor(() => log.logged.find((m) => m.includes('late')));
    assert.deepEqual(log.posted.filter((m) => m.type === 'result').map((m) => m.type === 'result' && m.message), ['Aborted the turn of Fixer']);
    log.dispose();
  });
});

/** What `find` gives, once it gives something: the page's messages go out on promises. */
async function waitFor<T>(find: () => T | undefined): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  assert.fail('never came');
}
