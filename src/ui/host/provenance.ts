// Who started a turn: every path into the host names its source and submitter, and gets its
// own submission id, so the event log can say who submitted each turn.
import type { Provenance } from '../../core/api';
import type { Source } from '../../protocol/words';

export function provenance(source: Source | string, submitter = 'user', correlation?: Record<string, unknown>): Provenance {
  return {
    source,
    submitter,
    // The global Web Crypto: importing node:crypto at load costs activation ~2 ms.
    submissionId: `sub-${globalThis.crypto.randomUUID().slice(0, 12)}`,
    correlation: { via: 'rpc-workers', ...(correlation ?? {}) },
  };
}
