// What a row's buttons ask of the host (render.ts draws them): listened for once, on the feed that
// holds the rows, not on each row (rows are drawn and redrawn many times).
import type { Change } from './entries';
import type { LogModel } from './model';

/** What a row's links ask of the host. */
export interface RowLinks {
  /** A tool call's change, in the diff editor. */
  openChange?: (change: Change) => void;
  /** A host terminal's output, in a VS Code terminal. */
  showTerminal?: (terminalId: string) => void;
  /** The agents' questions put aside, on screen again. */
  answerQuestions?: () => void;
}

/** `model`: the log's model now (a new worker's log is another). */
export function listenToLinks(rows: HTMLElement, links: RowLinks, model: () => LogModel): void {
  const { openChange, showTerminal, answerQuestions } = links;
  // A host terminal's output in a VS Code terminal (render.ts draws the button).
  rows.addEventListener('click', (ev) => {
    const id = (ev.target as Element | null)?.closest?.('[data-terminal]')?.getAttribute('data-terminal');
    if (id && showTerminal) showTerminal(id);
  });
  // An open question put aside, on screen again (render.ts draws the button).
  rows.addEventListener('click', (ev) => {
    if ((ev.target as Element | null)?.closest?.('[data-answer]') && answerQuestions) answerQuestions();
  });
  // A tool call's change opens in the editor's diff view (render.ts draws the button).
  rows.addEventListener('click', (ev) => {
    const button = (ev.target as Element | null)?.closest?.('[data-change]');
    const row = button?.closest('.entry') as HTMLElement | null | undefined;
    if (!button || !row || !openChange) return;
    const entry = model().all().find((x) => String(x.id) === row.dataset.id);
    const change = entry?.kind === 'tool' ? entry.changes[Number(button.getAttribute('data-change'))] : undefined;
    if (change) openChange(change);
  });
}
