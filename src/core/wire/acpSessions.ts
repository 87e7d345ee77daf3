// ACP's session verbs: opening (new, load or resume) with login advice, model and mode, usage.
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import { LoginRequired, WorkerRefusal, type ProbeContext } from './dialect';
import { Unsupported, type SessionVerbs } from './sessionVerbs';
import { parseAnswer, request } from './requests';
import { ACP, AUTH_REQUIRED, configOptionSchema, sessionSchema } from './acpProtocol';
import { described, states, stateOf, type ModeChoice } from './acpState';

// ---- the verbs

export async function call<T>(connection: MessageConnection, method: string, params: object, schema: z.ZodType<T>): Promise<T> {
  const result = await request(connection, method, params, (e) => new WorkerRefusal(`the agent refused ${method} (${e.code}): ${e.message}`, e.code, e.data));
  return parseAnswer(schema, result ?? {}, `the agent's ${method}`);
}

export function sessionParams(connection: MessageConnection): { sessionId: string } {
  const { sessionId } = stateOf(connection);
  if (!sessionId) throw new Error('the agent has no session yet');
  return { sessionId };
}

/** Sets the agent's config option of a category (model, mode), where it has one; false: it has none. */
export async function setOption(connection: MessageConnection, category: 'model' | 'mode', value: string): Promise<boolean> {
  const s = stateOf(connection);
  const option = s.configOptions.find((o) => o.category === category);
  if (!option) return false;
  const r = await call(connection, ACP.setConfigOption, { ...sessionParams(connection), configId: option.id, value }, z.looseObject({ configOptions: z.array(configOptionSchema).optional() }));
  if (r.configOptions) s.configOptions = r.configOptions;
  else option.currentValue = value;
  return true;
}

/** ACP v1 has no verb that forks a session. */
export const NO_FORK = 'ACP v1 has no fork; start a new session instead';

/** Why the agent's model cannot be switched over ACP (it lists no model choice), or null. */
export function modelUnavailable(connection: MessageConnection): string | null {
  const s = states.get(connection);
  if (!s || s.models || s.configOptions.some((o) => o.category === 'model')) return null;
  return 'this agent offers no model choice over ACP (no model config option, no models list): choose its model the agent\'s own way (its settings or environment)';
}

export async function setModel(connection: MessageConnection, model: string): Promise<{ model: string | null }> {
  const s = stateOf(connection);
  if (await setOption(connection, 'model', model)) return { model: s.model };
  if (!s.models) throw new Unsupported(`this agent offers no model choice over ACP (no model config option, no models list), so "${model}" cannot be set: leave the profile's model unset and choose it the agent's own way (its settings or environment)`);
  await call(connection, ACP.setModel, { ...sessionParams(connection), modelId: model }, z.unknown());
  s.models = { ...s.models, currentModelId: model };
  return { model };
}

/** The session just opened set to the profile's mode and model, where the profile names them (AcpState.profile). */
export async function asProfiled(connection: MessageConnection): Promise<void> {
  const s = stateOf(connection);
  const { mode, model } = s.profile;
  if (mode && mode !== s.mode) await setMode(connection, mode);
  if (model && model !== s.model) await setModel(connection, model);
}

export async function setMode(connection: MessageConnection, mode: string): Promise<{ mode: string | null; name: string | null; said: boolean }> {
  const s = stateOf(connection);
  const before = s.mode;
  const saidBefore = s.modeSaid;
  // `said`: the log already has this change (the agent's own update during the request, Gemini's)
  // or there is none to have (the session was in that mode): Switch Mode then adds no event.
  const named = (id: string | null) => ({ mode: id, name: id === null ? null : s.modeName(id), said: s.modeSaid !== saidBefore || id === before });
  if (await setOption(connection, 'mode', mode)) return named(s.mode);
  if (!s.modes) throw new Unsupported('this agent offers no modes');
  if (!s.modes.available.some((m) => m.id === mode)) throw new WorkerRefusal(`this agent has no mode "${mode}" (its modes: ${s.modes.available.map((m) => m.id).join(', ')})`, null);
  await call(connection, ACP.setMode, { ...sessionParams(connection), modeId: mode }, z.unknown());
  s.modes.current = mode;
  return named(mode);
}

