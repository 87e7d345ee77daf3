// The host's audit of each tool call, for workers it cannot load a guard into (τ, others): after
// the fact, not a sandbox, since the call may already be running when its arguments are judged.
// τ's events carry no arguments, so they are read from the worker's messages.
import type { AgentEvent, Untimed } from '../events/agentEvent';
import { auditKindCall, auditToolCall, extractPaths, extractRelativeNames } from '../guard/audit';
import type { Dialect } from '../wire/dialect';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import type { Launch } from './launch';
import type { TurnTracker } from './turns';

/** What the audit reads and does in its worker. */
export interface AuditPort {
  readonly cwd: string;
  readonly dialect: Dialect;
  readonly connection: MessageConnection;
  readonly turns: TurnTracker;
  /** A request to the worker, bounded by the command timeout and by its exit. */
  request<T>(pending: Promise<T>, what: string): Promise<T>;
  /** The host's finding, as a guard_violation event marked on its tool call. */
  report(event: Untimed): void;
  abort(): Promise<unknown>;
}

export async function auditToolCallOf(w: AuditPort, audit: NonNullable<Launch['audit']>, event: AgentEvent): Promise<void> {
  const { policy, onViolation } = audit;
  const toolName = event.tool_name ?? '';
  let args: unknown = event.args;
  if (args === undefined && event.tool_call_id && w.dialect.toolCallArgs) {
    try {
      args = await w.request(w.dialect.toolCallArgs(w.connection, event.tool_call_id), 'reading the tool call\'s arguments');
    } catch (error) {
      w.report({ type: 'guard_violation', tool_call_id: event.tool_call_id, tool_name: toolName, is_error: true, error: `the guard could not read the call's arguments: ${(error as Error).message}` });
      return;
    }
  }
  // An agent that says what its call does (ACP's kinds) is judged by that and every path it names.
  const verdict = event.tool_kind
    ? auditKindCall(policy, event.tool_kind, [...new Set([...(event.locations ?? []).map((l) => l.path), ...(event.diffs ?? []).map((d) => d.path), ...extractPaths(args ?? {})])], w.cwd, extractRelativeNames(args ?? {}), event.title)
    : auditToolCall(policy, toolName, args ?? {}, w.cwd);
  if (!verdict.violation) return;
  w.report({ type: 'guard_violation', tool_call_id: event.tool_call_id ?? null, tool_name: toolName, is_error: true, error: verdict.violation, args: (args ?? null) as Record<string, unknown> | null, data: { action: onViolation } });
  if (onViolation === 'abort' && w.turns.streaming) await w.abort();
}

/** The audit of calls as they run, holding back a call reported pending until it runs. */
export class AuditWhenRun {
  private readonly later = new Map<string, AgentEvent>();
  /** The paths each running call's reports named (locations, diffs), until it ends. */
  private readonly named = new Map<string, string[]>();

  constructor(private readonly audit: (event: AgentEvent) => Promise<void>) {}

  /**
   * The paths a call's own reports named before its question: the wall judges them with it.
   * codex-acp 2.6.0 reports a move's destination only in its call's diff and asks about its
   * source only (the question's locations), so neither alone names both ends.
   */
  namedBy(toolCallId: string): string[] {
    return this.named.get(toolCallId) ?? [];
  }

  private remember(event: AgentEvent): void {
    const id = event.tool_call_id;
    if (!id) return;
    if (event.type === 'tool_execution_end') {
      this.named.delete(id);
      return;
    }
    // A tool's streamed output names no path: nothing allocated for it.
    if (!event.locations?.length && !event.diffs?.length) return;
    const paths = [...(event.locations ?? []).map((l) => l.path), ...(event.diffs ?? []).map((d) => d.path)];
    this.named.set(id, [...new Set([...(this.named.get(id) ?? []), ...paths])]);
  }

  /** A call the wall judged as a question before it could run is not audited again. */
  judged(toolCallId: string): void {
    this.later.delete(toolCallId);
  }

  /**
   * A call reported pending (an ACP agent that may still ask) is judged when it runs; one the
   * agent asked about was judged as a question (the wall), before it could run.
   */
  see(event: AgentEvent): void {
    // A turn's end ends its calls, whether or not each was said to end.
    if (event.type === 'agent_end') this.named.clear();
    else this.remember(event);
    const id = event.tool_call_id;
    const status = (event.data as { status?: unknown } | null | undefined)?.status;
    if (event.type === 'tool_execution_start') {
      if (status === 'pending' && id) this.later.set(id, event);
      else void this.audit(event);
      return;
    }
    if (!id || !this.later.has(id)) return;
    if (event.type === 'tool_execution_end' && status !== 'completed') {
      this.later.delete(id);
      return;
    }
    if (status === 'in_progress' || status === 'completed') {
      const start = this.later.get(id)!;
      this.later.delete(id);
      void this.audit({ ...start, args: event.args ?? start.args });
    }
  }
}
