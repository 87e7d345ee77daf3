// The log's notices: events that each become one entry of their own, read from that event alone
// (a warning, a mark, a queue change, a retry, an exit line, anything unknown). Pure: the model
// (model.ts) adds what these return; the events that change what the model holds open (a
// message, a tool call, a question, a plan, a compaction) are its own.
import type { PageEvent } from '../protocol/messages';
import type { Entry } from './entries';
import { resultText } from '../protocol/eventText';
import { obj, QUIET, str } from './payload';
import { signInWords } from '../protocol/words';

/** An entry before the model numbers it. */
export type NewEntry = Entry extends infer E ? (E extends Entry ? Omit<E, 'id' | 'version'> : never) : never;
type Notice = (e: PageEvent, t: number) => NewEntry | null;

const warning = (t: number, title: string, text: string): NewEntry => ({ kind: 'warning', time: t, title, text });
const dataOf = (e: PageEvent): Record<string, unknown> => obj(e.data) ?? {};

/** The host kept only a preview of this event's long fields (core/events/cutEvent.ts). */
export function cutNotice(e: PageEvent, t: number): NewEntry | null {
  const cut = obj(e.cut);
  if (!cut || !Array.isArray(cut.fields)) return null;
  const fields = (cut.fields as unknown[]).map((f) => `${str(obj(f)?.path) ?? '?'} (${Number(obj(f)?.chars ?? 0).toLocaleString('en-US')} characters)`).join(', ');
  const more = typeof cut.more === 'number' ? ` and ${cut.more} more` : '';
  return warning(t, `Cut: ${e.type}`, `a ${(Number(cut.lineChars) / (1024 * 1024)).toFixed(1)} MiB line from the worker; the host kept a preview (first and last characters) of ${fields}${more}`);
}

/** Longer command lines show their start and their end: a sandbox's wrapper (Codex's) puts its options first and the command last. */
const COMMAND_CHARS = 200;
function shortCommand(command: string): string {
  if (command.length <= COMMAND_CHARS) return command;
  return `${command.slice(0, COMMAND_CHARS / 2 - 10)} … ${command.slice(-(COMMAND_CHARS / 2 + 10))}`;
}

/** `processes_ended`: what the host ended after an abort. */
const processesEnded: Notice = (e, t) => {
  const d = dataOf(e);
  const list = Array.isArray(d.processes)
    ? d.processes.map((p) => {
        const o = obj(p);
        const command = str(o?.command);
        return `${command === null ? 'a process' : shortCommand(command)} (pid ${typeof o?.pid === 'number' ? o.pid : '?'})`;
      })
    : [];
  return warning(t, 'The host ended what the worker left running after the abort', list.join('\n'));
};

/** `terminal`: a command the agent runs in a host terminal, refused, or ended by the host. */
const terminal: Notice = (e, t) => {
  const d = dataOf(e);
  if (e.is_error) return warning(t, 'A terminal of the agent was refused', e.error ?? '');
  if (d.op === 'ended') {
    const list = Array.isArray(d.terminals) ? d.terminals.map((x) => str(obj(x)?.command) ?? 'a command') : [];
    return warning(t, `The host ended the agent's terminal commands (${str(d.reason) ?? 'stop'})`, list.join('\n'));
  }
  return d.op === 'create' ? { kind: 'other', time: t, type: 'Runs in a host terminal', icon: 'terminal', text: str(d.command) ?? '' } : null;
};

