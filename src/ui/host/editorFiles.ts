// An agent's files through the editor (ACP fs/*, see core/worker/clientFiles.ts): a read of an
// open document gives the text the person sees, unsaved edits included; a write to one is a
// single WorkspaceEdit (one undo step; VS Code narrows it to what differs, so the cursor stays)
// that is then saved, so the disk and the document agree and the dirty state stays honest. Over
// unsaved edits the agent has not read it says so: the log tells the person Undo brings their
// text back (edits it read, it built on: ACP agents read a file before they write it). A file
// that is not open is left to the core (the disk).
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { ClientFileAccess } from '../../core/api';

/** Open as the agent spelled the path, or where it leads: a link's target is the file it reads and writes. */
function openDocument(...paths: string[]): vscode.TextDocument | undefined {
  for (const path of paths) {
    const { fsPath } = vscode.Uri.file(path);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === fsPath && !d.isClosed);
    if (doc) return doc;
  }
  return undefined;
}

/**
 * The text each agent last read of each open document, till its write: edits it saw are its own.
 * By agent: another agent's read says nothing of what this one saw. By where the path leads: a
 * read through a link and a write by the target's name are of one file.
 */
const lastRead = new Map<string, Map<string, string>>();
/** Line ends aside: an agent may write back with \n what it read with \r\n. */
const sameText = (a: string, b: string) => a.replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');

export const editorFiles: ClientFileAccess = {
  async read(path, workerId, how) {
    const real = how?.real ?? path;
    const text = openDocument(path, real)?.getText() ?? null;
    // Some lines say nothing of the person's edits in the others: the write over them is warned about.
    if (text !== null && !how?.partial) {
      let reads = lastRead.get(workerId);
      if (!reads) lastRead.set(workerId, (reads = new Map()));
      reads.set(real, text);
    }
    return text;
  },
  async write(path, content, workerId, how) {
    const real = how?.real ?? path;
    const doc = openDocument(path, real);
    const reads = lastRead.get(workerId);
    const read = reads?.get(real);
    reads?.delete(real);
    if (!doc) return false;
    const now = doc.getText();
    const replacedUnsaved = doc.isDirty && !sameText(now, content) && (read === undefined || !sameText(read, now));
    // Saved since the agent read it (the person, or a program the editor reloaded from): the
    // agent's text is built on the older one, and the change it replaces is not unsaved.
    const changedSinceRead = !doc.isDirty && read !== undefined && !sameText(read, now) && !sameText(now, content);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(now.length)), content);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor refused the edit of ${path}`);
    if (!(await doc.save())) throw new Error(`the editor made the edit of ${path} but could not save it: the agent's text is in the editor, unsaved`);
    // The log says the size of what reached the disk: a CRLF document saves the agent's \n as \r\n.
    const savedBytes = await stat(doc.uri.fsPath).then((s) => s.size, () => undefined);
    return { replacedUnsaved, changedSinceRead, savedBytes };
  },
  forget(workerId) {
    lastRead.delete(workerId);
  },
};
