// `vscode` for UI modules under plain-Node mocha: the bench's stub (bench/lib/vscode-stub.cjs:
// real EventEmitter, Uri and Disposable, a forgiving stub for the rest) with the parts a test
// reads or drives made real here: workspace trust and its grant event, the workspace folder,
// registered commands, and the messages shown. Import it before any module that imports vscode.
import Module from 'node:module';
import path from 'node:path';

const STUB = path.resolve(__dirname, '../../bench/lib/vscode-stub.cjs');
const resolving = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const original = resolving._resolveFilename;
resolving._resolveFilename = function (request: string, ...rest: unknown[]) {
  return request === 'vscode' ? STUB : original.call(this, request, ...rest);
};

type Fn = (...args: unknown[]) => unknown;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the stub is CommonJS, loaded once the resolver above knows it
const vscode = require(STUB) as Record<string, unknown> & { EventEmitter: new () => { event: Fn; fire(e?: unknown): void } };
const disposable = { dispose() {} };
const granted = new vscode.EventEmitter();
const windowState = new vscode.EventEmitter();

export const vscodeStub = {
  trusted: true,
  folder: undefined as string | undefined,
  /** A multi-root workspace's folders after `folder`. */
  moreFolders: [] as string[],
  commands: new Map<string, Fn>(),
  /** Every executeCommand's id and arguments (setContext's among them), in order. */
  executed: [] as unknown[][],
  /** Every message shown (error, warning, information), in order. */
  messages: [] as string[],
  /** Each message's buttons, in order. */
  buttons: [] as string[][],
  /** The buttons the next messages are answered with, in order (undefined: dismissed). */
  choices: [] as unknown[],
  /** Every status bar message set, in order. */
  statusMessages: [] as string[],
  /** The status bar messages still up: set, and not yet taken down by their disposable (their timeout is not run here). */
  statusUp: [] as string[],
  /** What the next InputBoxes and QuickPicks answer, in order (undefined: Escape; a function picks from a QuickPick's items); the titles asked. */
  answers: [] as unknown[],
  asked: [] as string[],
  /** Each InputBox's and QuickPick's placeHolder, and each InputBox's prompt, in order. */
  placeHolders: [] as Array<string | undefined>,
  prompts: [] as Array<string | undefined>,
  /** Each InputBox's validateInput, in order (undefined: it takes anything). */
  validators: [] as Array<((v: string) => unknown) | undefined>,
  /** The content of every untitled document opened (an export's Markdown), in order. */
  documents: [] as string[],
  /** Every terminal created (a login run from a button), with the text sent to it, in order. */
  terminals: [] as Array<{ name?: string; cwd?: string; env?: Record<string, string>; sent: string[] }>,
  /** The workspace values of rpcWorkers settings (by key, as `inspect` gives them). */
  workspaceSettings: new Map<string, unknown>(),
  /** The user's values of rpcWorkers settings (by key, `inspect`'s globalValue). */
  userSettings: new Map<string, unknown>(),
  /** TreeItemCollapsibleState, as a tree row is made with it. */
  collapsible: { None: 0, Collapsed: 1, Expanded: 2 },
  /** Trusts the workspace as VS Code does: isTrusted turns true, then the grant event fires. */
  grantTrust(): void {
    vscodeStub.trusted = true;
    granted.fire();
  },
  /** The window gets (or loses) the focus, as VS Code's onDidChangeWindowState says it. */
  focusWindow(focused = true): void {
    windowState.fire({ focused, active: focused });
  },
  reset(): void {
    vscodeStub.trusted = true;
    vscodeStub.folder = undefined;
    vscodeStub.moreFolders = [];
    vscodeStub.commands.clear();
    vscodeStub.executed.length = 0;
    vscodeStub.messages.length = 0;
    vscodeStub.statusMessages.length = 0;
    vscodeStub.statusUp.length = 0;
    vscodeStub.answers.length = 0;
    vscodeStub.choices.length = 0;
    vscodeStub.buttons.length = 0;
    vscodeStub.asked.length = 0;
    vscodeStub.placeHolders.length = 0;
    vscodeStub.prompts.length = 0;
    vscodeStub.validators.length = 0;
    vscodeStub.workspaceSettings.clear();
    vscodeStub.userSettings.clear();
    vscodeStub.documents.length = 0;
    vscodeStub.terminals.length = 0;
  },
};

/** Settings by dotted key as VS Code keeps a layer of them: `{ guard: { allowBash: true } }`; none set, no layer. */
function nested(values: Map<string, unknown>): Record<string, unknown> | undefined {
  if (values.size === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of values) {
    const parts = key.split('.');
    let at = out;
    for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
    at[parts.at(-1)!] = value;
  }
  return out;
}

