// The supervisor's API, what a worker asks of the person and the editor: pi's extension dialogs
// and notices, an ACP agent's permission questions and file requests. Re-exported by api.ts.
import type { PermissionOption, ToolDiff, ToolLocation } from './events/agentEvent';

/** A request from the worker that a person (or a headless default) answers: pi's extension UI. */
export interface UiRequest {
  workerId: string;
  id: string;
  method: 'select' | 'confirm' | 'input' | 'editor';
  title?: string;
  message?: string;
  options?: string[];
  placeholder?: string;
  prefill?: string;
  timeout?: number;
  /**
   * Aborts when the dialog is moot (its turn was aborted or redirected): close it; the worker
   * was answered `cancelled`. Absent for a request the worker does not wait on in a turn.
   */
  signal?: AbortSignal;
  /**
   * A τ extension request's dialog: the request stands until answered (τ refuses prompts and
   * asks again), so one hidden unanswered is dismissed, not put aside to wait its turn. Its
   * `signal` aborts only when the worker exits.
   */
  standing?: boolean;
}
export type UiResponse = { value: string } | { confirmed: boolean } | { cancelled: true };

/** A tool call the agent asks the person about before it runs. */
export interface PermissionAsk {
  toolCallId: string;
  title: string;
  toolKind: string | null;
  /** The shell command, when the call runs one. */
  command: string | null;
  args: Record<string, unknown> | null;
  diffs: ToolDiff[];
  locations: ToolLocation[];
  options: PermissionOption[];
}

/**
 * An agent asks before a tool runs (ACP `session/request_permission`): the person picks one of
 * its options, or dismisses the question. `signal` aborts when the question is moot (the turn
 * was aborted, the worker stopped).
 */
export interface PermissionRequest extends PermissionAsk {
  workerId: string;
  id: string;
  signal: AbortSignal;
}
export type PermissionAnswer = { optionId: string } | { cancelled: true };

/** Fire-and-forget UI from the worker (notify, setStatus, ...). */
export interface UiNotice {
  workerId: string;
  method: string;
  params: Record<string, unknown>;
}

/**
 * The editor's side of an agent's file requests (ACP fs/*); paths are absolute, `workerId` the
 * agent's, `real` where the path leads, its links followed (the document may be open there).
 */
export interface ClientFileAccess {
  /**
   * The text of the open document (unsaved edits included); null: not open, the host reads the
   * disk. `partial`: the agent gets only some lines of it (its line or limit).
   */
  read(path: string, workerId: string, how?: { partial?: boolean; real?: string }): Promise<string | null>;
  /**
   * Written through the open document (and saved), `replacedUnsaved` when the person's unsaved
   * edits were in it and this agent had not read them, `changedSinceRead` when its saved text is
   * not what this agent read of it, `savedBytes` the size of the file the editor saved (its line
   * ends and encoding are the document's, not the agent's); false: not open, the host writes the disk.
   */
  write(path: string, content: string, workerId: string, how?: { real?: string }): Promise<false | { replacedUnsaved: boolean; changedSinceRead?: boolean; savedBytes?: number }>;
  /** The worker is gone: what is kept of its reads can go. */
  forget?(workerId: string): void;
}
