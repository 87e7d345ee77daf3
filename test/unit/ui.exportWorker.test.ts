// Export to Markdown of a worker the host still lists: the Command Palette offers what the
// worker's row offers, an exited worker included (its events are kept until it is stopped).
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Supervisor, WorkerState } from '../../src/core/api';
import { HistoryCommands, type HistoryServices } from '../../src/ui/history/historyCommands';
import { loginHint } from '../../src/ui/settings/profiles';

const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { menus: Record<string, Array<{ command: string; when?: string }>> };
};
const whenOf = (menu: string, command: string) => manifest.contributes.menus[menu].find((m) => m.command === command)?.when;

function commands(workers: WorkerState[]) {
  const exported: string[] = [];
  const opts: unknown[] = [];
  const quiet = () => undefined;
  const supervisor = {
    list: () => workers,
    state: (id: string) => {
      const s = workers.find((w) => w.workerId === id);
      return s ? { status: s.status, workerId: id, state: s } : { status: 'not_found', workerId: id };
    },
    exportMarkdown: async (id: string, o?: unknown) => (exported.push(id), opts.push(o), { status: 'exported', workerId: id, markdown: `# ${id}`, ms: 1 }),
    exportHtml: async (id: string) => ({ status: 'error', workerId: id, error: 'the worker is not running', ms: 1 }),
  } as unknown as Supervisor;
  const s = { supervisor, selection: { current: undefined, set: quiet }, log: { info: quiet, warn: quiet, error: quiet } } as unknown as HistoryServices;
  return { h: new HistoryCommands(s), exported, opts };
}

describe('UI Export to Markdown of a worker', () => {
  beforeEach(() => vscodeStub.reset());

  it("is in the palette whenever a row offers it: every worker's row, an exited one's too", () => {
    assert.match(whenOf('view/item/context', 'rpcWorkers.exportMarkdown') ?? '', /viewItem =~ \/\^rpcWorker\\\.\//, 'every worker row offers it');
    assert.equal(whenOf('commandPalette', 'rpcWorkers.exportMarkdown'), 'rpcWorkers.hasWorkers');
  });

  it("from the palette, exports a worker that exited (as its row does), in Markdown without asking for pi's HTML, which needs pi running", async () => {
    const exited = { workerId: 'w1', name: 'Fixer', status: 'exited', dialect: 'pi', streaming: false, compacting: false, pid: null, cwd: '/w' } as unknown as WorkerState;
    const { h, exported } = commands([exited]);
    const r = await h.exportWorker({});
    assert.equal(r.status, 'exported');
    assert.deepEqual(exported, ['w1']);
    assert.deepEqual(vscodeStub.documents, ['# w1']);
    assert.deepEqual(vscodeStub.asked, [], 'no format question');
    h.dispose();
  });

  it("tells the export how a known agent takes a key, for a turn it refused for want of one (as the Event Log's row says it)", async () => {
    const claude = { workerId: 'w1', name: 'Claude', status: 'running', dialect: 'acp', command: '/usr/bin/claude-agent-acp', args: [], streaming: false, compacting: false, pid: 1, cwd: '/w' } as unknown as WorkerState;
    const { h, opts } = commands([claude]);
    assert.equal((await h.exportWorker({})).status, 'exported');
    assert.deepEqual(opts, [{ login: `For Claude: ${loginHint('claude-agent-acp')}` }]);
    h.dispose();
  });

  it("tells a past session's export how its agent takes a key, as a live worker's", async () => {
    const session = { id: 's1', name: 'Claude', dialect: 'acp', command: 'claude-agent-acp', cwd: '/w', model: null, startedAt: 1, turns: 1 };
    const metas: Array<{ login?: string | null }> = [];
    const quiet = () => undefined;
    const s = {
      supervisor: { list: () => [] },
      past: { loaded: true, load: async () => undefined, summary: () => session, store: () => ({}), eventsWithEarlier: async () => ({ events: [], torn: false, missing: [] }) },
      markdown: (_: unknown, meta: { login?: string | null }) => (metas.push(meta), '# s1'),
      selection: { current: undefined, set: quiet }, log: { info: quiet, warn: quiet, error: quiet },
    } as unknown as HistoryServices;
    const h = new HistoryCommands(s);
    assert.equal((await h.exportPast({ sessionId: 's1' })).status, 'exported');
    assert.equal(metas[0]?.login, `For Claude: ${loginHint('claude-agent-acp')}`);
    h.dispose();
  });

  it('with no worker at all says so, pointing at past sessions', async () => {
    const { h, exported } = commands([]);
    assert.equal((await h.exportWorker({})).status, 'cancelled');
    assert.deepEqual(exported, []);
    assert.match(vscodeStub.messages[0] ?? '', /^There is no worker to export/);
    h.dispose();
  });
});
