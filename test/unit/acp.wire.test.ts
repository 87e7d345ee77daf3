// The ACP codec on the recorded wire lines of the five real agents (shared/notes/acp-transcripts):
// every line the agents sent is read as a message or an event, none as garbage; the events are
// the one event model (the page folds them with no ACP knowledge); a stored line reads back as
// the event it gave.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Message, MessageConnection } from 'vscode-jsonrpc/node';
import { AcpCodec, AcpState, acpDialect, updateEvent } from '../../src/core/wire/acp';
import { initializeSchema } from '../../src/core/wire/acpProtocol';
import { unfenced } from '../../src/core/wire/acpEvents';
import { modesOf, setMode } from '../../src/core/wire/acpSessions';
import { states } from '../../src/core/wire/acpState';
import { readBack } from '../../src/core/wire/codec';
import { parseEvents } from '../../src/core/history';
import { JsonlMessageReader } from '../../src/core/wire/jsonlReader';
import { PassThrough } from 'node:stream';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { LogModel } from '../../src/webview/model';
import { slimEvent, type PageEvent } from '../../src/protocol/messages';
import type { ToolEntry } from '../../src/webview/entries';
import { ROOT } from '../helpers/supervisor';

// Copied from shared/notes/acp-transcripts: recorded against the mock model, on 2026-12-03.
const TRANSCRIPTS = path.join(ROOT, 'test', 'fixtures', 'acp-transcripts');
const files = readdirSync(TRANSCRIPTS).filter((f) => /-(hello|shell-cancel)\.jsonl$/.test(f)).sort();

interface Line { dir: 'c2a' | 'a2c'; msg: Record<string, unknown> }

