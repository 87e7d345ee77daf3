// What is kept to resume a session after a reload: the spec the worker was started with (less
// what must not be stored or repeated) and the conversation the worker named. Read back through
// zod: workspace state written by another version is data, not trust.
import * as z from 'zod/mini';
import { lazySchema } from '../../protocol/lazySchema';
import type { SessionRef, WorkerSpec } from '../../core/api';
import { DIALECT_NAMES } from '../../core/dialectName';

// Built on first read (lazySchema), not when the extension loads: activation time (issue 24).
const resumeRecordSchema = () => z.object({
  spec: z.looseObject({
    dialect: z.enum(DIALECT_NAMES),
    command: z.string().check(z.minLength(1)),
    cwd: z.string().check(z.minLength(1)),
    args: z.optional(z.array(z.string())),
    env: z.optional(z.record(z.string(), z.string())),
    name: z.optional(z.string()),
    model: z.optional(z.string()),
    sessionDir: z.optional(z.string()),
  }),
  session: z.object({ id: z.nullable(z.string()), file: z.nullable(z.string()) }),
  /** The history session this one resumed, so its log can show the earlier events first. */
  previous: z.nullable(z.string()),
  /** The history session that resumed this one (the tree says so, and auto-resume skips it). */
  resumedInto: z.nullable(z.string()),
  at: z.number(),
  /** The digest of the env the worker was started with (see envDigest); absent in older records. */
  envDigest: z.optional(z.string()),
  /** The profile whose env a resume takes: the first start's name (a resume runs under the session's name). */
  profile: z.optional(z.string()),
});
export const resumeRecordsSchema = lazySchema(() => z.record(z.string(), resumeRecordSchema()));
/** The sessions a window's end interrupted (see PastSessions.markRunningInterrupted). */
export const interruptedSchema = lazySchema(() => z.object({ sessions: z.array(z.string()) }));
export interface ResumeRecord {
  spec: WorkerSpec;
  session: SessionRef;
  previous: string | null;
  resumedInto: string | null;
  at: number;
  envDigest?: string;
  profile?: string;
}

/** The name of the profile whose env resumes `record` (older records: the name it was started under). */
export const profileOf = (record: ResumeRecord): string | undefined => record.profile ?? record.spec.name;

/**
 * Environment values are not stored (a profile's env may hold keys; workspace state is a plain
 * file): a resume takes them from the profile of the same name again. Only the demo's runtime
 * switch, which is no secret and has no profile, is kept. No task: a resume does not repeat it.
 */
const KEPT_ENV = new Set(['ELECTRON_RUN_AS_NODE']);

export function storableSpec(spec: WorkerSpec): WorkerSpec {
  const { task: _task, taskProvenance: _p, resume: _r, env, ...rest } = spec;
  const kept = Object.fromEntries(Object.entries(env ?? {}).filter(([k]) => KEPT_ENV.has(k)));
  const out = JSON.parse(JSON.stringify(rest)) as WorkerSpec;
  return Object.keys(kept).length ? { ...out, env: kept } : out;
}

/** The spec that resumes `record`, with the env of the profile it was started from when there is one. */
export function resumeSpec(record: ResumeRecord, profileEnv: Record<string, string> | undefined): WorkerSpec {
  const env = { ...(profileEnv ?? {}), ...(record.spec.env ?? {}) };
  return { ...record.spec, ...(Object.keys(env).length ? { env } : {}), resume: record.session };
}

// node:crypto on the first digest (a worker's start), not when the extension loads (activation time).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose, see above
const sha256 = (text: string) => (require('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(text).digest('hex');

/** The profile's part of an env (the kept runtime switch left out), in a stable order. */
function profilePart(env: Record<string, string> | undefined): [string, string][] {
  return Object.entries(env ?? {}).filter(([k]) => !KEPT_ENV.has(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * What identifies the env a worker was started with, without keeping its values (they may be
 * keys): a resume compares it with the profile's env of now.
 */
export function envDigest(env: Record<string, string> | undefined): string {
  return sha256(JSON.stringify(profilePart(env)));
}

/**
 * True when a resume would give the worker an env the person did not start it with: the profile
 * is read from settings a worker can write (.vscode/settings.json), so its env may have changed
 * since, by the worker itself (NODE_OPTIONS, PATH: a program of its choosing). A resume with no
 * env from the profile adds nothing; a record of an older version, which kept no digest, cannot
 * tell and says changed.
 */
export function resumeEnvChanged(record: ResumeRecord, profileEnv: Record<string, string> | undefined): boolean {
  if (profilePart(profileEnv).length === 0) return false;
  return record.envDigest !== envDigest(profileEnv);
}
