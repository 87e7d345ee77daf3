// The page's top line: which worker's log is shown (a choice among the workers the extension
// lists) and a badge with that worker's phase, model and pid.
import type { HostMessage, WebviewMessage, WorkerView } from '../protocol/messages';
import { h, icon, setText } from './dom';

type Workers = Extract<HostMessage, { type: 'workers' }>;

export class WorkerPicker {
  readonly element: HTMLElement;
  private readonly select = h('select', { class: 'worker-select', attrs: { 'aria-label': 'Worker' } });
  private readonly badge = h('span', { class: 'status-badge', attrs: { role: 'status' } });

  constructor(post: (m: WebviewMessage) => void) {
    this.element = h('div', { class: 'top' }, icon('server-process'), this.select, this.badge);
    this.select.addEventListener('change', () => {
      if (this.select.value) post({ type: 'selectWorker', workerId: this.select.value });
    });
  }

  list(msg: Workers): void {
    const options = msg.workers.map((w) => h('option', { text: w.status === 'running' || w.status === 'starting' ? w.name : `${w.name} (${w.status === 'history' ? 'past session' : w.status})`, attrs: { value: w.workerId } }));
    if (!msg.workers.length) options.push(h('option', { text: 'No workers', attrs: { value: '' } }));
    this.select.replaceChildren(...options);
    this.select.value = msg.selected ?? '';
    this.select.disabled = msg.workers.length === 0;
  }

  show(w: WorkerView | null, phase: string): void {
    const text = !w ? 'no worker' : `${w.note ? 'history (read-only)' : phase}${w.model ? ` · ${w.model}` : ''}${w.pid && !w.note ? ` · pid ${w.pid}` : ''}${w.usage ? ` · ${w.usage}` : ''}`;
    setText(this.badge, text);
    this.badge.title = text;
    this.badge.className = `status-badge phase-${phase}`;
  }
}
