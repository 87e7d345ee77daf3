// An agent's files through the editor (ACP fs/*, see core/worker/clientFiles.ts): a read of an
// open document gives the text the person sees, unsaved edits included; a write to one is a
// single WorkspaceEdit (one undo step; VS Code narrows it to what differs, so the cursor stays)
// that is then saved, so the disk and the document agree and the dirty state stays honest. Over
// the person's unsaved edits it says so: the log tells them Undo brings their text back. A file
// that is not open is left to the core (the disk).
import * as vscode from 'vscode';
import type { ClientFileAccess } from '../../core/api';

function openDocument(path: string): vscode.TextDocument | undefined {
  const uri = vscode.Uri.file(path);
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === uri.fsPath && !d.isClosed);
}

export const editorFiles: ClientFileAccess = {
  async read(path) {
    return openDocument(path)?.getText() ?? null;
  },
  async write(path, content) {
    const doc = openDocument(path);
    if (!doc) return false;
    const replacedUnsaved = doc.isDirty && doc.getText() !== content;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor refused the edit of ${path}`);
    if (!(await doc.save())) throw new Error(`the editor made the edit of ${path} but could not save it`);
    return { replacedUnsaved };
  },
};