/** Plays a transcript: the client's requests through encode, the agent's lines through decode. */
function play(file: string) {
  const codec = new AcpCodec();
  const events: AgentEvent[] = [];
  const invalid: string[] = [];
  const messages: Message[] = [];
  const lines = readFileSync(path.join(TRANSCRIPTS, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
  for (const { dir, msg } of lines) {
    if (dir === 'c2a') {
      codec.encode(msg as unknown as Message);
      const announced = codec.announce(msg as unknown as Message);
      if (announced) events.push(announced);
      continue;
    }
    const d = codec.decode(msg);
    if (d.kind === 'invalid') invalid.push(`${d.reason}: ${JSON.stringify(msg).slice(0, 200)}`);
    else if (d.kind === 'event') events.push(d.event, ...(d.then ? [d.then] : []));
    else if (d.kind === 'message') {
      if (d.event) events.push(d.event);
      messages.push(d.message);
    }
  }
  return { codec, events, invalid, messages, lines };
}

describe('ACP codec: the five real agents\' recorded lines', () => {
  it('has the ten transcripts', () => {
    assert.equal(files.length, 10, files.join(', '));
  });

  for (const file of files) {
    describe(file, () => {
      const played = play(file);

      it('reads every line the agent sent: no line is garbage', () => {
        assert.deepEqual(played.invalid, []);
      });

      it('each prompt is a turn: one agent_start when it is sent and one agent_end when it is answered', () => {
        const prompts = played.lines.filter((l) => l.dir === 'c2a' && l.msg.method === 'session/prompt').length;
        const answers = played.lines.filter((l) => l.dir === 'a2c' && l.msg.id !== undefined && l.msg.method === undefined).length;
        assert.equal(played.events.filter((e) => e.type === 'agent_start').length, prompts);
        const ends = played.events.filter((e) => e.type === 'agent_end');
        // A cancelled shell turn may be the transcript's last line or not; every answer present is an end.
        assert.ok(ends.length >= 1 && ends.length <= prompts, `${ends.length} ends for ${prompts} prompts (${answers} answers)`);
        if (/hello/.test(file)) assert.equal(ends[0].end_reason, 'done');
        if (/shell-cancel/.test(file)) assert.ok(ends.some((e) => e.end_reason === 'aborted'), ends.map((e) => e.end_reason).join(', '));
      });

      it('the streamed text is the reply the mock model gave', () => {
        const text = played.events.filter((e) => e.type === 'message_update' && e.block_type === 'text').map((e) => e.delta).join('');
        if (/hello/.test(file)) assert.match(text, /Hello from the mock LLM\./);
        else assert.ok(text.length > 0, 'some text streamed');
      });

      it('a stored update line reads back as the event it gave', () => {
        const fresh = new AcpCodec();
        for (const l of played.lines) {
          if (l.dir !== 'a2c' || l.msg.method !== 'session/update') continue;
          const back = readBack(fresh, l.msg);
          assert.ok(back.ok, JSON.stringify(l.msg).slice(0, 200));
          const again = updateEvent((l.msg.params as { update: { sessionUpdate: string } }).update);
          assert.ok(!('invalid' in again));
          assert.equal(back.event.type, (again as AgentEvent).type);
        }
      });

      it('the page folds them with nothing of ACP: text, tools by their title, no raw kind names', () => {
        const model = new LogModel();
        model.apply(played.events.map((e) => slimEvent(e as unknown as { type: string; timestamp: number })));
        const kinds = new Set(model.all().map((e) => e.kind));
        assert.ok(kinds.has('assistant'));
        const others = model.all().filter((e) => e.kind === 'other').map((e) => (e as { type: string }).type);
        assert.ok(others.every((t) => !/^(available_commands_update|usage_update|agent_message_chunk|tool_call|session_info_update|config_option_update)$/.test(t)), others.join(', '));
        if (/shell-cancel/.test(file) && !/gemini/.test(file)) {
          const tools = model.all().filter((e) => e.kind === 'tool');
          assert.ok(tools.length >= 1, 'the shell call is a tool row');
          assert.ok(tools.every((t) => t.kind === 'tool' && (t.title ?? t.name) !== 'tool'), 'named by the agent\'s title or kind');
          // ACP: a field an update carries replaces the call's. Claude's call opens with rawInput {}
          // and says the command in its update: the row shows the command, not {}.
          for (const t of tools) {
            if (t.kind !== 'tool') continue;
            const inputs = played.lines.map((l) => (l.msg.params as { update?: { toolCallId?: string; rawInput?: unknown } } | undefined)?.update).filter((u) => u?.toolCallId === t.toolCallId && u.rawInput !== undefined).map((u) => u!.rawInput);
            if (inputs.length) assert.deepEqual(t.args, inputs[inputs.length - 1], `${t.title}: the last input the agent said`);
          }
        }
      });
    });
  }
});

// The update payloads take their schema's fast path first (acpEvents.ts): what the schema
// refuses is refused all the same, with the schema's own words, and what it takes comes out as before.
describe('ACP codec: an update the schema refuses is refused on the fast path too', () => {
  // [what is wrong, kind, fields, where the schema says it is]
  const refused: Array<[string, string, Record<string, unknown>, string]> = [
    ['a count as a string', 'usage_update', { used: '12', size: 200000 }, 'used'],
    ['a cost as a string', 'usage_update', { used: 12, size: 200000, cost: { amount: '0.1', currency: 'USD' } }, 'cost.amount'],
    ['NaN', 'usage_update', { used: 12, size: Number.NaN }, 'size'],
    ['Infinity', 'usage_update', { used: Number.POSITIVE_INFINITY, size: 200000 }, 'used'],
    ['no id', 'tool_call', { title: 'no id', kind: 'execute' }, 'toolCallId'],
    ['an empty id', 'tool_call', { toolCallId: '' }, 'toolCallId'],
    ['content that is not a list', 'tool_call_update', { toolCallId: 't1', content: 'not a list' }, 'content'],
    ['content null inside a content item', 'tool_call_update', { toolCallId: 't1', content: [{ type: 'content', content: null }] }, 'content[0].content'],
    ['a location without a path', 'tool_call_update', { toolCallId: 't1', locations: [{ line: 3 }] }, 'locations[0].path'],
    ['an entry without content', 'plan', { entries: [{ status: 'pending' }] }, 'entries[0].content'],
    ['a status null where only absent is allowed', 'plan', { entries: [{ content: 'a', status: null }] }, 'entries[0].status'],
    ['a command without a name', 'available_commands_update', { availableCommands: [{ description: 'no name' }] }, 'availableCommands[0].name'],
    ['a description null', 'available_commands_update', { availableCommands: [{ name: 'a', description: null }] }, 'availableCommands[0].description'],
    ['a non-text chunk with a number for its message id', 'agent_message_chunk', { content: { type: 'image' }, messageId: 5 }, 'messageId'],
  ];
  for (const [what, kind, fields, at] of refused) {
    it(`${kind}: ${what}`, () => {
      const out = updateEvent({ sessionUpdate: kind, ...fields });
      assert.ok('invalid' in out, `taken: ${JSON.stringify(out)}`);
      // The schema's own words: what was wrong, and where.
      assert.match(out.invalid, new RegExp(`^malformed ${kind} update: ✖ .+\\n  → at ${at.replace(/[[\].]/g, '\\$&')}$`));
    });
  }

  it('what it takes keeps the fields it does not know, and reads the ones it does', () => {
    const usage = updateEvent({ sessionUpdate: 'usage_update', used: 12, size: 200000, cost: { amount: 0.5, currency: 'USD', note: 'x' }, extra: true });
    assert.deepEqual(usage, { type: 'usage_update', timestamp: (usage as AgentEvent).timestamp, data: { used: 12, size: 200000, cost: 0.5, currency: 'USD' } });
    const tool = updateEvent({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls', kind: 'execute', status: 'pending', rawInput: { command: 'ls' }, locations: [{ path: '/w/a.ts', extra: 1 }], _meta: { x: 1 } }) as AgentEvent;
    assert.equal(tool.type, 'tool_execution_start');
    assert.deepEqual([tool.tool_call_id, tool.title, tool.tool_name, tool.args, tool.locations, tool.data], ['t1', 'ls', 'execute', { command: 'ls' }, [{ path: '/w/a.ts', line: null }], { status: 'pending' }]);
  });

  // codex-acp 2.6.0 runs a command itself and says its output only in `_meta.terminal_output_delta`
  // (seen on the real agent at the mock: `printf "line1\\nline2\\n"` came as these updates).
  it('Codex\'s command output, said only in _meta.terminal_output_delta, reaches the tool\'s row, chunk after chunk', () => {
    const start = { sessionUpdate: 'tool_call', toolCallId: 'call_1', kind: 'execute', title: 'printf', status: 'in_progress', content: [{ type: 'terminal', terminalId: 'call_1' }], _meta: { terminal_info: { cwd: '/w', terminal_id: 'call_1' } } };
    const chunk = { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'in_progress', _meta: { terminal_output_delta: { data: 'line1\n', terminal_id: 'call_1' } } };
    const end = { sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', _meta: { terminal_output_delta: { data: 'line2\n', terminal_id: 'call_1' }, terminal_exit: { exit_code: 0, signal: null, terminal_id: 'call_1' } } };
    const codec = new AcpCodec();
    const decode = (update: unknown) => {
      const d = codec.decode({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } });
      return d.kind === 'event' ? d.event : assert.fail(JSON.stringify(d));
    };
    const events = [start, chunk, end].map(decode);
    // The end carries the whole output, as every other tool's end does (the history and the
    // export read it there), not its last chunk; its line alone does not, so it is kept as itself.
    assert.deepEqual(events[2].result, { output: 'line1\nline2\n' });
    const again = new AcpCodec();
    const lineStands = [start, chunk, end].map((update) => (again.decode({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } }) as { lineStands?: false }).lineStands);
    assert.deepEqual(lineStands, [undefined, undefined, false]);
    // A reading codec (lines kept for their events, read back) keeps nothing from line to line.
    const reading = acpDialect.createCodec('reading');
    const read = [start, chunk, end].map((update) => reading.decode({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } }) as { event: AgentEvent });
    assert.deepEqual(read[2].event.result, { output: 'line2\n' });
    assert.equal(events[2].data?.outputDelta, undefined);
    const model = new LogModel();
    model.apply(events.slice(0, 2) as unknown as PageEvent[]);
    assert.equal((model.all().find((e) => e.kind === 'tool') as ToolEntry).output, 'line1\n', 'the running command\'s output so far');
    model.apply([events[2]] as unknown as PageEvent[]);
    assert.equal((model.all().find((e) => e.kind === 'tool') as ToolEntry).result, 'line1\nline2\n', 'the whole output, not its last chunk');
  });

  // claude-agent-acp 0.101.0 sends a command's output, and a file it read, as one markdown block
  // (its renderer's "```console\n…\n```", its markdownEscape); the log shows output as text.
  it('Claude\'s output in one fenced block reaches the row as its text, without the fences', () => {
    const end = (text: string) => (updateEvent({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text } }] } as never) as AgentEvent).result;
    assert.deepEqual(end('```console\nline1\nline2\n```'), { output: 'line1\nline2' });
    // markdownEscape: a longer fence around text that holds a fence, and an empty text.
    assert.deepEqual(end('````\nsee:\n```js\nx\n```\n````'), { output: 'see:\n```js\nx\n```' });
    assert.equal(end('```\n\n```'), undefined, 'an empty block is no output');
    // Not one whole block: as sent.
    for (const text of ['before\n```\nx\n```', '```\na\n```\nafter\n```\nb\n```', '```js\nunclosed', '``` inline ```', '```\n```\nx\n```']) assert.deepEqual(end(text), { output: text }, text);
  });

  it('unwraps exactly what the regular expression it replaced unwrapped, on 20,000 made-up texts', () => {
    // The reading it replaced (a lazy body tried character by character), kept here as the reference.
    const FENCED = /^(`{3,})[^`\n]*\n([\s\S]*?)\n?\1[ \t]*$/;
    const reference = (text: string) => {
      if (!text.startsWith('```')) return text;
      const m = FENCED.exec(text);
      return m && !new RegExp(`^${m[1]}`, 'm').test(m[2]) ? m[2] : text;
    };
    const pieces = ['```', '````', '`', '\n', '\r', '\u2028', ' ', '\t', 'a', 'console', '```\n', '\n```', '\n````'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let unwrapped = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = next() < 0.8 ? pieces[Math.floor(next() * 2)] : '';
      for (let k = Math.floor(next() * 9); k > 0; k--) text += pieces[Math.floor(next() * pieces.length)];
      const expected = reference(text);
      assert.equal(unfenced(text), expected, JSON.stringify(text));
      if (expected !== text) unwrapped++;
    }
    assert.ok(unwrapped > 500, `${unwrapped} of the texts were one whole block`);
  });

  it('a command that exited non-zero is a failed call where the agent says the exit only in rawOutput (OpenCode, Copilot)', () => {
    const end = (rawOutput: unknown) => updateEvent({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput } as never) as AgentEvent;
    // As the real agents sent them for `echo failing; exit 3` (acp.real.test.ts).
    const opencode = end({ output: 'failing\n', metadata: { output: 'failing\n', exit: 3, truncated: false } });
    assert.equal(opencode.is_error, true);
    assert.equal(opencode.data?.exitCode, 3);
    const copilot = end({ content: 'failing\n<shellId: 0 completed with exit code 3>', contents: [{ type: 'shell_exit', shellId: '0', exitCode: 3, cwd: '/w', outputPreview: 'failing\n' }] });
    assert.equal(copilot.is_error, true);
    assert.equal(copilot.data?.exitCode, 3);
    // Exit 0, or no exit said at all: the agent's `completed` stands.
    assert.equal(end({ output: 'ok\n', metadata: { exit: 0 } }).is_error, false);
    assert.equal(end({ output: 'ok\n', metadata: { exit: 0 } }).data?.exitCode, undefined);
    assert.equal(end('plain text').is_error, false);
  });

  it('the login command an agent names: Copilot\'s terminal-auth (quoted where the shell needs it), OpenCode\'s description, none for Gemini', () => {
    const methods = (file: string) => {
      const line = readFileSync(path.join(TRANSCRIPTS, file), 'utf8').split('\n').find((l) => l.includes('"authMethods"'))!;
      return JSON.parse(line).msg.result.authMethods;
    };
    const login = (authMethods: unknown) => Object.assign(new AcpState(), { authMethods }).loginCommand();
    const copilot = login(methods('copilot-hello.jsonl'));
    assert.equal(copilot?.label, 'Copilot Login');
    assert.match(copilot?.line ?? '', /^\/\S+\/copilot login$/);
    assert.deepEqual(login(methods('opencode-hello.jsonl')), { label: 'Login with opencode', line: 'opencode auth login' });
    assert.equal(login(methods('gemini-hello.jsonl')), null);
    assert.equal(login(methods('codex-acp-hello.jsonl')), null);
    assert.deepEqual(login([{ id: 'x', name: 'X', _meta: { 'terminal-auth': { command: '/opt/my agent/bin', args: ['log in', "it's"] } } }]), { label: 'X', line: "'/opt/my agent/bin' 'log in' 'it'\\''s'" });
  });

  // The fast path hands back the event's own objects: the state keeps copies, so that setting an
  // option (acpSessions.ts writes currentValue) does not rewrite an event already delivered, and
  // a listener that edits an event does not change what the host knows.
  it('the options a config_changed event carries are the state\'s own copies', () => {
    const state = new AcpState();
    const event = updateEvent({ sessionUpdate: 'config_option_update', configOptions: [{ id: 'model', category: 'model', currentValue: 'a' }, { name: 'no id' }] }) as AgentEvent;
    state.observe(event);
    assert.deepEqual(state.configOptions.map((o) => o.id), ['model'], 'the option without an id is left out');
    assert.equal(state.model, 'a');
    state.configOptions[0].currentValue = 'b';
    assert.equal((event.data!.options as Array<{ currentValue: string }>)[0].currentValue, 'a', 'the delivered event is unchanged');
    (event.data!.options as Array<{ currentValue: string }>)[0].currentValue = 'c';
    assert.equal(state.model, 'b', 'the state is unchanged by an edit of the event');
  });
});

