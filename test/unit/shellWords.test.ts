// The two ways a word is said for a shell, pinned: shellQuote (a command the person reads: a
// worker's, a host terminal's) and the login line an ACP agent names (acpState.ts), which the
// person's own terminal runs in whatever shell it has. They share the safe word and the single
// quotes; a control character splits them on purpose: shellQuote says it in bash's $'…', which a
// POSIX sh need not read, so the login line keeps it inside single quotes.
import { strict as assert } from 'node:assert';
import { shellQuote } from '../../src/core/shellLine';
import { AcpState } from '../../src/core/wire/acpState';

/** [word, as shellQuote says it, as the login line says it]. */
const WORDS: Array<[string, string, string]> = [
  ['login', 'login', 'login'],
  ['', "''", "''"],
  [' ', "' '", "' '"],
  ['a b', "'a b'", "'a b'"],
  ["it's", "'it'\\''s'", "'it'\\''s'"],
  ["'", "''\\'''", "''\\'''"],
  ['"q"', '\'"q"\'', '\'"q"\''],
  ['a\nb', "$'a\\nb'", "'a\nb'"],
  ['tab\there', "$'tab\\there'", "'tab\there'"],
  ['\x1b[31m', "$'\\x1b[31m'", "'\x1b[31m'"],
  ['\x7f', "$'\\x7f'", "'\x7f'"],
  ['\x9bx', "$'\\xc2\\x9bx'", "'\x9bx'"],
  ['é', "'é'", "'é'"],
  ['日本', "'日本'", "'日本'"],
  ['x=1', 'x=1', 'x=1'],
  ['--flag', '--flag', '--flag'],
  ['@a%b+c,d:e/f.g', '@a%b+c,d:e/f.g', '@a%b+c,d:e/f.g'],
  ['$HOME', "'$HOME'", "'$HOME'"],
  ['a\\b', "'a\\b'", "'a\\b'"],
  ['*', "'*'", "'*'"],
  ['~', "'~'", "'~'"],
  ['!', "'!'", "'!'"],
];

/** The login line an agent naming `agent <word>` as its terminal login gets. */
function loginLine(word: string): string | undefined {
  const state = Object.assign(new AcpState(), { authMethods: [{ id: 'x', name: 'X', _meta: { 'terminal-auth': { command: 'agent', args: [word] } } }] });
  return state.loginCommand()?.line;
}

describe('shell words: a command line and a login line say each word as pinned', () => {
  for (const [word, quoted, login] of WORDS) {
    it(`${JSON.stringify(word)}`, () => {
      assert.equal(shellQuote(word), quoted);
      assert.equal(loginLine(word), `agent ${login}`);
    });
  }
});
