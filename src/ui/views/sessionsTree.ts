// The Sessions view: one item per worker, its recent turns (with their tool calls) and the
// files it wrote. Refreshed from the host's state and event streams, throttled; never polled.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TurnSummary, Supervisor, WorkerState } from '../../core/api';
import { duration, signInWords, sourceLabel } from '../../protocol/words';
import { commandLine, dialectLine, isLive, pidWords, toolRow, tooltipWarning, trustLines, turnDescription, turnIcon, workerContextValue, workerDescription, workerIcon } from './describe';
import { COMMANDS } from '../commands/ids';
import { loginWords } from '../commands/resultWords';
import { loginHint } from '../settings/profiles';
import { Disposable, toDisposable } from '../disposable';
import { throttle } from '../throttle';
import { appendSafe } from './safeMarkdown';
import type { WorkerSelection } from './workerSelection';
import type { HistoryTreePart, PastNode } from '../history/historyTree';
import { turnEndWords, usageWords } from '../history/words';
import { toolKeys } from './toolKeys';

export const SESSIONS_VIEW = 'rpcWorkers.sessions';
const TURNS_SHOWN = 10;
const REFRESH_MS = 150;
/** The waits before a reveal VS Code refused is tried again, in ms. */
const REVEAL_RETRIES_MS = [50, 150];
/** How long after a reveal lands the selection VS Code reports may still be that reveal's. */
const REVEAL_ECHO_MS = 500;

export type SessionNode =
  | { kind: 'worker'; workerId: string }
  | { kind: 'turn'; workerId: string; index: number }
  /** `key`: the call's key in its turn (toolKeys), which stays the call's when the list is trimmed. */
  | { kind: 'tool'; workerId: string; turn: number; key: string }
  | { kind: 'files'; workerId: string }
  | { kind: 'file'; workerId: string; file: string }
  | ExtNode
  | PastNode;

/** A node another room adds (worktree changes); `key` tells its contributor which. */
export type ExtNode = { kind: 'ext'; workerId: string; key: string };

/** Another room's part of the tree: a worker row's look, and nodes of its own. */
export interface TreeContributor {
  decorate?(s: WorkerState, item: vscode.TreeItem): void;
  /** Nodes under a worker (first) or under one of its own nodes. */
  children(s: WorkerState | undefined, parent: SessionNode): ExtNode[];
  /** Top-level nodes after the workers (e.g. the worktree of a worker that was stopped). */
  roots?(): ExtNode[];
  owns(node: ExtNode): boolean;
  /** `s` is undefined for a node whose worker the host no longer has. */
  item(s: WorkerState | undefined, node: ExtNode): vscode.TreeItem;
  parent?(node: ExtNode): SessionNode | undefined;
}

/** Asked for the item of a worker that is no longer in the tree. */
export class WorkerLeftTree extends Error {
  constructor(readonly workerId: string) {
    super(`worker ${workerId} has left the Sessions tree`);
  }
}

const icon = (i: { id: string; color?: string }) => new vscode.ThemeIcon(i.id, i.color ? new vscode.ThemeColor(i.color) : undefined);

