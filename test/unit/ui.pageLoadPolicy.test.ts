// The event log page's load policy alone, on a clock the test turns: when a page that could not
// load is given its page again, when a silent page counts as failed, and when it is given up on.
import * as assert from 'node:assert/strict';
import { BUSY_HOST, FAILURES_WINDOW_MS, PageLoadPolicy, RELOAD_DELAY_MS, SILENT_WAIT_MS, START_RELOADS, type PageLoadClock } from '../../src/ui/eventLog/pageLoadPolicy';
import { TurnedClock } from '../fixtures/turnedClock';

class FakeClock extends TurnedClock implements PageLoadClock {
  busy = 0;
  constructor() {
    super(1_000_000);
  }
  busySince = () => () => this.busy;
}

function setup(visible = true) {
  const clock = new FakeClock();
  const seen = { reloads: 0, warnings: [] as string[], told: [] as string[], visible };
  const policy = new PageLoadPolicy(
    {
      visible: () => seen.visible,
      reload: () => {
        seen.reloads++;
      },
      warn: (m) => seen.warnings.push(m),
      giveUp: (m) => seen.told.push(m),
      who: () => ' for Demo',
      howAgain: () => 'Close its tab and open it again',
    },
    clock,
  );
  return { clock, seen, policy };
}

describe('ui event log page-load policy', () => {
  it('a page that could not load is given its page again START_RELOADS times, each wait twice the last, then given up and the person told once', () => {
    const { clock, seen, policy } = setup();
    const waits: number[] = [];
    for (let i = 0; i < START_RELOADS; i++) {
      policy.failed('media/eventLog.css');
      waits.push(...clock.pending);
      clock.advance(clock.pending[0]);
      assert.equal(seen.reloads, i + 1);
    }
    assert.deepEqual(waits, [RELOAD_DELAY_MS, RELOAD_DELAY_MS * 2, RELOAD_DELAY_MS * 4, RELOAD_DELAY_MS * 8]);
    assert.equal(policy.gaveUp, false);
    policy.failed('media/eventLog.css');
    assert.equal(policy.gaveUp, true);
    assert.deepEqual(clock.pending, [], 'a reload after giving up');
    assert.equal(seen.told.length, 1);
    assert.match(seen.told[0], /^The event log for Demo could not load its page \(media\/eventLog\.css\) after 5 tries\. Close its tab and open it again\.$/);
    policy.failed('media/eventLog.css');
    assert.equal(seen.told.length, 1, 'told twice');
    assert.equal(seen.reloads, START_RELOADS);
  });

  it('a failure said while a reload waits is the same failure: one reload', () => {
    const { clock, seen, policy } = setup();
    policy.failed('dist/webview.js');
    policy.failed('media/eventLog.css');
    assert.equal(clock.pending.length, 1);
    assert.equal(policy.reloadPending, true);
    clock.advance(RELOAD_DELAY_MS);
    assert.equal(seen.reloads, 1);
    assert.equal(policy.reloadPending, false);
    assert.equal(policy.reloadCount, 1);
  });

  it('failures further apart than FAILURES_WINDOW_MS are counted afresh, and a page given up on is tried again', () => {
    const { clock, seen, policy } = setup();
    for (let i = 0; i <= START_RELOADS; i++) {
      policy.failed('x');
      clock.advance(RELOAD_DELAY_MS * 2 ** i);
    }
    assert.equal(policy.gaveUp, true);
    clock.advance(FAILURES_WINDOW_MS + 1);
    policy.failed('x');
    assert.equal(policy.gaveUp, false);
    assert.deepEqual(clock.pending, [RELOAD_DELAY_MS], 'the first wait again');
    clock.advance(RELOAD_DELAY_MS);
    assert.equal(seen.reloads, START_RELOADS + 1);
  });

  it('a page on screen that says nothing for SILENT_WAIT_MS counts as failed; one that spoke, or is off screen, is not waited for', () => {
    const { clock, seen, policy } = setup();
    assert.equal(policy.watch(), true);
    assert.equal(policy.watch(), false, 'waited for twice');
    clock.advance(SILENT_WAIT_MS - 1);
    assert.equal(seen.warnings.length, 0);
    clock.advance(1);
    assert.match(seen.warnings[0], /could not load its page: nothing of it ran; loading it again in 250 ms/);
    clock.advance(RELOAD_DELAY_MS);
    assert.equal(seen.reloads, 1);

    const heard = setup();
    heard.policy.watch();
    heard.policy.heardFromPage();
    heard.clock.advance(SILENT_WAIT_MS * 2);
    assert.deepEqual(heard.seen.warnings, []);
    assert.equal(heard.policy.watch(), false, 'a page that spoke is waited for');
    heard.policy.unloaded();
    assert.equal(heard.policy.watch(), true, 'a page loaded again is not waited for');

    const hidden = setup(false);
    assert.equal(hidden.policy.watch(), false);
    const hiddenLater = setup();
    hiddenLater.policy.watch();
    hiddenLater.seen.visible = false;
    hiddenLater.clock.advance(SILENT_WAIT_MS);
    assert.deepEqual(hiddenLater.seen.warnings, [], 'a page that went off screen counted as failed');
  });

  // Seen in code-server: the page's first word came 4.2 s after its load, while the workbench and
  // an agent were starting; the reload 250 ms later threw away the page being typed into.
  it('a page that speaks while the reload for its silence waits is running: that reload is called off; a failure it says is not', () => {
    const { clock, seen, policy } = setup();
    policy.watch();
    clock.advance(SILENT_WAIT_MS);
    assert.equal(seen.warnings.length, 1);
    policy.heardFromPage();
    clock.advance(RELOAD_DELAY_MS * 4);
    assert.equal(seen.reloads, 0, 'the living page was loaded again');
    assert.match(seen.warnings[1], /spoke after all: not loaded again/);
    // A page that says its files failed is loaded again whatever it says next.
    policy.heardFromPage();
    policy.failed('its script');
    policy.heardFromPage();
    clock.advance(RELOAD_DELAY_MS);
    assert.equal(seen.reloads, 1);
  });

  it('a silence while the extension host was busy starts the wait again instead of failing the page', () => {
    const { clock, seen, policy } = setup();
    clock.busy = BUSY_HOST + 0.1;
    policy.watch();
    clock.advance(SILENT_WAIT_MS * 3);
    assert.deepEqual(seen.warnings, []);
    assert.deepEqual(clock.pending, [SILENT_WAIT_MS], 'no wait again');
    clock.busy = BUSY_HOST;
    clock.advance(SILENT_WAIT_MS);
    assert.equal(seen.warnings.length, 1);
  });

  it('disposed, it reloads nothing', () => {
    const { clock, seen, policy } = setup();
    policy.failed('x');
    policy.watch();
    policy.dispose();
    clock.advance(SILENT_WAIT_MS * 2);
    assert.equal(seen.reloads, 0);
    assert.deepEqual(seen.warnings.length, 1);
  });
});
