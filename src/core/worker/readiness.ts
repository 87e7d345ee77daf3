// The readiness probe: the worker is `running` once it answers. A worker that answers in the
// other known dialect fails it at once, saying which dialect to use, instead of after the
// command timeout with "no answer".
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { DialectName, LoginCommand, SupervisorLimits, WorkerSpec } from '../api';
import { DIALECT_TITLES } from '../dialectName';
import { LoginRequired, type Dialect, type ProbeInfo } from '../wire/dialect';
import type { Waits } from './waits';

/** What of its worker the probe uses. */
export interface ReadinessPort {
  readonly spec: WorkerSpec;
  readonly limits: SupervisorLimits;
  readonly dialect: Dialect;
  readonly connection: MessageConnection;
  readonly waits: Waits;
  /** This host's version, said in handshakes that ask for it (ACP). */
  readonly clientVersion?: string;
  /** Set while the probe waits (undefined after): a line of the other dialect calls it. */
  onWrongDialect(listener: ((other: DialectName) => void) | undefined): void;
  /** The worker answered: what the answer says is the worker's, and it is running; throws if it exited or is being stopped by then. */
  ready(info: ProbeInfo): Promise<void>;
}

/** `login`: the command an agent that refused to start without a login named for it. */
export type ProbeOutcome = { ok: true } | { ok: false; error: string; needsLogin?: true; login?: LoginCommand };

export async function probeReadiness(w: ReadinessPort): Promise<ProbeOutcome> {
  const wrongDialect = new Promise<never>((_, reject) => {
    w.onWrongDialect((other) => reject(new Error(
      `the worker answered in ${other === 'pi' ? 'pi\'s protocol (JSONL {"type": ...} messages)' : `${DIALECT_TITLES[other]}'s protocol (JSON-RPC 2.0)`}, not ${DIALECT_TITLES[w.spec.dialect]}'s: set the profile's dialect to "${other}"`,
    )));
  });
  try {
    const probe = w.dialect.probe(w.connection, { cwd: w.spec.cwd, resume: w.spec.resume, model: w.spec.model, mode: w.spec.mode, clientFiles: w.spec.clientFiles, clientVersion: w.clientVersion });
    const info = await Promise.race([w.waits.bounded(probe, w.limits.commandTimeoutMs, 'the readiness probe'), wrongDialect]);
    await w.ready(info);
    return { ok: true };
  } catch (error) {
    if (error instanceof LoginRequired) return { ok: false, error: error.message, needsLogin: true, ...(error.login ? { login: error.login } : {}) };
    return { ok: false, error: (error as Error).message };
  } finally {
    w.onWrongDialect(undefined);
  }
}
