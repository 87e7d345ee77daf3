// An agent's files through the editor (src/ui/host/editorFiles.ts) as the host serves them
// (clientFiles.ts), against a small editor of open documents: what counts as the agent having
// read the person's unsaved edits, which is what its write is warned about.
import '../helpers/vscodeStub';
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Untimed } from '../../src/core/events/agentEvent';
import { ClientFiles } from '../../src/core/worker/clientFiles';
import type { PageEvent } from '../../src/protocol/messages';
import { editorFiles } from '../../src/ui/host/editorFiles';
import { LogModel } from '../../src/webview/model';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub the helper put in place of vscode
const vscode = require('vscode') as Record<string, unknown> & { Uri: { file(p: string): Doc['uri'] }; workspace: Record<string, unknown> };

/** An open document: its text, dirty until saved (to disk, as VS Code saves). */
class Doc {
  isClosed = false;
  constructor(
    readonly uri: { scheme: string; fsPath: string },
    public text: string,
    public isDirty = false,
  ) {}
  getText() {
    return this.text;
  }
  positionAt(offset: number) {
    return offset;
  }
  async save() {
    fs.writeFileSync(this.uri.fsPath, this.text);
    this.isDirty = false;
    return true;
  }
}

describe('editor files: what the agent read of an open document', () => {
  let dir: string;
  let docs: Doc[];
  let events: Untimed[];
  const kept: Record<string, unknown> = {};

  before(() => {
    for (const key of ['WorkspaceEdit', 'Range']) kept[key] = vscode[key];
    vscode.WorkspaceEdit = class {
      readonly ops: [{ fsPath: string }, string][] = [];
      replace(uri: { fsPath: string }, _range: unknown, text: string) {
        this.ops.push([uri, text]);
      }
    };
    vscode.Range = class {};
    Object.defineProperty(vscode.workspace, 'textDocuments', { get: () => docs, configurable: true });
    vscode.workspace.applyEdit = async (edit: { ops: [{ fsPath: string }, string][] }) => {
      for (const [uri, text] of edit.ops) Object.assign(docs.find((d) => d.uri.fsPath === uri.fsPath)!, { text, isDirty: true });
      return true;
    };
  });
  after(() => {
    Object.assign(vscode, kept);
    delete vscode.workspace.textDocuments;
    delete vscode.workspace.applyEdit;
  });
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'editor-files-')));
    docs = [];
  });
  afterEach(() => {
    editorFiles.forget?.('w1');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function files() {
    events = [];
    return new ClientFiles({ workerId: 'w1', offered: true, root: dir, cwd: dir, files: editorFiles, policy: null, emit: (e) => events.push(e), report: () => undefined, judged: () => undefined });
  }
  const written = () => events.find((e) => e.data?.op === 'write')?.data;

  it('a write to an open CRLF document says the bytes the editor saved, not the agent\'s text\'s', async () => {
    const file = path.join(dir, 'crlf.txt');
    fs.writeFileSync(file, 'one\r\ntwo\r\n');
    const doc = new Doc(vscode.Uri.file(file), 'one\r\ntwo\r\n');
    // As VS Code applies an edit to a CRLF document: the inserted text takes its line ends.
    doc.save = async () => {
      doc.text = doc.text.replace(/\r?\n/g, '\r\n');
      fs.writeFileSync(file, doc.text);
      doc.isDirty = false;
      return true;
    };
    docs.push(doc);
    const cf = files();
    await cf.read(file, null, null);
    await cf.write(file, 'ONE\ntwo\n');
    assert.equal(written()?.through, 'editor');
    assert.equal(written()?.bytes, fs.statSync(file).size);
    assert.equal(written()?.bytes, 10);
  });

  it('a read of some lines does not count as having read the unsaved edits elsewhere: the write over them is warned about', async () => {
    const file = path.join(dir, 'b.txt');
    fs.writeFileSync(file, 'one\ntwo\n');
    docs.push(new Doc(vscode.Uri.file(file), 'one\ntwo\nPERSON UNSAVED\n', true));
    const cf = files();
    assert.equal((await cf.read(file, 1, 1)).content, 'one\n');
    await cf.write(file, 'ONE\ntwo\n');
    assert.equal(written()?.replacedUnsaved, true);
  });

  it('a read of the whole document counts: the write that builds on it is not warned about', async () => {
    const file = path.join(dir, 'b.txt');
    fs.writeFileSync(file, 'one\n');
    docs.push(new Doc(vscode.Uri.file(file), 'one\nPERSON UNSAVED\n', true));
    const cf = files();
    await cf.read(file, null, null);
    await cf.write(file, 'ONE\nPERSON UNSAVED\n');
    assert.equal(written()?.replacedUnsaved, undefined);
  });

  it('a document open where a link leads is read and written through the link: the unsaved edits are read, the write goes through the editor', async () => {
    const real = path.join(dir, 'real.txt');
    const link = path.join(dir, 'link.txt');
    fs.writeFileSync(real, 'saved\n');
    fs.symlinkSync(real, link);
    const doc = new Doc(vscode.Uri.file(real), 'saved\nPERSON UNSAVED\n', true);
    docs.push(doc);
    const cf = files();
    assert.equal((await cf.read(link, null, null)).content, 'saved\nPERSON UNSAVED\n');
    await cf.write(link, 'saved\nPERSON UNSAVED\nagent\n');
    assert.equal(written()?.through, 'editor');
    assert.equal(written()?.replacedUnsaved, undefined, 'it read them');
    assert.equal(doc.text, 'saved\nPERSON UNSAVED\nagent\n');
    assert.equal(fs.readFileSync(real, 'utf8'), doc.text);
  });

  it('an open document saved since the agent read it: the write goes ahead, and the log says the file changed since the agent read it', async () => {
    const file = path.join(dir, 'c.txt');
    fs.writeFileSync(file, 'v1\n');
    const doc = new Doc(vscode.Uri.file(file), 'v1\n');
    docs.push(doc);
    const cf = files();
    await cf.read(file, null, null);
    doc.text = 'v1\nperson\n';
    await doc.save();
    await cf.write(file, 'v1\nagent\n');
    assert.equal(doc.text, 'v1\nagent\n');
    assert.equal(written()?.changedSinceRead, true);
    assert.equal(written()?.replacedUnsaved, undefined);
  });

  it('a file not open changed on disk since the agent read it: the write goes ahead, and the log says so; unchanged, it says nothing', async () => {
    const file = path.join(dir, 'a.txt');
    fs.writeFileSync(file, 'v1\n');
    const cf = files();
    await cf.read(file, null, null);
    fs.writeFileSync(file, 'v1\nperson saved this\n');
    await cf.write(file, 'v1\nagent\n');
    assert.equal(fs.readFileSync(file, 'utf8'), 'v1\nagent\n');
    assert.equal(written()?.changedSinceRead, true);
    const m = new LogModel();
    m.apply([{ ...events.find((e) => e.data?.op === 'write'), timestamp: 1 } as PageEvent]);
    const shown = m.entries.find((e) => e.kind === 'warning') as { title: string; text: string } | undefined;
    assert.equal(shown?.title, `The agent wrote ${file} over a change made since it read it`);
    await cf.read(file, null, null);
    events.length = 0;
    await cf.write(file, 'v1\nagent again\n');
    assert.equal(written()?.changedSinceRead, undefined);
  });
});
