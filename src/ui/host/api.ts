// What activate() hands other extensions: the host's verbs, with the provenance of what they
// send said as `api` unless the caller names its own, and starts refused in an untrusted
// workspace like every other start. `dispose` is not theirs to call.
import type { PromptOptions, Provenance, StartResult, Supervisor, WorkerSpec } from '../../core/api';
import { provenance } from './provenance';

export type RpcWorkersApi = Omit<Supervisor, 'dispose'>;

export function createApi(host: Supervisor, opts: { trusted(): boolean; untrustedError: string }): RpcWorkersApi {
  const prov = (p?: Provenance): Provenance => {
    const base = provenance(p?.source ?? 'api', p?.submitter ?? 'unknown');
    return { ...base, ...Object.fromEntries(Object.entries(p ?? {}).filter(([, v]) => v !== undefined)) };
  };
  return {
    get limits() { return host.limits; },
    async start(spec: WorkerSpec): Promise<StartResult> {
      if (!opts.trusted()) return { status: 'error', error: opts.untrustedError, ms: 0 };
      return host.start(spec.task ? { ...spec, taskProvenance: prov(spec.taskProvenance) } : spec);
    },
    prompt: (id: string, message: string, o?: PromptOptions) => host.prompt(id, message, { ...o, ...prov(o) }),
    abort: (id: string) => host.abort(id),
    redirect: (id: string, message: string, p?: Provenance) => host.redirect(id, message, prov(p)),
    compact: (id: string, o?: { instructions?: string }) => host.compact(id, o),
    newSession: (id: string) => host.newSession(id),
    fork: (id: string, o?: { entryId?: string }) => host.fork(id, o),
    setModel: (id: string, model: string) => host.setModel(id, model),
    setMode: (id: string, mode: string) => host.setMode(id, mode),
    forgetAllowed: (id: string, key?: string) => host.forgetAllowed(id, key),
    exportHtml: (id: string, outputPath?: string) => host.exportHtml(id, outputPath),
    exportMarkdown: (id: string) => host.exportMarkdown(id),
    state: (id: string) => host.state(id),
    list: () => host.list(),
    stop: (id: string) => host.stop(id),
    stopAll: () => host.stopAll(),
    events: (id: string) => host.events(id),
    onEvent: (l) => host.onEvent(l),
    onState: (l) => host.onState(l),
    onOutput: (l) => host.onOutput(l),
  };
}
