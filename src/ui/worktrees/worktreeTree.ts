// A worker's worktree in the Sessions view: one row with its branch and change counts, and under
// it each changed file (a click opens the diff, base ↔ worktree). A worker the host no longer
// has keeps its row at the top level, so its work can still be reviewed, merged or discarded.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { appendSafe } from '../views/safeMarkdown';
import { isLive } from '../views/describe';
import type { WorkerState } from '../../core/api';
import type { ChangeCounts, ChangedFile, MergedInto } from '../../core/worktree';
import type { ExtNode, SessionNode, TreeContributor } from '../views/sessionsTree';
import { WORKTREE_COMMANDS } from './worktreeIds';
import type { WorkerWorktrees, WorktreeEntry } from './workerWorktrees';

const KIND_LOOK: Record<ChangedFile['kind'], { letter: string; color: string }> = {
  added: { letter: 'A', color: 'gitDecoration.addedResourceForeground' },
  modified: { letter: 'M', color: 'gitDecoration.modifiedResourceForeground' },
  deleted: { letter: 'D', color: 'gitDecoration.deletedResourceForeground' },
  renamed: { letter: 'R', color: 'gitDecoration.renamedResourceForeground' },
};

/** "3 changed: 1 added, 1 modified, 1 deleted", "merged into main (1a2b3c4d)", or "no changes". */
export function countsText(c: ChangeCounts | null, merged: MergedInto | null = null): string {
  if (!c) return 'listing changes…';
  // "no changes" after a merge back read as if the work was lost.
  if (c.total === 0) return merged ? `merged into ${merged.into} (${merged.commit.slice(0, 8)})` : 'no changes';
  const parts = (['added', 'modified', 'deleted', 'renamed'] as const).filter((k) => c[k] > 0).map((k) => `${c[k]} ${k}`);
  return `${c.total} changed: ${parts.join(', ')}`;
}

const wtNode = (workerId: string): ExtNode => ({ kind: 'ext', workerId, key: 'wt' });
const fileNode = (workerId: string, file: string): ExtNode => ({ kind: 'ext', workerId, key: `wt-file:${file}` });

/**
 * `workingIn`: a running worker whose cwd is in a folder (a resumed session keeps its folder under
 * a new worker id), so a worktree whose own worker is gone is not called "not running" while
 * another works in it, and its menus follow that worker as Merge and Discard themselves do.
 */
export function worktreeContributor(worktrees: WorkerWorktrees, live: () => Set<string>, workingIn: (folder: string) => WorkerState | undefined = () => undefined): TreeContributor {
  return {
    // A worker with a worktree opens on its changes: they are what the person reviews.
    decorate: (s, item) => { if (worktrees.get(s.workerId) && item.collapsibleState !== undefined) item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded; },
    owns: (n) => n.key === 'wt' || n.key.startsWith('wt-file:'),
    roots: () => worktrees.all().filter((e) => !live().has(e.workerId)).map((e) => wtNode(e.workerId)),
    parent: (n) => (n.key === 'wt' ? (live().has(n.workerId) ? { kind: 'worker', workerId: n.workerId } : undefined) : wtNode(n.workerId)),
    children(_s: WorkerState | undefined, parent: SessionNode): ExtNode[] {
      if (!('workerId' in parent)) return [];
      const e = worktrees.get(parent.workerId);
      if (!e) return [];
      if (parent.kind === 'worker') return [wtNode(e.workerId)];
      if (parent.kind === 'ext' && parent.key === 'wt') return e.files.map((f) => fileNode(e.workerId, f.path));
      return [];
    },
    item(s: WorkerState | undefined, n: ExtNode): vscode.TreeItem {
      const e = worktrees.get(n.workerId);
      if (!e) return new vscode.TreeItem('(worktree discarded)');
      if (n.key === 'wt') return worktreeItem(e, s, s ? undefined : workingIn(e.worktree.path));
      const file = e.files.find((f) => `wt-file:${f.path}` === n.key);
      return file ? fileItem(e, file) : new vscode.TreeItem('(no longer changed)');
    },
  };
}

