// Hostile workers, garbage: what a worker prints that is not (or not only) protocol. Every valid
// message arrives in order, each bad line is reported once as a protocol error quoting its first
// bytes, and the worker stays usable.
import assert from 'node:assert/strict';
import type { Supervisor } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, text, waitFor } from '../helpers/supervisor';

const TEN_MIB = 10 * 1024 * 1024;

/** What the garbage directive sends, in order, as the host should see it. */
function expectedGarbage(dialect: 'pi' | 'tau'): string[] {
  return [
    'text:before',
    'error:line is not JSON|fake-worker: this line is not JSON',
    `error:${dialect === 'pi' ? 'not a pi message' : 'not a JSON-RPC message'} (expected a JSON object)|42`,
    `error:${dialect === 'pi' ? 'not a pi message' : 'not a JSON-RPC message'} (expected a JSON object)|[1,2,3]`,
    dialect === 'pi' ? 'error:pi response with id nobody-asked-for-this, which no request is waiting for' : 'error:τ response with id 987654321, which no request is waiting for',
    'event:mystery_event',
    'error:line is not valid UTF-8',
    'text:line\u2028separator\u2029paragraph ',
    'text:crlf-terminated ',
    'text:after',
  ];
}

/** The marks the test compares: text deltas, protocol errors (reason | preview) and unknown events. */
function marks(events: AgentEvent[]): string[] {
  const out: string[] = [];
  for (const e of events) {
    if (e.type === 'message_update' && e.block_type === 'text' && e.delta) out.push(`text:${e.delta}`);
    else if (e.type === 'protocol_error') {
      const preview = String((e.data as { preview?: string }).preview);
      // Short bad lines are compared whole; long ones by their reason (the preview is checked apart).
      out.push(preview.length <= 40 ? `error:${e.error}|${preview}` : `error:${e.error}`);
    } else if (e.type === 'mystery_event') out.push('event:mystery_event');
  }
  return out;
}

