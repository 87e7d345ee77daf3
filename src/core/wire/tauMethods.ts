// τ's methods as this host calls them, in one table: each method's params and the schema its
// answer is read by. Every answer object is loose: τ adds fields freely and a client must
// tolerate them. What τ itself offers is learned at start (get_capabilities, see tau.ts).
import { z } from 'zod';
import { method } from './requests';

const nullableString = z.string().nullable().optional();
const modelSchema = z.looseObject({ id: z.string().optional(), provider: z.string().optional() });

const capabilitiesSchema = z.looseObject({
  protocol_version: z.string().regex(/^\d+\.\d+$/),
  dialect: z.string().optional(),
  commands: z.array(z.looseObject({ name: z.string() })).optional(),
  events: z.array(z.string()).optional(),
  limits: z.looseObject({ max_request_line_bytes: z.number().int().positive().optional() }).optional(),
});
const stateSchema = z.looseObject({
  session_id: z.string().nullable().optional(),
  is_streaming: z.boolean().optional(),
  /** Whether the session is persisted where list_sessions finds it. */
  addressable: z.boolean().optional(),
  model: modelSchema.nullable().optional(),
});
const promptAckSchema = z.looseObject({ accepted: z.boolean(), submission_id: z.string().nullable().optional(), rejection_reason: nullableString });
const abortSchema = z.looseObject({ status: z.string(), compaction_id: z.string().nullable().optional() });
const messagesSchema = z.looseObject({ messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })) });
const compactAckSchema = z.looseObject({ accepted: z.boolean(), compaction_id: z.string() });

const fieldSchema = z.looseObject({
  name: z.string(), kind: z.string(), label: z.string().nullable().optional(),
  options: z.array(z.string()).nullable().optional(), required: z.boolean().optional(),
});
export const requestSchema = z.looseObject({
  entry_id: z.string(),
  extension: z.string(),
  sentence: z.string(),
  label: z.string(),
  lock: z.boolean(),
  ask: z.looseObject({
    title: z.string(),
    body: z.looseObject({ kind: z.string(), text: z.string().optional() }).nullable().optional(),
    fields: z.array(fieldSchema).optional(),
    actions: z.array(z.looseObject({ label: z.string() })),
  }).nullable(),
  release: z.string().nullable().optional(),
});
const pendingSchema = z.looseObject({ request: requestSchema.nullable() });
const answeredSchema = z.looseObject({ handled: z.boolean(), output: z.string().nullable().optional() });

const cancelledSchema = z.looseObject({ cancelled: z.boolean() });
const sessionsSchema = z.looseObject({ sessions: z.array(z.looseObject({ session_id: z.string(), ref: z.string().nullable().optional() })) });
const setModelSchema = z.looseObject({ model: modelSchema.nullable() });
const tokens = z.number().int().nonnegative();
const statsSchema = z.looseObject({
  context: z.looseObject({ tokens: z.number() }),
  context_window: z.number().nullable(),
  // The last model call's usage; τ keeps no session total.
  usage: z.looseObject({
    input_tokens: tokens, output_tokens: tokens, cache_read_tokens: tokens.optional(), cache_write_tokens: tokens.optional(),
    cache_reported: z.boolean().optional(), cost: z.record(z.string(), z.number()).optional(),
  }).nullable(),
});

export interface TauPromptParams {
  text: string;
  source?: string;
  submitter?: string;
  submission_id?: string;
  correlation?: Record<string, unknown>;
  multitask_strategy?: 'steer' | 'enqueue';
}

/** τ's methods the host calls, by their wire names. */
export const TAU_METHODS = {
  get_capabilities: method()(capabilitiesSchema),
  get_state: method()(stateSchema),
  prompt: method<TauPromptParams>()(promptAckSchema),
  abort: method()(abortSchema),
  compact: method<{ custom_instructions?: string }>()(compactAckSchema),
  get_messages: method()(messagesSchema),
  get_pending_request: method()(pendingSchema),
  answer_request: method<{ request_id: string; action: string; values: Record<string, unknown> | undefined }>()(answeredSchema),
  list_sessions: method()(sessionsSchema),
  switch_session: method<{ session_id: string }>()(cancelledSchema),
  new_session: method()(cancelledSchema),
  fork: method()(cancelledSchema),
  set_model: method<{ name: string }>()(setModelSchema),
  get_session_stats: method()(statsSchema),
};