/** `client_file`: a file the agent wrote through the host, or a file request refused. */
const clientFile: Notice = (e, t) => {
  const d = dataOf(e);
  if (e.is_error) return warning(t, 'A file request of the agent was refused', e.error ?? '');
  if (d.replacedUnsaved === true) return warning(t, `The agent wrote ${str(d.path) ?? 'a file'} over your unsaved edits`, 'It was open in the editor with changes not yet saved; the agent\'s text replaced them and was saved. Undo in that editor brings your text back.');
  if (d.changedSinceRead === true) return warning(t, `The agent wrote ${str(d.path) ?? 'a file'} over a change made since it read it`, `The file was changed (saved, or written by another program) after the agent read it; the agent's text replaced that change.${d.through === 'editor' ? ' Undo in that editor brings it back.' : ''}`);
  const size = typeof d.bytes === 'number' ? `${d.bytes.toLocaleString('en-US')} ${d.bytes === 1 ? 'byte' : 'bytes'}` : 'size not known';
  return { kind: 'other', time: t, type: `Wrote ${str(d.path) ?? 'a file'}`, icon: 'save', text: `through the ${d.through === 'editor' ? 'editor (its open document)' : 'host, to disk'} (${size})` };
};

/** `queue_update`: the texts still queued, in the model's shape (core/events/agentEvent.ts QueueUpdateEvent). */
const queueUpdate: Notice = (e, t) => {
  const d = dataOf(e);
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const items = [...list(d.steering), ...list(d.followUp)].map((x) => (typeof x === 'string' ? x : resultText(x)));
  return { kind: 'queue', time: t, steering: list(d.steering).length, followUp: list(d.followUp).length, items };
};

/** `auto_retry_start`, `auto_retry_end`, in the model's names (core/events/agentEvent.ts RetryEvent). */
const retry: Notice = (e, t) => {
  const d = dataOf(e);
  const start = e.type === 'auto_retry_start';
  const attempt = typeof d.attempt === 'number' ? `attempt ${d.attempt}${typeof d.max_attempts === 'number' ? ` of ${d.max_attempts}` : ''}` : 'another attempt';
  const text = start
    ? `Retrying (${attempt})${typeof d.delay_ms === 'number' ? ` in ${Math.round(d.delay_ms / 100) / 10} s` : ''}${e.error ? `: ${e.error}` : ''}`
    : d.success === true ? `Retry succeeded (${attempt})`
    // An abort in the retry's wait cancels it ("Retry cancelled"): the retries did not give up (turns.ts reads it so too).
    : /cancel/i.test(e.error ?? '') ? `Retry cancelled (${attempt})` : `Retries gave up (${attempt})${e.error ? `: ${e.error}` : ''}`;
  return { kind: 'retry', time: t, phase: start ? 'start' : 'end', text };
};

/** `extension_request_end`: answered is news, not a problem; a request left standing is one. */
const extensionRequestEnd: Notice = (e, t) => {
  const d = dataOf(e);
  // Closed by the worker's exit: there is nothing left to stand, or to answer.
  if (e.is_error && str(d.status) === 'closed') return warning(t, 'The extension\'s request was closed', e.error ?? '');
  if (e.is_error) return warning(t, 'Still waiting for your answer', e.error ?? str(d.status) ?? '');
  return { kind: 'other', time: t, type: 'Request answered', text: `${str(d.action) ?? ''}${str(d.output) ? ` → ${d.output}` : ''}` };
};

/** `session_resumed`, `session_changed`, `model_changed`: the session marks (issue 14). */
export const sessionMark: Notice = (e, t) => {
  const d = dataOf(e);
  const sid = str(obj(d.session)?.id);
  // Marks, not problems: their own icon (not a stop sign), and no raw session id up front.
  const short = sid ? ` ${sid.slice(0, 8)}` : '';
  const mark = e.type === 'session_resumed' ? { type: 'Resumed', icon: 'history', text: 'the events above are from before; the worker continues that conversation' }
    : e.type === 'model_changed' ? { type: 'Model switched', icon: 'arrow-swap', text: str(d.model) ? `to ${str(d.model)}` : '' }
    : str(d.verb) === 'fork' ? { type: 'Forked', icon: 'repo-forked', text: `into session${short}` } : { type: 'New session', icon: 'add', text: short.trim() };
  return { kind: 'other', time: t, ...mark };
};