export class SessionsTree extends Disposable implements vscode.TreeDataProvider<SessionNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<SessionNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly view: vscode.TreeView<SessionNode> | undefined;
  /** Worker nodes keep their identity across refreshes, so reveal() and selection hold. */
  private readonly nodes = new Map<string, SessionNode & { kind: 'worker' }>();
  private states = new Map<string, WorkerState>();
  private readonly refresh = throttle(() => this.doRefresh(), REFRESH_MS);
  /** How many times the tree was told to refresh (tests read it to see that updates are event-driven). */
  refreshCount = 0;
  readonly contributors: TreeContributor[] = [];
  private revealSeq = 0;
  private revealing = Promise.resolve();
  /** The worker a reveal selected just now: VS Code reports that selection back (see reveal()). */
  private revealed: string | undefined;
  private revealedTimer: ReturnType<typeof setTimeout> | undefined;

  /** Something a contributor shows changed. */
  invalidate(): void {
    this.refresh.schedule();
  }

  private extChildren(s: WorkerState | undefined, parent: SessionNode): SessionNode[] {
    return this.contributors.flatMap((c) => c.children(s, parent));
  }

  /** A refresh is scheduled and has not run yet. */
  get refreshPending(): boolean {
    return this.refresh.pending;
  }

  /** Past sessions (history) below the live workers. */
  private readonly past: HistoryTreePart | undefined;

  /**
   * `createView: false` makes a provider without a view (the host tests drive one on a fake host),
   * or a function makes its view (the tests' stand-in for VS Code's, to refuse a reveal on cue);
   * `history`: past sessions below the live workers, and when their listing changes.
   */
  constructor(private readonly supervisor: Supervisor, private readonly selection: WorkerSelection, { createView = true, history }: { createView?: boolean | ((provider: SessionsTree) => vscode.TreeView<SessionNode>); history?: { part: HistoryTreePart; onChange: vscode.Event<void> } } = {}) {
    super();
    if (history) {
      this.past = history.part;
      this._register(history.onChange(() => this.refresh.schedule()));
      this.refresh.schedule();
    }
    const make = createView === true ? () => vscode.window.createTreeView(SESSIONS_VIEW, { treeDataProvider: this, showCollapseAll: true }) : createView || undefined;
    this.view = make ? this._register(make(this)) : undefined;
    this._register(this.refresh);
    this._register(toDisposable(supervisor.onState(() => this.refresh.schedule())));
    this._register(toDisposable(supervisor.onRemoved(() => this.refresh.schedule())));
    this._register(toDisposable(supervisor.onEvent((_id, e) => {
      if (e.type.startsWith('tool_execution_') && e.type !== 'tool_execution_update') this.refresh.schedule();
      else if (e.turn?.opens || e.turn?.ends || e.type === 'agent_end' || e.type === 'guard_violation') this.refresh.schedule();
    })));
    this._register(toDisposable(() => clearTimeout(this.revealedTimer)));
    if (this.view) {
      this._register(this.view.onDidChangeSelection((e) => {
        const first = e.selection[0];
        if (!first || !('workerId' in first)) return;
        // A reveal asked for before the person chose another worker lands late (VS Code is slow to
        // take it under load): the selection it reports is not the person's. Theirs stands, and its
        // row is selected again.
        const wanted = this.selection.current;
        if (first.workerId === this.revealed && first.workerId !== wanted) {
          this.revealed = undefined;
          if (wanted) void this.reveal(wanted);
          return;
        }
        this.selection.set(first.workerId);
      }));
    }
    this.snapshot();
  }

  /**
   * Select and show a worker's item (e.g. after "Show Event Log" for it). Reveals run one at a time
   * and only the newest waiting one runs: two workers started back to back could otherwise have
   * two reveals in flight, the first landing last, its row selected, and the selection (which the
   * sidebar log follows) moved back to it. And VS Code refuses a reveal while its view still holds
   * rows of workers that left (it asks for their items, which getTreeItem refuses), until its own
   * refresh: the reveal of a worker started just after others stopped failed so, its row left
   * unselected. It is tried again a few times (REVEAL_RETRIES_MS). One the person has overtaken
   * (chosen another worker meanwhile: a click, the log's picker) is not tried, and if it was in
   * flight, the selection it makes does not move the log (see the constructor).
   */
  reveal(workerId: string): Promise<void> {
    this.refresh.flush();
    this.selection.set(workerId);
    const seq = ++this.revealSeq;
    const run = async () => {
      const view = this.view;
      if (!view) return;
      // A reveal shows its view: once the person has put it away, a try again must not bring it back.
      let hidden = false;
      const sub = view.onDidChangeVisibility((e) => (hidden ||= !e.visible));
      try {
        for (const wait of [0, ...REVEAL_RETRIES_MS]) {
          if (wait) await new Promise((r) => setTimeout(r, wait));
          const node = this.nodes.get(workerId);
          if (!node || hidden || !view.visible || seq !== this.revealSeq || this.selection.current !== workerId) return;
          try {
            const s = this.states.get(workerId);
            this.revealed = workerId;
            clearTimeout(this.revealedTimer);
            // Opened when another room has something under it (a worktree's changes).
            await view.reveal(node, { select: true, focus: false, expand: s ? this.extChildren(s, node).length > 0 : false });
            return;
          } catch {
            // Refused (tried again), or the worker left meanwhile (getTreeItem refused it).
          } finally {
            this.revealedTimer = setTimeout(() => (this.revealed = undefined), REVEAL_ECHO_MS);
          }
        }
      } finally {
        sub.dispose();
      }
    };
    this.revealing = this.revealing.then(run);
    return this.revealing;
  }

  workerState(workerId: string): WorkerState | undefined {
    return this.states.get(workerId);
  }

  private snapshot(): void {
    const list = this.supervisor.list();
    this.states = new Map(list.map((s) => [s.workerId, s]));
    for (const id of [...this.nodes.keys()]) if (!this.states.has(id)) this.nodes.delete(id);
    for (const s of list) if (!this.nodes.has(s.workerId)) this.nodes.set(s.workerId, { kind: 'worker', workerId: s.workerId });
  }

  private doRefresh(): void {
    this.snapshot();
    this.refreshCount++;
    this._onDidChangeTreeData.fire(undefined);
  }

  getParent(node: SessionNode): SessionNode | undefined {
    if (isPast(node)) return this.past?.parent(node);
    switch (node.kind) {
      case 'worker': return undefined;
      case 'turn': case 'files': return this.nodes.get(node.workerId);
      case 'tool': return { kind: 'turn', workerId: node.workerId, index: node.turn };
      case 'file': return { kind: 'files', workerId: node.workerId };
      case 'ext': return this.contributors.find((c) => c.owns(node))?.parent?.(node) ?? this.nodes.get(node.workerId);
    }
  }

  getChildren(node?: SessionNode): SessionNode[] {
    if (!node) return [...[...this.states.keys()].map((id) => this.nodes.get(id)!).filter(Boolean), ...this.contributors.flatMap((c) => c.roots?.() ?? []), ...(this.past?.roots() ?? [])];
    if (isPast(node)) return this.past?.children(node) ?? [];
    const s = this.states.get(node.workerId);
    if (node.kind === 'ext') return this.extChildren(s, node);
    if (!s) return [];
    if (node.kind === 'worker') {
      const turns = s.turns.slice(-TURNS_SHOWN).reverse().map((t): SessionNode => ({ kind: 'turn', workerId: s.workerId, index: t.index }));
      const ext = this.extChildren(s, node);
      return s.filesTouched.length ? [...ext, { kind: 'files', workerId: s.workerId }, ...turns] : [...ext, ...turns];
    }
    if (node.kind === 'turn') {
      const t = s.turns.find((x) => x.index === node.index);
      return t ? toolKeys(t.tools).keys.map((key): SessionNode => ({ kind: 'tool', workerId: s.workerId, turn: t.index, key })) : [];
    }
    if (node.kind === 'files') return [...s.filesTouched].reverse().map((file): SessionNode => ({ kind: 'file', workerId: s.workerId, file }));
    return [];
  }

  getTreeItem(node: SessionNode): vscode.TreeItem {
    if (isPast(node)) return this.past ? this.past.item(node) : new vscode.TreeItem('(history off)');
    const s = this.states.get(node.workerId);
    if (node.kind === 'ext') return this.contributors.find((c) => c.owns(node))?.item(s, node) ?? new vscode.TreeItem('(gone)');
    // A worker revealed just before it left (started and stopped at once): VS Code asks for its
    // item only after its own refresh, and an item it cannot find under the root is logged as
    // "Failed to resolve tree node" (1.139). Refused here, the reveal ends quietly (see reveal()).
    if (!s && node.kind === 'worker') throw new WorkerLeftTree(node.workerId);
    if (!s) return new vscode.TreeItem('(gone)');
    switch (node.kind) {
      case 'worker': return this.workerItem(s);
      case 'turn': return this.turnItem(s, s.turns.find((t) => t.index === node.index));
      case 'tool': {
        const t = s.turns.find((x) => x.index === node.turn);
        return this.toolItem(s, t, node.key);
      }
      case 'files': {
        const item = new vscode.TreeItem(`Files written (${s.filesTouched.length})`, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${s.workerId}/files`;
        item.iconPath = new vscode.ThemeIcon('files');
        item.contextValue = 'rpcWorkerFiles';
        return item;
      }
      case 'file': {
        const uri = vscode.Uri.file(node.file);
        const item = new vscode.TreeItem(uri, vscode.TreeItemCollapsibleState.None);
        item.id = `${s.workerId}/file/${node.file}`;
        item.label = path.basename(node.file);
        item.description = vscode.workspace.asRelativePath(uri, false) !== node.file ? path.dirname(vscode.workspace.asRelativePath(uri, false)) : path.dirname(node.file);
        item.tooltip = node.file;
        item.iconPath = vscode.ThemeIcon.File;
        item.command = { command: 'vscode.open', title: 'Open File', arguments: [uri] };
        item.contextValue = 'rpcWorkerFile';
        return item;
      }
    }
  }

  private workerItem(s: WorkerState): vscode.TreeItem {
    const hasChildren = s.turns.length > 0 || s.filesTouched.length > 0 || this.extChildren(s, this.nodes.get(s.workerId) ?? { kind: 'worker', workerId: s.workerId }).length > 0;
    const label = s.name;
    const item = new vscode.TreeItem(label, hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = s.workerId;
    item.description = workerDescription(s);
    item.iconPath = icon(workerIcon(s));
    item.contextValue = workerContextValue(s);
    item.tooltip = workerTooltip(s);
    item.accessibilityInformation = { label: `${label}, ${workerDescription(s)}` };
    item.command = { command: COMMANDS.selectWorker, title: 'Show Its Log', arguments: [s.workerId] };
    for (const c of this.contributors) c.decorate?.(s, item);
    return item;
  }

  private turnItem(s: WorkerState, t: TurnSummary | undefined): vscode.TreeItem {
    if (!t) return new vscode.TreeItem('(turn no longer kept)');
    const item = new vscode.TreeItem(`Turn ${t.index}`, t.tools.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `${s.workerId}/turn/${t.index}`;
    item.description = turnDescription(t);
    item.iconPath = icon(turnIcon(t));
    item.contextValue = 'rpcWorkerTurn';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**Turn ${t.index}**\n\n`);
    appendSafe(md, `Started ${new Date(t.startedAt).toLocaleTimeString()} from ${sourceLabel(t.source)}${t.submitter ? ` by ${t.submitter}` : ''}\n`);
    if (t.submissionId) appendSafe(md, `Submission ${t.submissionId}\n`);
    if (t.endedAt !== null) appendSafe(md, `Ended: ${t.endReason ?? 'no reason given'} after ${duration(t.endedAt - t.startedAt)}\n`);
    if (t.error) appendSafe(md, `Error: ${t.error}${t.needsLogin ? turnLogin(s) : ''}\n`);
    item.tooltip = md;
    return item;
  }

  private toolItem(s: WorkerState, t: TurnSummary | undefined, key: string): vscode.TreeItem {
    const i = t && toolKeys(t.tools).at.get(key);
    const tool = i === undefined ? undefined : t?.tools[i];
    if (!t || !tool) return new vscode.TreeItem('(tool call no longer kept)');
    const name = tool.toolName ?? 'tool';
    const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
    // By the call, not its place: VS Code keeps a row's selection by its id.
    item.id = `${s.workerId}/turn/${t.index}/tool/${key}`;
    const { end, description } = toolRow(t, tool);
    item.description = description;
    item.iconPath = end === 'blocked' ? new vscode.ThemeIcon('circle-slash', new vscode.ThemeColor('errorForeground'))
      : tool.violation ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
      : end === 'error' ? new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'))
      : end === 'stopped' ? new vscode.ThemeIcon('debug-stop', new vscode.ThemeColor('problemsWarningIcon.foreground'))
      : new vscode.ThemeIcon('tools');
    item.tooltip = `${name}${tool.toolCallId ? ` (${tool.toolCallId})` : ''}${item.description ? `: ${item.description}` : ''}`;
    item.contextValue = 'rpcWorkerTool';
    return item;
  }
}

/** What the person allowed always for the worker (answered without asking until forgotten). */
function allowedLines(md: vscode.MarkdownString, s: WorkerState): void {
  const rules = s.allowedAlways ?? [];
  if (!rules.length) return;
  // The rules end with the worker: an exited one's row does not offer Forget, so its tooltip does not point at it.
  md.appendMarkdown(isLive(s) ? '$(check-all) Allowed always (Forget Always-Allowed Actions… clears them):\n\n' : '$(check-all) Allowed always while it ran:\n\n');
  for (const r of rules) {
    md.appendMarkdown('- ');
    appendSafe(md, r.key);
    md.appendMarkdown('\n');
  }
  md.appendMarkdown('\n');
}

export function workerTooltip(s: WorkerState): vscode.MarkdownString {
  // Worker-supplied strings go in with appendText / code blocks: escaped, never markup.
  // Theme icons for the guard's shield; appendText escapes `$(...)` in worker text.
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = false;
  md.supportHtml = false;
  const text = (value: string) => appendSafe(md, value);
  md.appendMarkdown('**');
  text(s.name);
  md.appendMarkdown('**\n\n');
  // First: what is wrong, and what to do (Stop), before what it is.
  const warning = tooltipWarning(s);
  if (warning) {
    md.appendMarkdown('$(warning) ');
    text(warning);
    md.appendMarkdown('\n\n');
  }
  const trust = trustLines(s);
  md.appendMarkdown(s.guarded ? '$(shield) ' : '$(unlock) ');
  text(trust.guard);
  md.appendMarkdown('\n\n');
  for (const line of trust.lines) {
    md.appendMarkdown('- ');
    text(line);
    md.appendMarkdown('\n');
  }
  if (trust.lines.length) md.appendMarkdown('\n');
  allowedLines(md, s);
  const row = (label: string, value: string) => {
    md.appendMarkdown(`- ${label}: `);
    text(value);
    md.appendMarkdown('\n');
  };
  row('Status', workerDescription(s));
  const pid = pidWords(s);
  if (pid !== null) row('PID', pid);
  row('Dialect', dialectLine(s));
  if (s.mode) row('Mode', s.modes?.find((m) => m.id === s.mode)?.name ?? s.mode);
  if (s.signIn) {
    const { signedIn, what } = signInWords(s.signIn);
    row('Sign-in', signedIn ? what : 'not signed in');
  }
  row('Working directory', s.cwd);
  row('Started', new Date(s.startedAt).toLocaleString());
  row('Turns', String(s.turnCount));
  row('Last end reason', s.lastEndReason ? turnEndWords(s.lastEndReason) : 'none yet');
  const usage = usageWords(s.usage);
  if (usage) row(s.usage?.scope === 'last_call' ? 'Tokens (last model call)' : 'Tokens', usage);
  if (s.lastError) row('Last error', `${s.lastError}${[...s.turns].reverse().find((t) => t.endedAt !== null)?.needsLogin ? turnLogin(s) : ''}`);
  if (s.protocolErrors) row('Protocol errors', String(s.protocolErrors));
  row('Worker id', s.workerId);
  md.appendMarkdown('\nCommand line:\n');
  md.appendCodeblock(commandLine(s), 'sh');
  return md;
}

function isPast(node: SessionNode): node is PastNode {
  return node.kind === 'pastGroup' || node.kind === 'past' || node.kind === 'pastFile';
}

/** How the worker's agent takes a key, for a turn it refused for want of one (as a start refused so says it). */
function turnLogin(s: WorkerState): string {
  return loginWords(s.name, loginHint(s.command, s.args));
}
