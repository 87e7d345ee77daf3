#!/usr/bin/env node
// A worker that replays a real program's recorded wire (bench/recordings/*.wire[.gz], written by
// scripts/record-streams.mjs) as a flood: it answers the host's requests with the recorded
// answers (ids swapped in; a request not in the recording gets an empty success), and answers a
// prompt with the recorded prompt answer and then the recorded run with its body (every event
// between agent_start and agent_end) repeated until about --events events, written as fast as
// the pipe takes them. The lines are built once, before the prompt, so that the writer costs
// next to nothing and the reading side is what a figure measures.
//
//   node flood-worker.mjs --recording tau|pi-0.73|pi-1.x --events <n> --size <bytes>|real
//                         [--tau-protocol 1]   (τ: say protocol 1.5 and its 1.x field names)
//                         [--rate <events/s>]  (at a real program's pace: one line per write,
//                                               the lines due written every millisecond)
//                         [anything else, e.g. pi's --mode rpc, is ignored]
//
// --size: the length every text-delta line is brought to, by the delta's text. Where the
// recorded line without its text is already longer, it is first slimmed of what varies by
// program and is not text (τ: fields that are null or false; pi 0.73: the partial-message
// snapshots; pi 1.x: the usage block), so a small size is the same wire shape with less in it.
// `real`: the recorded lines as they are.
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linesOf, writePaced } from './paced-write.mjs';

export const RECORDINGS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../recordings');

/** The recording, split into what was sent and what was answered and streamed. */
export function loadRecording(name) {
  const plain = name.includes('/') ? name : path.join(RECORDINGS, `${name}.wire`);
  const text = existsSync(plain) ? readFileSync(plain, 'utf8') : gunzipSync(readFileSync(`${plain}.gz`)).toString('utf8');
  const sent = [];
  const received = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('> ')) sent.push(JSON.parse(line.slice(2)));
    else if (line.startsWith('< ')) received.push(line.slice(2));
  }
  const dialect = sent[0]?.jsonrpc === '2.0' ? 'tau' : 'pi';
  return { dialect, sent, received };
}

const isTau = (v) => v.jsonrpc === '2.0';
const verb = (m) => (isTau(m) ? m.method : m.type);
const idOf = (v) => v.id;
const eventType = (v) => (isTau(v) ? (v.method === 'event' ? v.params?.type : v.method) : v.type);
const isEvent = (v) => (isTau(v) ? v.id === undefined : v.type !== 'response' && v.type !== 'extension_ui_request');

/** τ 1.x named the entry id `cursor` and the session's lane `lane` (tauProtocols.ts). */
function toTau1(v) {
  const rename = (o) => {
    if (!o || typeof o !== 'object') return;
    if ('leaf' in o) {
      o.cursor = o.leaf;
      delete o.leaf;
    }
    if ('cursor_id' in o) {
      o.lane = o.cursor_id;
      delete o.cursor_id;
    }
  };
  rename(v.params);
  rename(v.result);
  if (v.result?.protocol_version) v.result.protocol_version = '1.5';
  return v;
}

function isTextDelta(v) {
  if (isTau(v)) return v.method === 'event' && v.params?.type === 'message_update' && typeof v.params.delta === 'string' && v.params.block_type !== 'thinking';
  return v.type === 'message_update' && v.assistantMessageEvent?.type === 'text_delta';
}

function setDelta(v, text) {
  if (isTau(v)) v.params.delta = text;
  else v.assistantMessageEvent.delta = text;
}

function slim(v) {
  if (isTau(v)) {
    for (const [k, x] of Object.entries(v.params)) if (x === null || x === false) delete v.params[k];
  } else {
    delete v.assistantMessageEvent.partial;
    delete v.message;
    delete v.usage;
  }
}

const FILLER = 'the worker streams text while the host reads it ';
const filler = (n) => FILLER.repeat(Math.ceil(Math.max(1, n) / FILLER.length)).slice(0, Math.max(1, n));

/**
 * A text-delta line brought to `size` bytes (ASCII filler, so characters are bytes), or to its
 * slimmed shape with a one-character text where that is still longer (τ's smallest is ~250 B).
 */