function worktreeItem(e: WorktreeEntry, own: WorkerState | undefined, other: WorkerState | undefined): vscode.TreeItem {
  // Another window's worker, known by its hold only: this window cannot see it run. Said under
  // this window's own worker too once that one has ended (an exited worker stays listed).
  const elsewhere = (own && isLive(own)) || other ? null : e.heldBy;
  // Who works in it, after what it holds: a sidebar cuts a row's end, and a long label (the
  // worker's name, then the branch, then this) left no room for "merged into main".
  const who = elsewhere ? `${elsewhere.worker} works in it in another window`
    : own ? null
      : other ? `${other.name} works in it`
        : `${e.worktree.workerName} not running`;
  const s = own ?? other;
  const item = new vscode.TreeItem(`Worktree ${e.worktree.branch}`, e.files.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
  // A new id once it has files: VS Code keeps an id's collapse state, and a row first shown
  // empty would otherwise stay closed when its changes come.
  item.id = `${e.workerId}/worktree${e.files.length ? '' : '/empty'}`;
  item.description = [e.error ? `could not list changes: ${e.error}` : countsText(e.counts, e.merged), who].filter(Boolean).join(' · ');
  item.iconPath = new vscode.ThemeIcon('git-branch', e.error ? new vscode.ThemeColor('errorForeground') : undefined);
  item.tooltip = new vscode.MarkdownString(undefined, false);
  appendSafe(item.tooltip, `${e.worktree.workerName}'s worktree${who && !elsewhere ? ` (${who})` : ''}: ${e.worktree.path}\nbranch ${e.worktree.branch}, from ${e.worktree.target ?? 'a detached HEAD'} at ${e.worktree.baseCommit.slice(0, 8)}`);
  if (e.merged && !e.error) appendSafe(item.tooltip, `\n\nIts work is in ${e.merged.into} (commit ${e.merged.commit.slice(0, 8)}); what it changes from now on is listed here.`);
  if (elsewhere) appendSafe(item.tooltip, `\n\n${elsewhere.worker} works in it in ${elsewhere.where}: Merge and Discard are offered once it stops there.`);
  // A worker still starting counts: it has no turn yet, but one may begin as soon as it runs.
  const busy = s && (s.status === 'starting' || s.streaming || s.compacting || s.pendingInput.length > 0);
  // Menus: merge is offered only while the worker is not writing or starting; discard also while it runs
  // (it says why it cannot now and offers to stop it); neither while another window's worker
  // works in it, which this window cannot stop (they would refuse, saying so: package.json's menus).
  item.contextValue = elsewhere ? 'rpcWorkerWorktree.elsewhere'
    : `rpcWorkerWorktree${busy ? '.busy' : ''}${s && isLive(s) ? '.live' : ''}`;
  return item;
}

function fileItem(e: WorktreeEntry, f: ChangedFile): vscode.TreeItem {
  const look = KIND_LOOK[f.kind];
  const item = new vscode.TreeItem(path.basename(f.path), vscode.TreeItemCollapsibleState.None);
  item.id = `${e.workerId}/worktree/${f.path}`;
  if (f.right) item.resourceUri = vscode.Uri.file(f.right);
  const lines = f.linesAdded === null ? 'binary' : `+${f.linesAdded} −${f.linesRemoved ?? 0}`;
  const dir = path.dirname(f.path);
  item.description = `${look.letter} ${lines}${dir !== '.' ? ` · ${dir}` : ''}`;
  item.iconPath = new vscode.ThemeIcon(f.kind === 'deleted' ? 'diff-removed' : f.kind === 'added' ? 'diff-added' : f.kind === 'renamed' ? 'diff-renamed' : 'diff-modified', new vscode.ThemeColor(look.color));
  item.tooltip = `${f.kind}: ${f.oldPath ? `${f.oldPath} → ` : ''}${f.path} (${lines})`;
  item.command = { command: WORKTREE_COMMANDS.openDiff, title: 'Open Changes', arguments: [{ workerId: e.workerId, file: f.path }] };
  item.contextValue = 'rpcWorkerWorktreeFile';
  return item;
}
