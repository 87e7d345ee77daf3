// The Sessions tree's "Past sessions" group: sessions of this workspace whose worker is no longer
// hosted here (ended, or interrupted when its window went away), each with its turns, end
// reason and the files it touched. The group loads the listing (and with it the core) when the
// tree first shows it, after activation.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SessionSummary } from '../../core/history/format';
import { duration } from '../../protocol/words';
import type { PastSessions } from './pastSessions';
import { DIALECT_TITLES } from '../../core/dialectName';
import { endWords, lastTurnWords, pastDescription } from './words';
import { appendSafe } from '../views/safeMarkdown';

export type PastNode =
  | { kind: 'pastGroup' }
  | { kind: 'past'; sessionId: string }
  | { kind: 'pastFile'; sessionId: string; file: string };

export const PAST_CONTEXT = 'rpcPastSession';
const GROUP: PastNode = { kind: 'pastGroup' };

export class HistoryTreePart {
  private readonly nodes = new Map<string, PastNode & { kind: 'past' }>();

  constructor(private readonly past: PastSessions) {}

  /**
   * The group shows only when it has something in it (an empty tree keeps the view's welcome
   * content with its Start buttons). The first ask loads the listing after activation, not
   * during it: the listing loads the core.
   */
  roots(): PastNode[] {
    if (!this.past.enabled) return [];
    if (!this.past.loaded) {
      setTimeout(() => void this.past.load(), 0);
      return [];
    }
    return this.past.sessions().length || this.past.archivedCount() || this.past.error ? [GROUP] : [];
  }

  children(node: PastNode): PastNode[] {
    if (node.kind === 'pastGroup') return this.past.sessions().map((s) => this.node(s.id));
    if (node.kind === 'past') {
      const s = this.past.summary(node.sessionId);
      return s ? [...s.filesTouched].reverse().map((file): PastNode => ({ kind: 'pastFile', sessionId: s.id, file })) : [];
    }
    return [];
  }

  parent(node: PastNode): PastNode | undefined {
    if (node.kind === 'past') return GROUP;
    if (node.kind === 'pastFile') return this.node(node.sessionId);
    return undefined;
  }

  private node(sessionId: string): PastNode & { kind: 'past' } {
    let n = this.nodes.get(sessionId);
    if (!n) this.nodes.set(sessionId, n = { kind: 'past', sessionId });
    return n;
  }

  item(node: PastNode): vscode.TreeItem {
    if (node.kind === 'pastGroup') return this.groupItem();
    const s = this.past.summary(node.sessionId);
    if (!s) return new vscode.TreeItem('(session no longer in the history)');
    if (node.kind === 'pastFile') {
      const uri = vscode.Uri.file(node.file);
      const item = new vscode.TreeItem(uri, vscode.TreeItemCollapsibleState.None);
      item.id = `past/${s.id}/file/${node.file}`;
      item.label = path.basename(node.file);
      const rel = vscode.workspace.asRelativePath(uri, false);
      item.description = path.dirname(rel !== node.file ? rel : node.file);
      item.tooltip = node.file;
      item.iconPath = vscode.ThemeIcon.File;
      item.command = { command: 'vscode.open', title: 'Open File', arguments: [uri] };
      item.contextValue = 'rpcWorkerFile';
      return item;
    }
    return this.sessionItem(s);
  }

