// Mocha reporter for the plain-Node suite: mocha's own `spec` output on the terminal, plus the
// totals as JSON in $RPC_WORKERS_STATS_FILE when that is set (scripts/test.mjs reads it), with
// each failure's title and first message line: CI keeps only the run's tail, where the summary
// names them.
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

/** `Suite test: first line of the message`, as the summary prints it. */
function failureLine(test, err) {
  const title = typeof test.fullTitle === 'function' ? test.fullTitle() : String(test.title);
  const message = String((err && err.message) || err || '').split('\n')[0].slice(0, 300);
  return message ? `${title}: ${message}` : title;
}

class TotalsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failures = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, err) => failures.push(failureLine(test, err)));
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.RPC_WORKERS_STATS_FILE;
      if (!file) return;
      const s = runner.stats || {};
      fs.writeFileSync(file, JSON.stringify({ suite: 'unit', passed: s.passes || 0, failed: s.failures || 0, pending: s.pending || 0, failures }));
    });
  }
}

module.exports = TotalsReporter;
module.exports.failureLine = failureLine;
