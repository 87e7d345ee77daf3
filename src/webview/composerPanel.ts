// The composer on the page: the text box, its six buttons and its status line. What may be
// pressed and what the line says are composer.ts's rules; this applies them to the DOM and
// sends what the person asks for.
import type { HostMessage, PageEvent, WebviewMessage, WorkerView } from '../protocol/messages';
import { composerView, emptySendLine, focusHeir, isSendKey, keySendRefusal, lineText, pendingLine, prefillBox, queuedAfter, queueLine, stateLine, type ComposerView, type Line, type Queued } from './composer';
import { h, icon, setText } from './dom';
import type { Drafts } from './drafts';
import { PendingSends, type SavedSend } from './pendingSends';
import { arrowKeys } from './toolbarKeys';

type Result = Extract<HostMessage, { type: 'result' }>;

export class ComposerPanel {
  readonly element: HTMLElement;
  private readonly textarea = h('textarea', { class: 'message', attrs: { rows: '3', placeholder: 'Message the worker (Ctrl+Enter sends)', 'aria-label': 'Message' } });
  private readonly resultLine = h('div', { class: 'result', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly buttons: Record<'send' | 'followUp' | 'redirect' | 'abort' | 'compact' | 'stop', HTMLButtonElement>;
  /**
   * The messages sent, each until its result comes: one that failed goes back into the box, or
   * into its worker's draft when the log shows another worker by then (pendingSends.ts).
   */
  private readonly pending: PendingSends;
  /**
   * The id of each request this page makes (`req`); the host's reply carries it back as `seq`.
   * It starts anywhere, so that a page loaded again does not reuse the ids of the page before,
   * whose replies may still be on their way.
   */
  private lastReq = Math.floor(Math.random() * 2 ** 30);
  /** Takes the focus for the log, when no control of the composer can (main.ts sets it). */
  focusLog: (() => void) | undefined;
  /** The worker whose draft the text box holds. */
  private draftOf: string | null = null;

  /**
   * `worker`: the worker the page shows now; `post`: a message to the extension; `sends`: the
   * messages in flight the page's state held, and how it keeps them (a hidden log's page is built
   * anew when shown, and a send that fails meanwhile is given back from them).
   */
  constructor(private readonly worker: () => WorkerView | null, private readonly post: (m: WebviewMessage) => void, private readonly drafts: Drafts, sends?: { saved: unknown; save: (s: SavedSend[]) => void }) {
    this.pending = new PendingSends(drafts, sends?.saved, sends?.save);
    const btn = (label: string, iconName: string, title: string, cls = 'secondary') => h('button', { class: cls, title, attrs: { 'data-action': label.toLowerCase(), 'aria-label': label } }, icon(iconName), h('span', { class: 'label', text: ` ${label}` }));
    const b = this.buttons = {
      send: btn('Send', 'send', 'Send as a prompt (Ctrl+Enter)', 'primary'),
      followUp: btn('Follow-up', 'list-ordered', 'Deliver when the current turn ends'),
      redirect: btn('Redirect', 'debug-restart', 'Abort the current turn and send this instead'),
      abort: btn('Abort', 'debug-stop', 'Abort the current turn'),
      compact: btn('Compact', 'fold', 'Compact the conversation'),
      stop: btn('Stop', 'close', 'Stop the worker'),
    };
    const bar = h('div', { class: 'buttons', attrs: { role: 'toolbar', 'aria-label': 'Composer actions' } }, b.send, b.followUp, b.redirect, b.abort, b.compact, b.stop);
    arrowKeys(bar);
    this.element = h('div', { class: 'composer' }, this.textarea, bar, this.resultLine);

    const act = (type: 'abort' | 'compact' | 'stop') => () => { const w = worker(); if (w) post({ type, workerId: w.workerId, req: ++this.lastReq }); };
    b.send.addEventListener('click', () => this.send(this.mode()));
    b.followUp.addEventListener('click', () => this.send('followUp'));
    b.redirect.addEventListener('click', () => this.send('redirect'));
    b.abort.addEventListener('click', act('abort'));
    b.compact.addEventListener('click', act('compact'));
    b.stop.addEventListener('click', act('stop'));
    this.textarea.addEventListener('input', () => this.keepDraft());
    this.textarea.addEventListener('keydown', (ev) => {
      if (isSendKey(ev)) {
        ev.preventDefault();
        // The shortcut asks no more than the button would: greyed out, it says why.
        const refused = keySendRefusal(worker());
        if (refused) this.showLine(refused);
        else this.send(this.mode());
      }
    });
  }

  /** Buttons, labels and the text box for the worker's phase; returns the view applied. */
  show(w: WorkerView | null): ComposerView {
    const v = composerView(w);
    const focused = document.activeElement;
    const send = this.buttons.send;
    setText(send.querySelector('.label')!, ` ${v.sendLabel}`);
    send.setAttribute('aria-label', v.sendLabel);
    for (const [name, b] of Object.entries(this.buttons)) {
      b.disabled = v.disabled[name as keyof typeof this.buttons];
      b.title = v.titles[name as keyof typeof this.buttons];
    }
    this.textarea.disabled = v.textareaDisabled;
    this.textarea.placeholder = v.placeholder;
    // A control greyed out with the focus (Abort pressed by keyboard once the turn ended, the text
    // box of a worker that stopped) drops it to the page: it goes where focusHeir says.
    const order = [this.textarea, ...Object.values(this.buttons)];
    if ((focused instanceof HTMLButtonElement || focused instanceof HTMLTextAreaElement) && focused.disabled && order.includes(focused)) {
      const to = focusHeir(order.map((el) => !el.disabled), focused === this.textarea);
      if (to === 'log') this.focusLog?.();
      else order[to].focus();
    }
    return v;
  }

  /** A steer or follow-up the line says is queued (see queueLine). */
  private queued: Queued = null;

  /**
   * The log (re)starts on `w`. Another worker brings its own draft, and its line says what became
   * of its message while it was not shown (or that one is still on its way), else it is blank; the
   * messages in flight are kept, to any worker, so that a failure still gives them back.
   */
  reset(w: WorkerView | null): void {
    const id = w?.workerId ?? null;
    if (id === this.draftOf) return;
    this.draftOf = id;
    this.textarea.value = id ? this.drafts.get(id) : '';
    this.queued = null;
    this.showLine((id && this.pending.shownAgain(id)) || { text: '', cls: 'info' });
  }

  /** The shown worker's state changed from `before`: a line that went stale says what happened (returns whether it did). */
  stateChanged(before: WorkerView, after: WorkerView): boolean {
    const line = stateLine(before, after);
    if (line) this.showLine(line);
    return line !== null;
  }

  /** The worker's text for the box (pi's set_editor_text): a draft in it is kept (see prefillBox). */
  prefill(text: string): void {
    const r = prefillBox(this.textarea.value, text, this.worker()?.name ?? 'The worker');
    this.setBox(r.value);
    if (r.line) this.showLine(r.line);
    this.textarea.focus();
  }

  /**
   * A result: the reply to a request of this page when its `seq` says so, news otherwise. One
   * about a worker not shown (the reply to a request sent before the log switched) says nothing
   * here: a failed send goes back into that worker's draft, said when it is shown again.
   */
  result(msg: Result): void {
    const after = this.pending.reply(this.draftOf, msg, this.textarea.value);
    if (!after) return;
    this.queued = queuedAfter(msg);
    if (after.restore !== null) this.setBox(after.restore);
    this.showLine(after.line);
  }

  /** The shown worker's events: a queued message it took up is said to be delivered. */
  events(events: PageEvent[]): void {
    const w = this.worker();
    if (!this.queued || !w) return;
    const next = queueLine(this.queued, events, w.name);
    this.queued = next.queued;
    if (next.line) this.showLine(next.line);
  }

  private mode(): 'prompt' | 'steer' {
    return this.worker()?.streaming ? 'steer' : 'prompt';
  }

  private send(kind: 'prompt' | 'steer' | 'followUp' | 'redirect'): void {
    const worker = this.worker();
    const text = this.textarea.value;
    if (!worker || !text.trim()) {
      this.showLine(emptySendLine(worker));
      this.textarea.focus();
      return;
    }
    const req = ++this.lastReq;
    if (kind === 'redirect') this.post({ type: 'redirect', workerId: worker.workerId, text, req });
    else this.post({ type: 'send', workerId: worker.workerId, text, mode: kind, req });
    this.pending.sent(worker.workerId, { action: kind, text }, req);
    this.setBox('');
    this.showLine(pendingLine(kind));
  }

  private setBox(text: string): void {
    this.textarea.value = text;
    this.keepDraft();
  }

  private keepDraft(): void {
    if (this.draftOf) this.drafts.set(this.draftOf, this.textarea.value);
  }

  private showLine(line: Line): void {
    this.resultLine.className = `result result-${line.cls}`;
    this.resultLine.title = line.text;
    setText(this.resultLine, lineText(this.resultLine.textContent ?? '', line.text));
  }
}
