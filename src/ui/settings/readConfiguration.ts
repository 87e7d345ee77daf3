// The extension's settings read from VS Code: each value as configuredValue takes it (workspace
// trust decides whether a restricted setting's workspace values count), then checked.
import * as vscode from 'vscode';
import { configuredValue, readSettings, SECTION, type ReadSettings } from './settings';
import { trustState } from './trust';

export function readConfiguration(): ReadSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const trusted = trustState.isTrusted();
  return readSettings((key) => configuredValue(key, config.inspect(key), trusted));
}
