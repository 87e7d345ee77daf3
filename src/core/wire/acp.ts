// ACP, the Agent Client Protocol (v1): JSON-RPC 2.0 over the agent's stdio, one message a line,
// spoken by Claude (claude-agent-acp), Codex (codex-acp), GitHub Copilot CLI, Gemini CLI and
// OpenCode. Everything this host knows of ACP is in the acp*.ts files beside this one: its methods
// and schemas (acpProtocol), the translation of each `session/update` into the one event model
// (acpEvents), the turn (a `session/prompt` request is the turn's start, its answer the turn's
// end: acpCodec), the verbs (acpSessions) and the agent's requests (acpRequests). This file is
// the dialect that joins them. The page never sees an ACP name.
import { z } from 'zod';
import { WorkerRefusal, type CompactAck, type Dialect, type ProbeInfo } from './dialect';
import { Unsupported } from './sessionVerbs';
import { ACP_PROTOCOL_VERSION, ACP, CLIENT_CAPABILITIES, STEER, initializeSchema, promptResultSchema } from './acpProtocol';
import { states, stateOf, type TurnEnding } from './acpState';
import { isPlain } from '../../protocol/fastParse';
import { AcpCodec } from './acpCodec';
import { asProfiled, call, sessionParams, modesOf, openSession, acpSessions, ROOT_ADVICE, ROOT_REFUSAL, NO_FORK, modelUnavailable } from './acpSessions';
import { writesVetoed, agentRequest } from './acpRequests';
export { ACP_PROTOCOL_VERSION, ACP, CLIENT_CAPABILITIES } from './acpProtocol';
export { AcpState } from './acpState';
export { AcpCodec } from './acpCodec';
export { updateEvent } from './acpEvents';
export { modesOf, acpSessions } from './acpSessions';
export { writesVetoed } from './acpRequests';

export const acpDialect: Dialect = {
  name: 'acp',
  announcesCompaction: false,
  abortCancelsCompaction: false,
  // Claude's and Codex's adapters offer a real steer of their own (`_session/steering`).
  midTurn: (connection) => ({ steer: states.get(connection)?.steers === true, followUp: 'host' }),
  sweepsAfterAbort: true,
  sessions: acpSessions,
  createCodec: (use) => new AcpCodec(undefined, use !== 'reading'),
  bind(codec, connection) {
    states.set(connection, (codec as AcpCodec).state);
  },
  streaming: (connection) => stateOf(connection).turn !== null,
  // An ACP agent takes its own flags (`--acp`, `acp`) from the profile; the host adds none.
  launchArgs: () => [],
  traits: () => ({ sendsSettled: false, toolsOpenTurns: false }),
  async probe(connection, ctx): Promise<ProbeInfo> {
    const s = stateOf(connection);
    s.cwd = ctx.cwd;
    const init = await call(connection, ACP.initialize, {
      protocolVersion: ACP_PROTOCOL_VERSION,
      clientCapabilities: ctx.clientFiles === false ? { ...CLIENT_CAPABILITIES, fs: { readTextFile: false, writeTextFile: false } } : CLIENT_CAPABILITIES,
      clientInfo: { name: 'rpc-workers', title: 'RPC Workers', version: ctx.clientVersion ?? '0.0.0' },
    }, initializeSchema);
    const agent = init.agentInfo?.title ?? init.agentInfo?.name ?? 'the agent';
    if (init.protocolVersion !== ACP_PROTOCOL_VERSION) {
      throw new Error(`${agent} answered ACP protocol version ${init.protocolVersion}; RPC Workers speaks version ${ACP_PROTOCOL_VERSION}, so it cannot drive this agent (update the one that is older)`);
    }
    s.agentName = init.agentInfo?.name ?? null;
    s.agentTitle = agent;
    s.authMethods = init.authMethods ?? [];
    s.agentVersion = init.agentInfo?.version ?? null;
    s.loadSession = init.agentCapabilities?.loadSession === true;
    s.canResume = init.agentCapabilities?.sessionCapabilities?.resume != null;
    s.steers = init._meta?.steering?.supported === true;
    await openSession(connection, ctx);
    s.profile = { mode: ctx.mode ?? null, model: ctx.model ?? null };
    await asProfiled(connection);
    return { model: s.model, sessionId: s.sessionId, sessionFile: null, streaming: false, protocolVersion: String(init.protocolVersion), workerVersion: s.agentVersion };
  },
  async prompt(connection, request) {
    const s = stateOf(connection);
    if (request.streamingBehavior === 'followUp') {
      // ACP v1 queues nothing: the host holds the follow-up until the running turn is answered.
      // An abort drops it only if the turn ended by it: one that came as the turn ended by
      // itself (its end_turn crossing the cancel) aborted nothing, and says so.
      while (s.turn) {
        const aborts = s.aborts;
        const ending = await s.turn;
        if (s.aborts !== aborts && ending !== 'ended') throw new WorkerRefusal('the turn was aborted before the follow-up the host was holding could be sent; it was not sent', null);
      }
    } else if (request.streamingBehavior === 'steer') {
      if (!s.steers) throw new WorkerRefusal('an ACP agent cannot be steered inside its turn (ACP v1 has no steer): redirect instead (abort, then this message), or send it as a follow-up', null);
      // The adapters' own extension: the text joins the running turn at the next model call.
      const r = await call(connection, STEER, { ...sessionParams(connection), prompt: [{ type: 'text', text: request.text }] }, z.looseObject({ outcome: z.string() }));
      if (r.outcome !== 'injected') throw new WorkerRefusal(`the agent did not take the steer (it answered ${r.outcome}); nothing was sent into the turn`, null);
      return { submissionId: null };
    }
    const params = { ...sessionParams(connection), prompt: [{ type: 'text', text: request.text }] };
    const answered = connection.sendRequest(ACP.prompt, params).then(
      (result): TurnEnding => (isPlain(result) && result.stopReason === 'cancelled' ? 'cancelled' : 'ended'),
      (): TurnEnding => 'failed',
    );
    const turn = answered.then((ending) => {
      if (s.turn === turn) s.turn = null;
      return ending;
    });
    s.turn = turn;
    return { submissionId: null };
  },
  async abort(connection) {
    const s = stateOf(connection);
    s.aborts++;
    // A notification: the agent answers the running session/prompt with `cancelled`.
    await connection.sendNotification(ACP.cancel, sessionParams(connection));
    return { compactionId: null };
  },
  verbUnavailable(connection, verb) {
    return verb === 'fork' ? NO_FORK : modelUnavailable(connection);
  },
  compactUnavailable(connection) {
    return stateOf(connection).commands.includes('compact') ? null : 'this agent has no compaction (it lists no /compact command)';
  },
  async compact(connection, instructions): Promise<CompactAck> {
    if (acpDialect.compactUnavailable!(connection)) throw new Unsupported(acpDialect.compactUnavailable!(connection)!);
    // The agent's own slash command, run as a prompt; its answer is the compaction's end.
    const text = instructions ? `/compact ${instructions}` : '/compact';
    const r = await call(connection, ACP.prompt, { ...sessionParams(connection), prompt: [{ type: 'text', text }] }, promptResultSchema);
    if (r.stopReason === 'cancelled') return { compactionId: null, result: { summary: null, tokensBefore: null, performed: false, note: 'cancelled' } };
    return { compactionId: null, result: { summary: null, tokensBefore: null, performed: true } };
  },
  agentRequest,
  modes: modesOf,
  writesVetoed,
  explainStartFailure(stderr) {
    if (ROOT_REFUSAL.test(stderr)) return ROOT_ADVICE;
    return null;
  },
};
