// pi's extension UI requests as VS Code UI: select → QuickPick, confirm → a Yes/No QuickPick,
// input → InputBox, editor → an untitled document with Submit / Cancel; notify → notification,
// setStatus → status bar text. The quick inputs take their turn with the other workers'
// questions (questionQueue.ts): hidden unanswered, by Escape or by another quick input, one is
// put aside, not answered `cancelled` in the person's name. A confirm is not a modal: a modal
// holds the whole window (every other worker's steering with it) and cannot be closed when its
// question is moot. A dialog whose timeout passes is closed and answered `cancelled` (pi applies
// its own default then), and so is one made moot by an abort, a redirect or the worker's exit.
// What the dialogs show is stripped of the terminal's escape codes (an extension colours its text
// with its theme); the option answered is the string pi sent.
import * as vscode from 'vscode';
import type { UiNotice, UiRequest, UiResponse } from '../../core/api';
import type { QuestionQueue } from './questionQueue';
import { plainText } from '../../protocol/plainText';

export interface NoticeSinks {
  setStatus(workerId: string, key: string, text: string | undefined): void;
  setEditorText(workerId: string, text: string): void;
  log(workerId: string, text: string): void;
  workerName(workerId: string): string;
}

const CANCELLED: UiResponse = { cancelled: true };

/** Aborts when the dialog's timeout passes or the worker no longer waits on it (`req.signal`). */
function endOf(req: UiRequest): AbortSignal {
  const ends = [req.signal, req.timeout && req.timeout > 0 ? AbortSignal.timeout(req.timeout) : undefined].filter((s): s is AbortSignal => s !== undefined);
  return ends.length ? AbortSignal.any(ends) : new AbortController().signal;
}

/** `show`, given a token cancelled when `end` aborts. */
async function until<T>(end: AbortSignal, show: (token: vscode.CancellationToken) => Thenable<T>): Promise<T> {
  const source = new vscode.CancellationTokenSource();
  const cancel = () => source.cancel();
  if (end.aborted) source.cancel();
  end.addEventListener('abort', cancel, { once: true });
  try {
    return await show(source.token);
  } finally {
    end.removeEventListener('abort', cancel);
    source.dispose();
  }
}

/**
 * A select's options as QuickPick items without escape codes, each keeping the string pi sent (the
 * answer it expects). Options alike once stripped (told apart by colour alone in a terminal) are
 * told apart by their place, and so is one that was escape codes alone.
 */
export function optionItems(options: readonly string[]): Array<vscode.QuickPickItem & { value: string }> {
  const labels = options.map(plainText);
  const count = new Map<string, number>();
  for (const label of labels) count.set(label, (count.get(label) ?? 0) + 1);
  return options.map((value, i) => {
    const label = labels[i] ?? '';
    const alike = label === '' || (count.get(label) ?? 0) > 1;
    return { label, value, ...(alike ? { description: `option ${i + 1}` } : {}) };
  });
}

/** What a timed dialog says of its time left, when it comes on screen. */
export function closesIn(deadline: number, now: number): string {
  return `closes in ${Math.max(1, Math.round((deadline - now) / 1000))} s`;
}

/**
 * Answers one dialog. With `questions`, a quick input waits its turn and is put aside when hidden
 * unanswered; a `standing` request (τ's, which stands until answered anyway: τ asks again at the
 * next refused prompt), one without a signal, or one without a queue is answered `cancelled` then.
 * A τ request's signal closes its dialog when the worker exits: nothing is left to answer.
 */
