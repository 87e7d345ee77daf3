// Every dialect the host speaks, by name. A third protocol is one new file and one line here.
import type { DialectName } from '../api';
import type { Dialect } from './dialect';
import { acpDialect } from './acp';
import { piDialect } from './pi';
import { tauDialect } from './tau';

export const DIALECTS: Record<DialectName, Dialect> = { pi: piDialect, tau: tauDialect, acp: acpDialect };
