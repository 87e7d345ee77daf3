// What the workers ask the person (ACP's permission questions, pi's extension dialogs), put to
// the person one at a time. VS Code shows one quick input at a time and hides the one on screen
// for the next, so two workers asking at once, or the Command Palette opened over a question,
// answered it `cancelled` in the person's name; and an agent reads `cancelled` as a refusal, or
// ends its turn. Here a question hidden unanswered (that way, or by Escape) is put aside instead:
// the worker keeps waiting (its row needs input), a notification offers Answer… and Dismiss, and
// Answer Open Questions… brings every question put aside back. Only Dismiss, or the question
// becoming moot (the turn aborted, the worker stopped, a dialog's own timeout), ends it unanswered.
import * as vscode from 'vscode';
import { Disposable } from '../disposable';
import { COMMANDS } from '../commands/ids';

/** One question of a worker's, whatever asks it. */
export interface Question<A> {
  readonly title: string;
  readonly workerName: string;
  /** Aborts when the question is moot: it is taken off the screen, or never shown. */
  readonly signal: AbortSignal;
  /** Puts it on screen: the answer, or `aside` when it was hidden unanswered. */
  show(): Promise<A | 'aside'>;
  /** The answer when it ends unanswered (dismissed, moot, or its dialog failed). */
  readonly unanswered: A;
}

/** Says a question was put aside; resolves with the person's choice, if any. */
export type NotifyAside = (message: string, ...choices: string[]) => Thenable<string | undefined>;

interface Entry {
  readonly q: Question<unknown>;
  readonly answer: (a: unknown) => void;
}

/**
 * Why a question became moot, in words. The core aborts with a sentence; a dialog's own timeout
 * (AbortSignal.timeout) and an abort without a reason carry a DOMException, whose text
 * ("TimeoutError: The operation was aborted due to timeout") is no sentence for a person.
 */
function mootWords(reason: unknown): string {
  if (typeof reason === 'string' && reason) return reason;
  if (reason instanceof DOMException && reason.name === 'TimeoutError') return 'its time ran out';
  return 'the question was cancelled';
}

const ANSWER = 'Answer…';
const DISMISS = 'Dismiss';

export class QuestionQueue extends Disposable {
  private readonly waiting: Entry[] = [];
  private readonly aside: Entry[] = [];
  private showing: Entry | null = null;

  constructor(private readonly notify: NotifyAside = (m, ...c) => vscode.window.showWarningMessage(m, ...c)) {
    super();
    this._register(vscode.commands.registerCommand(COMMANDS.answerQuestions, () => {
      const count = this.bringBack();
      if (count === 0 && !this.showing) void vscode.window.showInformationMessage('RPC Workers: no question is waiting for your answer.');
      return { status: 'shown', count };
    }));
  }

  /** Questions put aside and not answered yet. */
  get asideCount(): number {
    return this.aside.length;
  }

  /** The question on screen, by its title (null: none). */
  get onScreen(): string | null {
    return this.showing?.q.title ?? null;
  }

  ask<A>(q: Question<A>): Promise<A> {
    return new Promise((resolve) => {
      const entry: Entry = {
        q,
        answer: (a) => {
          q.signal.removeEventListener('abort', moot);
          resolve(a as A);
        },
      };
      // Moot while waiting or put aside: it is never shown (on screen, its dialog closes itself).
      const moot = () => {
        if (this.remove(entry)) entry.answer(q.unanswered);
      };
      if (q.signal.aborted) return resolve(q.unanswered);
      q.signal.addEventListener('abort', moot, { once: true });
      this.waiting.push(entry);
      this.next();
    });
  }

  /** Answer Open Questions…: every question put aside, on screen again, oldest first. */
  bringBack(): number {
    const back = this.aside.splice(0);
    this.waiting.unshift(...back);
    this.next();
    return back.length;
  }

  private next(): void {
    if (this.showing || this.waiting.length === 0 || this.isDisposed) return;
    const entry = this.waiting.shift()!;
    const { q } = entry;
    this.showing = entry;
    void q.show().catch(() => q.unanswered).then((a) => {
      this.showing = null;
      if (a !== 'aside') entry.answer(a);
      else if (q.signal.aborted) entry.answer(q.unanswered);
      else this.putAside(entry);
      this.next();
    });
  }

  private putAside(entry: Entry): void {
    this.aside.push(entry);
    const { q } = entry;
    void Promise.resolve(this.notify(`${q.workerName} waits for your answer: ${q.title}`, ANSWER, DISMISS)).then((choice) => {
      // A notification cannot be taken back: one clicked after its question ended says so.
      if (!this.aside.includes(entry)) {
        if (choice === ANSWER) void vscode.window.showInformationMessage(`No answer needed: ${q.signal.aborted ? mootWords(q.signal.reason) : 'it was answered'} (${q.workerName}: ${q.title}).`);
        return;
      }
      if (choice === ANSWER) {
        this.remove(entry);
        this.waiting.unshift(entry);
        this.next();
      } else if (choice === DISMISS) {
        this.remove(entry);
        entry.answer(q.unanswered);
      }
    });
  }

  private remove(entry: Entry): boolean {
    for (const list of [this.waiting, this.aside]) {
      const i = list.indexOf(entry);
      if (i !== -1) {
        list.splice(i, 1);
        return true;
      }
    }
    return false;
  }
}