describe('ACP initialize answer: its _meta is the agent\'s own', () => {
  const claude = () => {
    const line = readFileSync(path.join(TRANSCRIPTS, 'claude-agent-acp-hello.jsonl'), 'utf8').split('\n').find((l) => l.includes('"agentCapabilities"'))!;
    return (JSON.parse(line) as Line).msg.result as Record<string, unknown>;
  };

  it('reads Claude\'s steering, and takes a steering of any other shape as none, never as a failed start', () => {
    assert.equal(initializeSchema.parse(claude())._meta?.steering?.supported, true);
    // ACP: no assumption about a `_meta` value; one this host cannot read says nothing.
    for (const steering of [true, null, 'yes', [], { supported: 'yes' }]) {
      const r = initializeSchema.safeParse({ ...claude(), _meta: { steering, other: 1 } });
      assert.ok(r.success, `steering ${JSON.stringify(steering)}: ${r.success ? '' : r.error.message}`);
      assert.equal(r.data._meta?.steering, undefined);
      assert.equal(r.data._meta?.other, 1, 'the rest of _meta is kept');
      assert.equal(r.data.protocolVersion, 1);
    }
  });
});

// Claude's and Codex's adapters say whom they sign in as at each start (`_auth/status_update`, not
// in ACP v1): typed at the wire as `auth_status`, so that the log words it instead of a raw row.
describe('ACP sign-in notice: _auth/status_update is an auth_status event', () => {
  const notice = (file: string) => {
    const line = readFileSync(path.join(TRANSCRIPTS, file), 'utf8').split('\n').find((l) => l.includes('"_auth/status_update"'))!;
    return (JSON.parse(line) as Line).msg;
  };
  const words = (e: AgentEvent) => {
    const model = new LogModel();
    model.apply([slimEvent(e as unknown as { type: string; timestamp: number })]);
    return model.all().map((x) => (x.kind === 'other' ? `${x.type}: ${x.text}` : x.kind));
  };

  for (const [file, kind, label, detail, said] of [
    ['claude-agent-acp-hello.jsonl', 'api_key', 'Anthropic API key', 'ANTHROPIC_API_KEY', 'Signed in: Anthropic API key (ANTHROPIC_API_KEY)'],
    ['codex-acp-hello.jsonl', 'gateway', 'Custom model gateway', 'mock', 'Signed in: Custom model gateway (mock)'],
  ] as const) {
    it(`${file}: ${kind}, its params kept whole, read back the same, worded by the page`, () => {
      const msg = notice(file);
      const d = new AcpCodec().decode(msg);
      assert.equal(d.kind, 'event');
      const event = (d as { event: AgentEvent }).event;
      assert.equal(event.type, 'auth_status');
      assert.deepEqual(event.data, { kind, label, detail, params: msg.params });
      const back = readBack(acpDialect.createCodec('reading'), msg);
      assert.ok(back.ok && back.event.type === 'auth_status');
      assert.deepEqual(words(event), [said]);
    });
  }

  it('the other kinds the adapters send: not logged in, a subscription (its email), a cloud without detail', () => {
    const said = (authStatus: Record<string, unknown>) => {
      const d = new AcpCodec().decode({ jsonrpc: '2.0', method: '_auth/status_update', params: { authStatus } });
      assert.equal(d.kind, 'event');
      return words((d as { event: AgentEvent }).event);
    };
    assert.deepEqual(said({ kind: 'none', label: 'Not logged in' }), ['Not signed in: ']);
    assert.deepEqual(said({ kind: 'account', label: 'Claude Max', account: { plan: 'max', email: 'a@example.com' } }), ['Signed in: Claude Max (a@example.com)']);
    assert.deepEqual(said({ kind: 'external', label: 'AWS Bedrock' }), ['Signed in: AWS Bedrock']);
  });

  it('one of another shape goes on as the notification it was: nothing dropped', () => {
    for (const params of [undefined, {}, { authStatus: { label: 'no kind' } }, { authStatus: 'api_key' }]) {
      const d = new AcpCodec().decode({ jsonrpc: '2.0', method: '_auth/status_update', params });
      assert.equal(d.kind, 'message', JSON.stringify(params));
    }
  });

  it('a session recorded before it was typed reads back in the same words: its raw row is the auth_status event now', () => {
    // The line a host before auth_status wrote for the notice (the unknown notification, kept as
    // `{ type: method, data: { params } }`), and one of another shape, which stays what it was.
    const params = notice('claude-agent-acp-hello.jsonl').params;
    const old = { type: '_auth/status_update', data: { params }, timestamp: 1764990000000 };
    const odd = { type: '_auth/status_update', data: { params: { authStatus: 'api_key' } }, timestamp: 1764990000001 };
    const r = parseEvents(Buffer.from(`${JSON.stringify(old)}\n${JSON.stringify(odd)}\n`));
    assert.equal(r.badLines.count, 0);
    assert.deepEqual(r.events[0], { type: 'auth_status', timestamp: 1764990000000, data: { kind: 'api_key', label: 'Anthropic API key', detail: 'ANTHROPIC_API_KEY', params } });
    assert.deepEqual(words(r.events[0]), ['Signed in: Anthropic API key (ANTHROPIC_API_KEY)']);
    assert.deepEqual(r.events[1], odd);
  });
});

