// What a worker waits for from the person, for its WorkerState: pi's extension dialogs open now
// (select / confirm / input / editor, until answered or dismissed), and a τ extension request
// that stands (τ refuses prompts until it is answered or released), whether or not its dialogs
// are up at this moment. Both are invisible in the event stream while they wait, so the worker
// records them here and the attention state ("needs input") is derived from this list.
import type { PendingInput } from '../api';

export class PendingInputs {
  private readonly dialogs = new Map<string, PendingInput>();
  private request: PendingInput | null = null;

  constructor(private readonly changed: () => void) {}

  dialogOpened(id: string, method: string, title: string | null): void {
    this.dialogs.set(id, { kind: 'dialog', id, method, title, since: Date.now() });
    this.changed();
  }

  dialogClosed(id: string): void {
    if (this.dialogs.delete(id)) this.changed();
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
