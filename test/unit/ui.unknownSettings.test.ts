// A key under rpcWorkers.* that package.json does not declare ("rpcWorkers.guard.allowedPath",
// one letter short) was ignored without a word: the guard it was meant for was simply off.
import { vscodeStub } from '../helpers/vscodeStub';
import * as assert from 'node:assert/strict';
import { SETTINGS, settingsMessage, settingsQuery } from '../../src/ui/settings/settings';
import { readConfiguration } from '../../src/ui/settings/readConfiguration';
import { declaredSettings, likelyMeant, unknownKeys, unknownSettingErrors } from '../../src/ui/settings/unknownSettings';
import * as manifest from '../../package.json';

const DECLARED = declaredSettings(manifest);

describe('settings package.json does not declare', () => {
  afterEach(() => vscodeStub.reset());

  it('the declared keys are package.json\'s (each a setting the extension reads); a list of categories is read too', () => {
    assert.deepEqual([...DECLARED].sort(), Object.keys(SETTINGS).sort());
    const categories = { contributes: { configuration: [{ properties: { 'rpcWorkers.a': {} } }, { properties: { 'rpcWorkers.b.c': {}, 'other.d': {} } }] } };
    assert.deepEqual(declaredSettings(categories), ['a', 'b.c']);
    assert.deepEqual(declaredSettings(undefined), []);
  });

  it('finds an undeclared key however deep VS Code nests it, and leaves a declared key\'s value alone', () => {
    const layer = {
      guard: { allowedPath: ['src'], allowBash: true, gaurd: {} },
      maxWorkers: 3,
      profiles: [{ name: 'p', nope: 1 }],
      gaurd: { allowedPaths: ['src'] },
      history: { enabled: false, keep: { days: 3 } },
    };
    assert.deepEqual(unknownKeys(layer, DECLARED), ['guard.allowedPath', 'guard.gaurd', 'gaurd.allowedPaths', 'history.keep.days']);
    assert.deepEqual(unknownKeys({ guard: 'on' }, DECLARED), ['guard'], 'a value where keys were expected is no setting');
    assert.deepEqual(unknownKeys(undefined, DECLARED), []);
  });

  it('names the declared key a misspelt one is likely meant for: within two edits, or the one it starts or ends short of', () => {
    assert.equal(likelyMeant('guard.allowedPath', DECLARED), 'guard.allowedPaths');
    assert.equal(likelyMeant('gaurd.allowedPaths', DECLARED), 'guard.allowedPaths', 'two letters swapped');
    assert.equal(likelyMeant('guard.AllowBash', DECLARED), 'guard.allowBash', 'case aside');
    assert.equal(likelyMeant('maxWorker', DECLARED), 'maxWorkers');
    assert.equal(likelyMeant('maxWorkersPerWindow', DECLARED), 'maxWorkers', 'it starts with a declared key');
    assert.equal(likelyMeant('worktrees', DECLARED), 'worktreesDir', 'the one declared key that starts with it');
    assert.equal(likelyMeant('history.max', DECLARED), undefined, 'three keys start with it: none is named');
    assert.equal(likelyMeant('colour', DECLARED), undefined);
  });

  it('says each undeclared key once, where it is set and what it is likely meant for; the workspace\'s only when trusted', () => {
    const section = { globalValue: { guard: { allowedPath: ['src'] }, colour: 'red' }, workspaceValue: { guard: { allowedPath: ['lib'] } } };
    assert.deepEqual(unknownSettingErrors(section, DECLARED, true), [
      'rpcWorkers.guard.allowedPath is not a setting of RPC Workers (in the user and workspace settings), so it is ignored: did you mean rpcWorkers.guard.allowedPaths?',
      'rpcWorkers.colour is not a setting of RPC Workers (in the user settings), so it is ignored',
    ]);
    assert.deepEqual(unknownSettingErrors({ workspaceValue: { colour: 'red' } }, DECLARED, false), [], 'an untrusted workspace\'s settings are not read');
    assert.deepEqual(unknownSettingErrors(section, [], true), [], 'no declared keys known: nothing said');
  });

  it('read with the settings: in the errors the extension logs and notifies, Open Settings searching for the key meant', () => {
    vscodeStub.userSettings.set('guard.allowedPath', ['src']);
    vscodeStub.userSettings.set('maxWorkers', 3);
    const { settings, errors } = readConfiguration(DECLARED);
    assert.equal(settings.maxWorkers, 3);
    assert.deepEqual(errors, ['rpcWorkers.guard.allowedPath is not a setting of RPC Workers (in the user settings), so it is ignored: did you mean rpcWorkers.guard.allowedPaths?']);
    assert.equal(settingsMessage(errors), `RPC Workers settings: ${errors[0]}`);
    assert.equal(settingsQuery(errors), 'rpcWorkers.guard.allowedPaths');
    assert.equal(settingsQuery(['rpcWorkers.colour is not a setting of RPC Workers (in the user settings), so it is ignored']), 'rpcWorkers', 'no key meant: the section');
    assert.deepEqual(readConfiguration().errors, [], 'no declared keys given: not looked for');
  });
});
