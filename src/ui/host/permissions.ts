// An agent's question before a tool runs (ACP session/request_permission), asked in the editor:
// a QuickPick with the agent's own options, the tool's title and command, and, where the call
// carries a change, VS Code's diff editor beside the question. The question goes away by itself
// when it becomes moot (the turn was aborted, the worker stopped). One at a time, and put aside
// rather than answered when hidden: questionQueue.ts.
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazySchema';
import type { PermissionAnswer, PermissionRequest } from '../../core/api';
import type { PermissionOption, ToolDiff } from '../../core/events/agentEvent';
import { Disposable } from '../disposable';
import { questionWords } from './questionWords';

const SCHEME = 'rpc-workers-change';
const changeArg = lazySchema(() => z.object({ path: z.string(), oldText: z.optional(z.nullable(z.string())), newText: z.string() }));

const ICONS: Record<string, string> = { allow_once: '$(check)', allow_always: '$(check-all)', reject_once: '$(close)', reject_always: '$(circle-slash)' };

/** Read-only documents holding the two sides of a proposed change, for the diff editor. */
export class ProposedChanges extends Disposable {
  private readonly texts = new Map<string, string>();
  private seq = 0;

  constructor(openCommand: string) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, { provideTextDocumentContent: (uri) => this.texts.get(uri.query) ?? '' }));
    // The Event Log's "Open diff" on a tool call's change.
    this._register(vscode.commands.registerCommand(openCommand, async (raw: unknown) => {
      const arg = changeArg.safeParse(raw);
      if (!arg.success) return { status: 'error', error: 'invalid argument: a change needs path and newText' };
      await this.show({ path: arg.data.path, oldText: arg.data.oldText ?? null, newText: arg.data.newText }, `${vscode.workspace.asRelativePath(arg.data.path)} (change)`, this.kept.signal);
      return { status: 'opened' };
    }));
    this._register({ dispose: () => this.kept.abort() });
  }

  /** Changes opened on request stay readable until the extension goes. */
  private readonly kept = new AbortController();

  /** Opens the change beside the editor; its documents are forgotten when `signal` aborts. */
  async show(diff: ToolDiff, title: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    const n = ++this.seq;
    const name = diff.path.split(/[\\/]/).pop() || 'file';
    const before = vscode.Uri.from({ scheme: SCHEME, path: `/${n}/before/${name}`, query: `${n}-before` });
    const after = vscode.Uri.from({ scheme: SCHEME, path: `/${n}/after/${name}`, query: `${n}-after` });
    this.texts.set(before.query, diff.oldText ?? '');
    this.texts.set(after.query, diff.newText);
    signal.addEventListener('abort', () => {
      this.texts.delete(before.query);
      this.texts.delete(after.query);
      // Its tab goes with it: left open, a "(proposed)" change already applied or refused, whose
      // sides would read empty once VS Code asks for them again.
      closeDiffTabs(after).catch(() => undefined);
    }, { once: true });
    // Beside the file the person is in; with no editor open, in the editor area itself (Beside
    // would leave an empty group next to it).
    const viewColumn = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    await vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true, viewColumn, preserveFocus: true });
    // Done while it opened (moot as it was asked: an Abort as the agent asked): the close above
    // found no tab yet, and this one stayed, its sides already let go.
    if (signal.aborted) await closeDiffTabs(after);
  }
}

interface OptionItem extends vscode.QuickPickItem {
  option: PermissionOption;
}

/**
 * Puts one question to the person: the agent's answer, or `aside` when the pick was hidden
 * unanswered (Escape, or another quick input took its place: VS Code shows one at a time), or
 * `cancelled` once the question is moot (the turn aborted, the worker stopped).
 */
export async function showQuestion(req: PermissionRequest, workerName: string, changes: ProposedChanges | null): Promise<PermissionAnswer | 'aside'> {
  if (req.signal.aborted) return { cancelled: true };
  const done = new AbortController();
  const moot = () => done.abort();
  req.signal.addEventListener('abort', moot, { once: true });
  try {
    const where = req.diffs.map((d) => vscode.workspace.asRelativePath(d.path)).join(', ') || req.locations.map((l) => vscode.workspace.asRelativePath(l.path)).join(', ');
    for (const diff of req.diffs.slice(0, 3)) void changes?.show(diff, `${workerName}: ${req.title} (proposed)`, done.signal);
    return await new Promise<PermissionAnswer | 'aside'>((resolve) => {
      const pick = vscode.window.createQuickPick<OptionItem>();
      const words = questionWords(req, workerName, where);
      pick.title = words.title;
      pick.placeholder = words.placeholder;
      pick.ignoreFocusOut = true;
      pick.items = req.options.map((option) => ({
        option,
        label: `${ICONS[option.kind] ?? '$(question)'} ${option.name}`,
        // The how-to-undo on a line of its own: as the description, it was cut off at the pick's edge.
        description: option.kind === 'allow_always' ? 'remembered for this worker' : undefined,
        detail: option.kind === 'allow_always' ? 'Its tooltip lists it; Forget Always-Allowed Actions… clears it' : undefined,
      }));
      // Enter answers the narrowest yes: Gemini lists "Allow for this session" (allow_always)
      // first, where Enter would have granted it for good. The agent's order is kept.
      const once = pick.items.find((i) => i.option.kind === 'allow_once');
      if (once) pick.activeItems = [once];
      let answered = false;
      const finish = (answer: PermissionAnswer | 'aside') => {
        if (answered) return;
        answered = true;
        pick.dispose();
        resolve(answer);
      };
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0];
        if (chosen) finish({ optionId: chosen.option.optionId });
      });
      done.signal.addEventListener('abort', () => finish({ cancelled: true }), { once: true });
      pick.onDidHide(() => finish(req.signal.aborted ? { cancelled: true } : 'aside'));
      pick.show();
    });
  } finally {
    req.signal.removeEventListener('abort', moot);
    done.abort();
  }
}

async function closeDiffTabs(modified: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === modified.toString());
  // The person may have closed it first.
  if (tabs.length) await vscode.window.tabGroups.close(tabs).then(undefined, () => undefined);
}
