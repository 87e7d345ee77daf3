// The supervisor's API, what its verbs answer: a plain object whose `status` says what really
// happened (nothing throws for an outcome a worker can cause), and the prompt's options.
// Re-exported by api.ts.
import type { LoginCommand, Provenance, SessionRef, WorkerState, WorkerStatus } from './apiWorker';

export type StartResult =
  | {
    status: 'started'; workerId: string; pid: number; state: WorkerState;
    /** Whether the worker took `spec.task` (absent: no task); `taskError`: why not. */
    taskAccepted?: boolean; taskError?: string; ms: number;
  }
  | {
    status: 'error'; error: string; workerId?: string; stderrTail?: string[]; ms: number;
    /** The program to start is not there (not on the PATH, no such file): the UI says how to install it. */
    missing?: true;
    /** Refused by the host's `maxWorkers`: the UI says which setting raises it. */
    atLimit?: true;
    login?: LoginCommand;
    /** The agent refused to start until the person logs in or gives a key (`login`: the command it names, if any). */
    needsLogin?: true;
  };


export type PromptResult =
  | {
    status: 'accepted'; workerId: string; submissionId: string | null; streamingBehavior: StreamingBehavior | null;
    /** The worker consumed the prompt without starting a turn (pi 1.x: an extension command or input handler). */
    handled?: boolean; ms: number;
  }
  | { status: 'error' | 'not_found'; workerId: string; error: string; ms: number };

export type AbortResult =
  | { status: 'aborted'; workerId: string; settleMs: number; compactionCancelled: boolean | null; ms: number }
  /** `compactionCancelled: false`: a compaction ran, and ended by itself before the abort reached it. */
  | { status: 'not_streaming'; workerId: string; note?: string; compactionCancelled?: false; ms: number }
  | { status: 'error' | 'not_found'; workerId: string; error: string; ms: number };

export type RedirectResult =
  | { status: 'redirected'; workerId: string; aborted: boolean; settleMs: number; submissionId: string | null; ms: number }
  | { status: 'error' | 'not_found'; workerId: string; error: string; aborted?: boolean; ms: number };

export type CompactResult =
  | { status: 'compacted'; workerId: string; performed: boolean; summary: string | null; tokensBefore: number | null; ms: number }
  | { status: 'aborted'; workerId: string; ms: number }
  | { status: 'error' | 'not_found'; workerId: string; error: string; ms: number };

/**
 * A session verb (new session, fork, set model, export). `unsupported`: this worker (by dialect,
 * version or capabilities) has no such verb, and nothing was sent; `cancelled`: the worker's
 * extension vetoed it and nothing changed.
 */
export type SessionVerbResult =
  | { status: 'created' | 'forked' | 'model_set'; workerId: string; session: SessionRef | null; model: string | null; ms: number }
  | { status: 'mode_set'; workerId: string; session: SessionRef | null; model: string | null; mode: string | null; ms: number }
  | { status: 'exported'; workerId: string; path: string; ms: number }
  | { status: 'cancelled'; workerId: string; ms: number }
  | { status: 'unsupported' | 'error' | 'not_found'; workerId: string; error: string; ms: number };

export type ForgetResult =
  | { status: 'forgotten'; workerId: string; forgotten: number; ms: number }
  | { status: 'not_found'; workerId: string; error: string; ms: number };

export type MarkdownResult =
  | { status: 'exported'; workerId: string; markdown: string; ms: number }
  | { status: 'not_found'; workerId: string; error: string; ms: number };

/**
 * `stopped`: the worker is gone from the list. `alreadyExited`: its process had exited before the
 * Stop (by itself, or it failed), so the Stop ended no live agent; it only cleared what was left.
 */
export type StopResult =
  | { status: 'stopped'; workerId: string; exitCode: number | null; signal: string | null; killed: boolean; alreadyExited: boolean; ms: number }
  | { status: 'not_found'; workerId: string; error: string; ms: number };

export type StateResult =
  | { status: WorkerStatus; workerId: string; state: WorkerState }
  | { status: 'not_found'; workerId: string };

export type StreamingBehavior = 'steer' | 'followUp';

export interface PromptOptions extends Provenance {
  streamingBehavior?: StreamingBehavior;
}
