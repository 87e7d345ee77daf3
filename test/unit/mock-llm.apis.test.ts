// The mock model server speaks each API well enough for that API's own official client (the
// SDKs pi's provider layer brings: openai, @anthropic-ai/sdk, @google/genai) to read it: text
// streamed in pieces, tool calls with their arguments, usage, errors; and it records every call
// with its API, answering the agents' side calls without taking the script.
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startMockLlm, toolResultsOf, toolsOf, type MockLlm } from '../fixtures/mock-llm.mjs';

const TOOL = { name: 'run', arguments: { command: 'echo hi', n: 2 } };

describe('mock model server: the four APIs, read by their own clients', () => {
  let mock: MockLlm;
  beforeEach(async () => { mock = await startMockLlm({ defaultText: 'default reply' }); });
  afterEach(() => mock.close());

  it('Chat Completions: text deltas, tool call arguments, and usage in its own chunk with include_usage', async () => {
    const openai = new OpenAI({ baseURL: mock.baseUrl, apiKey: 'x', maxRetries: 0 });
    mock.script({ text: 'one two three four five six seven' }, { toolCalls: [TOOL] });
    const deltas: string[] = [];
    let usage: unknown = null;
    let emptyChoicesChunk = false;
    const s1 = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    for await (const c of s1) {
      if (c.choices[0]?.delta.content) deltas.push(c.choices[0].delta.content);
      if (c.usage) { usage = c.usage; emptyChoicesChunk = c.choices.length === 0; }
    }
    assert.ok(deltas.length >= 2);
    assert.equal(deltas.join(''), 'one two three four five six seven');
    assert.deepEqual(usage, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
    assert.ok(emptyChoicesChunk, 'usage rides on a chunk of its own, choices []');
    const r2 = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }] });
    const tc = r2.choices[0].message.tool_calls![0] as { function: { name: string; arguments: string } };
    assert.equal(tc.function.name, 'run');
    assert.deepEqual(JSON.parse(tc.function.arguments), TOOL.arguments);
    assert.equal(r2.choices[0].finish_reason, 'tool_calls');
  });

  it('Responses: streamed output_text deltas, a function_call item, usage on response.completed', async () => {
    const openai = new OpenAI({ baseURL: mock.baseUrl, apiKey: 'x', maxRetries: 0 });
    mock.script({ text: 'alpha beta gamma delta epsilon' }, { toolCalls: [{ ...TOOL, id: 'call_42' }] });
    const s = await openai.responses.create({ model: 'm', input: 'hi', stream: true });
    const deltas: string[] = [];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's event, read by shape
    let completed: any = null;
    for await (const e of s) {
      if (e.type === 'response.output_text.delta') deltas.push(e.delta);
      if (e.type === 'response.completed') completed = e.response;
    }
    assert.ok(deltas.length >= 2);
    assert.equal(deltas.join(''), 'alpha beta gamma delta epsilon');
    assert.equal(completed.usage.total_tokens, 15);
    const stream = openai.responses.stream({ model: 'm', input: 'go' });
    const final = await stream.finalResponse();
    const fc = final.output.find((o) => o.type === 'function_call') as { name: string; arguments: string; call_id: string };
    assert.equal(fc.name, 'run');
    assert.equal(fc.call_id, 'call_42');
    assert.deepEqual(JSON.parse(fc.arguments), TOOL.arguments);
    assert.deepEqual(mock.calls.map((c) => c.api), ['responses', 'responses']);
  });

  it('Anthropic Messages: streamed text, a tool_use block with its input, not streamed too, and count_tokens', async () => {
    const anthropic = new Anthropic({ baseURL: mock.origin, apiKey: 'x', maxRetries: 0 });
    mock.script({ text: 'Hello there from the mock model' }, { toolCalls: [TOOL] }, { text: 'plain answer' });
    const texts: string[] = [];
    const s = anthropic.messages.stream({ model: 'c', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] });
    s.on('text', (t) => texts.push(t));
    const m1 = await s.finalMessage();
    assert.ok(texts.length >= 2);
    assert.equal(texts.join(''), 'Hello there from the mock model');
    assert.equal(m1.stop_reason, 'end_turn');
    const m2 = await anthropic.messages.stream({ model: 'c', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] }).finalMessage();
    const tu = m2.content.find((b) => b.type === 'tool_use') as { name: string; input: unknown };
    assert.equal(tu.name, 'run');
    assert.deepEqual(tu.input, TOOL.arguments);
    assert.equal(m2.stop_reason, 'tool_use');
    const m3 = await anthropic.messages.create({ model: 'c', max_tokens: 100, messages: [{ role: 'user', content: 'again' }] });
    assert.deepEqual(m3.content.map((b) => (b.type === 'text' ? b.text : b.type)), ['plain answer']);
    const n = await anthropic.messages.countTokens({ model: 'c', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(typeof n.input_tokens, 'number');
    assert.equal(mock.requests.length, 3, 'count_tokens takes no scripted reply');
  });

  it('Gemini: streamGenerateContent text in pieces, functionCall parts, generateContent, countTokens', async () => {
    const ai = new GoogleGenAI({ apiKey: 'x', httpOptions: { baseUrl: mock.origin } });
    mock.script({ text: 'gemini says hello to you all' }, { toolCalls: [TOOL] }, { text: 'whole answer' });
    const pieces: string[] = [];
    for await (const c of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'hi' })) pieces.push(c.text ?? '');
    assert.ok(pieces.filter(Boolean).length >= 2);
    assert.equal(pieces.join(''), 'gemini says hello to you all');
    const calls = [];
    for await (const c of await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'go' })) calls.push(...(c.functionCalls ?? []));
    assert.deepEqual(calls.map((f) => [f.name, f.args]), [['run', TOOL.arguments]]);
    const whole = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'again' });
    assert.equal(whole.text, 'whole answer');
    const n = await ai.models.countTokens({ model: 'gemini-2.5-flash', contents: 'x' });
    assert.equal(typeof n.totalTokens, 'number');
    assert.match(mock.calls[0].path, /\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent$/);
    assert.deepEqual(mock.modelCalls().map((c) => c.api), ['gemini', 'gemini', 'gemini']);
  });

  it('each API carries its error body and status', async () => {
    mock.script({ fail: { status: 400, message: 'bad thing' } }, { fail: { status: 400, message: 'bad thing' } }, { fail: { status: 400, message: 'bad thing' } });
    const openai = new OpenAI({ baseURL: mock.baseUrl, apiKey: 'x', maxRetries: 0 });
    await assert.rejects(openai.responses.create({ model: 'm', input: 'x' }), (e: { status?: number; message: string }) => e.status === 400 && /bad thing/.test(e.message));
    const anthropic = new Anthropic({ baseURL: mock.origin, apiKey: 'x', maxRetries: 0 });
    await assert.rejects(anthropic.messages.create({ model: 'c', max_tokens: 1, messages: [{ role: 'user', content: 'x' }] }), (e: { status?: number; message: string }) => e.status === 400 && /bad thing/.test(e.message));
    const ai = new GoogleGenAI({ apiKey: 'x', httpOptions: { baseUrl: mock.origin } });
    await assert.rejects(ai.models.generateContent({ model: 'g', contents: 'x' }), /bad thing/);
  });

  it('side calls (agent titles, Claude prompt suggestions) are answered without taking the script, and recorded as side calls', async () => {
    const openai = new OpenAI({ baseURL: mock.baseUrl, apiKey: 'x', maxRetries: 0 });
    const anthropic = new Anthropic({ baseURL: mock.origin, apiKey: 'x', maxRetries: 0 });
    mock.script({ text: 'the turn reply' });
    const title = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'system', content: 'You are a title generator. You output ONLY a thread title.' }, { role: 'user', content: 'x' }] });
    assert.equal(title.choices[0].message.content, 'Mock session title');
    const claudeTitle = await anthropic.messages.create({ model: 'c', max_tokens: 100, system: [{ type: 'text', text: 'You are naming a coding session so the user can pick it out.' }], messages: [{ role: 'user', content: '<session>x</session>' }] });
    assert.deepEqual(JSON.parse((claudeTitle.content[0] as { text: string }).text), { title: 'Mock session title' });
    await anthropic.messages.create({ model: 'c', max_tokens: 100, messages: [{ role: 'user', content: '[SUGGESTION MODE: Suggest what the user might type next.]' }] });
    await openai.responses.create({ model: 'm', input: [{ role: 'user', content: 'Your task is to generate a very short title for a conversation.' }] });
    assert.equal(mock.pending(), 1, 'the scripted reply is still there');
    assert.equal(mock.requests.length, 0);
    assert.deepEqual(mock.calls.map((c) => [c.api, c.side]), [['chat', true], ['anthropic', true], ['anthropic', true], ['responses', true]]);
    const turn = await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'real' }] });
    assert.equal(turn.choices[0].message.content, 'the turn reply');
    assert.equal((await mock.waitForCall(1)).api, 'chat');
  });

  it('reads tool results and offered tools back out of each API\'s request shape', () => {
    assert.deepEqual(toolResultsOf('chat', { messages: [{ role: 'tool', tool_call_id: 'a', content: 'out' }] }), [{ id: 'a', output: 'out' }]);
    assert.deepEqual(toolResultsOf('responses', { input: [{ type: 'function_call_output', call_id: 'b', output: 'out' }] }), [{ id: 'b', output: 'out' }]);
    assert.deepEqual(toolResultsOf('anthropic', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: 'out' }] }] }), [{ id: 'c', output: 'out' }]);
    assert.deepEqual(toolResultsOf('gemini', { contents: [{ role: 'user', parts: [{ functionResponse: { id: 'd', name: 'run', response: { output: 'out' } } }] }] }), [{ id: 'd', name: 'run', output: '{"output":"out"}' }]);
    const schema = { type: 'object', properties: { a: {}, b: {} }, required: ['a'] };
    const want = [{ name: 't', required: ['a'], properties: ['a', 'b'] }];
    assert.deepEqual(toolsOf('chat', { tools: [{ type: 'function', function: { name: 't', parameters: schema } }] }), want);
    assert.deepEqual(toolsOf('responses', { tools: [{ type: 'function', name: 't', parameters: schema }] }), want);
    assert.deepEqual(toolsOf('anthropic', { tools: [{ name: 't', input_schema: schema }] }), want);
    assert.deepEqual(toolsOf('gemini', { tools: [{ functionDeclarations: [{ name: 't', parametersJsonSchema: schema }] }] }), want);
  });
});
