// The messages the extension host sends the event log's webview, as zod schemas. Parsed only in
// the page (src/webview), so they live apart from messages.ts: the extension imports that file,
// and every schema built at load is activation time. Imports nothing but zod, the
// schemas' fast path and the shared words.
// zod/mini: the same checks as zod, tree-shakable, so the webview bundle stays small.
import * as z from 'zod/mini';
import { lazySafeParse } from './fastParse';
import { ATTENTION_STATES } from './words';

const opt = <T extends z.core.SomeType>(t: T) => z.optional(z.nullable(t));
const count = () => z.number().check(z.int(), z.minimum(0));

export const workerViewSchema = z.object({
  workerId: z.string(),
  name: z.string(),
  status: z.enum(['starting', 'running', 'exited', 'stopped', 'failed']),
  streaming: z.boolean(),
  compacting: z.boolean(),
  model: z.nullable(z.string()),
  dialect: z.string(),
  pid: z.nullable(z.number()),
  /** Tokens and context, as one line (the worker's own accounting); absent until known. */
  usage: z.optional(z.string()),
  /** Why Compact can never run on this worker (an ACP agent without /compact). */
  noCompact: z.optional(z.string()),
  /** Why Abort cannot reach what the worker is doing now (a compaction its abort does not end). */
  noAbort: z.optional(z.string()),
  /** The worker cannot be steered inside its turn (ACP): follow-ups are held by the host instead. */
  noSteer: z.optional(z.boolean()),
  /** It no longer reads its input (WorkerState.inputLost): the chip says so, the composer sends nothing. */
  inputLost: z.optional(z.boolean()),
  /** Why the composer is off for a log with no worker behind it (a past session). */
  note: z.optional(z.string()),
  /** Whether it needs the person, as the Sessions view says it (core/attention), and why; absent for a past session. */
  attention: z.optional(z.enum(ATTENTION_STATES)),
  attentionReason: z.optional(z.string()),
  /** How its agent takes a key or login ("For Claude: set ANTHROPIC_API_KEY …"), said on a turn it refused for want of one. */
  login: z.optional(z.string()),
});
export type WorkerView = z.infer<typeof workerViewSchema>;

/** An AgentEvent as it travels to the webview (see slimEvent): known fields typed, the rest kept. */
export const pageEventSchema = z.looseObject({
  type: z.string(),
  timestamp: z.number(),
  /** The host's turn stamp (core/events/agentEvent.ts TurnStamp): the page groups by it and counts nothing. */
  // Loose, like the event around it: the fast path then passes the stamp on as it came.
  turn: z.optional(z.looseObject({ index: count(), opens: z.optional(z.literal(true)), ends: z.optional(z.literal(true)), origin: z.optional(z.string()) })),
  turn_index: opt(z.number()),
  tool_call_id: opt(z.string()),
  tool_name: opt(z.string()),
  is_error: z.optional(z.boolean()),
  blocked: z.optional(z.boolean()),
  blocked_by: opt(z.string()),
  end_reason: opt(z.string()),
  error: opt(z.string()),
  submission_id: opt(z.string()),
  source: opt(z.string()),
  submitter: opt(z.string()),
  delta: opt(z.string()),
  block_type: opt(z.enum(['text', 'thinking'])),
  replace: z.optional(z.boolean()),
});
export type PageEvent = z.infer<typeof pageEventSchema> & {
  /** A tool call's own words, its kind and its changes (any dialect that gives them: ACP). */
  title?: string | null; tool_kind?: string | null; diffs?: unknown; locations?: unknown;
  args?: unknown; result?: unknown; details?: unknown; message?: unknown; correlation?: Record<string, unknown> | null;
  data?: Record<string, unknown>; will_retry?: boolean; stop_reason?: string | null;
  /** Set when the host kept a preview of long fields (core/events/agentEvent.ts EventCut). */
  cut?: unknown;
};

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('reset'),
    worker: z.nullable(workerViewSchema),
    /** Events the host's store held for this worker and dropped for newer ones. */
    evicted: count(),
    storeLimit: count(),
    /**
     * A log read from the history a page at a time: events older and newer than those sent, those
     * its bounds dropped (and which bound), those never written, earlier sessions unread, and the
     * lines that were not events.
     */
    past: z.optional(z.object({
      before: count(), after: count(), dropped: count(), droppedBy: z.optional(z.string()),
      lost: z.optional(z.object({ events: count(), why: z.string() })),
      unread: z.optional(z.object({ sessions: count(), first: z.string() })),
      unreadable: z.optional(z.object({ lines: count(), first: z.string() })),
    })),
    /** The person went back in the log: its oldest entries are shown first. */
    top: z.optional(z.boolean()),
    /** Events the host sends next as the log so far (its replay): they are not new, and not said as new. */
    replay: z.optional(count()),
  }),
  z.object({ type: z.literal('events'), workerId: z.string(), events: z.array(pageEventSchema) }),
  z.object({ type: z.literal('state'), worker: workerViewSchema }),
  z.object({
    type: z.literal('workers'),
    workers: z.array(z.object({ workerId: z.string(), name: z.string(), status: z.string() })),
    selected: z.nullable(z.string()),
    /** The workspace is not trusted: no worker starts, and the page's empty log says why. */
    untrusted: z.optional(z.literal(true)),
  }),
  z.object({ type: z.literal('prefill'), workerId: z.string(), text: z.string() }),
  /**
   * The page's ask for another page of a log read from the history (its `pastPage`) came to nothing,
   * and no reset follows: why, in words for the page's line; `held`: the host still holds the log,
   * and asking again may work; `seq`: the ask's `req`, so a page that no longer waits for it (a
   * reset ended its wait, or it asked again since) says nothing of it.
   */
  z.object({ type: z.literal('pastPageFailed'), workerId: z.string(), to: z.enum(['older', 'newest']), message: z.string(), held: z.boolean(), seq: z.optional(count()) }),
  /** The webview came back on screen: a page that is still alive says `ready` again (it may have missed events). */
  z.object({ type: z.literal('ping') }),
  /**
   * What came of an action on the worker: `message` is the sentence it is said in, `tone` how it
   * is shown. `seq`: the reply to this page's request of that id, sent even when the page shows
   * another worker by now (`workerId` says which it is about); absent, the action came from
   * elsewhere (the palette, the tree, another page on the same worker), about the worker shown.
   */
  z.object({ type: z.literal('result'), workerId: z.string(), action: z.string(), status: z.string(), message: z.string(), tone: z.optional(z.enum(['ok', 'info', 'error'])), handled: z.optional(z.boolean()), seq: z.optional(count()) }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;
/** What a page is told around a past log's events (`reset.past`): what is older and newer, and what no page has, and why. */
export type PastCounts = NonNullable<Extract<HostMessage, { type: 'reset' }>['past']>;

// The page may not eval (its CSP), so zod/mini runs without its compiled fast path: a batch of
// 1,000 events cost more to validate than to draw. The schema's closure-built fast path takes
// the batches; anything it does not take, the schema decides. Built on the first message.
export const parseHostMessage = lazySafeParse(hostMessageSchema);
