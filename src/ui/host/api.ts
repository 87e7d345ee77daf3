// What activate() hands other extensions: the host's verbs, with the provenance of what they
// send said as `api` unless the caller names its own, and starts refused in an untrusted
// workspace like every other start. `dispose` is not theirs to call. Their arguments are
// checked here (zod at the boundary): another extension's mistake (a number for a model, a
// relative path given as an object, no spec at all) is answered `error` with the reason, not
// thrown back at it as a TypeError nor sent on to the worker.
import type { PromptOptions, Provenance, StartResult, Supervisor, WorkerSpec } from '../../core/api';
import { compactArg, forkArg, modeArg, modelArg, pathArg, promptArg, provenanceArg, refusal } from '../../core/verbArgs';
import { provenance } from './provenance';

export type RpcWorkersApi = Omit<Supervisor, 'dispose'>;

export interface ApiOptions {
  trusted(): boolean;
  untrustedError: string;
  /**
   * The launch configuration gate (LaunchConfigGate.confirm, for a caller that cannot be asked):
   * a start that names an agent card reads the workspace's cards, which a worker may have changed
   * while it ran, as a start through a command with arguments does.
   */
  confirmLaunch?(): Promise<{ ok: true } | { ok: false; error: string }>;
}

export function createApi(supervisor: Supervisor, opts: ApiOptions): RpcWorkersApi {
  const prov = (p?: Provenance): Provenance => {
    const base = provenance(p?.source ?? 'api', p?.submitter ?? 'unknown');
    return { ...base, ...Object.fromEntries(Object.entries(p ?? {}).filter(([, v]) => v !== undefined)) };
  };
  /** The answer to a call refused for its argument: `error`, with the worker it named. */
  const bad = (workerId: unknown, error: string) => Promise.resolve({ status: 'error' as const, workerId: String(workerId), error, ms: 0 });
  return {
    get limits() { return supervisor.limits; },
    async start(spec: WorkerSpec): Promise<StartResult> {
      if (!opts.trusted()) return { status: 'error', error: opts.untrustedError, ms: 0 };
      // The spec itself is checked by the host (checkSpec); what is read of it here first, here.
      if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return { status: 'error', error: 'invalid worker spec: the spec must be an object', ms: 0 };
      const why = spec.task ? refusal(provenanceArg, spec.taskProvenance) : null;
      if (why) return { status: 'error', error: `invalid worker spec: taskProvenance: ${why.replace(/^invalid argument: /, '')}`, ms: 0 };
      if (spec.agent !== undefined && opts.confirmLaunch) {
        const confirmed = await opts.confirmLaunch();
        if (!confirmed.ok) return { status: 'error', error: confirmed.error, ms: 0 };
      }
      return supervisor.start(spec.task ? { ...spec, taskProvenance: prov(spec.taskProvenance) } : spec);
    },
    prompt: (id: string, message: string, o?: PromptOptions) => {
      const why = refusal(promptArg, o);
      return why ? bad(id, why) : supervisor.prompt(id, message, { ...o, ...prov(o) });
    },
    abort: (id: string) => supervisor.abort(id),
    redirect: (id: string, message: string, p?: Provenance) => {
      const why = refusal(provenanceArg, p);
      return why ? bad(id, why) : supervisor.redirect(id, message, prov(p));
    },
    compact: (id: string, o?: { instructions?: string }) => {
      const why = refusal(compactArg, o);
      return why ? bad(id, why) : supervisor.compact(id, o);
    },
    newSession: (id: string) => supervisor.newSession(id),
    fork: (id: string, o?: { entryId?: string }) => {
      const why = refusal(forkArg, o);
      return why ? bad(id, why) : supervisor.fork(id, o);
    },
    setModel: (id: string, model: string) => {
      const why = refusal(modelArg, model);
      return why ? bad(id, why) : supervisor.setModel(id, model);
    },
    setMode: (id: string, mode: string) => {
      const why = refusal(modeArg, mode);
      return why ? bad(id, why) : supervisor.setMode(id, mode);
    },
    forgetAllowed: (id: string, key?: string) => supervisor.forgetAllowed(id, key),
    exportHtml: (id: string, outputPath?: string) => {
      const why = refusal(pathArg, outputPath);
      return why ? bad(id, why) : supervisor.exportHtml(id, outputPath);
    },
    exportMarkdown: (id: string) => supervisor.exportMarkdown(id),
    state: (id: string) => supervisor.state(id),
    list: () => supervisor.list(),
    stop: (id: string) => supervisor.stop(id),
    stopAll: () => supervisor.stopAll(),
    events: (id: string) => supervisor.events(id),
    onEvent: (l) => supervisor.onEvent(l),
    onState: (l) => supervisor.onState(l),
    onOutput: (l) => supervisor.onOutput(l),
    onRemoved: (l) => supervisor.onRemoved(l),
  };
}
