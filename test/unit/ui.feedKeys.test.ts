// The event log as a WAI-ARIA feed, its pure part: the one row in the Tab order (roving tabindex),
// where Page Down / Page Up and Ctrl+End / Ctrl+Home go, and where the focus goes when its row leaves.
import * as assert from 'node:assert/strict';
import { feedKey, feedTarget, focusHeir, olderRows, tabStop } from '../../src/webview/feedKeys';

const none = { ctrlKey: false, metaKey: false, altKey: false, shiftKey: false };

describe('ui event log feed keys', () => {
  it('Page Down and Page Up move between rows; Ctrl+End and Ctrl+Home (Cmd on a Mac) leave the feed', () => {
    assert.equal(feedKey('PageDown', none), 'next');
    assert.equal(feedKey('PageUp', none), 'previous');
    assert.equal(feedKey('End', { ...none, ctrlKey: true }), 'after');
    assert.equal(feedKey('Home', { ...none, ctrlKey: true }), 'before');
    assert.equal(feedKey('End', { ...none, metaKey: true }), 'after');
  });

  it('other keys are left alone: the arrows, Home and End still scroll the log; Shift and Alt variants are VS Code\'s', () => {
    for (const key of ['ArrowDown', 'ArrowUp', 'Home', 'End', 'Tab', 'Enter', ' ']) assert.equal(feedKey(key, none), null, key);
    assert.equal(feedKey('PageDown', { ...none, shiftKey: true }), null);
    assert.equal(feedKey('PageDown', { ...none, ctrlKey: true }), null, 'Ctrl+PageDown switches editor tabs');
    assert.equal(feedKey('End', { ...none, ctrlKey: true, shiftKey: true }), null);
    assert.equal(feedKey('PageUp', { ...none, altKey: true }), null);
  });

  it('the next and previous row stop at either end of the feed', () => {
    assert.equal(feedTarget('next', 0, 3), 1);
    assert.equal(feedTarget('next', 2, 3), 2);
    assert.equal(feedTarget('previous', 2, 3), 1);
    assert.equal(feedTarget('previous', 0, 3), 0);
    assert.equal(feedTarget('next', 0, 0), -1, 'no row');
  });

  it('Page Up on the oldest row drawn loads more, as the feed pattern asks: rows waiting above, then Show more, then Load older; none: it stays', () => {
    const at = { waitingAbove: 0, showMore: false, loadOlder: false };
    assert.equal(olderRows({ ...at, waitingAbove: 3, showMore: true }), 'waiting', 'rows kept above are built first');
    assert.equal(olderRows({ ...at, showMore: true, loadOlder: true }), 'showMore', 'the rows the page holds before the history\'s');
    assert.equal(olderRows({ ...at, loadOlder: true }), 'loadOlder');
    assert.equal(olderRows(at), null, 'the oldest entry there is');
  });

  it('the Tab stop is the row last focused while it is drawn, else the newest', () => {
    assert.equal(tabStop([4, 5, 6], null), 2);
    assert.equal(tabStop([4, 5, 6], 5), 1);
    assert.equal(tabStop([7, 8, 9], 5), 2, 'the row focused was trimmed away: the newest');
    assert.equal(tabStop([], 5), -1);
  });

  it('the focus of a row that left goes to the row that took its place, else the newest, else nowhere', () => {
    assert.equal(focusHeir([7, 8, 9], 5), 0, 'trimmed from the top: the oldest row left');
    assert.equal(focusHeir([4, 6, 9], 5), 1, 'no longer matching: the next row');
    assert.equal(focusHeir([1, 2, 3], 5), 2, 'the newest went: the newest left');
    assert.equal(focusHeir([], 5), -1);
  });
});