for (const dialect of ['pi', 'tau'] as const) {
  describe(`faults: garbage from the worker (${dialect})`, () => {
    let supervisor: Supervisor;
    let output: Array<{ kind: string; text: string }>;
    beforeEach(() => {
      supervisor = createSupervisor();
      output = [];
      supervisor.onOutput((_id, kind, line) => output.push({ kind, text: line }));
    });
    afterEach(() => supervisor.dispose());

    async function start(flags: string[] = [], limits = {}) {
      if (Object.keys(limits).length) {
        await supervisor.dispose();
        supervisor = createSupervisor({ limits });
        supervisor.onOutput((_id, kind, line) => output.push({ kind, text: line }));
      }
      const r = await supervisor.start(fakeSpec(dialect, flags));
      if (r.status !== 'started') throw new Error(`start failed: ${r.error}`);
      const events: AgentEvent[] = [];
      supervisor.onEvent((id, e) => {
        if (id === r.workerId) events.push(e);
      });
      return { id: r.workerId, events };
    }

    async function turn(id: string, script: string, timeoutMs = 30_000) {
      const end = waitFor(supervisor, id, ofType('agent_end'), timeoutMs, `the end of "${script.split('\n')[0]}…"`);
      const r = await supervisor.prompt(id, script);
      assert.equal(r.status, 'accepted', JSON.stringify(r));
      return end;
    }

    async function stillUsable(id: string, events: AgentEvent[]) {
      const from = events.length;
      await turn(id, 'say still usable');
      assert.equal(text(events.slice(from)), 'still usable');
      const s = supervisor.state(id);
      assert.equal(s.status, 'running');
    }

    for (const bytewise of [false, true]) {
      it(`banner, non-JSON, a number, an array, an unasked response, an unknown event, invalid UTF-8, U+2028/9, CRLF${bytewise ? ', every line in one-byte writes' : ''}`, async () => {
        const { id, events } = await start(['--banner']);
        // The banner came before the protocol did: reported, and the probe still worked.
        const banner = output.filter((o) => o.kind === 'protocol');
        assert.equal(banner.length, 1, JSON.stringify(banner));
        assert.match(banner[0].text, new RegExp(`^line is not JSON \\(\\d+ bytes\\): fake-worker ${dialect} starting \\(this banner is not JSON\\)$`));

        await turn(id, `${bytewise ? 'bytewise\n' : ''}say before\ngarbage\nsay after`);
        assert.deepEqual(marks(events), expectedGarbage(dialect));

        // Each bad line once, with its first bytes.
        const errors = events.filter(ofType('protocol_error'));
        assert.equal(errors.length, 5);
        const previews = errors.map((e) => String((e.data as { preview: string }).preview));
        assert.match(previews[3], dialect === 'pi' ? /^\{\\"id\\":\\"nobody-asked-for-this\\",\\"type\\":\\"response\\"/ : /^\{\\"jsonrpc\\":\\"2\.0\\",\\"id\\":987654321,/);
        assert.match(previews[4], /mystery_bytes/);
        assert.ok(previews[4].includes('\\"text\\":\\"\\xff\\xfe\\xc3\\"'), `the bad bytes themselves: ${previews[4]}`);
        assert.ok(errors.every((e) => typeof (e.data as { bytes: number }).bytes === 'number' && (e.data as { bytes: number }).bytes > 0));
        const protocolLines = output.filter((o) => o.kind === 'protocol');
        assert.equal(protocolLines.length, 6, protocolLines.map((o) => o.text).join('\n'));
        const s = supervisor.state(id);
        if (s.status === 'not_found') return assert.fail('worker vanished');
        assert.equal(s.state.protocolErrors, 6);
        assert.equal(s.state.streaming, false);
        assert.equal(s.state.lastEndReason, 'done');
        await stillUsable(id, events);
      });
    }

    it('a 10 MiB line arrives in order, kept as a preview that says so (the host keeps no 10 MiB field)', async () => {
      const { id, events } = await start();
      await turn(id, `say first\nbigline ${TEN_MIB}\nsay last`, 60_000);
      const texts = events.filter((e) => e.type === 'message_update' && e.block_type === 'text');
      assert.deepEqual(texts.map((e) => (e.delta!.length > 100 ? 'preview' : e.delta)), ['first', 'preview', 'last']);
      assert.match(texts[1].delta!, new RegExp(`^x+…\\[cut: \\d+ of ${TEN_MIB} characters\\]…x+$`));
      assert.deepEqual(texts[1].cut?.fields, [{ path: 'delta', chars: TEN_MIB }]);
      assert.equal(events.filter(ofType('protocol_error')).length, 0);
      await stillUsable(id, events);
    });

    if (dialect === 'pi') {
      // pi repeats a message's whole text in text_end, message_end, turn_end and agent_end, so a
      // line over the cap takes the turn's end with it. The host then doubts its picture and asks.
      it('a 10 MiB reply over a 1 MiB cap takes the turn\'s end with it: the host asks pi, finds it idle, says so, and the worker is usable', async () => {
        const { id, events } = await start([], { maxLineBytes: 1024 * 1024, resyncMs: 200 });
        const corrected = waitFor(supervisor, id, ofType('state_resync'), 30_000, 'the state correction');
        const p = await supervisor.prompt(id, `say first\nbigline ${TEN_MIB}\nsay last`);
        assert.equal(p.status, 'accepted');
        const e = await corrected;
        assert.equal(e.is_error, true);
        assert.match(String(e.error), /^the host took the worker for busy, but it is idle: a line it sent during the turn was lost \(line (passed|of \d+ bytes is over) the 1048576-byte cap/);
        assert.ok(events.filter(ofType('protocol_error')).length >= 1);
        assert.equal(events.filter(ofType('agent_end')).length, 0, 'the test needs the end to be lost');
        const s = supervisor.state(id);
        if (s.status === 'not_found') return assert.fail('worker vanished');
        assert.equal(s.state.streaming, false);
        assert.equal(s.state.lastError, e.error);
        assert.equal(s.state.turns.at(-1)!.endedAt !== null, true, 'the turn was not closed');
        assert.ok(output.some((o) => o.kind === 'protocol' && o.text === e.error), 'the log does not say it');
        await stillUsable(id, events);
      });
    }

    if (dialect === 'tau') {
      // τ sends a delta once, so the line over the cap is the delta alone: no doubt arises.
      it('a 10 MiB line over a 1 MiB cap: reported once with its first bytes and skipped; what follows arrives', async () => {
        const { id, events } = await start([], { maxLineBytes: 1024 * 1024 });
        await turn(id, `say first\nbigline ${TEN_MIB}\nsay last`);
        const m = marks(events);
        assert.equal(m.length, 3, m.join('\n'));
        assert.equal(m[0], 'text:first');
        assert.match(m[1], /^error:line passed the 1048576-byte cap without ending \(\d+ bytes so far\); skipped through its end$/);
        assert.equal(m[2], 'text:last');
        const error = events.find(ofType('protocol_error'))!;
        assert.match(String((error.data as { preview: string }).preview), /^\{\\"jsonrpc\\":\\"2\.0\\",\\"method\\":\\"event\\"/);
        assert.ok((error.data as { bytes: number }).bytes > 1024 * 1024);
        assert.equal(events.filter(ofType('state_resync')).length, 0, 'a correction the events did not need');
        await stillUsable(id, events);
      });
    }
  });
}
