// Shapes checked at more than one boundary: the host's check of a worker's spec (core/worker/
// limits.ts), the extension API's check of another extension's arguments (ui/host/api.ts) and
// the settings (ui/settings/settings.ts). Here, not in the core, because the extension loads the
// API's and the settings' modules at activation and the core only on the first start; so this
// file imports nothing but zod/mini (whose schemas the core's full zod takes as they are), and
// holds makers only: a schema built when the module loads would be built at activation.
// Each boundary keeps its own words for a refusal; the rule is said once, here.
import * as z from 'zod/mini';

/**
 * A message's provenance (core/api's Provenance), field by field, for the caller's kind of object
 * (the API's loose argument, the spec's taskProvenance). `named`: a field of the wrong type is
 * refused in words that name it ("source must be a string"); otherwise in zod's own.
 */
export function provenanceFields(named: boolean) {
  const text = (what: string) => z.string(named ? { error: `${what} must be a string` } : undefined);
  return {
    source: z.optional(text('source')),
    submitter: z.optional(text('submitter')),
    submissionId: z.optional(text('submissionId')),
    correlation: z.optional(z.record(z.string(), z.unknown(), named ? { error: 'correlation must be an object' } : undefined)),
  };
}

/**
 * A string with something in it besides white space (a model, an ACP mode, a profile's name, a
 * path), trimmed when parsed. `empty` refuses a blank one; `notText` a value that is not a string
 * (words, or a function of the issue that says them; zod's own words without).
 */
export function nonEmptyText(empty: string, notText?: string | z.core.$ZodErrorMap<z.core.$ZodIssueInvalidType>) {
  // A refinement, not minLength: zod measures anything with a length even when it is no string,
  // so a list was refused twice ("must be a string; must not be empty").
  return z.string(notText === undefined ? undefined : { error: notText }).check(z.trim(), z.refine((s) => s.length > 0, { error: empty }));
}
