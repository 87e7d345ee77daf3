// What a worker waits for from the person, for its WorkerState: pi's extension dialogs open now
// (select / confirm / input / editor, until answered or dismissed), and a τ extension request
// that stands (τ refuses prompts until it is answered or released), whether or not its dialogs
// are up at this moment. Both are invisible in the event stream while they wait, so the worker
// records them here and the attention state ("needs input") is derived from this list. A dialog
// open when its turn is aborted is moot: pi's abort waits for it (the extension awaits the answer
// before the tool goes on), so the abort closes it, answered `cancelled`. So does its timeout: pi
// takes its default then and tells the host nothing, so the host keeps the time itself.
import type { PendingInput } from '../api';

export class PendingInputs {
  private readonly dialogs = new Map<string, PendingInput>();
  private readonly moot = new Map<string, AbortController>();
  private request: PendingInput | null = null;

  constructor(private readonly changed: () => void) {}

  dialogOpened(id: string, method: string, title: string | null): void {
    this.dialogs.set(id, { kind: 'dialog', id, method, title, since: Date.now() });
    this.changed();
  }

  /** A pi dialog opened: its signal aborts, with the reason, when `cancelDialogs` closes it. */
  piDialogOpened(id: string, method: string, title: string | null): AbortSignal {
    const controller = new AbortController();
    this.moot.set(id, controller);
    this.dialogOpened(id, method, title);
    return controller.signal;
  }

  dialogClosed(id: string): void {
    this.moot.delete(id);
    if (this.dialogs.delete(id)) this.changed();
  }

  /** One open pi dialog closed, with the reason (its timeout passed: pi went on without it). */
  cancelDialog(id: string, reason: string): void {
    this.moot.get(id)?.abort(reason);
  }

  /** Every open pi dialog closed (its turn aborted, redirected, the worker gone), with the reason. */
  cancelDialogs(reason: string): void {
    for (const controller of [...this.moot.values()]) controller.abort(reason);
  }

  /** The τ request that stands now (null: none); `asking` while its dialogs are up. */
  requestStands(req: { id: string; label: string; sentence: string } | null, asking: boolean): void {
    const was = this.request;
    if (!req) {
      this.request = null;
    } else {
      const since = was?.id === req.id ? was.since : Date.now();
      this.request = { kind: 'extension_request', id: req.id, method: null, title: `${req.label}: ${req.sentence}`, asking, since };
    }
    if (JSON.stringify(was) !== JSON.stringify(this.request)) this.changed();
  }

  list(): PendingInput[] {
    return [...this.dialogs.values(), ...(this.request ? [this.request] : [])].map((p) => ({ ...p }));
  }
}
