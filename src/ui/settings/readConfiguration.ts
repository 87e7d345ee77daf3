// The extension's settings read from VS Code: each value as configuredValue takes it (workspace
// trust decides whether a restricted setting's workspace values count), then checked.
import * as vscode from 'vscode';
import { configuredValue, readSettings, SECTION, type InspectedSetting, type ReadSettings, type SettingKey } from './settings';
import { trustState } from './trust';
import { unknownSettingErrors } from './unknownSettings';

/**
 * `declared`: the section's keys package.json declares (declaredSettings); a key set under the
 * section that is not one of them is named in the errors too. None given: not looked for.
 */
export function readConfiguration(declared: readonly string[] = []): ReadSettings {
  // The whole section's layers in one inspect(), each setting then read out of them: an extension
  // host's inspect() looks through every language override of the configuration on each call,
  // about a millisecond each: for the twenty settings, two fifths of activation there.
  const layers = vscode.workspace.getConfiguration().inspect<Record<string, unknown>>(SECTION);
  const trusted = trustState.isTrusted();
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const read = readSettings((key) => configuredValue(key, layered(layers, key), trusted), folders);
  read.errors.push(...unknownSettingErrors(layers, declared, trusted));
  return read;
}

/** One setting's layers out of its section's: VS Code keeps `a.b.c` nested, as `{ a: { b: { c } } }`. */
export function layered(section: InspectedSetting | undefined, key: SettingKey): InspectedSetting {
  const at = (value: unknown) => key.split('.').reduce<unknown>((v, part) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[part] : undefined), value);
  return { globalValue: at(section?.globalValue), workspaceValue: at(section?.workspaceValue), workspaceFolderValue: at(section?.workspaceFolderValue) };
}
