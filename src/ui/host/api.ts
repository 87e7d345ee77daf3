// What activate() hands other extensions: the host's verbs, with the provenance of what they
// send said as `api` unless the caller names its own, and starts refused in an untrusted
// workspace like every other start. `dispose` is not theirs to call.
import type { PromptOptions, Provenance, StartResult, Supervisor, WorkerSpec } from '../../core/api';
import { provenance } from './provenance';

export type RpcWorkersApi = Omit<Supervisor, 'dispose'>;

export function createApi(supervisor: Supervisor, opts: { trusted(): boolean; untrustedError: string }): RpcWorkersApi {
  const prov = (p?: Provenance): Provenance => {
    const base = provenance(p?.source ?? 'api', p?.submitter ?? 'unknown');
    return { ...base, ...Object.fromEntries(Object.entries(p ?? {}).filter(([, v]) => v !== undefined)) };
  };
  return {
    get limits() { return supervisor.limits; },
    async start(spec: WorkerSpec): Promise<StartResult> {
      if (!opts.trusted()) return { status: 'error', error: opts.untrustedError, ms: 0 };
      return supervisor.start(spec.task ? { ...spec, taskProvenance: prov(spec.taskProvenance) } : spec);
    },
    prompt: (id: string, message: string, o?: PromptOptions) => supervisor.prompt(id, message, { ...o, ...prov(o) }),
    abort: (id: string) => supervisor.abort(id),
    redirect: (id: string, message: string, p?: Provenance) => supervisor.redirect(id, message, prov(p)),
    compact: (id: string, o?: { instructions?: string }) => supervisor.compact(id, o),
    newSession: (id: string) => supervisor.newSession(id),
    fork: (id: string, o?: { entryId?: string }) => supervisor.fork(id, o),
    setModel: (id: string, model: string) => supervisor.setModel(id, model),
    setMode: (id: string, mode: string) => supervisor.setMode(id, mode),
    forgetAllowed: (id: string, key?: string) => supervisor.forgetAllowed(id, key),
    exportHtml: (id: string, outputPath?: string) => supervisor.exportHtml(id, outputPath),
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
