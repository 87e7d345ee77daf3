// The verbs' arguments, checked where they enter the core (zod at the boundary): a script in
// plain JavaScript (dist/core.js) or another extension (the VS Code API) that passes a number for
// a model, or a typo for a streaming behaviour, is answered `error` naming the field, not with a
// TypeError's words (or a throw), nor has it sent on to the worker.
import * as z from 'zod/mini';
import { lazySchema } from '../protocol/lazySchema';
import { nonEmptyText, provenanceFields } from '../protocol/shapes';

const text = (what: string) => z.string({ error: `${what} must be a string` });
// Built on first use, not when the extension loads (activation time).
export const provenanceArg = lazySchema(() => z.optional(z.looseObject(provenanceFields(true), { error: 'the provenance must be an object' })));
export const promptArg = lazySchema(() => z.optional(z.looseObject({
  ...provenanceFields(true),
  streamingBehavior: z.optional(z.enum(['steer', 'followUp'], { error: 'streamingBehavior must be "steer" or "followUp"' })),
}, { error: 'the options must be an object' })));
export const compactArg = lazySchema(() => z.optional(z.looseObject({ instructions: z.optional(text('instructions')) }, { error: 'the options must be an object' })));
export const forkArg = lazySchema(() => z.optional(z.looseObject({ entryId: z.optional(text('entryId')) }, { error: 'the options must be an object' })));
const nonEmpty = (what: string) => lazySchema(() => nonEmptyText(`${what} must not be empty`, `${what} must be a string`));
export const modelArg = nonEmpty('the model');
export const modeArg = nonEmpty('the mode');
export const pathArg = lazySchema(() => z.optional(text('the output path')));
export const messageArg = lazySchema(() => text('the message'));

/** Why `value` is refused, or null when `schema` takes it. */
export function refusal(schema: { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ message: string }> } } }, value: unknown): string | null {
  const r = schema.safeParse(value);
  return r.success ? null : `invalid argument: ${r.error?.issues[0]?.message ?? 'not accepted'}`;
}