export function sized(line, size) {
  const v = JSON.parse(line);
  setDelta(v, '');
  if (JSON.stringify(v).length + 1 > size) slim(v);
  setDelta(v, filler(size - JSON.stringify(v).length));
  return JSON.stringify(v);
}

/**
 * The flood: the recorded run's events, its body repeated. Returns the lines' bytes and how
 * many events they hold.
 */
export function buildFlood(recording, { events, size, tau1 = false }) {
  const lines = [];
  for (const l of recording.received) {
    const v = JSON.parse(l);
    if (isEvent(v)) lines.push({ v, line: l });
  }
  const start = lines.findIndex((x) => eventType(x.v) === 'agent_start');
  const end = lines.findIndex((x) => eventType(x.v) === 'agent_end');
  const render = ({ v, line }) => {
    let out = size === 'real' || !isTextDelta(v) ? line : sized(line, size);
    if (tau1) out = JSON.stringify(toTau1(JSON.parse(out)));
    return out + '\n';
  };
  const head = lines.slice(0, start + 1).map(render).join('');
  const body = lines.slice(start + 1, end).map(render).join('');
  const tail = lines.slice(end).map(render).join('');
  const bodyEvents = end - start - 1;
  const repeats = Math.max(1, Math.ceil((events - (start + 1) - (lines.length - end)) / bodyEvents));
  const bodyBytes = Buffer.from(body);
  return {
    head: Buffer.from(head), body: bodyBytes, repeats, tail: Buffer.from(tail),
    /** The type of the flood's last event (pi 1.x: agent_settled, after its agent_end). */
    last: eventType(lines.at(-1).v),
    events: start + 1 + repeats * bodyEvents + (lines.length - end),
    bytes: Buffer.byteLength(head) + repeats * bodyBytes.length + Buffer.byteLength(tail),
  };
}

/** The recorded answer to each verb the recording sent, by verb. */
function answersOf(recording, tau1) {
  const byId = new Map();
  for (const l of recording.received) {
    const v = JSON.parse(l);
    if (!isEvent(v) && idOf(v) !== undefined) byId.set(String(idOf(v)), v);
  }
  const answers = new Map();
  for (const m of recording.sent) {
    const a = byId.get(String(m.id));
    if (a) answers.set(verb(m), tau1 ? toTau1(a) : a);
  }
  return answers;
}

function main() {
  const argv = process.argv.slice(2);
  const arg = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
  const recording = loadRecording(arg('--recording'));
  const tau1 = arg('--tau-protocol') === '1';
  const sizeArg = arg('--size', 'real');
  const flood = buildFlood(recording, { events: Number(arg('--events', 10000)), size: sizeArg === 'real' ? 'real' : Number(sizeArg), tau1 });
  const answers = answersOf(recording, tau1);
  const out = process.stdout;
  const drain = () => new Promise((r) => out.once('drain', r));

  const rate = Number(arg('--rate', 0));

  /** One line per write, as real workers write, at `rate` lines a second on average. */
  function paced() {
    const body = linesOf(flood.body);
    return writePaced(out, [...linesOf(flood.head), ...Array.from({ length: flood.repeats }, () => body).flat(), ...linesOf(flood.tail)], rate);
  }

  async function replay() {
    if (rate > 0) return paced();
    if (!out.write(flood.head)) await drain();
    for (let i = 0; i < flood.repeats; i++) if (!out.write(flood.body)) await drain();
    out.write(flood.tail);
  }

  function answer(m) {
    const recorded = answers.get(verb(m));
    if (recorded) return { ...recorded, id: m.id };
    return isTau(m) ? { jsonrpc: '2.0', id: m.id, result: {} } : { id: m.id, type: 'response', command: m.type, success: true };
  }

  let rest = '';
  process.stdin.on('data', (chunk) => {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop();
    for (const l of lines) {
      if (!l.trim()) continue;
      const m = JSON.parse(l);
      if (m.id === undefined) continue; // a notification (the host's `$/cancelRequest` is not sent to τ, nor to pi)
      out.write(JSON.stringify(answer(m)) + '\n');
      if (verb(m) === 'prompt') void replay();
    }
  });
  process.stdin.on('end', () => process.exit(0));
  process.stderr.write(`[flood-worker] ${recording.dialect}${tau1 ? ' (τ 1.x)' : ''}: ${flood.events} events, ${flood.bytes} bytes\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
