// A reply's HTML in the Markdown export: shown as the text the agent wrote, not handed to the
// viewer as HTML, while the reply's own Markdown (code, lists, emphasis) still renders.
import assert from 'node:assert/strict';
import { marked } from 'marked';
import type { AgentEvent } from '../../src/core/events/agentEvent';
import { sessionMarkdown } from '../../src/core/export/markdown';

const T = Date.UTC(2026, 11, 3, 7, 0, 0);
const ev = (type: string, extra: Partial<AgentEvent> = {}): AgentEvent => ({ type, timestamp: T, ...extra });

/** The export of one turn whose reply is `reply`. */
const exported = (reply: string) => sessionMarkdown([ev('prompt_sent', { data: { text: 'go' } }), ev('message_update', { delta: reply, block_type: 'text' }), ev('agent_settled', { end_reason: 'done' })], { title: 'w' });

/** The export as a Markdown viewer draws it (marked: CommonMark and GitHub's extensions). */
const rendered = (md: string) => marked.parse(md, { async: false });

describe('Markdown export of a reply that holds HTML', () => {
  it('an unclosed <details> is shown, and folds nothing after it', () => {
    const md = exported('Use a <details> block for the log.\n\nThen *rerun* it.');
    const html = rendered(md);
    assert.doesNotMatch(html, /<details>/, html);
    assert.match(html, /Use a &lt;details&gt; block for the log\./);
    assert.match(html, /Then <em>rerun<\/em> it\./, 'the reply\'s emphasis still renders');
    assert.match(html, /Turn ended: done/);
  });

  it('a <script> and an <img onerror> are text, not HTML', () => {
    const html = rendered(exported('Run <script>alert(1)</script> and <img src=x onerror=alert(2)>, or <!-- this -->.'));
    assert.doesNotMatch(html, /<script|<img|<!--/, html);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;!-- this --&gt;/);
  });

  it('an entity is shown as the agent wrote it: &lt; stays &lt;, not <', () => {
    assert.match(rendered(exported('Write &lt; as &amp;lt; in HTML.')), /Write &amp;lt; as &amp;amp;lt; in HTML\./);
  });

  it('leaves code blocks, inline code, lists and escaped characters as they are', () => {
    const reply = [
      'Two changes:',
      '',
      '1. the `<div>` wraps it',
      '2. a ``<span>` `` too, and \\<b> stays escaped',
      '',
      '```html',
      '<div class="a">&amp;</div>',
      '```',
      '',
      '- inside a list:',
      '',
      '    ```',
      '    <p>x</p>',
      '    ```',
    ].join('\n');
    const md = exported(reply);
    assert.ok(md.includes('```html\n<div class="a">&amp;</div>\n```'), `the fenced block is as it was:\n${md}`);
    assert.ok(md.includes('    ```\n    <p>x</p>\n    ```'), `a list's fenced block too:\n${md}`);
    assert.ok(md.includes('1. the `<div>` wraps it'), `inline code is as it was:\n${md}`);
    assert.ok(md.includes('2. a ``<span>` `` too, and \\<b> stays escaped'), `a longer code span and an escaped < too:\n${md}`);
    const html = rendered(md);
    assert.match(html, /<ol>\s*<li>the <code>&lt;div&gt;<\/code> wraps it<\/li>/, html);
    assert.match(html, /<code class="language-html">&lt;div class=&quot;a&quot;&gt;&amp;amp;&lt;\/div&gt;\n<\/code>/);
  });
});
