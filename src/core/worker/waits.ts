// What a worker's verbs wait for: the next settled turn, the next event of a kind, or a
// worker's answer. None waits forever: each is bounded by a timeout, by the worker's exit, and by
// the loss of its output (it ended, and the worker lives on: what is waited for cannot come), and
// by the loss of its input where the wait needs the worker to read what it could not be sent.
import { ConnectionError } from 'vscode-jsonrpc/node';
import type { AgentEvent } from '../events/agentEvent';
import type { EventBus } from '../events/eventBus';
import type { Settlement } from './turns';
import type { WorkerProcess } from './workerProcess';
import { AnswerDropped } from '../wire/droppedAnswer';

/** A wait that ran out of time (not the worker's exit, nor its refusal). */
export class NoAnswer extends Error {}

export class Waits {
  private readonly settleWaiters = new Set<(s: Settlement) => void>();

  constructor(private readonly bus: EventBus<AgentEvent>, private readonly process: WorkerProcess) {}

  /**
   * Why a wait ended with the worker's exit. A Stop is named first: a verb still waiting when the
   * caller stopped the worker would otherwise read as if the worker had died on its own ("exited
   * with code 143").
   */
  private exitWords(): string {
    const how = this.process.exitDescription();
    return this.process.stopRequested ? `the worker was stopped: ${how}` : how;
  }

  /** A turn settled: every wait for it ends. */
  settled(s: Settlement): void {
    for (const waiter of [...this.settleWaiters]) waiter(s);
  }

  nextSettlement() {
    let cancel = () => {};
    const promise = new Promise<Settlement>((resolve) => {
      const waiter = (s: Settlement) => {
        this.settleWaiters.delete(waiter);
        resolve(s);
      };
      this.settleWaiters.add(waiter);
      cancel = () => this.settleWaiters.delete(waiter);
    });
    return { promise, cancel };
  }

  /** The next event of a type that `match` accepts; `seen` is it, once it came. */
  nextEvent(type: string, match: (e: AgentEvent) => boolean = () => true) {
    const handle = { seen: undefined as AgentEvent | undefined, promise: undefined as unknown as Promise<AgentEvent>, cancel: () => {} };
    handle.promise = new Promise<AgentEvent>((resolve) => {
      const off = this.bus.on(type, (e) => {
        if (handle.seen || !match(e)) return;
        handle.seen = e;
        off();
        resolve(e);
      });
      handle.cancel = off;
    });
    return handle;
  }

  /**
   * `pending`, unless the worker exits first, its output is lost, its input is lost before the
   * wait's own message got through, or `timeoutMs` passes (Infinity: only those losses and the
   * exit bound it). A message written before the input broke may have been read: its answer, or
   * a turn's end, can still come on the open stdout, so such a wait is not released by it.
   */
  bounded<T>(pending: Promise<T>, timeoutMs: number, what: string): Promise<T> {
    // The wait's own request, if any, was written before it began: its number is at most this.
    const sent = this.process.messagesSent;
    const unsent = (first: number | null) => first !== null && first <= sent;
    if (this.process.exit || this.process.outputLost || (this.process.inputLost && unsent(this.process.firstUnsent))) {
      pending.catch(() => {});
      const why = this.process.exit ? this.exitWords() : this.process.outputLost ? this.process.outputLostDescription() : this.process.inputLostDescription();
      return Promise.reject(new Error(`${what} failed: ${why}`));
    }
    return new Promise<T>((resolve, reject) => {
      // Node's timers run on the loop's cached millisecond clock and can fire up to a
      // millisecond early; "no answer within N s" is only said once N s have really passed.
      const deadline = performance.now() + timeoutMs;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let offExit = (): void => {};
      let offLost = (): void => {};
      let offDeaf = (): void => {};
      /** The connection refused to send (closed): nothing of this wait reached the worker. */
      let refused = false;
      // Declared before anything that may call it (a timer, a listener).
      const cleanup = () => {
        clearTimeout(timer);
        offExit();
        offLost();
        offDeaf();
      };
      const deaf = () => {
        cleanup();
        reject(new Error(`${what} failed: ${this.process.inputLostDescription()}`));
      };
      const expire = () => {
        const left = deadline - performance.now();
        if (left > 0) {
          timer = setTimeout(expire, Math.ceil(left));
          return;
        }
        cleanup();
        reject(new NoAnswer(`${what}: no answer from the worker within ${timeoutMs / 1000} s`));
      };
      offExit = this.process.onceExit(() => {
        cleanup();
        reject(new Error(`${what} failed: ${this.exitWords()}`));
      });
      offLost = this.process.onceOutputLost(() => {
        cleanup();
        reject(new Error(`${what} failed: ${this.process.outputLostDescription()}`));
      });
      offDeaf = this.process.onceInputLost((first) => {
        if (refused || unsent(first)) deaf();
      });
      if (Number.isFinite(timeoutMs)) timer = setTimeout(expire, timeoutMs);
      pending.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (error) => {
          // The connection closed: the worker is going (its stdin or its output is over), and its
          // exit, still to come, says why; a connection closed for good without one meets the bound
          // (or, its output over, the output's loss; its input broken, the input's loss).
          if (error instanceof ConnectionError) {
            refused = true;
            if (this.process.inputLost) deaf();
            return;
          }
          cleanup();
          // Said as the timeout is: what waited for it, then why it failed.
          reject(error instanceof AnswerDropped ? new AnswerDropped(`${what}: ${error.message}`) : error);
        },
      );
    });
  }
}