// A mode's id is the agent's word for its program (Claude's "default" is "Manual"; Copilot's ids are
// URLs): the wire names it from what the session said it offers, so that the page, which knows no
// dialect, can say the name.
describe('ACP mode change: the event carries the mode\'s name', () => {
  /** A codec that has read a transcript's session/new answer, as the verbs' learnSession does. */
  const opened = (file: string) => {
    const codec = new AcpCodec();
    const lines = readFileSync(path.join(TRANSCRIPTS, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
    const answer = lines.find((l) => l.dir === 'a2c' && (l.msg.result as { sessionId?: unknown } | undefined)?.sessionId !== undefined)!;
    codec.state.learnSession(answer.msg.result as never);
    const sessionId = (answer.msg.result as { sessionId: string }).sessionId;
    return { codec, sessionId, lines };
  };
  const modeUpdate = (sessionId: string, currentModeId: string) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'current_mode_update', currentModeId } } });

  for (const [file, id, name] of [
    ['claude-agent-acp-shell-cancel.jsonl', 'default', 'Manual'],
    ['copilot-hello.jsonl', 'https://agentclientprotocol.com/protocol/session-modes#plan', 'Plan'],
  ] as const) {
    it(`${file}: current_mode_update ${id} is mode_changed named ${name}, and its line alone does not stand for it`, () => {
      const { codec, sessionId } = opened(file);
      const d = codec.decode(modeUpdate(sessionId, id));
      assert.equal(d.kind, 'event');
      if (d.kind !== 'event') return;
      assert.deepEqual(d.event.data, { mode: id, name });
      assert.equal(d.lineStands, false, 'a fresh codec reading the line back would not know the name');
    });
  }

  // Copilot's Switch Mode goes through its mode config option (session/set_config_option): the
  // answer names the mode for Switch Mode's own event (core/worker/sessions.ts).
  it('copilot-hello.jsonl: Switch Mode through the mode option answers the mode with its name', async () => {
    const { codec } = opened('copilot-hello.jsonl');
    const plan = 'https://agentclientprotocol.com/protocol/session-modes#plan';
    const sent: Array<[string, unknown]> = [];
    const connection = { sendRequest: async (method: string, params: unknown) => void sent.push([method, params]) } as unknown as MessageConnection;
    states.set(connection, codec.state);
    codec.state.sessionId = 'S';
    assert.deepEqual(await setMode(connection, plan), { mode: plan, name: 'Plan', said: false });
    assert.deepEqual(sent, [['session/set_config_option', { sessionId: 'S', configId: 'mode', value: plan }]]);
  });

  // One row per change: the Event Log and the export say "Mode: X" once.
  it('claude-agent-acp-shell-cancel.jsonl: its config_option_update moves the mode; a current_mode_update for the same mode after it is kept, marked repeated', () => {
    const { codec, sessionId, lines } = opened('claude-agent-acp-shell-cancel.jsonl');
    const options = lines.find((l) => (l.msg.params as { update?: { sessionUpdate?: string } } | undefined)?.update?.sessionUpdate === 'config_option_update')!;
    const moved = codec.decode(options.msg);
    assert.ok(moved.kind === 'event');
    assert.deepEqual(moved.then?.data, { mode: 'default', name: 'Manual' });
    const again = codec.decode(modeUpdate(sessionId, 'default'));
    assert.ok(again.kind === 'event' && again.lineStands === false);
    assert.deepEqual(again.event.data, { mode: 'default', repeated: true });
    // A real change after it is said.
    const plan = codec.decode(modeUpdate(sessionId, 'plan'));
    assert.ok(plan.kind === 'event');
    assert.deepEqual(plan.event.data, { mode: 'plan', name: 'Plan' });
  });

  it('gemini-hello.jsonl: the current_mode_update it sends while answering session/set_mode is the one event; Switch Mode adds none', async () => {
    const { codec, sessionId } = opened('gemini-hello.jsonl');
    const events: Array<AgentEvent | undefined> = [];
    let id = 0;
    // The agent's update comes before its answer, as Gemini's (and the fake agent's) do.
    const connection = {
      sendRequest: async (method: string, params: { modeId: string }) => {
        codec.encode({ jsonrpc: '2.0', id: ++id, method, params } as Message);
        const d = codec.decode(modeUpdate(sessionId, params.modeId));
        events.push(d.kind === 'event' ? d.event : undefined);
        codec.decode({ jsonrpc: '2.0', id, result: {} });
      },
    } as unknown as MessageConnection;
    states.set(connection, codec.state);
    codec.state.sessionId = sessionId;
    assert.deepEqual(await setMode(connection, 'yolo'), { mode: 'yolo', name: 'YOLO', said: true });
    assert.deepEqual(events.map((e) => e?.data), [{ mode: 'yolo', name: 'YOLO' }]);
    // Asked again for the mode it is in: its update is kept, marked repeated, and there is no change to say.
    assert.deepEqual(await setMode(connection, 'yolo'), { mode: 'yolo', name: 'YOLO', said: true });
    assert.deepEqual(events.map((e) => e?.data), [{ mode: 'yolo', name: 'YOLO' }, { mode: 'yolo', repeated: true }]);
  });

  it('an update that says the mode the host already moved to (after Switch Mode\'s answer) is marked repeated; one while a session is made is kept', () => {
    const { codec, sessionId } = opened('gemini-hello.jsonl');
    codec.state.modes!.current = 'plan';
    const again = codec.decode(modeUpdate(sessionId, 'plan'));
    assert.ok(again.kind === 'event');
    assert.equal(again.event.data?.repeated, true);
    codec.encode({ jsonrpc: '2.0', id: 9, method: 'session/new', params: { cwd: '/', mcpServers: [] } } as Message);
    assert.equal(codec.decode(modeUpdate(sessionId, 'plan')).kind, 'event', 'the new session\'s mode is not known yet');
  });

  it('a mode the session did not list keeps its id and no name', () => {
    const { codec, sessionId } = opened('claude-agent-acp-shell-cancel.jsonl');
    const d = codec.decode(modeUpdate(sessionId, 'someNewMode'));
    assert.ok(d.kind === 'event');
    assert.deepEqual(d.event.data, { mode: 'someNewMode', name: null });
    assert.equal(d.lineStands, undefined, 'the line says all the event does');
  });
});

