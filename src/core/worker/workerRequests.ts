// What a worker asks of the person, through the host's UI: pi's extension UI comes over the wire
// (a dialog request to answer, or a notice such as notify or setStatus); τ's extensions leave
// requests that the worker polls for (extensionRequests.ts). Any other notification the worker
// sends is kept as an event, never dropped for being unknown.
import { ErrorCodes, ResponseError, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import type { UiNotice, UiRequest, UiResponse } from '../api';
import type { AgentEvent, Untimed } from '../events/agentEvent';
import type { Dialect } from '../wire/dialect';
import { UI_REQUEST_PREFIX } from '../wire/dialect';
import { ExtensionRequests } from './extensionRequests';
import type { PendingInputs } from './pendingInput';
import type { Permissions } from './permissions';
import type { ClientFiles } from './clientFiles';
import type { Terminals } from './terminals';

export interface PersonUi {
  /** Answers a dialog; without it (a headless host) every dialog is `cancelled`. */
  onUiRequest?: (req: UiRequest) => Promise<UiResponse>;
  onUiNotice?: (notice: UiNotice) => void;
}

type Emit = (event: Untimed<AgentEvent>) => void;

/** The connection's handlers for what the worker sends outside its events. */
export function uiMessageHandlers(workerId: string, ui: PersonUi, emit: Emit, pending: PendingInputs, agent: { dialect: Dialect; permissions: Permissions; files: ClientFiles; terminals: Terminals }) {
  return {
    /** `token`: cancelled when the worker withdraws the request (ACP's `$/cancel_request`, acpCodec.ts). */
    async onRequest(method: string, params: unknown, token?: CancellationToken): Promise<unknown> {
      const request = agent.dialect.agentRequest?.(method, params);
      if (request?.kind === 'permission') return agent.permissions.handle(request, token);
      if (request?.kind === 'readFile') return agent.files.read(request.path, request.line, request.limit);
      if (request?.kind === 'writeFile') return agent.files.write(request.path, request.content);
      if (request?.kind === 'terminal') {
        const t = agent.terminals;
        if (request.op === 'create') return t.create(request);
        if (request.op === 'output') return t.output(request.terminalId);
        if (request.op === 'wait') return t.waitForExit(request.terminalId);
        if (request.op === 'kill') return t.kill(request.terminalId);
        return t.release(request.terminalId);
      }
      if (request?.kind === 'invalid') {
        emit({ type: 'protocol_error', is_error: true, error: request.reason, data: { preview: JSON.stringify(params ?? null).slice(0, 200) } });
        if (request.refuse) throw new ResponseError(-32602, request.reason);
        return request.answer;
      }
      if (!method.startsWith(UI_REQUEST_PREFIX)) {
        // JSON-RPC's "method not found", which tells the agent it may go on without it (any other
        // error reads as the host failing); and said in the log: never a silent refusal.
        emit({ type: 'protocol_error', is_error: true, error: `the worker asked ${method}, which this host does not offer; it was answered with an error` });
        throw new ResponseError(ErrorCodes.MethodNotFound, `Method not found: ${method}`);
      }
      const p = (params ?? {}) as Record<string, unknown>;
      const req = { ...p, workerId, id: String(p.id), method: method.slice(UI_REQUEST_PREFIX.length) } as UiRequest;
      if (!ui.onUiRequest) return { cancelled: true };
      // While the dialog is up, the worker waits for the person (its attention state says so),
      // and the log shows the question, then its answer.
      const signal = pending.piDialogOpened(req.id, req.method, req.title ?? null);
      // pi's own timer ends a timed dialog without a word to the host (it drops the request and
      // takes its default): the host closes it then too, or the worker needed input for ever.
      const expiry = typeof req.timeout === 'number' && req.timeout > 0
        ? setTimeout(() => pending.cancelDialog(req.id, `its time ran out (${secondsOf(req.timeout!)}): the worker went on without an answer`), req.timeout)
        : undefined;
      const title = req.title ?? req.method;
      const options = req.method === 'select' ? (req.options ?? []) : req.method === 'confirm' ? ['Yes', 'No'] : [];
      emit({ type: 'ui_dialog', title, data: { id: req.id, method: req.method, message: req.message ?? null, options } });
      const moot = new Promise<UiResponse>((resolve) => signal.addEventListener('abort', () => resolve({ cancelled: true }), { once: true }));
      try {
        const answer = await Promise.race([ui.onUiRequest({ ...req, signal }).catch((): UiResponse => ({ cancelled: true })), moot]);
        emit({ type: 'ui_dialog_end', title, data: { id: req.id, ...dialogOutcome(req.method, answer, signal) } });
        return answer;
      } finally {
        clearTimeout(expiry);
        pending.dialogClosed(req.id);
      }
    },
    onNotification(method: string, params: unknown): void {
      if (method.startsWith(UI_REQUEST_PREFIX)) {
        ui.onUiNotice?.({ workerId, method: method.slice(UI_REQUEST_PREFIX.length), params: (params ?? {}) as Record<string, unknown> });
        return;
      }
      // Kept, never dropped for being unknown.
      emit({ type: method, data: { params } });
    },
  };
}

/** "30 s", "1.5 s": a dialog's timeout (ms) in words. */
function secondsOf(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** How a dialog ended, for the log: the option picked, not the text typed (it may be a secret). */
function dialogOutcome(method: string, answer: UiResponse, signal: AbortSignal): { outcome: 'answered' | 'dismissed' | 'closed'; answer: string | null; note: string | null } {
  if ('value' in answer) return { outcome: 'answered', answer: method === 'select' ? answer.value : null, note: null };
  if ('confirmed' in answer) return { outcome: 'answered', answer: answer.confirmed ? 'Yes' : 'No', note: null };
  if (signal.aborted) return { outcome: 'closed', answer: null, note: `closed: ${String(signal.reason)}` };
  return { outcome: 'dismissed', answer: null, note: null };
}

/** What the extension requests use of their worker. */
export interface ExtensionRequestsPort {
  readonly id: string;
  readonly dialect: Dialect;
  readonly connection: MessageConnection;
  /** A request to the worker, bounded by the command timeout and by its exit. */
  request<T>(pending: Promise<T>, what: string): Promise<T>;
  emit: Emit;
  readonly pendingInput: PendingInputs;
  /** Aborts when the worker exits, or is found no longer reading its input (no answer reaches it). */
  readonly ended: AbortSignal;
}

/** τ's extension requests, for a dialect that has them; null for one that does not. */
export function extensionRequestsFor(w: ExtensionRequestsPort, { onUiRequest }: PersonUi): ExtensionRequests | null {
  const { dialect, connection } = w;
  if (!dialect.pendingRequest || !dialect.answerRequest) return null;
  return new ExtensionRequests({
    pending: () => w.request(dialect.pendingRequest!(connection), 'reading the pending request'),
    answer: (id, action, values) => w.request(dialect.answerRequest!(connection, id, action, values), 'answering the request'),
    ask: onUiRequest && ((req) => onUiRequest({ ...req, workerId: w.id })),
    emit: w.emit,
    standing: (req, asking) => w.pendingInput.requestStands(req, asking),
    ended: w.ended,
  });
}
