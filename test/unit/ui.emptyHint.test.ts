// The event log with no worker to show: what it tells the person to do, and, in a workspace
// that forbids starting one, why not and how to allow it.
import * as assert from 'node:assert/strict';
import { parseHostMessage } from '../../src/protocol/hostMessages';
import { emptyLogHint } from '../../src/webview/emptyHint';

describe('ui event log empty hint', () => {
  it('says how to start a worker where one may start', () => {
    assert.match(emptyLogHint(false), /^No worker selected\. Start one from the Sessions view or the Command Palette/);
  });

  it('in an untrusted workspace says why none starts and how to trust the workspace, not to start one', () => {
    const hint = emptyLogHint(true);
    assert.doesNotMatch(hint, /Start one/);
    assert.match(hint, /not trusted/);
    assert.match(hint, /"Workspaces: Manage Workspace Trust"/);
  });

  it('the page is told the workspace is untrusted with its list of workers', () => {
    const parsed = parseHostMessage({ type: 'workers', workers: [], selected: null, untrusted: true });
    assert.ok(parsed.success);
    assert.deepEqual(parsed.data, { type: 'workers', workers: [], selected: null, untrusted: true });
  });
});
