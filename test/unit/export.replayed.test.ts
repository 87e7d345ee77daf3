// The Markdown export of a conversation an ACP agent replays as it reopens a session
// (session/load: Copilot, Gemini): both halves of it, the person's words and the agent's, said
// as replayed and before the resume's mark, as the codec marks them.
import assert from 'node:assert/strict';
import type { Message } from 'vscode-jsonrpc/node';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { sessionMarkdown } from '../../src/core/export/markdown';
import { AcpCodec } from '../../src/core/wire/acp';

const T = Date.UTC(2026, 11, 3, 7, 0, 0);

/** The events the codec makes of a session/load whose agent replays `updates` before its answer. */
function replayOf(updates: Record<string, unknown>[]): AgentEvent[] {
  const codec = new AcpCodec();
  codec.encode({ jsonrpc: '2.0', id: 1, method: 'session/load', params: { sessionId: 's1', cwd: '/w', mcpServers: [] } } as Message);
  return updates.map((update) => {
    const d = codec.decode({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } });
    assert.ok(d.kind === 'event', JSON.stringify(d));
    return { ...d.event, timestamp: T };
  });
}

const text = (sessionUpdate: string, t: string) => ({ sessionUpdate, content: { type: 'text', text: t } });

describe('Markdown export of a replayed conversation', () => {
  it("says the person's replayed words as well as the agent's, each marked replayed, before the resume's mark", () => {
    const events = [
      ...replayOf([
        text('user_message_chunk', 'fix the '), text('user_message_chunk', 'failing test'),
        text('agent_message_chunk', 'Fixed it.'),
        text('user_message_chunk', 'now commit'),
        text('agent_message_chunk', 'Committed.'),
      ]),
      { type: 'session_resumed', timestamp: T, data: { session: { id: 's1', file: null } } },
    ];
    const md = sessionMarkdown(events, { title: 'w' });
    const at = (s: string) => {
      const i = md.indexOf(s);
      assert.ok(i >= 0, `${JSON.stringify(s)} is not in the export:\n${md}`);
      return i;
    };
    const order = [
      at('**Prompt** (replayed), 2026-12-03 07:00:00 UTC\n\n```\nfix the failing test\n```'),
      at('**Reply** (replayed)\n\nFixed it.'),
      at('**Prompt** (replayed), 2026-12-03 07:00:00 UTC\n\n```\nnow commit\n```'),
      at('**Reply** (replayed)\n\nCommitted.'),
      at('> Resumed session `s1`'),
    ];
    assert.deepEqual(order, [...order].sort((a, b) => a - b), `out of order:\n${md}`);
  });

  it("the worker's own reply after the replay is not marked, nor joined to the replayed one", () => {
    const md = sessionMarkdown([
      ...replayOf([text('user_message_chunk', 'hi'), text('agent_message_chunk', 'Hello.')]),
      { type: 'message_update', timestamp: T, delta: 'Still here.', block_type: 'text' },
    ], { title: 'w' });
    assert.ok(md.includes('**Reply** (replayed)\n\nHello.\n\n**Reply**\n\nStill here.'), md);
  });
});