const show = async (message: unknown, ...buttons: unknown[]) => {
  vscodeStub.messages.push(String(message));
  vscodeStub.buttons.push(buttons.filter((b) => typeof b === 'string') as string[]);
  return vscodeStub.choices.shift();
};
vscode.workspace = {
  get isTrusted() { return vscodeStub.trusted; },
  get workspaceFolders() {
    const all = vscodeStub.folder ? [vscodeStub.folder, ...vscodeStub.moreFolders] : [];
    return all.length ? all.map((f, index) => ({ uri: (vscode.Uri as { file(p: string): unknown }).file(f), name: path.basename(f), index })) : undefined;
  },
  onDidGrantWorkspaceTrust: granted.event,
  getConfiguration: (section?: string) => ({
    get: (_key: string, fallback?: unknown) => fallback,
    // As VS Code answers: a key of the section's, or (the whole configuration's) the section itself, its layers nested by the keys' dots.
    inspect: (key: string) => (section
      ? (vscodeStub.workspaceSettings.has(key) || vscodeStub.userSettings.has(key)
        ? { key, workspaceValue: vscodeStub.workspaceSettings.get(key), globalValue: vscodeStub.userSettings.get(key) }
        : undefined)
      : key === 'rpcWorkers' ? { key, workspaceValue: nested(vscodeStub.workspaceSettings), globalValue: nested(vscodeStub.userSettings) } : undefined),
  }),
  onDidChangeWorkspaceFolders: () => disposable,
  registerTextDocumentContentProvider: () => disposable,
  openTextDocument: async (o: { content?: string }) => (vscodeStub.documents.push(o.content ?? ''), o),
  createFileSystemWatcher: () => ({ onDidCreate: () => disposable, onDidChange: () => disposable, onDidDelete: () => disposable, dispose() {} }),
};
vscode.commands = {
  registerCommand(id: string, fn: Fn) {
    vscodeStub.commands.set(id, fn);
    return { dispose: () => vscodeStub.commands.delete(id) };
  },
  executeCommand: async (...args: unknown[]) => void vscodeStub.executed.push(args),
  getCommands: async () => [],
};
vscode.window = {
  onDidChangeWindowState: windowState.event,
  showErrorMessage: show,
  showWarningMessage: show,
  showInformationMessage: show,
  withProgress: (_options: unknown, task: () => unknown) => task(),
  showTextDocument: async () => undefined,
  setStatusBarMessage: (text: string) => {
    vscodeStub.statusMessages.push(text);
    vscodeStub.statusUp.push(text);
    // Each message its own disposable, as VS Code's: taking one down leaves the others.
    let up = true;
    return { dispose: () => { if (up) vscodeStub.statusUp.splice(vscodeStub.statusUp.indexOf(text), 1); up = false; } };
  },
  showInputBox: async (o: { title?: string; prompt?: string; placeHolder?: string; validateInput?: (v: string) => unknown }) => {
    vscodeStub.asked.push(o.title ?? '');
    vscodeStub.placeHolders.push(o.placeHolder);
    vscodeStub.prompts.push(o.prompt);
    vscodeStub.validators.push(o.validateInput);
    return vscodeStub.answers.shift();
  },
  showQuickPick: async (items: unknown, o: { title?: string; placeHolder?: string }) => {
    vscodeStub.asked.push(o?.title ?? '');
    vscodeStub.placeHolders.push(o?.placeHolder);
    const answer = vscodeStub.answers.shift();
    return typeof answer === 'function' ? answer(await items) : answer;
  },
  createTerminal: (o: { name?: string; cwd?: string; env?: Record<string, string> }) => {
    const terminal = { name: o.name, cwd: o.cwd, env: o.env, sent: [] as string[] };
    vscodeStub.terminals.push(terminal);
    return { show() {}, sendText: (text: string) => terminal.sent.push(text), dispose() {} };
  },
  // The Event Log registers its view and its tabs' serializer; a test resolves the view itself.
  registerWebviewViewProvider: () => disposable,
  registerWebviewPanelSerializer: () => disposable,
  createStatusBarItem: () => ({ text: '', tooltip: undefined as unknown, visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} }),
};
vscode.ProgressLocation = { Notification: 15, Window: 10 };
// A tree row keeps what it was made with (its label, whether it opens) and its icon's id and
// colour, so a test reads the row a person sees; the forgiving stub dropped constructor arguments.
const collapsible = vscodeStub.collapsible;
vscode.TreeItemCollapsibleState = collapsible;
vscode.ThemeColor = class { constructor(readonly id: string) {} };
vscode.ThemeIcon = class {
  static readonly File = { id: 'file' };
  static readonly Folder = { id: 'folder' };
  constructor(readonly id: string, readonly color?: unknown) {}
};
// A tooltip's Markdown as text (appendText does not escape here: a test reads the words).
vscode.MarkdownString = class {
  isTrusted?: boolean;
  supportHtml?: boolean;
  constructor(public value = '', readonly supportThemeIcons = false) {}
  appendText(v: string) { this.value += v; return this; }
  appendMarkdown(v: string) { this.value += v; return this; }
  appendCodeblock(code: string, language = '') { this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`; return this; }
};
vscode.TreeItem = class {
  label?: string;
  resourceUri?: unknown;
  constructor(labelOrUri: unknown, readonly collapsibleState = collapsible.None) {
    if (typeof labelOrUri === 'string') this.label = labelOrUri;
    else this.resourceUri = labelOrUri;
  }
};
