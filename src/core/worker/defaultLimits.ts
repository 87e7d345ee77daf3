// The host's default limits, the one copy. A leaf that imports nothing, so the extension's
// activation bundle (ui/host/lazySupervisor.ts, ui/settings/settings.ts) takes these numbers without the
// core; package.json's settings declare the same defaults (test/unit/ui.settings.test.ts compares them).
export const DEFAULT_LIMITS = Object.freeze({
  // Each of the five ACP agents, pi and τ at once (each a few hundred MB): a guard against a
  // runaway script, not a budget a person meets steering their agents.
  maxWorkers: 8,
  maxPromptBytes: 32 * 1024,
  commandTimeoutMs: 30_000,
  settleTimeoutMs: 60_000,
  killGraceMs: 2_000,
  maxLineBytes: 64 * 1024 * 1024,
  ringLines: 200,
  eventStoreSize: 10_000,
  resyncMs: 2_000,
  // A write of no bytes per worker: nothing to its cost; found deaf within this and the grace after (0.5 s).
  inputProbeMs: 2_000,
});
