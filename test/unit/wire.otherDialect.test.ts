// A worker started under the wrong dialect is told apart from one sending garbage: each codec
// names the dialect a line is in when it is another's, so the start fails saying which to choose.
// Held to what the real programs send: every line pi 1.x and τ 0.15.0 wrote in their recordings.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { WireCodec } from '../../src/core/wire/codec';
import { AcpCodec } from '../../src/core/wire/acp';
import { PiCodec } from '../../src/core/wire/pi';
import { TauCodec } from '../../src/core/wire/tau';

const RECORDINGS = path.resolve(__dirname, '../../bench/recordings');
/** The lines the worker wrote (`< `) in a recording of its wire. */
const received = (text: string): unknown[] => text.split('\n').filter((l) => l.startsWith('< ')).map((l) => JSON.parse(l.slice(2)) as unknown);

const piLines = received(readFileSync(path.join(RECORDINGS, 'pi-1.x.wire'), 'utf8'));
/** What the five real ACP agents sent that carries a method (their requests and notifications), from acp-transcripts/. */
const ACP_DIR = path.resolve(__dirname, '../fixtures/acp-transcripts');
const acpCalls = readdirSync(ACP_DIR).filter((f) => f.endsWith('.jsonl') && !f.includes('stream-json')).flatMap((f) => readFileSync(path.join(ACP_DIR, f), 'utf8').split('\n').filter(Boolean)
  .map((l) => JSON.parse(l) as { dir: string; msg: { method?: unknown } }).filter((l) => l.dir === 'a2c' && typeof l.msg.method === 'string').map((l) => l.msg));
const tauLines = received(gunzipSync(readFileSync(path.join(RECORDINGS, 'tau.wire.gz'))).toString('utf8'));

function otherDialects(codec: () => WireCodec, lines: unknown[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const line of lines) {
    const d = codec().decode(line);
    const key = d.kind === 'invalid' ? `invalid, other dialect ${d.otherDialect ?? 'none'}` : d.kind;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return seen;
}

describe('wire: a line of another dialect is named as such (real pi 1.x and τ 0.15.0 lines)', () => {
  it('the recordings hold lines of every kind (responses and events)', () => {
    assert.ok(piLines.length > 50 && tauLines.length > 50, `${piLines.length} pi lines, ${tauLines.length} τ lines`);
  });

  it('τ\'s codec names every pi line pi\'s', () => {
    assert.deepEqual([...otherDialects(() => new TauCodec(), piLines)], [[`invalid, other dialect pi`, piLines.length]]);
  });

  it('ACP\'s codec names every pi line pi\'s', () => {
    assert.deepEqual([...otherDialects(() => new AcpCodec(), piLines)], [[`invalid, other dialect pi`, piLines.length]]);
  });

  it('pi\'s codec names every τ line τ\'s', () => {
    assert.deepEqual([...otherDialects(() => new PiCodec(), tauLines)], [[`invalid, other dialect tau`, tauLines.length]]);
  });

  it('pi\'s codec names ACP\'s every request and notification ACP\'s, not τ\'s (the real agents\' recorded lines)', () => {
    assert.ok(acpCalls.length > 50, `${acpCalls.length} ACP calls`);
    assert.deepEqual([...otherDialects(() => new PiCodec(), acpCalls)], [[`invalid, other dialect acp`, acpCalls.length]]);
  });
});
