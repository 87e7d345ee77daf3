// What the host does for an agent as its client (ACP): it answers the questions the agent asks
// before its tools run (permissions.ts), serves its file requests (clientFiles.ts) and runs its
// terminals (terminals.ts). Under the guard each is judged by the guard's policy first.
import type { SupervisorOptions, WorkerSpec } from '../api';
import type { Untimed } from '../events/agentEvent';
import { WRITING_KINDS } from '../guard/audit';
import { permissionVerdict } from '../guard/wall';
import { ClientFiles } from './clientFiles';
import type { Launch } from './launch';
import type { PendingInputs } from './pendingInput';
import { Permissions } from './permissions';
import { Terminals } from './terminals';
import type { AuditWhenRun } from './toolAudit';

export interface ClientServices {
  permissions: Permissions;
  files: ClientFiles;
  terminals: Terminals;
}

/** What of its worker the services use. */
export interface ClientServicesSite {
  id: string;
  spec: WorkerSpec;
  launch: Launch;
  killGraceMs: number;
  onPermission?: SupervisorOptions['onPermission'];
  /** The editor's open documents, for the agent's file requests. */
  files?: SupervisorOptions['files'];
  pendingInput: PendingInputs;
  auditLater: AuditWhenRun;
  inTurn(): boolean;
  turnsSettled(): number;
  /** A host event, through the turn fold. */
  emit(event: Untimed): void;
  /** A host finding about the worker's calls (a guard violation). */
  report(event: Untimed): void;
  changed(): void;
  /** The agent asked before a write: its writes meet the wall. */
  askedBeforeWriting(): void;
  /** A command the host spawned for the agent (a terminal). */
  spawned(pid: number): void;
}

export function clientServicesFor(w: ClientServicesSite): ClientServices {
  const { spec, launch } = w;
  const permissions = new Permissions({
    workerId: w.id, ask: w.onPermission, emit: (event) => w.emit(event), pending: w.pendingInput,
    inTurn: () => w.inTurn(), turnsSettled: () => w.turnsSettled(),
    wall: launch.audit ? async (ask) => {
      // What the call's own reports named is judged with the question (a move's other end).
      const reported = w.auditLater.namedBy(ask.toolCallId).filter((p) => !ask.locations.some((l) => l.path === p));
      const judged = reported.length > 0 ? { ...ask, locations: [...ask.locations, ...reported.map((p) => ({ path: p, line: null }))] } : ask;
      const verdict = await permissionVerdict(launch.audit!.policy, judged, spec.cwd, launch.audit!.onViolation === 'abort');
      // Judged here, before the person is asked: the audit after the fact is not needed for it.
      // One the wall could not judge (kind "other" naming no path: an MCP tool, where violations
      // are only flagged) is audited when it runs, as any call the agent did not ask about, and
      // the audit fails closed on it.
      if (verdict.judged) w.auditLater.judged(ask.toolCallId);
      if (WRITING_KINDS.has(ask.toolKind ?? '') || ask.diffs.length > 0) w.askedBeforeWriting();
      return verdict;
    } : undefined,
    report: (event) => w.report(event),
    changed: () => w.changed(),
  });
  const files = new ClientFiles({
    workerId: w.id, offered: spec.clientFiles !== false, root: spec.workspaceFolder ?? spec.cwd, cwd: spec.cwd, files: w.files, policy: launch.audit?.policy ?? null,
    emit: (event) => w.emit(event), report: (event) => w.report(event),
    judged: (toolCallId) => w.auditLater.judged(toolCallId),
  });
  const terminals = new Terminals({
    root: spec.workspaceFolder ?? spec.cwd, cwd: spec.cwd, env: launch.env, killGraceMs: Math.min(w.killGraceMs, 1000),
    emit: (event) => w.emit(event), report: (event) => w.report(event),
    shellBlocked: launch.audit !== null && !launch.audit.policy.bash,
    spawned: (pid) => w.spawned(pid),
  });
  return { permissions, files, terminals };
}
