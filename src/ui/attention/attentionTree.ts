// The attention state on each worker's row of the Sessions view: its icon and colour, the word
// first in its description, and the reason in its tooltip.
import * as vscode from 'vscode';
import type { WorkerState } from '../../core/api';
import type { TreeContributor } from '../views/sessionsTree';
import { appendSafe } from '../views/safeMarkdown';
import { ATTENTION_LOOK, reasonLine, rowDescription, rowNews, stateWord } from './attentionLook';
import type { WorkerAttention } from './workerAttention';

export function attentionContributor(attention: WorkerAttention): TreeContributor {
  return {
    decorate(s: WorkerState, item: vscode.TreeItem) {
      const info = attention.get(s.workerId);
      if (!info) return;
      const look = ATTENTION_LOOK[info.attention];
      // Working, idle and stopped keep the row's phase icon (it says more: starting, streaming,
      // compacting, exited); what needs the person gets its own icon and its word first (the
      // word the log's status chip says too).
      const news = rowNews(s, info.attention);
      if (news) {
        item.iconPath = new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
        item.description = rowDescription(news, typeof item.description === 'string' ? item.description : '');
      }
      // The word once: "failed (exit code 3)", not "failed: failed (exit code 3)".
      const line = reasonLine(stateWord(s, info.attention), info.reason);
      if (item.tooltip instanceof vscode.MarkdownString) {
        item.tooltip.appendMarkdown('\n\n**');
        item.tooltip.appendText(line.word);
        item.tooltip.appendMarkdown('**');
        appendSafe(item.tooltip, line.rest);
      }
      const label = typeof item.label === 'string' ? item.label : item.label?.label ?? s.name;
      item.accessibilityInformation = { label: `${label}, ${line.word}${line.rest}` };
    },
    children: () => [],
    owns: () => false,
    item: () => new vscode.TreeItem(''),
  };
}