// Switch Mode's picker describes a mode in the agent's own words (not its id: Copilot's are URLs).
describe('ACP modes offered: each with the agent\'s description of it', () => {
  for (const [file, id, description] of [
    ['copilot-hello.jsonl', 'https://agentclientprotocol.com/protocol/session-modes#plan', 'Plan mode for creating and executing multi-step plans'],
    ['gemini-hello.jsonl', 'autoEdit', 'Auto-approves edit tools'],
    ['opencode-hello.jsonl', 'plan', 'Plan mode. Disallows all edit tools.'],
  ] as const) {
    it(`${file}: ${id} is described as "${description}"`, () => {
      const lines = readFileSync(path.join(TRANSCRIPTS, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
      const answer = lines.find((l) => l.dir === 'a2c' && (l.msg.result as { sessionId?: unknown } | undefined)?.sessionId !== undefined)!;
      const state = new AcpState();
      state.learnSession(answer.msg.result as never);
      const connection = {} as MessageConnection;
      states.set(connection, state);
      assert.equal(modesOf(connection)?.available.find((m) => m.id === id)?.description, description);
    });
  }
});

// AcpState.mode reads the mode option first: a current_mode_update alone must move it too, or the
// tooltip stays on the mode the session started in.
describe('ACP current_mode_update: the state\'s mode follows it, where the agent also has a mode option', () => {
  for (const [file, id] of [
    ['claude-agent-acp-hello.jsonl', 'plan'],
    ['codex-acp-hello.jsonl', 'read-only'],
    ['copilot-hello.jsonl', 'https://agentclientprotocol.com/protocol/session-modes#plan'],
    ['gemini-hello.jsonl', 'yolo'],
  ] as const) {
    it(`${file}: current_mode_update ${id} alone makes the state's mode ${id}`, () => {
      const lines = readFileSync(path.join(TRANSCRIPTS, file), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
      const answer = lines.find((l) => l.dir === 'a2c' && (l.msg.result as { sessionId?: unknown } | undefined)?.sessionId !== undefined)!;
      const codec = new AcpCodec();
      codec.state.learnSession(answer.msg.result as never);
      const sessionId = (answer.msg.result as { sessionId: string }).sessionId;
      codec.decode({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'current_mode_update', currentModeId: id } } });
      assert.equal(codec.state.mode, id);
    });
  }

  it('a mode the option does not hold leaves the option as it was', () => {
    const state = new AcpState();
    state.configOptions = [{ id: 'mode', category: 'mode', currentValue: 'build', options: [{ value: 'build' }, { value: 'plan' }] }];
    state.observe({ type: 'mode_changed', timestamp: 0, data: { mode: 'elsewhere' } });
    assert.equal(state.configOptions[0].currentValue, 'build');
  });
});

// An agent that changes its mode by itself and says so only in config_option_update: the update is
// config_changed (hidden from the page), so the codec also gives a mode_changed, named.
describe('ACP config_option_update that moves the mode: a mode_changed too', () => {
  const PLAN = 'https://agentclientprotocol.com/protocol/session-modes#plan';
  /** Copilot's session as recorded, and its recorded config_option_update (the mode unchanged). */
  const copilot = () => {
    const lines = readFileSync(path.join(TRANSCRIPTS, 'copilot-hello.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
    const answer = lines.find((l) => l.dir === 'a2c' && (l.msg.result as { sessionId?: unknown } | undefined)?.sessionId !== undefined)!;
    const codec = new AcpCodec();
    codec.state.learnSession(answer.msg.result as never);
    const sessionId = (answer.msg.result as { sessionId: string }).sessionId;
    const recorded = lines.find((l) => (l.msg.params as { update?: { sessionUpdate?: string } } | undefined)?.update?.sessionUpdate === 'config_option_update')!.msg;
    /** The recorded line with the mode option's current value set to `mode`. */
    const optionsSay = (mode: string) => {
      const msg = structuredClone(recorded) as { params: { update: { configOptions: Array<{ category?: string; currentValue?: unknown }> } } };
      msg.params.update.configOptions.find((o) => o.category === 'mode')!.currentValue = mode;
      return msg;
    };
    return { codec, sessionId, recorded, optionsSay };
  };
  const modeUpdate = (sessionId: string, currentModeId: string) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update: { sessionUpdate: 'current_mode_update', currentModeId } } });

  it('copilot-hello.jsonl: the options moving the mode to plan are config_changed, then mode_changed named Plan', () => {
    const { codec, optionsSay } = copilot();
    const d = codec.decode(optionsSay(PLAN));
    assert.ok(d.kind === 'event');
    assert.equal(d.event.type, 'config_changed');
    assert.equal(d.then?.type, 'mode_changed');
    assert.deepEqual(d.then?.data, { mode: PLAN, name: 'Plan' });
    assert.equal(codec.state.mode, PLAN);
  });

  it('copilot-hello.jsonl: the recorded update, which says the mode it started in, is no mode change', () => {
    const { codec, recorded } = copilot();
    const d = codec.decode(recorded);
    assert.ok(d.kind === 'event');
    assert.equal(d.then, undefined);
  });

  it('not at the session\'s start: options said before any mode was known are no change', () => {
    const { optionsSay } = copilot();
    const d = new AcpCodec().decode(optionsSay(PLAN));
    assert.ok(d.kind === 'event');
    assert.equal(d.then, undefined);
  });

  it('not twice: a current_mode_update that said it first leaves the options\' update no change', () => {
    const { codec, sessionId, optionsSay } = copilot();
    const first = codec.decode(modeUpdate(sessionId, PLAN));
    assert.ok(first.kind === 'event' && first.event.type === 'mode_changed');
    const d = codec.decode(optionsSay(PLAN));
    assert.ok(d.kind === 'event');
    assert.equal(d.then, undefined);
  });

  it('the reader delivers both, the line\'s own event first, the mode change without a line', async () => {
    const { codec, optionsSay } = copilot();
    const stream = new PassThrough();
    const got: Array<[string, boolean]> = [];
    const both = new Promise<void>((resolve) => {
      new JsonlMessageReader(stream, { maxLineBytes: 1 << 20, codec, onProtocolError: () => {}, onEvent: (e, line) => void (got.push([e.type, line !== undefined]), got.length === 2 && resolve()) });
    });
    stream.write(JSON.stringify(optionsSay(PLAN)) + '\n');
    await both;
    assert.deepEqual(got, [['config_changed', true], ['mode_changed', false]]);
  });

  it('not for Switch Mode\'s own change, which makes its own event', () => {
    const { codec, sessionId, optionsSay } = copilot();
    codec.encode({ jsonrpc: '2.0', id: 7, method: 'session/set_config_option', params: { sessionId, configId: 'mode', value: PLAN } } as Message);
    const d = codec.decode(optionsSay(PLAN));
    assert.ok(d.kind === 'event');
    assert.equal(d.then, undefined);
  });
});

