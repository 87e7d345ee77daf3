// Every dialect the host speaks, by name. A third protocol is one new file and one line here.
// Each dialect's module is required when a worker of it first starts, not when the core loads:
// building its zod schemas took 10-20 ms of the extension host's thread per dialect (a bundle
// runs a module required this way on that first require).
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
