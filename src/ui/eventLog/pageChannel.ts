// The channel to one event log page, the way vscode-pull-request-github's webview base keeps it:
// every message from the page is validated before anything acts on it and goes to the one
// handler of its type; the page's requests carry an id (`req`) and their reply carries it back
// (`seq`), so an answer reaches the page that asked and no other; and what goes to the page is
// paced (MAX_IN_FLIGHT) and dropped when the page it was meant for is gone.
import type * as vscode from 'vscode';
import { webviewMessageSchema, type HostMessage, type WebviewMessage } from '../../protocol/messages';

/**
 * Messages posted to a page and not yet delivered (its postMessage promise): the rest wait here,
 * in order. A flood posted at once queues megabytes on the channel every extension shares with
 * the workbench, which then calls the extension host unresponsive while it drains.
 */
export const MAX_IN_FLIGHT = 4;

/** Statistics a test reads to see batching at work. */
export interface LogStats {
  posted: number;
  eventsPosted: number;
  invalidFromWebview: number;
  /** The most messages that were posted and not yet delivered at once (bounded by MAX_IN_FLIGHT). */
  maxInFlight: number;
  lastInvalid: string | null;
  received: WebviewMessage['type'][];
  /** How many times the page was given its HTML (more than once: it could not load, see START_RELOADS). */
  loads: number;
  rendered: Extract<WebviewMessage, { type: 'rendered' }> | null;
}

export type PageMessage<K extends WebviewMessage['type']> = Extract<WebviewMessage, { type: K }>;
/** One handler for each thing a page says. */
export type PageHandlers = { [K in WebviewMessage['type']]: (msg: PageMessage<K>) => void };
/** What the page asks of a worker (the composer's buttons): each carries the request id it is answered by. */
export type PageRequest = PageMessage<'send' | 'redirect' | 'abort' | 'compact' | 'stop'>;

export class PageChannel {
  readonly stats: LogStats = { posted: 0, eventsPosted: 0, invalidFromWebview: 0, maxInFlight: 0, lastInvalid: null, received: [], rendered: null, loads: 0 };
  /** Messages waiting for one in flight to be delivered (see MAX_IN_FLIGHT); this page's only. */
  private outbox: HostMessage[] = [];
  private inFlight = 0;
  /** Counts page loads, so a delivery to an earlier page does not free a slot of this one. */
  private generation = 0;
  private closed = false;

  /** `warn`: a line for the extension's log; `heard`: called after each valid message is handled. */
  constructor(
    private readonly webview: vscode.Webview,
    private readonly handlers: PageHandlers,
    private readonly warn: (message: string) => void,
    private readonly heard: (msg: WebviewMessage) => void,
  ) {}

  /** A message as it came from the page, not yet trusted. */
  receive(raw: unknown): void {
    const parsed = webviewMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.stats.invalidFromWebview++;
      this.stats.lastInvalid = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      this.warn(`ignored an invalid message from the event log webview: ${this.stats.lastInvalid}`);
      return;
    }
    const msg = parsed.data;
    if (msg.type === 'rendered') this.stats.rendered = msg;
    else this.stats.received.push(msg.type);
    (this.handlers[msg.type] as (m: WebviewMessage) => void)(msg);
    this.heard(msg);
  }

  post(message: HostMessage): void {
    this.outbox.push(message);
    this.pump();
  }

  /** The answer to the page's request `req` (none: news the page did not ask for). */
  reply(req: number | undefined, message: Extract<HostMessage, { type: 'result' }>): void {
    this.post(req === undefined ? message : { ...message, seq: req });
  }

  /**
   * What waits to be sent is superseded (the page starts afresh): the log's events, states and
   * lists, which the reset after this says anew. Not the answers and news that no reset repeats
   * (a verb's result, a worker's prefill, a past page that could not come): the composer waits for
   * its result, and a failed send puts the message back from it.
   */
  dropWaiting(): void {
    this.outbox = this.outbox.filter((m) => m.type === 'result' || m.type === 'prefill' || m.type === 'pastPageFailed');
  }

  /** The page went away: nothing meant for it is sent, and its deliveries free no slot. Returns the replies it was not sent. */
  pageGone(): Array<Extract<HostMessage, { type: 'result' }>> {
    const replies = this.outbox.filter((m): m is Extract<HostMessage, { type: 'result' }> => m.type === 'result');
    this.outbox = [];
    this.inFlight = 0;
    this.generation++;
    return replies;
  }

  close(): void {
    this.closed = true;
    this.outbox = [];
  }

  private pump(): void {
    while (this.inFlight < MAX_IN_FLIGHT && this.outbox.length) {
      const message = this.outbox.shift()!;
      this.stats.posted++;
      if (message.type === 'events') this.stats.eventsPosted += message.events.length;
      this.inFlight++;
      this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.inFlight);
      const generation = this.generation;
      const delivered = () => {
        if (generation !== this.generation || this.closed) return;
        this.inFlight--;
        this.pump();
      };
      this.webview.postMessage(message).then(delivered, delivered);
    }
  }
}
