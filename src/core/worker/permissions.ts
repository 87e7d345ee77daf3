// An agent asking the person before a tool runs (ACP `session/request_permission`): the
// question goes to whoever answers for the person (the editor's UI, or a headless host's
// `onPermission`), the worker shows as needing input while it is open, the log shows both the
// question and the answer, and an abort answers every open question `cancelled`, as ACP asks.
// A question the agent withdraws while it is open is closed, and answered as withdrawn.
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { PermissionAnswer, PermissionRequest } from '../api';
import type { PermissionOption, Untimed } from '../events/agentEvent';
import type { PermissionAsk } from '../api';
import type { AgentRequest } from '../wire/dialect';
import { GUARD_NAME } from '../guard/veto';
import type { WallVerdict } from '../guard/wall';
import type { PendingInputs } from './pendingInput';
import { PermissionRules } from './permissionRules';

export interface PermissionSite {
  workerId: string;
  ask?: (req: PermissionRequest) => Promise<PermissionAnswer>;
  emit(event: Untimed): void;
  pending: PendingInputs;
  /** A turn is running: a question outside one is answered cancelled. */
  inTurn(): boolean;
  /** How many turns have settled: the running turn's place, told apart from the next one's. */
  turnsSettled(): number;
  /** The guard's wall: its reason to reject the call without asking, and whether it judged it. Absent: no guard. */
  wall?: (ask: PermissionAsk) => WallVerdict | Promise<WallVerdict>;
  /** The guard's finding, marked on its tool call. */
  report?: (event: Untimed) => void;
  /** The worker's state changed (a rule remembered or forgotten). */
  changed?: () => void;
}

type Permission = Extract<AgentRequest, { kind: 'permission' }>;

/** What the log says of a question the agent withdrew (ACP's `$/cancel_request`) while the person had it. */
const WITHDRAWN = 'the agent withdrew the question';

export class Permissions {
  private readonly open = new Map<string, AbortController>();
  /**
   * The turn the host cancelled (by turnsSettled) and why: a question the agent sends after the
   * cancel, crossing it on the pipe, belongs to a cancelled turn, and ACP has the client answer
   * every question of one `cancelled`. Put to the person, it left the turn waiting on them and
   * the abort unsettled.
   */
  private cancelledTurn: { turn: number; reason: string } | null = null;
  private seq = 0;
  /** What the person allowed always, answered without asking again. */
  readonly rules: PermissionRules;

  constructor(private readonly site: PermissionSite) {
    this.rules = new PermissionRules(() => site.changed?.());
  }

  get count(): number {
    return this.open.size;
  }

