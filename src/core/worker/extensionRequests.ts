// Requests that an extension inside the worker leaves for the person (τ's extension locks: an
// entry that may lock the session and may ask something). The worker polls for one where τ says a
// head should: when a turn settles, after the start, and when a prompt is refused for a lock. An
// ask becomes the host's UI dialogs (one per field, then the actions as a choice) and the answer
// goes back with `answer_request`. Nobody to ask (a headless host), or a dismissed dialog, leaves
// the request standing, said in the log: τ keeps refusing prompts with its own sentence, so
// nothing hangs and nothing is answered in the person's name.
import type { Untimed } from '../events/agentEvent';
import type { UiRequest, UiResponse } from '../api';
import type { ExtensionRequest } from '../wire/dialect';

type Field = NonNullable<ExtensionRequest['ask']>['fields'][number];
type Ask = (req: Omit<UiRequest, 'workerId'>) => Promise<UiResponse>;

export interface ExtensionRequestDeps {
  pending(): Promise<ExtensionRequest | null>;
  answer(id: string, action: string, values: Record<string, unknown>): Promise<{ handled: boolean; output: string | null }>;
  /** The person, through the host's UI; undefined when the host is headless. */
  ask: Ask | undefined;
  emit(event: Untimed): void;
  /** The request that stands after each look (null: none), and whether its dialogs are up. */
  standing?(req: ExtensionRequest | null, asking: boolean): void;
  /**
   * Aborts when the worker exits, or no longer reads its input: its dialogs close, and an answer
   * given as it went is not sent (its reason says which).
   */
  ended?: AbortSignal;
}

export class ExtensionRequests {
  /** Requests already put to the person (or found unanswerable), by id: each is raised once. */
  private readonly seen = new Set<string>();
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: ExtensionRequestDeps) {}

  /**
   * Look for a request now; overlapping calls collapse into one more look. `retry` asks again
   * about one the person dismissed (their prompt was just refused for it).
   */
  check({ retry = false } = {}): Promise<void> {
    if (retry) this.seen.clear();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.once();
      } while (this.again);
    })().finally(() => (this.running = null));
    return this.running;
  }

  private async once(): Promise<void> {
    let req: ExtensionRequest | null;
    try {
      req = await this.deps.pending();
    } catch (error) {
      this.deps.emit({ type: 'extension_request_end', is_error: true, error: `could not read the pending request: ${(error as Error).message}` });
      return;
    }
    const standing = (r: ExtensionRequest | null, asking: boolean) => this.deps.standing?.(r, asking);
    if (!req || this.seen.has(req.id)) return standing(req, false);
    this.seen.add(req.id);
    standing(req, req.ask !== null && this.deps.ask !== undefined);
    const about = { request_id: req.id, extension: req.extension, label: req.label, lock: req.lock, release: req.release };
    this.deps.emit({ type: 'extension_request', data: { ...about, sentence: req.sentence, ask: req.ask } });
    const end = (status: string, extra: Record<string, unknown> = {}, error?: string) => {
      // Answered, τ releases the request; otherwise it stands, waiting for the person.
      standing(status === 'answered' ? null : req, false);
      this.deps.emit({ type: 'extension_request_end', is_error: error !== undefined, error: error ?? null, data: { ...about, status, ...extra } });
    };
    if (!req.ask) return end('nothing to answer', {}, req.lock ? `${req.label}: ${req.sentence}${req.release ? ` (the extension names /${req.release} as the way out)` : ''}` : undefined);
    if (!this.deps.ask) return end('unanswered', {}, `${req.label}: ${req.sentence} — no one to ask (a headless host answers nothing in the person's name)`);

    const ended = this.deps.ended;
    const asked = this.deps.ask;
    const ask: Ask = (r) => asked({ ...r, standing: true, ...(ended ? { signal: ended } : {}) });
    // A worker gone while its dialogs were up: nothing to answer, and no next dialog to ask.
    const gone = (): boolean => {
      if (!ended?.aborted) return false;
      end('closed', {}, `${req.label}: closed unanswered: ${String(ended.reason ?? 'the worker exited')}`);
      return true;
    };
    const title = `${req.label}: ${req.ask.title}`;
    // What a dismissal leaves: τ refuses the next prompt for it, and that refusal asks again (check({ retry })).
    const dismissed = `${req.label}: you dismissed it; the worker waits for your answer and asks again at your next message`;
    const values: Record<string, unknown> = {};
    for (const field of req.ask.fields) {
      const value = await askField(ask, req, title, field);
      if (gone()) return;
      if (value === undefined) return end('dismissed', {}, dismissed);
      values[field.name] = value;
    }
    const picked = await ask({
      id: `${req.id}:action`, method: 'select', title, options: req.ask.actions,
      message: [req.sentence, req.ask.body].filter(Boolean).join(' — '),
    });
    if (gone()) return;
    if (!('value' in picked)) return end('dismissed', {}, dismissed);
    try {
      const r = await this.deps.answer(req.id, picked.value, values);
      end('answered', { action: picked.value, handled: r.handled, output: r.output },
        r.handled ? undefined : `answered "${picked.value}", but the extension was not loaded to act on it (τ released the lock all the same)`);
    } catch (error) {
      end('failed', { action: picked.value }, `answering "${picked.value}" failed: ${(error as Error).message}`);
    }
  }
}

/** One field as one dialog; undefined when the person dismissed it. */
async function askField(ask: Ask, req: ExtensionRequest, title: string, field: Field): Promise<unknown> {
  const message = field.label ?? field.name;
  const id = `${req.id}:${field.name}`;
  if (field.options && field.options.length > 0) {
    const r = await ask({ id, method: 'select', title, message, options: field.options });
    return 'value' in r ? r.value : undefined;
  }
  if (/^(bool|boolean|confirm|checkbox)$/.test(field.kind)) {
    const r = await ask({ id, method: 'confirm', title, message });
    return 'confirmed' in r ? r.confirmed : undefined;
  }
  const r = await ask({ id, method: 'input', title, message, placeholder: field.required ? 'required' : 'optional' });
  return 'value' in r ? r.value : undefined;
}