/** The modes (or mode option's values) the agent offers, for a picker. */
export function modesOf(connection: MessageConnection): { current: string | null; available: ModeChoice[] } | null {
  const s = states.get(connection);
  if (!s) return null;
  const option = s.configOptions.find((o) => o.category === 'mode');
  if (option) {
    const available = (option.options ?? []).flatMap((o) => {
      const v = o as { value?: unknown; name?: unknown };
      return typeof v.value === 'string' ? [{ id: v.value, name: typeof v.name === 'string' ? v.name : v.value, ...described(v) }] : [];
    });
    return { current: s.mode, available };
  }
  return s.modes ? { current: s.modes.current, available: [...s.modes.available] } : null;
}

/** Claude Code run as root, not told it is sandboxed: its session/new answer (-32603), or its stderr. */
export const ROOT_REFUSAL = /--dangerously-skip-permissions cannot be used with root/;
export const ROOT_ADVICE = 'Claude Code refuses to run as root unless IS_SANDBOX=1 is set in the profile\'s env';

export async function openSession(connection: MessageConnection, ctx: ProbeContext): Promise<void> {
  const s = stateOf(connection);
  const base = { cwd: ctx.cwd, mcpServers: [] };
  const resume = ctx.resume?.id;
  try {
    if (resume) {
      if (!s.canResume && !s.loadSession) throw new Error(`${s.agentTitle} cannot resume a session: it offers neither session/resume nor session/load`);
      // session/resume continues without replaying the conversation; session/load replays it as
      // updates, which the log then shows again after the earlier session's own events.
      const method = s.canResume ? ACP.resumeSession : ACP.loadSession;
      s.learnSession(await call(connection, method, { ...base, sessionId: resume }, sessionSchema));
      s.sessionId = resume;
      s.sessions.add(resume);
      return;
    }
    const result = await call(connection, ACP.newSession, base, sessionSchema);
    if (!result.sessionId) throw new Error(`${s.agentTitle}'s session/new answer names no sessionId`);
    s.learnSession(result);
    s.sessionId = result.sessionId;
    s.sessions.add(result.sessionId);
  } catch (error) {
    if (error instanceof WorkerRefusal && ROOT_REFUSAL.test(error.message)) throw new Error(`${ROOT_ADVICE} (${error.message.replace(/^the agent refused /, '')})`);
    if (error instanceof WorkerRefusal && (error.code === AUTH_REQUIRED || /auth/i.test(error.message))) {
      throw new LoginRequired(s.loginAdvice(error.message.replace(/^the agent refused /, ''), 'start a session'), s.loginCommand());
    }
    throw error;
  }
}

export const acpSessions: SessionVerbs = {
  async current(connection) {
    return { id: stateOf(connection).sessionId, file: null };
  },
  async newSession(connection) {
    const s = stateOf(connection);
    const result = await call(connection, ACP.newSession, { cwd: s.cwd ?? process.cwd(), mcpServers: [] }, sessionSchema);
    if (!result.sessionId) throw new Error('the agent\'s session/new answer names no sessionId');
    s.learnSession(result);
    s.sessionId = result.sessionId;
    s.sessions.add(result.sessionId);
    // The last session's readout is not the new one's: its context and cost wait for the agent's next.
    s.usage = null;
    s.opening = true;
    try {
      await asProfiled(connection);
    } finally {
      s.opening = false;
    }
    return { cancelled: false, model: s.model };
  },
  fork() {
    return Promise.reject(new Unsupported(NO_FORK));
  },
  setModel,
  setMode,
  exportHtml() {
    return Promise.reject(new Unsupported('an ACP agent has no HTML export; export the session as Markdown instead'));
  },
  messages() {
    return Promise.reject(new Unsupported('ACP has no verb that reads the conversation back'));
  },
  async usage(connection) {
    const u = stateOf(connection).usage;
    if (!u) throw new Unsupported('the agent has reported no usage yet');
    return { scope: 'session', input: null, output: null, cacheRead: null, cacheWrite: null, contextTokens: u.used, contextWindow: u.size, cost: u.cost, at: Date.now() };
  },
};
