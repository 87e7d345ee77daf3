// The agents' permission questions, put to the person one at a time. VS Code shows one quick
// input at a time and hides the one on screen for the next, so two workers asking at once, or
// the Command Palette opened over a question, answered it `cancelled` in the person's name; and
// an agent reads `cancelled` as a refusal, or ends its turn. Here a question hidden unanswered
// (that way, or by Escape) is put aside instead: the worker keeps waiting (its row needs input),
// a notification offers Answer… and Dismiss, and Answer Open Questions… brings every question put
// aside back. Only Dismiss, or the question becoming moot (the turn aborted, the worker stopped),
// ends it unanswered.
import * as vscode from 'vscode';
import type { PermissionAnswer, PermissionRequest } from '../../core/api';
import { Disposable } from '../disposable';
import { COMMANDS } from '../commands/ids';

/** Puts one question on screen: the answer, or `aside` when it was hidden unanswered. */
export type ShowQuestion = (req: PermissionRequest, workerName: string) => Promise<PermissionAnswer | 'aside'>;

/** Says a question was put aside; resolves with the person's choice, if any. */
export type NotifyAside = (message: string, ...choices: string[]) => Thenable<string | undefined>;

interface Question {
  readonly req: PermissionRequest;
  readonly workerName: string;
  readonly answer: (a: PermissionAnswer) => void;
}

const ANSWER = 'Answer…';
const DISMISS = 'Dismiss';

export class QuestionQueue extends Disposable {
  private readonly waiting: Question[] = [];
  private readonly aside: Question[] = [];
  private showing: Question | null = null;

  constructor(private readonly show: ShowQuestion, private readonly notify: NotifyAside = (m, ...c) => vscode.window.showWarningMessage(m, ...c)) {
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
    return this.showing?.req.title ?? null;
  }

  ask(req: PermissionRequest, workerName: string): Promise<PermissionAnswer> {
    return new Promise((resolve) => {
      const q: Question = {
        req, workerName,
        answer: (a) => {
          req.signal.removeEventListener('abort', moot);
          resolve(a);
        },
      };
      // Moot while waiting or put aside: it is never shown (on screen, its pick closes itself).
      const moot = () => {
        if (this.remove(q)) q.answer({ cancelled: true });
      };
      req.signal.addEventListener('abort', moot, { once: true });
      this.waiting.push(q);
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
    const q = this.waiting.shift()!;
    this.showing = q;
    void this.show(q.req, q.workerName).catch((): PermissionAnswer => ({ cancelled: true })).then((a) => {
      this.showing = null;
      if (a !== 'aside') q.answer(a);
      else if (!q.req.signal.aborted) this.putAside(q);
      this.next();
    });
  }

  private putAside(q: Question): void {
    this.aside.push(q);
    void Promise.resolve(this.notify(`${q.workerName} waits for your answer: ${q.req.title}`, ANSWER, DISMISS)).then((choice) => {
      if (!this.aside.includes(q)) return;
      if (choice === ANSWER) {
        this.remove(q);
        this.waiting.unshift(q);
        this.next();
      } else if (choice === DISMISS) {
        this.remove(q);
        q.answer({ cancelled: true });
      }
    });
  }

  private remove(q: Question): boolean {
    for (const list of [this.waiting, this.aside]) {
      const i = list.indexOf(q);
      if (i !== -1) {
        list.splice(i, 1);
        return true;
      }
    }
    return false;
  }
}
