// pi's RPC commands as this host sends them, in one table: each command's params and the schema
// its answer (`data` of pi's response) is read by. Every object is loose: pi adds fields freely.
// prompt, abort and compact are read leniently where they are sent (pi.ts): what pi answers
// there differs by version and none of it is needed.
import { z } from 'zod';
import { messagesSchema } from './sessionVerbs';
import { method } from './requests';

const stateSchema = z.looseObject({
  model: z.looseObject({ id: z.string().optional(), provider: z.string().optional() }).nullable().optional(),
  isStreaming: z.boolean().optional(),
  sessionId: z.string().nullable().optional(),
  sessionFile: z.string().nullable().optional(),
});
const cancelledSchema = z.looseObject({ cancelled: z.boolean() });
const modelSchema = z.looseObject({ id: z.string(), provider: z.string() });
const exportSchema = z.looseObject({ path: z.string() });
// pi 0.73.1 sums its messages, pi 1.x its session's entries; both answer this shape.
const statsSchema = z.looseObject({
  tokens: z.looseObject({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number() }),
  cost: z.number().optional(),
  contextUsage: z.looseObject({ tokens: z.number().nullable(), contextWindow: z.number(), percent: z.number().nullable() }).optional(),
});
/** What a compaction did, where pi says (read leniently: an answer without it is not an error). */
export const compactResultSchema = z.looseObject({ summary: z.string().optional(), tokensBefore: z.number().optional() });

/** pi's commands the host sends, by their wire names (`type` on pi's wire). */
export const PI_METHODS = {
  get_state: method()(stateSchema),
  prompt: method<{ message: string; streamingBehavior?: 'steer' | 'followUp' }>()(z.unknown()),
  abort: method()(z.unknown()),
  compact: method<{ customInstructions?: string }>()(z.unknown()),
  new_session: method()(cancelledSchema),
  fork: method<{ entryId: string }>()(cancelledSchema),
  clone: method()(cancelledSchema),
  set_model: method<{ provider: string; modelId: string }>()(modelSchema),
  export_html: method<{ outputPath?: string }>()(exportSchema),
  get_messages: method()(messagesSchema),
  get_session_stats: method()(statsSchema),
};
