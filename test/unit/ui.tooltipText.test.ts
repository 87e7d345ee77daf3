// A tooltip's text from a worker (an error, a path) wraps in the hover: MarkdownString.appendText
// escapes it but writes every space as &nbsp;, so a long error ran off the hover's right edge
// behind a scroll bar (Claude's key advice after its refused first prompt could not be read).
import * as assert from 'node:assert/strict';
import { breakableSpaces } from '../../src/ui/views/tooltipText';

// What VS Code's appendText makes of text (src/vs/base/common/htmlContent.ts): markup escaped,
// each space and tab one &nbsp;, a line break a paragraph.
const appendText = (t: string) => t.replace(/[\\`*_{}[\]()#+\-!~]/g, '\\$&').replace(/([ \t]+)/g, (m) => '&nbsp;'.repeat(m.length)).replace(/>/g, '\\>').replace(/\n/g, '\n\n');

describe('ui tooltip text', () => {
  it('the spaces between words may break: an error wraps instead of running off the hover', () => {
    const said = breakableSpaces(appendText('Claude Agent needs a login (-32000). For Claude: set ANTHROPIC_API_KEY'));
    assert.equal(said, 'Claude Agent needs a login \\(\\-32000\\). For Claude: set ANTHROPIC\\_API\\_KEY');
  });
  it("a line's first run of spaces is kept as it was, so no text turns into a code block or a list", () => {
    assert.equal(breakableSpaces(appendText('    indented still\n1. not a list')), '&nbsp;&nbsp;&nbsp;&nbsp;indented still\n\n1.&nbsp;not a list');
  });
});