  /** `withdrawal`: cancelled when the agent withdraws the question (vscode-jsonrpc's token of the request). */
  async handle(request: Permission, withdrawal?: CancellationToken): Promise<unknown> {
    const { ask } = request;
    const id = `permission-${++this.seq}`;
    const { site } = this;
    site.emit({
      type: 'permission_request', tool_call_id: ask.toolCallId, title: ask.title, tool_kind: ask.toolKind, args: ask.args,
      diffs: ask.diffs.length ? ask.diffs : null, locations: ask.locations.length ? ask.locations : null,
      data: { id, command: ask.command, options: ask.options },
    });
    const end = (optionId: string | null, note: string | null, { isError = false, rule = null }: { isError?: boolean; rule?: string | null } = {}) => {
      const option = ask.options.find((o) => o.optionId === optionId);
      site.emit({
        type: 'permission_end', tool_call_id: ask.toolCallId, title: ask.title, is_error: isError, error: isError ? note : null,
        data: { id, outcome: option ? 'selected' : 'cancelled', optionId: option?.optionId ?? null, optionName: option?.name ?? null, optionKind: option?.kind ?? null, note, ...(rule ? { rule } : {}) },
      });
      return request.answer(option ? option.optionId : null);
    };
    const tooLate = this.tooLate();
    if (tooLate) return end(null, tooLate.note, { isError: tooLate.isError });
    const verdict = site.wall ? await site.wall(ask) : null;
    // The wall may have walked a folder for a while: the turn may have ended or been cancelled meanwhile.
    const endedMeanwhile = this.tooLate();
    if (endedMeanwhile) return end(null, endedMeanwhile.note, { isError: endedMeanwhile.isError });
    const veto = verdict?.veto ?? null;
    if (veto !== null) {
      // Refused before it could run, as pi's guard blocks a call: the person is not asked.
      (site.report ?? site.emit)({
        type: 'guard_violation', tool_call_id: ask.toolCallId, tool_name: ask.toolKind ?? ask.title, is_error: true, error: veto,
        blocked: true, blocked_by: GUARD_NAME, args: ask.args, data: { action: 'rejected' },
      });
      return end(rejectOf(ask), `the write guard rejected it without asking: ${veto}`, { isError: true });
    }
    // A call the wall could not judge (a guarded worker's question of kind "other" that names no
    // path it can read: an MCP tool) has nothing that confines what it writes, so no "always"
    // may stand for it: no rule answers it, the person is not offered the agent's allow-always
    // (which would also have the agent skip the question, and the wall, from then on), and an
    // allow-always answered anyway is not remembered. Each one is asked, and audited as it runs.
    const unconfined = verdict !== null && !verdict.judged;
    // After the wall: a rule never lets through what the policy refuses, nor what it cannot judge.
    const remembered = unconfined ? null : this.rules.match(ask);
    if (remembered) return end(remembered.option.optionId, `answered by the rule remembered for this worker (allowed always: ${remembered.rule.key})`, { rule: remembered.rule.key });
    if (!site.ask) return end(rejectOf(ask), 'no one can answer here (the host has no onPermission): rejected', { isError: true });
    const offered = unconfined ? withoutAlways(ask.options) : ask.options;
    const unconfinedNote = unconfined ? `"allow always" ${offered.length < ask.options.length ? 'not offered' : 'not remembered'}: ${NO_ALWAYS}` : null;
    const controller = new AbortController();
    this.open.set(id, controller);
    site.pending.dialogOpened(id, 'permission', ask.title);
    const cancelled = new Promise<PermissionAnswer>((resolve) => controller.signal.addEventListener('abort', () => resolve({ cancelled: true }), { once: true }));
    // Closed as the worker's exit closes one: off the screen, out of the worker's attention.
    const withdrawn = withdrawal?.onCancellationRequested(() => controller.abort(WITHDRAWN));
    let failure: string | null = null;
    try {
      const shown = site.ask({ ...ask, options: offered, workerId: site.workerId, id, signal: controller.signal }).catch((error: unknown): PermissionAnswer => {
        failure = error instanceof Error ? error.message : String(error);
        return { cancelled: true };
      });
      const answer = await Promise.race([shown, cancelled]);
      if (controller.signal.aborted) {
        const closed = end(null, String(controller.signal.reason ?? 'cancelled'));
        // Answered once, as withdrawn: the person's answer, should it come, goes nowhere.
        if (controller.signal.reason === WITHDRAWN) throw request.withdrawn();
        return closed;
      }
      // The person saw nothing: not "dismissed".
      if (failure !== null) return end(null, `the question could not be put to the person (${failure}): answered cancelled`, { isError: true });
      const picked = 'optionId' in answer ? ask.options.find((o) => o.optionId === answer.optionId) : undefined;
      if (picked) {
        if (!unconfined) this.rules.answered(ask, picked);
        return end(picked.optionId, unconfinedNote);
      }
      return end(null, 'the person dismissed the question');
    } finally {
      withdrawn?.dispose();
      this.open.delete(id);
      site.pending.dialogClosed(id);
    }
  }

  /** Why a question is answered cancelled without asking, as its turn is over or cancelled; null: it is not. */
  private tooLate(): { note: string; isError: boolean } | null {
    if (!this.site.inTurn()) return { note: 'the agent asked after its turn had ended; the host answered cancelled', isError: true };
    if (this.cancelledTurn?.turn === this.site.turnsSettled()) return { note: `${this.cancelledTurn.reason} (asked as the cancel reached the agent)`, isError: false };
    return null;
  }

  /** Every open question answered `cancelled` (an abort, a stop), and any the running turn asks from now on. */
  cancelAll(reason: string): void {
    this.cancelledTurn = { turn: this.site.turnsSettled(), reason };
    for (const controller of this.open.values()) controller.abort(reason);
  }
}

const NO_ALWAYS = 'the write guard cannot tell what this call writes (its kind does not say, and it names no path the guard can read), so it is asked each time and audited when it runs';

/** The options but the allow-always ones, unless that leaves no allow (then the person still may). */
function withoutAlways(options: PermissionOption[]): PermissionOption[] {
  const rest = options.filter((o) => o.kind !== 'allow_always');
  return rest.some((o) => o.kind.startsWith('allow')) ? rest : options;
}

/** The agent's own reject option for a question the host refuses (once before always), if it offers one. */
function rejectOf(ask: PermissionAsk): string | null {
  return (ask.options.find((o) => o.kind === 'reject_once') ?? ask.options.find((o) => o.kind === 'reject_always'))?.optionId ?? null;
}