/** `auth_status`: whom the agent signs in as, in its own words (core/events/agentEvent.ts AuthStatusEvent). */
const authStatus: Notice = (e, t) => {
  const { signedIn, what } = signInWords(dataOf(e));
  return { kind: 'other', time: t, type: signedIn ? 'Signed in' : 'Not signed in', icon: 'key', text: what };
};

/** `state_resync`. */
export const stateResync: Notice = (e, t) => dataOf(e).outputLost === true
  // Not found idle: it can no longer be heard, so the host ended the turn it followed.
  ? warning(t, 'The turn cannot be followed: the host ended it', e.error ?? 'the worker\'s output ended')
  : warning(t, 'The worker is idle: the host corrected its view', e.error ?? 'the host took the worker for busy');

/** `worker_exit`'s own line (the model ends the tools and the turn it cut short). */
export function exitLine(e: PageEvent, t: number): NewEntry {
  const d = dataOf(e);
  const status = str(d.status) ?? 'exited';
  // A stop's own SIGTERM (or the 143 a worker exits with on it) says nothing "stopped" does
  // not, and read above a resumed session like a crash; a stop that had to kill still says so.
  const asked = status === 'stopped' && (d.signal === 'SIGTERM' || d.code === 143 || d.code === 0);
  const how = asked ? '' : d.signal ? `killed by ${d.signal}` : d.code !== null && d.code !== undefined ? `exit code ${d.code}` : '';
  const n = typeof d.undelivered === 'number' && d.undelivered > 0 ? d.undelivered : 0;
  const lost = n ? `. ${n === 1 ? 'A queued message (steer or follow-up) was' : `${n} queued messages (steer or follow-up) were`} never delivered` : '';
  return { kind: 'exit', time: t, failed: status === 'failed', text: `Worker ${status}${how ? ` (${how})` : ''}${e.error ? `: ${e.error}` : ''}${lost}` };
}

/** Any other event: shown as its fields (unless it is one of the quiet ones). */
export const other: Notice = (e, t) => {
  if (QUIET.has(e.type)) return null;
  const { type, timestamp: _t, ...rest } = e;
  let text: string;
  try {
    text = JSON.stringify(rest);
  } catch {
    text = '';
  }
  return { kind: 'other', time: t, type, text: text.length > 2000 ? `${text.slice(0, 2000)}…` : text };
};

/** The notices that need nothing of the model, by event type (a Map: a worker may name a type `constructor`). */
export const NOTICES = new Map<string, Notice>(Object.entries({
  // The name the wire gave the mode (Claude's "default" is "Manual", Copilot's ids are URLs), else its id.
  // `repeated`: the mode the worker was already in, said again (kept in the log's data, not a row).
  // A mark, as the session marks are: not a problem (the Problems chip held it), nor the stop sign.
  mode_changed: (e, t) => obj(e.data)?.repeated === true ? null : ({ kind: 'other', time: t, type: `Mode: ${str(obj(e.data)?.name) ?? str(obj(e.data)?.mode) ?? 'changed'}`, icon: 'settings', text: '' }),
  processes_ended: processesEnded,
  auth_status: authStatus,
  terminal,
  client_file: clientFile,
  queue_update: queueUpdate,
  auto_retry_start: retry,
  auto_retry_end: retry,
  protocol_error: (e, t) => {
    const d = dataOf(e);
    return warning(t, 'Protocol error: the worker sent a line that is not a protocol message', `${e.error ?? 'malformed line'}${str(d.preview) ? `\n${d.preview}` : ''}`);
  },
  extension_error: (e, t) => {
    const d = dataOf(e);
    return warning(t, `Extension error${str(d.extension_path) ? ` in ${d.extension_path}` : ''}`, e.error ?? JSON.stringify(d));
  },
  extension_request: (e, t) => {
    const d = dataOf(e);
    return warning(t, str(d.label) ?? 'An extension asks for a response', str(d.sentence) ?? '');
  },
  extension_request_end: extensionRequestEnd,
} satisfies Record<string, Notice>));
