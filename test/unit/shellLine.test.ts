// A command and its arguments as the one line the person reads of it (a worker's command, an ACP
// agent's host terminal, whose VS Code terminal writes it raw after "$ "): a shell given that line
// must run the very arguments, and the line must stay one line, with no control character that a
// terminal would act on (a script's newline broke the header over lines, each reading as a command).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { shellLine } from '../../src/core/shellLine';


describe('shellLine', () => {
  const cases: string[][] = [
    ['sh', '-c', 'echo one; exit 3'],
    ['printf', "it's", ''],
    ['echo', 'héllo wörld', '日本'],
    ['sh', '-c', 'echo one\nexit 3'],
    ['printf', 'a\tb\r\n', '\x1b[31mred\x1b[0m', 'back\\slash', "q'uote"],
    // C1 controls: a terminal acts on them as on their escape forms (0x9b is CSI, "\x1b[").
    ['printf', '\x9b31mred\x9b0m', 'next\x85line', 'é\x80\x9f'],
  ];

  for (const args of cases) {
    it(`is one line bash runs as ${JSON.stringify(args)}`, () => {
      const line = shellLine(args[0]!, args.slice(1));
      // eslint-disable-next-line no-control-regex -- control characters are what it looks for
      assert.doesNotMatch(line, /[\x00-\x1f\x7f-\x9f]/, `control characters in ${JSON.stringify(line)}`);
      const ran = execFileSync('bash', ['-c', `f() { printf '%s\\0' "$@"; }; f ${line}`], { encoding: 'utf8' }).split('\0').slice(0, -1);
      assert.deepEqual(ran, args);
    });
  }

  it('leaves plain words bare', () => {
    assert.equal(shellLine('git', ['log', '--oneline', 'a/b.ts', 'x=1']), 'git log --oneline a/b.ts x=1');
    assert.equal(shellLine('sh', ['-c', 'echo one; exit 3']), "sh -c 'echo one; exit 3'");
  });
});
