// The Jump to latest button over the log's end: shown while the person reads above the newest
// entry, it counts the entries that came below meanwhile, or nothing would say the worker went on.
import { h, icon, setText } from './dom';

const WORDS = ' Jump to latest';

export class JumpToLatest {
  readonly element = h('button', { class: 'jump', title: 'Jump to the latest entry', attrs: { 'aria-label': 'Jump to latest' } }, icon('arrow-down'), h('span', { class: 'jump-text', text: WORDS }));
  private unseen = 0;
  private visible = false;

  /** Shown or not; hidden, the person is at the newest entry: nothing below is unseen. */
  show(visible: boolean): void {
    this.visible = visible;
    this.element.classList.toggle('visible', visible);
    if (!visible) this.count(0);
  }

  /** Another worker's log (or a past one): nothing of it is counted yet. */
  fresh(visible: boolean): void {
    this.count(0);
    this.visible = visible;
    this.element.classList.toggle('visible', visible);
  }

  /** New entries: counted while it is shown (the person reads above), not while the log follows its end. */
  add(n: number): void {
    if (n > 0 && this.visible) this.count(this.unseen + n);
  }

  private count(n: number): void {
    if (n === this.unseen) return;
    this.unseen = n;
    setText(this.element.querySelector('.jump-text')!, n ? `${WORDS} (${n.toLocaleString('en')} new)` : WORDS);
    this.element.setAttribute('aria-label', n ? `Jump to latest, ${n.toLocaleString('en')} new ${n === 1 ? 'entry' : 'entries'}` : 'Jump to latest');
  }
}
