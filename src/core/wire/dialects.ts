// Every dialect the host speaks, by name. A third protocol is one new file and one getter here.
// Each dialect's module is required when a worker of it first starts, not when the core loads:
// building its zod schemas held the extension host's thread 3-9 ms per dialect, the core loaded
// from its code cache (a bundle runs a module required this way at that first require).
import type { DialectName } from '../api';
import type { Dialect } from './dialect';

/* eslint-disable @typescript-eslint/no-require-imports -- on first use, see above */
export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  get pi() {
    return (require('./pi') as typeof import('./pi')).piDialect;
  },
  get tau() {
    return (require('./tau') as typeof import('./tau')).tauDialect;
  },
  get acp() {
    return (require('./acp') as typeof import('./acp')).acpDialect;
  },
};
