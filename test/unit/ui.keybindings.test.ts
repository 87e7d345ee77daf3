// The extension's keybindings (package.json) against VS Code's own defaults in the same place:
// an extension's keybinding wins over a built-in one, so one that clashes takes the built-in away.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
  contributes: { keybindings: Array<{ command: string; key: string; mac?: string; when?: string }> };
};

/** Evaluates a `when` clause of context keys with `!`, `&&`, `||` and parentheses. */
function holds(when: string | undefined, ctx: Record<string, boolean>): boolean {
  if (!when) return true;
  const tokens = when.match(/\(|\)|&&|\|\||!|[\w.]+/g) ?? [];
  let i = 0;
  const or = (): boolean => {
    let v = and();
    while (tokens[i] === '||') { i++; v = and() || v; }
    return v;
  };
  const and = (): boolean => {
    let v = not();
    while (tokens[i] === '&&') { i++; v = not() && v; }
    return v;
  };
  const not = (): boolean => {
    const t = tokens[i++];
    if (t === '!') return !not();
    if (t === '(') { const v = or(); assert.equal(tokens[i++], ')', `unbalanced: ${when}`); return v; }
    assert.ok(t && /^[\w.]+$/.test(t), `a when term this test does not read: ${t}`);
    return ctx[t] === true;
  };
  const v = or();
  assert.equal(i, tokens.length, `a when clause this test does not read: ${when}`);
  return v;
}

/** The extension's command that `key` runs on this platform in this context, if any. */
function boundTo(key: string, mac: boolean, ctx: Record<string, boolean>): string | undefined {
  return pkg.contributes.keybindings.find((k) => (mac ? k.mac ?? k.key : k.key) === key && holds(k.when, { ...ctx, isMac: mac }))?.command;
}

describe('keybindings', () => {
  it("on a Mac, Cmd+Alt+R in an editor whose find widget is open is VS Code's Toggle Regex, not Redirect with Selection", () => {
    assert.equal(boundTo('cmd+alt+r', true, { editorTextFocus: true, editorFocus: true, findWidgetVisible: true }), undefined);
  });

  it('Redirect with Selection stays on Ctrl+Alt+R (Cmd+Alt+R on a Mac) in an editor otherwise', () => {
    const editor = { editorTextFocus: true, editorFocus: true };
    assert.equal(boundTo('cmd+alt+r', true, { ...editor, findWidgetVisible: false }), 'rpcWorkers.redirectWithSelection');
    // Elsewhere Alt+R toggles the regex: Ctrl+Alt+R takes nothing from the find widget.
    assert.equal(boundTo('ctrl+alt+r', false, { ...editor, findWidgetVisible: true }), 'rpcWorkers.redirectWithSelection');
    assert.equal(boundTo('ctrl+alt+r', false, { ...editor, findWidgetVisible: false }), 'rpcWorkers.redirectWithSelection');
    assert.equal(boundTo('ctrl+alt+r', false, { editorTextFocus: false }), undefined);
  });
});
