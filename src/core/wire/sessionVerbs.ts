// How a dialect says the session verbs: where the worker's session is, resuming one, a new one,
// a fork, the model, pi's HTML export, and the worker's own token accounting. Each answer is
// checked with zod in the dialect's file; a verb the worker lacks is an `Unsupported`, thrown
// before anything is sent.
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import type { SessionRef, WorkerUsage } from '../api';

/** The worker has no such verb (by dialect, version or capabilities); nothing was sent. */
export class Unsupported extends Error {}

export interface SessionVerbs {
  /** Where the worker's conversation is kept now. */
  current(connection: MessageConnection): Promise<SessionRef>;
  /**
   * Moves a freshly started worker onto an earlier session (τ `switch_session`). Absent where
   * the launch itself resumes (pi `--session FILE`).
   */
  resume?(connection: MessageConnection, ref: SessionRef): Promise<{ cancelled: boolean }>;
  /**
   * `model`: the model the new session runs, where a session opens on a model of its own (an ACP
   * agent's first, whatever the last session was switched to); absent where the worker keeps it.
   */
  newSession(connection: MessageConnection): Promise<{ cancelled: boolean; model?: string | null }>;
  fork(connection: MessageConnection, entryId: string | undefined): Promise<{ cancelled: boolean }>;
  /** Returns the model the worker says it now runs, as "provider/id" where it says both. */
  setModel(connection: MessageConnection, model: string): Promise<{ model: string | null }>;
  /**
   * Moves the session into another of the worker's modes (ACP); `name`: the mode's, as the agent
   * names it; `said`: the worker's own events already say the change, or there was none.
   */
  setMode?(connection: MessageConnection, mode: string): Promise<{ mode: string | null; name?: string | null; said?: boolean }>;
  exportHtml(connection: MessageConnection, outputPath: string | undefined): Promise<{ path: string }>;
  usage(connection: MessageConnection): Promise<WorkerUsage>;
  /** The conversation's messages (`get_messages`), for what the events do not carry. */
  messages(connection: MessageConnection): Promise<Array<Record<string, unknown>>>;
}

export const messagesSchema = z.looseObject({ messages: z.array(z.looseObject({ role: z.string() })) });