  private groupItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Past sessions', vscode.TreeItemCollapsibleState.Expanded);
    item.id = 'past';
    item.iconPath = new vscode.ThemeIcon('history');
    item.contextValue = 'rpcPastGroup';
    const shown = this.past.sessions().length;
    const archived = this.past.archivedCount();
    const parts = [shown === 0 ? 'none' : String(shown)];
    if (archived && !this.past.showArchived) parts.push(`${archived} archived hidden`);
    if (this.past.error) parts.push(this.past.error);
    item.description = parts.join(' · ');
    const tip = [`Sessions of this workspace kept in its storage${this.past.showArchived ? ' (archived shown)' : ''}.`];
    const ev = this.past.evictedSessions;
    if (ev?.count) tip.push(`${ev.count} removed by the history's bounds (rpcWorkers.history.*), last ${new Date(ev.lastAt ?? 0).toLocaleString()}.`);
    for (const u of this.past.unreadable) tip.push(`Unreadable: ${u.file}: ${u.error}`);
    if (this.past.error) tip.push(`History: ${this.past.error}`);
    item.tooltip = tip.join('\n');
    if (shown === 0) item.collapsibleState = vscode.TreeItemCollapsibleState.None;
    return item;
  }

  private sessionItem(s: SessionSummary): vscode.TreeItem {
    const record = this.past.resumeRecord(s.id);
    const item = new vscode.TreeItem(s.name, s.filesTouched.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `past/${s.id}`;
    item.description = pastDescription(s, record?.resumedInto ?? null, Date.now());
    item.iconPath = pastIcon(s);
    const resumable = !!record && s.status !== 'live' && s.status !== 'evicted';
    item.contextValue = [PAST_CONTEXT, s.status, resumable ? 'resumable' : '', s.dialect, s.archived ? 'archived' : ''].filter(Boolean).join('.');
    if (s.status !== 'evicted') item.command = { command: 'rpcWorkers.history.openLog', title: 'Open Log', arguments: [{ sessionId: s.id }] };
    const md = new vscode.MarkdownString();
    md.isTrusted = false;
    md.supportHtml = false;
    const row = (label: string, value: string) => appendSafe(md.appendMarkdown(`- ${label}: `), value).appendMarkdown('\n');
    md.appendMarkdown('**').appendText(s.name).appendMarkdown('**\n\n');
    // A session another window still runs has not ended: its row says where it runs.
    row(s.status === 'live' ? 'Now' : 'Ended', endWords(s));
    if (s.exit?.error) row('Error', s.exit.error);
    row('Started', new Date(s.startedAt).toLocaleString());
    if (s.endedAt) row('Ran for', duration(s.endedAt - s.startedAt));
    const last = lastTurnWords(s);
    row('Turns', `${s.turns}${last ? ` (last: ${last})` : ''}`);
    row('Files touched', String(s.filesTouched.length));
    row('Worker', `${DIALECT_TITLES[s.dialect]}${s.workerVersion ? ` ${s.workerVersion}` : ''}${s.model ? ` · ${s.model}` : ''}`);
    row('Folder', s.cwd);
    if (s.removed) row('Events kept', `none (${s.removed.events} removed by the history bound: ${s.removed.reason})`);
    else row('Events kept', `${s.events}${s.lost ? ` (${s.lost} lost: ${s.lastError ?? 'write failed'})` : ''}`);
    if (s.evictedEvents) row('Oldest events removed', `${s.evictedEvents.events} (history bound)`);
    row('Resume', resumeWords(s, record));
    if (s.archived) row('Archived', 'yes');
    item.tooltip = md;
    item.accessibilityInformation = { label: `${s.name}, ${item.description}` };
    return item;
  }
}

/** Whether Resume can take the session up, as the row's menu decides it (`resumable`). */
function resumeWords(s: SessionSummary, record: { resumedInto?: string | null } | null | undefined): string {
  if (s.status === 'live') return 'not while it runs in another window';
  if (s.status === 'evicted') return 'not possible: the history bound removed its events';
  if (!record) return 'not possible: its worker kept no conversation to return to';
  return record.resumedInto ? 'resumed already (it can be resumed again)' : 'possible';
}

function pastIcon(s: SessionSummary): vscode.ThemeIcon {
  if (s.status === 'interrupted') return new vscode.ThemeIcon('debug-disconnect', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  if (s.status === 'evicted') return new vscode.ThemeIcon('trash');
  if (s.status === 'live') return new vscode.ThemeIcon('broadcast');
  if (s.endReason === 'failed') return new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
  return new vscode.ThemeIcon(s.archived ? 'archive' : 'history');
}
