// The floor of bench/hostactivation.mjs: an extension that asks of VS Code, at activation, what
// RPC Workers' activation asks and nothing else: the vscode API, a log channel, the settings'
// section read once, as many commands as ours registers (their ids, renamed, set by the runner
// before this activates), the Sessions tree view, the Event Log's webview view and panel
// serializer, two status bar items, two content providers. What ours takes beyond it is its own.
'use strict';
const vscode = require('vscode');

exports.activate = (context) => {
  const keep = (d) => (context.subscriptions.push(d), d);
  keep(vscode.window.createOutputChannel('RPC Workers floor', { log: true }));
  vscode.workspace.getConfiguration().inspect('rpcWorkers');
  for (const id of globalThis.rpcWorkersFloorCommands ?? []) keep(vscode.commands.registerCommand(id, () => undefined));
  keep(vscode.window.createTreeView('rpcWorkersFloor.sessions', { treeDataProvider: { getChildren: () => [], getTreeItem: (e) => e }, showCollapseAll: true }));
  keep(vscode.window.registerWebviewViewProvider('rpcWorkersFloor.eventLog', { resolveWebviewView() {} }, { webviewOptions: { retainContextWhenHidden: false } }));
  keep(vscode.window.registerWebviewPanelSerializer('rpcWorkersFloor.eventLogPanel', { async deserializeWebviewPanel() {} }));
  for (const id of ['status', 'notices']) keep(vscode.window.createStatusBarItem(`rpcWorkersFloor.${id}`, vscode.StatusBarAlignment.Left, 50));
  for (const scheme of ['rpc-workers-floor-base', 'rpc-workers-floor-change']) keep(vscode.workspace.registerTextDocumentContentProvider(scheme, { provideTextDocumentContent: () => '' }));
  return {};
};
exports.deactivate = () => {};
