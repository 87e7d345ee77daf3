// The arrows along the event log's toolbars (the filter chips, the composer's buttons): a screen
// reader says "toolbar", and its users move along one with the arrow keys.
import * as assert from 'node:assert/strict';
import { toolbarTarget } from '../../src/webview/toolbarKeys';

describe('ui event log toolbars by the arrow keys', () => {
  const all = [true, true, true, true];

  it('Right and Left move to the next and previous control, round the ends', () => {
    assert.equal(toolbarTarget('ArrowRight', 0, all), 1);
    assert.equal(toolbarTarget('ArrowLeft', 2, all), 1);
    assert.equal(toolbarTarget('ArrowRight', 3, all), 0);
    assert.equal(toolbarTarget('ArrowLeft', 0, all), 3);
  });

  it('Home and End go to the first and the last control that can take the focus', () => {
    assert.equal(toolbarTarget('Home', 2, all), 0);
    assert.equal(toolbarTarget('End', 0, all), 3);
    assert.equal(toolbarTarget('Home', 2, [false, true, true, false]), 1);
    assert.equal(toolbarTarget('End', 1, [false, true, true, false]), 2);
  });

  it('greyed-out buttons are skipped (the composer\'s Follow-up and Abort while idle)', () => {
    // Send, Follow-up, Redirect, Abort, Compact, Stop, idle.
    const idle = [true, false, true, false, true, true];
    assert.equal(toolbarTarget('ArrowRight', 0, idle), 2);
    assert.equal(toolbarTarget('ArrowRight', 2, idle), 4);
    assert.equal(toolbarTarget('ArrowLeft', 0, idle), 5);
    assert.equal(toolbarTarget('ArrowRight', 0, [true, false, false]), null, 'nowhere else to go');
  });

  it('other keys are not the toolbar\'s: Tab, Enter, Space, Up and Down do what they did', () => {
    for (const key of ['Tab', 'Enter', ' ', 'ArrowUp', 'ArrowDown', 'a']) assert.equal(toolbarTarget(key, 1, all), null, key);
  });
});