export async function answerUiRequest(req: UiRequest, workerName: string, questions?: QuestionQueue): Promise<UiResponse> {
  const asks = plainText(req.title ?? req.method);
  const title = `${workerName}: ${asks}`;
  const message = req.message === undefined ? undefined : plainText(req.message);
  const end = endOf(req);
  // A timed dialog that waited its turn behind another question has less time left than it asked.
  const deadline = req.timeout && req.timeout > 0 ? Date.now() + req.timeout : null;
  const queued = questions !== undefined && req.signal !== undefined && req.standing !== true;
  const hint = queued ? ' (Escape puts it aside: the worker waits)' : '';
  const quick = async (show: (token: vscode.CancellationToken) => Thenable<UiResponse | undefined>): Promise<UiResponse> => {
    const ask = async (): Promise<UiResponse | 'aside'> => (await until(end, show)) ?? (end.aborted ? CANCELLED : 'aside');
    if (!queued) return ask().then((r) => (r === 'aside' ? CANCELLED : r));
    return questions.ask({ title: asks, workerName, signal: end, show: ask, unanswered: CANCELLED });
  };
  switch (req.method) {
    case 'select':
      return quick((token) => vscode.window.showQuickPick(optionItems(req.options ?? []), { title, placeHolder: `${message ?? 'Choose one'}${hint}`, ignoreFocusOut: true }, token).then((picked) => (picked === undefined ? undefined : { value: picked.value })));
    case 'confirm': {
      const placeHolder = () => `${message ?? 'Confirm?'}${deadline ? ` (${closesIn(deadline, Date.now())})` : ''}${hint}`;
      return quick((token) => vscode.window.showQuickPick(['Yes', 'No'], { title, placeHolder: placeHolder(), ignoreFocusOut: true }, token).then((picked) => (picked === undefined ? undefined : { confirmed: picked === 'Yes' })));
    }
    case 'input':
      return quick((token) => vscode.window.showInputBox({ title, prompt: `${message ?? ''}${hint}`.trim() || undefined, placeHolder: req.placeholder === undefined ? undefined : plainText(req.placeholder), value: req.prefill, ignoreFocusOut: true }, token).then((value) => (value === undefined ? undefined : { value })));
    case 'editor':
      return until(end, (token) => editInDocument(req, title, token));
    default:
      return CANCELLED;
  }
}

async function editInDocument(req: UiRequest, title: string, token: vscode.CancellationToken): Promise<UiResponse> {
  const doc = await vscode.workspace.openTextDocument({ content: req.prefill ?? '', language: 'markdown' });
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  const closeIt = async () => {
    // Close without a save prompt: empty the untitled document, then close its editor.
    try {
      const all = new vscode.Range(0, 0, doc.lineCount, 0);
      await editor.edit((e) => e.delete(all));
      for (const group of vscode.window.tabGroups.all) {
        for (const tab of group.tabs) {
          if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === doc.uri.toString()) await vscode.window.tabGroups.close(tab);
        }
      }
    } catch {
      // Already closed by the person.
    }
  };
  const choice = await new Promise<string | undefined>((resolve) => {
    const sub = token.onCancellationRequested(() => resolve(undefined));
    void vscode.window.showInformationMessage(`${title} — edit the text in the new editor, then submit.`, 'Submit', 'Cancel').then((c) => {
      sub.dispose();
      resolve(c);
    });
  });
  const text = doc.getText();
  await closeIt();
  return choice === 'Submit' ? { value: text } : CANCELLED;
}

export function handleUiNotice(n: UiNotice, sinks: NoticeSinks): void {
  const p = n.params;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const name = sinks.workerName(n.workerId);
  switch (n.method) {
    case 'notify': {
      // Coloured with the extension's theme for a terminal: a notification shows plain text.
      const text = `${name}: ${plainText(str(p.message) ?? '')}`;
      const kind = str(p.notifyType);
      if (kind === 'error') void vscode.window.showErrorMessage(text);
      else if (kind === 'warning') void vscode.window.showWarningMessage(text);
      else void vscode.window.showInformationMessage(text);
      return;
    }
    case 'setStatus':
      sinks.setStatus(n.workerId, str(p.statusKey) ?? 'default', str(p.statusText));
      return;
    case 'set_editor_text':
      sinks.setEditorText(n.workerId, str(p.text) ?? '');
      return;
    case 'setWidget': {
      const lines = Array.isArray(p.widgetLines) ? p.widgetLines.map(String) : null;
      sinks.log(n.workerId, lines ? `[widget ${str(p.widgetKey) ?? ''}]\n${lines.join('\n')}` : `[widget ${str(p.widgetKey) ?? ''} cleared]`);
      return;
    }
    case 'setTitle':
      sinks.log(n.workerId, `[title] ${str(p.title) ?? ''}`);
      return;
    default:
      sinks.log(n.workerId, `[${n.method}] ${JSON.stringify(p)}`);
  }
}
