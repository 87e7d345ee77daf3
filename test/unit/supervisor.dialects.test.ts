// What each dialect does differently, through the host: τ's compaction can be cancelled by
// abort and pi's cannot; τ refuses a different protocol MAJOR; follow-ups run after the turn;
// pi's extension UI dialogs are answered by the host (headless: cancelled).
import assert from 'node:assert/strict';
import type { UiRequest, Supervisor } from '../../src/core/api';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { createSupervisor } from '../../src/core/supervisor';
import { fakeSpec, ofType, record, stateOf as liveState, text, unstampedPair, waitFor } from '../helpers/supervisor';

describe('dialect differences through the host', () => {
  let supervisor: Supervisor;
  afterEach(() => supervisor?.dispose());

  async function started(h: Supervisor, spec: ReturnType<typeof fakeSpec>) {
    const r = await h.start(spec);
    if (r.status !== 'started') throw new Error(r.error);
    return r.workerId;
  }

  it('τ: abort cancels a running compaction, and both verbs say so', async () => {
    supervisor = createSupervisor();
    const id = await started(supervisor, fakeSpec('tau', ['--compact-ms', '5000']));
    const first = waitFor(supervisor, id, ofType('agent_end'));
    await supervisor.prompt(id, 'say a few words to compact');
    await first;
    // compact's request is written before abort's, so τ has the compaction when abort arrives.
    const compacting = supervisor.compact(id);
    const aborted = await supervisor.abort(id);
    assert.equal(aborted.status, 'aborted', JSON.stringify(aborted));
    assert.equal(aborted.status === 'aborted' && aborted.compactionCancelled, true);
    assert.equal((await compacting).status, 'aborted');
  });

  it('pi: abort does not reach a running compaction, and the host does not pretend it does', async () => {
    supervisor = createSupervisor();
    const id = await started(supervisor, fakeSpec('pi', ['--compact-ms', '1500']));
    const first = waitFor(supervisor, id, ofType('agent_end'));
    await supervisor.prompt(id, 'say a few words to compact');
    await first;
    const began = waitFor(supervisor, id, ofType('compaction_start'));
    const compacting = supervisor.compact(id);
    await began;
    // The state says so before Abort is pressed (the log's Abort is greyed out with it), in the abort's own words.
    const said = supervisor.list().find((s) => s.workerId === id)?.abortUnavailable;
    assert.match(said ?? '', /does not reach a running compaction/);
    const aborted = await supervisor.abort(id);
    assert.equal(aborted.status, 'error');
    assert.equal(aborted.status === 'error' ? aborted.error : '', said);
    const r = await compacting;
    assert.equal(r.status, 'compacted', JSON.stringify(r));
  });

  it('τ: an unknown protocol MAJOR is refused, naming what the worker speaks and what the host knows, and the worker is not kept', async () => {
    supervisor = createSupervisor();
    const r = await supervisor.start(fakeSpec('tau', ['--protocol-version', '4.0']));
    assert.equal(r.status, 'error');
    assert.match(r.status === 'error' ? r.error : '', /protocol 4\.0; this host knows 1\.x, 2\.x, 3\.x/);
    assert.equal(supervisor.list().length, 0);
  });

  for (const version of ['1.5', '2.1', '3.1']) {
    it(`τ: protocol ${version} starts, and its entry id reaches listeners as \`leaf\` whatever the worker called it`, async () => {
      supervisor = createSupervisor();
      const id = await started(supervisor, fakeSpec('tau', ['--protocol-version', version]));
      const end = waitFor(supervisor, id, ofType('agent_end'));
      assert.equal((await supervisor.prompt(id, 'say hi')).status, 'accepted');
      const e = await end;
      assert.match(String(e.data?.leaf), /^e-\d+$/);
      assert.equal(e.data?.cursor, undefined);
    });
  }

  for (const dialect of ['pi', 'tau'] as const) {
    it(`${dialect}: a follow-up sent while streaming runs after the current work`, async () => {
      supervisor = createSupervisor();
      const id = await started(supervisor, fakeSpec(dialect));
      const events = record(supervisor, () => id);
      const began = waitFor(supervisor, id, ofType('agent_start'));
      await supervisor.prompt(id, 'wait 300\nsay first part');
      await began;
      const followed = supervisor.prompt(id, 'say the follow-up', { streamingBehavior: 'followUp' });
      const done = waitFor(supervisor, id, () => text(events).includes('the follow-up'), 10_000, 'the follow-up text');
      assert.equal((await followed).status, 'accepted');
      await done;
      assert.ok(text(events).indexOf('first part') < text(events).indexOf('the follow-up'));
    });
  }

  it('τ: a second follow-up, held by τ behind the first one\'s turn past the command timeout, is answered accepted, as τ runs it', async () => {
    supervisor = createSupervisor({ limits: { commandTimeoutMs: 1000 } });
    const id = await started(supervisor, fakeSpec('tau'));
    const starts: string[] = [];
    supervisor.onEvent((w, e) => {
      if (w === id && e.type === 'agent_start') starts.push(String(e.submission_id));
    });
    const second = waitFor(supervisor, id, (e) => e.type === 'agent_settled' && starts.includes('fB'), 15_000, 'the second follow-up\'s turn');
    assert.equal((await supervisor.prompt(id, 'wait 300')).status, 'accepted');
    const a = supervisor.prompt(id, 'wait 2500\nsay first follow-up done', { streamingBehavior: 'followUp', submissionId: 'fA' });
    const b = supervisor.prompt(id, 'say second follow-up', { streamingBehavior: 'followUp', submissionId: 'fB' });
    // τ admits B only when A's turn (2.5 s, past the 1 s command timeout) has ended.
    assert.deepEqual([(await a).status, (await b).status], ['accepted', 'accepted']);
    await second;
    assert.deepEqual(starts.slice(-2), ['fA', 'fB']);
  });

  describe('τ compacting on its own (an agent_start/agent_end pair with no submission)', () => {
    const stateOf = (id: string) => liveState(supervisor, id);
    const compactions = (events: AgentEvent[]) => events.filter((e) => e.type === 'compaction_start' || e.type === 'compaction_end')
      .map((e) => [e.type, e.data?.reason ?? null, e.data?.synthesized, e.turn?.index ?? null]);

    it('after a turn: no second turn, each turn keeps its own origin, and the log says a compaction ran', async () => {
      supervisor = createSupervisor();
      const id = await started(supervisor, fakeSpec('tau', ['--auto-compact', 'after']));
      const events = record(supervisor, () => id);
      let during: ReturnType<typeof stateOf> | undefined;
      const began = waitFor(supervisor, id, (e) => unstampedPair('agent_start')(e) && Boolean(during = stateOf(id)));
      let ended = waitFor(supervisor, id, unstampedPair('agent_end'));
      assert.equal((await supervisor.prompt(id, 'say first', { source: 'editor' })).status, 'accepted');
      await began;
      assert.deepEqual([during!.compacting, during!.streaming, during!.turnCount], [true, false, 1], 'the worker compacts, and runs no turn');
      await ended;
      ended = waitFor(supervisor, id, unstampedPair('agent_end'));
      assert.equal((await supervisor.prompt(id, 'say second', { source: 'palette' })).status, 'accepted');
      await ended;
      const s = stateOf(id);
      assert.deepEqual([s.turnCount, s.turns.map((t) => t.source), s.compacting, s.streaming], [2, ['editor', 'palette'], false, false]);
      assert.deepEqual(events.filter((e) => e.turn?.opens).map((e) => [e.turn!.index, e.turn!.origin]), [[1, 'editor'], [2, 'palette']]);
      assert.deepEqual(events.filter((e) => e.turn?.ends).map((e) => [e.type, e.turn!.index, e.end_reason]), [['agent_settled', 1, 'done'], ['agent_settled', 2, 'done']]);
      const one = [['compaction_start', 'threshold', true, null], ['compaction_end', 'threshold', true, null]];
      assert.deepEqual(compactions(events), [...one, ...one]);
    });

    it('after a turn: a prompt is refused as during any compaction, and abort says it cannot reach it', async () => {
      supervisor = createSupervisor();
      const id = await started(supervisor, fakeSpec('tau', ['--auto-compact', 'after', '--compact-ms', '2000']));
      const began = waitFor(supervisor, id, unstampedPair('agent_start'));
      const ended = waitFor(supervisor, id, unstampedPair('agent_end'));
      await supervisor.prompt(id, 'say first');
      await began;
      const refused = await supervisor.prompt(id, 'say too soon');
      assert.match(refused.status === 'error' ? refused.error : JSON.stringify(refused), /compacting/);
      // τ's abort reaches a compaction asked for with `compact`, not one τ began itself.
      assert.match(supervisor.list().find((s) => s.workerId === id)?.abortUnavailable ?? '', /does not reach a compaction it began on its own/);
      const aborted = await supervisor.abort(id);
      assert.match(aborted.status === 'error' ? aborted.error : JSON.stringify(aborted), /does not reach a compaction it began on its own/);
      await ended;
      assert.equal((await supervisor.prompt(id, 'say now')).status, 'accepted');
    });

    // τ 0.15.0 (protocol 3.x) holds all it writes from the pair's agent_end on until the turn
    // ends; the fake speaking 1.5 lets the agent_end out at once.
    for (const [version, seen, compacting] of [['3.1', 'side_completion_end', true], ['1.5', 'agent_end', false]] as const) {
      it(`inside a turn (protocol ${version}): the turn still streams after it, abort reaches the turn, and the turn ends once, aborted`, async () => {
        supervisor = createSupervisor();
        const id = await started(supervisor, fakeSpec('tau', ['--auto-compact', 'mid', '--protocol-version', version]));
        const events = record(supervisor, () => id);
        let during: ReturnType<typeof stateOf> | undefined;
        const began = waitFor(supervisor, id, (e) => unstampedPair('agent_start')(e) && Boolean(during = stateOf(id)));
        const later = waitFor(supervisor, id, (e) => e.type === seen && !e.submission_id);
        await supervisor.prompt(id, 'bash echo hi\nwait 60000\nsay never said');
        await began;
        assert.deepEqual([during!.compacting, during!.streaming], [true, true]);
        await later;
        assert.deepEqual([stateOf(id).streaming, stateOf(id).compacting], [true, compacting], 'the turn goes on');
        const r = await supervisor.abort(id);
        assert.equal(r.status, 'aborted', JSON.stringify(r));
        const s = stateOf(id);
        assert.deepEqual([s.turnCount, s.turns.length, s.lastEndReason, s.streaming, s.compacting], [1, 1, 'aborted', false, false]);
        assert.deepEqual(events.filter((e) => e.turn?.ends).map((e) => [e.type, e.turn!.index, e.end_reason]), [['agent_settled', 1, 'aborted']]);
        assert.deepEqual(compactions(events), [['compaction_start', 'threshold', true, 1], ['compaction_end', 'threshold', true, 1]]);
      });
    }
  });

  it('pi: an extension UI dialog is answered by the host\'s handler; headless answers cancelled', async () => {
    const asked: UiRequest[] = [];
    supervisor = createSupervisor({ onUiRequest: async (req) => (asked.push(req), { confirmed: true }) });
    const id = await started(supervisor, fakeSpec('pi', ['--ui']));
    const notices: string[] = [];
    const settled = waitFor(supervisor, id, ofType('agent_end'));
    await supervisor.prompt(id, 'say hi');
    await settled;
    assert.equal(asked.length, 1);
    assert.equal(asked[0].method, 'confirm');
    await supervisor.dispose();

    supervisor = createSupervisor({ onUiNotice: (n) => void notices.push(String(n.params.message)) });
    const id2 = await started(supervisor, fakeSpec('pi', ['--ui']));
    const settled2 = waitFor(supervisor, id2, ofType('agent_end'));
    await supervisor.prompt(id2, 'say hi');
    await settled2;
    assert.ok(notices.some((m) => /confirmed: false/.test(m)), JSON.stringify(notices));
  });

  // pi's own timer ends a timed dialog and tells the host nothing (rpc-mode createDialogPromise).
  it('pi: a timed dialog nobody answers is closed when its time runs out: the worker no longer needs input, and the log says why', async () => {
    const asked: UiRequest[] = [];
    const notices: string[] = [];
    // A person away: the dialog stays up until the host closes it.
    supervisor = createSupervisor({ onUiRequest: (req) => (asked.push(req), new Promise(() => {})), onUiNotice: (n) => void notices.push(String(n.params.message)) });
    const id = await started(supervisor, fakeSpec('pi', ['--ui', '--ui-timeout-ms', '600']));
    const events = record(supervisor, () => id);
    // Read as the dialog is said: a loaded machine may answer the prompt after its 0.6 s are up.
    const shown = new Promise<number>((resolve) => supervisor.onEvent((w, e) => void (w === id && e.type === 'ui_dialog' && resolve(liveState(supervisor, id).pendingInput.length))));
    const ended = waitFor(supervisor, id, ofType('ui_dialog_end'), 10_000);
    const turnEnd = waitFor(supervisor, id, ofType('agent_end'), 10_000);
    await supervisor.prompt(id, 'say hi');
    assert.equal(await shown, 1, 'it needs input while the dialog is up');
    const end = await ended;
    assert.equal(end.data?.outcome, 'closed');
    assert.equal(end.data?.note, 'closed: its time ran out (0.6 s): the worker went on without an answer');
    assert.deepEqual(liveState(supervisor, id).pendingInput, []);
    assert.equal(asked[0].signal?.aborted, true, 'the dialog on screen is told to go away');
    await turnEnd;
    assert.ok(notices.some((m) => /confirmed: false/.test(m)), 'the worker went on with its default');
    assert.equal(events.filter(ofType('ui_dialog_end')).length, 1);
  });
});
