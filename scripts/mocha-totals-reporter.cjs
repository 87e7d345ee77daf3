// Mocha reporter for the plain-Node suite: mocha's own `spec` output on the terminal, plus the
// totals as JSON in $RPC_WORKERS_STATS_FILE when that is set (scripts/test.mjs reads it).
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class TotalsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.RPC_WORKERS_STATS_FILE;
      if (!file) return;
      const s = runner.stats || {};
      fs.writeFileSync(file, JSON.stringify({ suite: 'unit', passed: s.passes || 0, failed: s.failures || 0, pending: s.pending || 0 }));
    });
  }
}

module.exports = TotalsReporter;
