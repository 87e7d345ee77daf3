// Which session verbs an ACP agent cannot take at all, as its state says them (WorkerState's
// forkUnavailable / modelUnavailable): its row then does not offer them, nor does the palette.
import assert from 'node:assert/strict';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { acpDialect } from '../../src/core/wire/acp';
import { AcpState, states } from '../../src/core/wire/acpState';

function agent(over: Partial<AcpState> = {}): MessageConnection {
  const connection = {} as MessageConnection;
  states.set(connection, Object.assign(new AcpState(), over));
  return connection;
}

describe('ACP: the session verbs an agent cannot take at all', () => {
  it('Fork Session: never (ACP v1 has no fork), whatever the agent lists', () => {
    assert.equal(acpDialect.verbUnavailable!(agent(), 'fork'), 'ACP v1 has no fork; start a new session instead');
  });

  it('Switch Model…: only when the agent lists no model choice (neither a model config option nor a models list)', () => {
    assert.match(acpDialect.verbUnavailable!(agent(), 'model') ?? '', /^this agent offers no model choice over ACP/);
    assert.equal(acpDialect.verbUnavailable!(agent({ models: { currentModelId: 'a', availableModels: [] } as unknown as AcpState['models'] }), 'model'), null);
    assert.equal(acpDialect.verbUnavailable!(agent({ configOptions: [{ id: 'model', category: 'model', currentValue: 'a' }] as AcpState['configOptions'] }), 'model'), null);
    // A mode option is not a model choice.
    assert.notEqual(acpDialect.verbUnavailable!(agent({ configOptions: [{ id: 'mode', category: 'mode', currentValue: 'a' }] as AcpState['configOptions'] }), 'model'), null);
  });

  it('a connection the dialect knows nothing of yet: nothing is said unavailable', () => {
    assert.equal(acpDialect.verbUnavailable!({} as MessageConnection, 'model'), null);
  });
});
