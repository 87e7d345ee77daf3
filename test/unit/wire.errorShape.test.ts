// A JSON-RPC error answer that is not JSON-RPC's {code, message} (a bare string, an object without
// them): vscode-jsonrpc would reject the request with a code of its own (-32001, which τ uses for
// "call the command through its own method") and no words, the worker's own lost. The codecs make
// it whole, with what the worker sent in its message.
import assert from 'node:assert/strict';
import type { Message, ResponseMessage } from 'vscode-jsonrpc/node';
import type { WireCodec } from '../../src/core/wire/codec';
import { AcpCodec } from '../../src/core/wire/acpCodec';
import { TauCodec } from '../../src/core/wire/tau';

function answer(codec: WireCodec, method: string, error: unknown) {
  codec.encode({ jsonrpc: '2.0', id: 7, method, params: { sessionId: 's', prompt: [] } } as Message);
  const decoded = codec.decode({ jsonrpc: '2.0', id: 7, error });
  assert.equal(decoded.kind, 'message');
  return decoded as Extract<typeof decoded, { kind: 'message' }>;
}

const errorOf = (d: { message: Message }) => (d.message as ResponseMessage).error;

for (const [name, make, method] of [['τ', () => new TauCodec(), 'get_state'], ['ACP', () => new AcpCodec(), 'session/set_mode']] as const) {
  describe(`${name}: an error answer that is not JSON-RPC's shape`, () => {
    it('a bare string is its message, under JSON-RPC\'s code for an internal error', () => {
      assert.deepEqual(errorOf(answer(make(), method, 'model overloaded')), { code: -32603, message: 'model overloaded (sent without an error code)' });
    });

    it('an object without a code or a message is quoted, its code kept when it has one', () => {
      assert.deepEqual(errorOf(answer(make(), method, { reason: 'busy' })), { code: -32603, message: 'the error is not JSON-RPC\'s {code, message}: {"reason":"busy"} (sent without an error code)' });
      assert.deepEqual(errorOf(answer(make(), method, { code: -32000, data: 1 })), { code: -32000, message: 'the error is not JSON-RPC\'s {code, message}: {"code":-32000,"data":1}', data: 1 });
    });

    it('a whole error is left as it came', () => {
      const error = { code: -32602, message: 'bad params', data: { x: 1 } };
      assert.deepEqual(errorOf(answer(make(), method, error)), error);
    });
  });
}

describe('ACP: a prompt answered with an error that is a bare string', () => {
  it('ends the turn saying what the agent sent', () => {
    const decoded = answer(new AcpCodec(), 'session/prompt', 'rate limited');
    assert.match(String(decoded.event?.error), /the agent answered the prompt with an error \(-32603 rate limited \(sent without an error code\)\)/);
  });
});

describe('an error without a request id that is a bare string', () => {
  it('is reported with what the worker sent', () => {
    for (const codec of [new TauCodec(), new AcpCodec()]) {
      const decoded = codec.decode({ jsonrpc: '2.0', id: null, error: 'cannot parse' });
      assert.equal(decoded.kind, 'invalid');
      assert.match((decoded as { reason: string }).reason, /error without a request id: -32603 cannot parse \(sent without an error code\)$/);
    }
  });
});