// Reopening a past session (session/load), the agent replays its conversation before it answers:
// those events are history, not this worker's turns, its files or its audit (turns.ts,
// clientFiles.ts, worker.ts read `replayed`), and tell the state nothing new.
describe('ACP session/load: the replay is marked, and the state is left to what comes after it', () => {
  it('marks each update before the answer replayed and keeps it from the state; the updates after it are the worker\'s', () => {
    const codec = new AcpCodec();
    const update = (u: Record<string, unknown>) => {
      const d = codec.decode({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: u } });
      assert.ok(d.kind === 'event', JSON.stringify(d));
      return d.event;
    };
    codec.encode({ jsonrpc: '2.0', id: 1, method: 'session/load', params: { sessionId: 's1', cwd: '/w', mcpServers: [] } } as Message);
    const replay = [
      update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'fix it' } }),
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Write a.txt', kind: 'edit', status: 'completed' }),
      update({ sessionUpdate: 'usage_update', used: 900, size: 1000 }),
    ];
    assert.deepEqual(replay.map((e) => e.replayed), [true, true, true]);
    assert.equal(codec.state.usage, null, 'a replayed readout is the old session\'s');
    assert.equal(codec.decode({ jsonrpc: '2.0', id: 1, result: {} }).kind, 'message');
    assert.ok(codec.state.sessions.has('s1'), 'the loaded session is the worker\'s');
    // Its readouts after the answer are the session's now; its conversation is the next prompt's.
    assert.equal(update({ sessionUpdate: 'usage_update', used: 20, size: 1000 }).replayed, undefined);
    assert.deepEqual(codec.state.usage, { used: 20, size: 1000, cost: null });
    codec.encode({ jsonrpc: '2.0', id: 2, method: 'session/prompt', params: { sessionId: 's1', prompt: [{ type: 'text', text: 'go on' }] } } as Message);
    const live = [update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } }), update({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Write b.txt', kind: 'edit', status: 'pending' })];
    assert.deepEqual(live.map((e) => e.replayed), [undefined, undefined]);
  });

  it('Gemini answers session/load before most of its replay: the conversation it sends after the answer, before the next prompt, is replay too', () => {
    const codec = new AcpCodec();
    const update = (u: Record<string, unknown>) => {
      const d = codec.decode({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: u } });
      assert.ok(d.kind === 'event', JSON.stringify(d));
      return d.event;
    };
    codec.encode({ jsonrpc: '2.0', id: 1, method: 'session/load', params: { sessionId: 's1', cwd: '/w', mcpServers: [] } } as Message);
    assert.equal(update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'fix it' } }).replayed, true);
    codec.decode({ jsonrpc: '2.0', id: 1, result: {} });
    // docs/acp-agents-findings.md: its replayed tool calls ("Shell", "WriteFile") came after the answer.
    const late = [
      update({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'WriteFile', kind: 'edit', status: 'completed' }),
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done.' } }),
      update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'and then' } }),
    ];
    assert.deepEqual(late.map((e) => e.replayed), [true, true, true], 'the replay after the answer was taken for the worker\'s own (its files, its audit, its turn)');
    // A session/load that failed replays nothing that stays: what follows is not marked.
    const failed = new AcpCodec();
    failed.encode({ jsonrpc: '2.0', id: 1, method: 'session/load', params: { sessionId: 's2', cwd: '/w', mcpServers: [] } } as Message);
    failed.decode({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
    failed.state.sessions.add('s2');
    const d = failed.decode({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's2', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } } });
    assert.ok(d.kind === 'event' && d.event.replayed === undefined);
  });
});
