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
}

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
