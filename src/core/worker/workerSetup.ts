// What the supervisor hands each worker. Generic in the worker so that this file need not import
// worker.ts (which imports it): worker.ts names it WorkerSetup = Setup<Worker>.
import type { OutputKind, SupervisorLimits, SupervisorOptions, UiNotice, UiRequest, UiResponse } from '../api';
import type { AgentEvent } from '../events/agentEvent';
import type { Dialect } from '../wire/dialect';

/** What the supervisor hands each worker: its limits, its dialect, and where it reports. */
export interface WorkerSetup<W> {
  limits: SupervisorLimits;
  dialect: Dialect;
  /** `line`: the worker's line that stands for the event (lineStandsFor), when there is one. */
  onEvent: (worker: W, event: AgentEvent, line?: Buffer) => void | Promise<void>;
  onState: (worker: W) => void;
  onOutput: (worker: W, kind: OutputKind, text: string) => void;
  trace?: (direction: 'send' | 'receive', message: unknown) => void;
  onUiRequest?: (req: UiRequest) => Promise<UiResponse>;
  onUiNotice?: (notice: UiNotice) => void;
  onPermission?: SupervisorOptions['onPermission'];
  /** The editor's open documents, for an agent's file requests. */
  files?: SupervisorOptions['files'];
  /**
   * The supervisor's Stop of this worker (its cgroup and what the watchdog saw end too, and lists
   * learn it is gone), for a stop the worker's own code asks for: the guard's, when an abort cannot
   * reach it. Without it, the worker's own stop.
   */
  stop?: (worker: W) => Promise<unknown>;
  /** A command the host spawned for the worker (an ACP terminal): the worker's, for Stop and the watchdog. */
  onTerminalSpawn?: (worker: W, pid: number) => void;
  /** This host's version, said in handshakes that ask for it (ACP). */
  clientVersion?: string;
  /** The worker's version, as the dialect's preflight learned it (null: not known). */
  version?: string | null;
}
