// A window with no folder open (VS Code just installed, an empty window): a worker runs in a
// workspace folder, so no start can work there. What the Sessions view offers, and what Start
// Worker does when run anyway.
import { vscodeStub } from '../helpers/vscodeStub';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Supervisor } from '../../src/core/api';
import { Commands, type CommandServices } from '../../src/ui/commands/commands';
import { LaunchConfigGate } from '../../src/ui/settings/launchConfigGate';
import type { Settings } from '../../src/ui/settings/settings';

const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { viewsWelcome: Array<{ view: string; contents: string; when?: string }> };
};

/** The `when` terms the welcome contents use: `a && b`, `!a`, `key`, `key == n`, `key != n`. */
function holds(when: string | undefined, ctx: Record<string, boolean | number>): boolean {
  if (!when) return true;
  return when.split('&&').every((raw) => {
    const term = raw.trim();
    const cmp = /^(\S+) (==|!=) (\S+)$/.exec(term);
    if (cmp) return (String(ctx[cmp[1]]) === cmp[3]) === (cmp[2] === '==');
    if (term.startsWith('!')) return !ctx[term.slice(1)];
    assert.ok(/^[\w.]+$/.test(term), `a when term this test does not read: ${term}`);
    return ctx[term] === true;
  });
}

/** The Sessions view's welcome contents shown for this context. */
const welcome = (ctx: Record<string, boolean | number>) => pkg.contributes.viewsWelcome.filter((w) => w.view === 'rpcWorkers.sessions' && holds(w.when, ctx)).map((w) => w.contents).join('\n');

describe('a window with no folder open', () => {
  beforeEach(() => vscodeStub.reset());

  it('the Sessions view offers to open a folder, not starts that can only fail', () => {
    const shown = welcome({ isWorkspaceTrusted: true, workspaceFolderCount: 0, 'rpcWorkers.worktreesUnavailable': true });
    assert.doesNotMatch(shown, /command:rpcWorkers\.start/, shown);
    assert.doesNotMatch(shown, /this folder/, 'there is no folder to speak of');
    assert.match(shown, /\(command:workbench\.action\.files\.openFolder\)/);
    // With a folder, the starts are offered as before.
    const open = welcome({ isWorkspaceTrusted: true, workspaceFolderCount: 1, 'rpcWorkers.worktreesUnavailable': false });
    assert.match(open, /command:rpcWorkers\.startWorker\)/);
    assert.match(open, /command:rpcWorkers\.startDemoWorker\)/);
    assert.doesNotMatch(open, /openFolder/);
  });

  it('Start Worker says to open a folder before it has the person pick a worker', async () => {
    const supervisor = { list: () => [], onState: () => () => {}, onRemoved: () => () => {}, onEvent: () => () => {}, limits: { maxPromptBytes: 1024 } } as unknown as Supervisor;
    const settings = () => ({ profiles: [], defaultProfile: '', agentDirs: [], guard: { allowedPaths: [], forbiddenPaths: [], allowBash: false, onViolation: 'abort' } }) as unknown as Settings;
    const commands = new Commands({ supervisor, settings, extensionPath: '/ext', tauSessionDir: '/tmp/tau', selection: { current: undefined, set() {} }, launchConfig: new LaunchConfigGate(supervisor, settings) } as unknown as CommandServices);
    commands.launchConfig.confirm = async () => ({ ok: true });
    // Were a picker shown, the demo would be picked.
    vscodeStub.answers.push((items: Array<{ label: string }>) => items.find((i) => i.label === 'Demo worker'));
    const r = await commands.startWorker();
    assert.equal(r.status, 'error');
    assert.deepEqual(vscodeStub.asked, [], 'nothing was asked');
    assert.deepEqual(vscodeStub.messages, ['RPC Workers: open a folder first: a worker runs in a workspace folder']);
    commands.dispose();
  });
});
