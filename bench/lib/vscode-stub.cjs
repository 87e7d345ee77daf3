// A minimal `vscode` module for timing activate() in plain Node: the few APIs whose values the
// extension reads at activation are real (configuration defaults, EventEmitter, Uri, trust);
// everything else is a forgiving stub that records nothing and returns a disposable stub.
'use strict';
const path = require('node:path');

function stub(name) {
  const fn = function () {};
  const cache = new Map();
  return new Proxy(fn, {
    get(_t, key) {
      if (key === 'then') return undefined; // never a thenable
      if (key === Symbol.toPrimitive) return () => '';
      if (key === Symbol.iterator) return function* () {};
      if (key === 'dispose') return () => {};
      if (key === 'toString') return () => `[stub ${name}]`;
      if (!cache.has(key)) cache.set(key, stub(`${name}.${String(key)}`));
      return cache.get(key);
    },
    set(_t, key, value) {
      cache.set(key, value);
      return true;
    },
    apply: () => stub(`${name}()`),
    construct: () => stub(`new ${name}`),
  });
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener) => {
      this.listeners.push(listener);
      return { dispose: () => (this.listeners = this.listeners.filter((l) => l !== listener)) };
    };
  }
  fire(e) {
    for (const l of [...this.listeners]) l(e);
  }
  dispose() {
    this.listeners = [];
  }
}

class Uri {
  constructor(fsPath) {
    this.scheme = 'file';
    this.fsPath = fsPath;
    this.path = fsPath;
  }
  static file(p) {
    return new Uri(p);
  }
  static joinPath(base, ...parts) {
    return new Uri(path.join(base.fsPath, ...parts));
  }
  static parse(s) {
    return new Uri(s.replace(/^file:\/\//, ''));
  }
  with() {
    return this;
  }
  toString() {
    return `file://${this.fsPath}`;
  }
}

class Disposable {
  constructor(fn) {
    this.fn = fn;
  }
  static from(...ds) {
    return new Disposable(() => ds.forEach((d) => d?.dispose?.()));
  }
  dispose() {
    this.fn?.();
  }
}

const configuration = {
  get: (_key, fallback) => fallback,
  inspect: () => undefined,
  has: () => false,
  update: async () => {},
};

// A plain object (the bundle copies the module's own properties), stubs for the rest.
const NAMES = ['CancellationTokenSource', 'MarkdownString', 'ProgressLocation', 'Range', 'StatusBarAlignment', 'TabInputText',
  'ThemeColor', 'ThemeIcon', 'TreeItem', 'TreeItemCollapsibleState', 'ViewColumn', 'commands', 'env', 'window', 'extensions',
  'languages', 'l10n', 'ConfigurationTarget', 'Position', 'Selection', 'TextEditorRevealType', 'LogLevel'];
const base = stub('vscode');
const vscode = { EventEmitter, Uri, Disposable };
for (const name of NAMES) vscode[name] = base[name];
// As many names as the real API has (every top-level export of @types/vscode, about 200): a
// bundle that copies the module's names per importing module pays for each, as it does in the
// extension host; 26 names would hide that. Other benches bundle this file into a temp dir,
// where the declarations are not found and the names are not needed (activate-child.cjs, which
// times activation, requires it in place and checks the count).
const DTS = path.join(__dirname, '../../node_modules/@types/vscode/index.d.ts');
const fs = require('node:fs');
for (const [, name] of (fs.existsSync(DTS) ? fs.readFileSync(DTS, 'utf8') : '').matchAll(/^\texport (?:class|enum|namespace|function|const|let|var) (\w+)/gm)) {
  if (!(name in vscode)) vscode[name] = base[name];
}
vscode.workspace = new Proxy({}, {
  get(_t, key) {
    if (key === 'getConfiguration') return () => configuration;
    if (key === 'isTrusted') return true;
    if (key === 'workspaceFolders') return undefined;
    return base.workspace[key];
  },
});
module.exports = vscode;
