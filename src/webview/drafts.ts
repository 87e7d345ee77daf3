// What the person typed for each worker, kept in the page's state (VS Code keeps it while it
// rebuilds a hidden view or a moved tab): hiding the log, or switching it to another worker, loses
// no half-written message and never carries one worker's text to another.

/** Drafts kept per page; the oldest goes first (a worker long gone). */
export const MAX_DRAFTS = 20;

export class Drafts {
  private readonly texts = new Map<string, string>();

  /** `saved`: what the page's state held (anything: it is checked); `save`: keeps the drafts in it. */
  constructor(saved: unknown, private readonly save: (drafts: Record<string, string>) => void) {
    if (saved && typeof saved === 'object') {
      for (const [id, text] of Object.entries(saved)) if (typeof text === 'string' && text) this.texts.set(id, text);
    }
  }

  get(workerId: string): string {
    return this.texts.get(workerId) ?? '';
  }

  set(workerId: string, text: string): void {
    if (this.get(workerId) === text) return;
    this.texts.delete(workerId);
    if (text) this.texts.set(workerId, text);
    for (const oldest of this.texts.keys()) {
      if (this.texts.size <= MAX_DRAFTS) break;
      this.texts.delete(oldest);
    }
    this.save(Object.fromEntries(this.texts));
  }
}
