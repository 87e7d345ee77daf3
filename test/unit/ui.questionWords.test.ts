// A permission question shows what it is about and how to put it aside, both at once: the command
// (or the files changed) took the placeholder, where the only word on Escape was.
import assert from 'node:assert/strict';
import { ASIDE_HINT, questionWords } from '../../src/ui/host/questionWords';

describe('UI permission question: its words', () => {
  it('a question with a command shows the command and still says that Escape puts it aside', () => {
    const w = questionWords({ title: 'Run shell command', command: 'npm test' }, 'gemini', '');
    assert.equal(w.placeholder, '$ npm test');
    assert.ok(w.title.includes('gemini asks: Run shell command'));
    assert.ok(w.title.includes(ASIDE_HINT) || w.placeholder.includes(ASIDE_HINT), 'the Escape hint is shown');
  });

  it('a question with changes shows the files, and the hint', () => {
    const w = questionWords({ title: 'Edit', command: null }, 'claude', 'src/a.ts, src/b.ts');
    assert.equal(w.placeholder, 'Changes src/a.ts, src/b.ts');
    assert.ok(w.title.includes(ASIDE_HINT));
  });

  it('a question about nothing shown says to pick an answer, and the hint, once', () => {
    const w = questionWords({ title: 'Fetch', command: null }, 'codex', '');
    assert.equal(w.placeholder, 'Pick an answer');
    assert.equal(`${w.title} ${w.placeholder}`.split('Escape').length - 1, 1);
  });
});
