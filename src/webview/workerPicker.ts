// The page's top line: which worker's log is shown (a choice among the workers the extension
// lists) and a chip with that worker's state (statusChip.ts), model and pid.
import type { HostMessage, WebviewMessage, WorkerView } from '../protocol/messages';
import { h, icon, setText } from './dom';
import { spokenLine, statusChip } from './statusChip';

type Workers = Extract<HostMessage, { type: 'workers' }>;

export class WorkerPicker {
  readonly element: HTMLElement;
  private readonly select = h('select', { class: 'worker-select', attrs: { 'aria-label': 'Worker' } });
  // Not a live region itself: its text counts a quiet turn's seconds, and a screen reader would
  // read the whole chip once a second. The hidden `spoken` line next to it says the state once.
  private readonly badge = h('span', { class: 'status-badge' });
  private readonly spoken = h('span', { class: 'sr-only', attrs: { role: 'status' } });

  constructor(post: (m: WebviewMessage) => void) {
    // The chip sits in a slot whose width is the page's to set, never its words': the select
    // beside it (or above it, on a narrow page) stays put while the chip's words change.
    this.element = h('div', { class: 'top' }, icon('server-process'), this.select, h('span', { class: 'status-slot' }, this.badge), this.spoken);
    this.select.addEventListener('change', () => {
      this.nameWhole();
      if (this.select.value) post({ type: 'selectWorker', workerId: this.select.value });
    });
  }

  list(msg: Workers): void {
    const options = msg.workers.map((w) => h('option', { text: w.status === 'running' || w.status === 'starting' ? w.name : `${w.name} (${w.status === 'history' ? 'past session' : w.status})`, attrs: { value: w.workerId } }));
    if (!msg.workers.length) options.push(h('option', { text: 'No workers', attrs: { value: '' } }));
    this.select.replaceChildren(...options);
    this.select.value = msg.selected ?? '';
    this.select.disabled = msg.workers.length === 0;
    this.nameWhole();
  }

  /** A narrow page cuts the worker's name in the select: its tooltip says it whole. */
  private nameWhole(): void {
    this.select.title = this.select.selectedOptions[0]?.text ?? '';
  }

  /** What the chip says now. */
  get chipText(): string {
    return this.badge.textContent ?? '';
  }

  /** The words the hidden line last had to say (it may hold none: see spokenLine). */
  private words = '';

  /** `saidInLine`: the composer's line has just said this change of state (its live line says it once). */
  show(w: WorkerView | null, phase: string, quietMs = 0, saidInLine = false): void {
    const chip = statusChip(w, phase, quietMs);
    setText(this.badge, chip.text);
    this.badge.title = chip.title;
    this.badge.className = chip.cls;
    const next = spokenLine(this.words, chip.spoken, saidInLine);
    this.words = chip.spoken;
    if (next !== null) setText(this.spoken, next);
  }
}
