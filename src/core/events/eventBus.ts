// Publish/subscribe with the contract of τ's own EventBus: handlers of an event's own type and
// of `all` receive it, in subscription order; a handler that returns a promise is awaited
// before the next one runs (so subscribers can pace the emitter); a handler that throws is
// reported to `on_error` listeners and never stops the others. When every handler is
// synchronous, `emit` completes synchronously and allocates no promise: it is the event path.

export type Handler<T> = (event: T, ...rest: unknown[]) => unknown;
export type ErrorListener = (error: unknown, channel: string) => void;

export const ALL = 'all';

export class EventBus<T extends { type: string }> {
  private readonly channels = new Map<string, Handler<T>[]>();
  private readonly errorListeners: ErrorListener[] = [];

  on(channel: string, handler: Handler<T>): () => void {
    const list = this.channels.get(channel);
    // Copy on write, so an emit in progress keeps the list it started with.
    this.channels.set(channel, list ? [...list, handler] : [handler]);
    return () => this.off(channel, handler);
  }

  off(channel: string, handler: Handler<T>): void {
    const list = this.channels.get(channel);
    if (!list) return;
    const i = list.indexOf(handler);
    if (i === -1) return;
    const next = list.filter((_, j) => j !== i);
    if (next.length) this.channels.set(channel, next);
    else this.channels.delete(channel);
  }

  on_error(listener: ErrorListener): () => void {
    this.errorListeners.push(listener);
    return () => {
      const i = this.errorListeners.indexOf(listener);
      if (i !== -1) this.errorListeners.splice(i, 1);
    };
  }

  emit(event: T): void | Promise<void> {
    const own = this.channels.get(event.type);
    const all = event.type === ALL ? undefined : this.channels.get(ALL);
    if (!own && !all) return;
    return this.run(own, all, 0, event.type, event, undefined);
  }

  emit_channel(channel: string, ...args: unknown[]): void | Promise<void> {
    const handlers = this.channels.get(channel);
    if (!handlers) return;
    return this.run(handlers, undefined, 0, channel, undefined, args);
  }

  get listenerCount(): number {
    let n = 0;
    for (const list of this.channels.values()) n += list.length;
    return n;
  }

  /**
   * The handlers of `first` then `second` from index `from`, each given `event` (or `args`):
   * the lists are replaced, never changed, by on/off, so a run keeps the ones it started with,
   * and a synchronous run allocates nothing. A handler's promise is awaited before the next.
   */
  private run(first: Handler<T>[] | undefined, second: Handler<T>[] | undefined, from: number, channel: string, event: T | undefined, args: unknown[] | undefined): void | Promise<void> {
    const firstCount = first ? first.length : 0;
    const count = firstCount + (second ? second.length : 0);
    for (let i = from; i < count; i++) {
      const handler = (i < firstCount ? first![i] : second![i - firstCount]) as (...a: unknown[]) => unknown;
      let result: unknown;
      try {
        result = args ? handler(...args) : handler(event);
      } catch (error) {
        this.report(error, channel);
        continue;
      }
      if (result instanceof Promise) {
        const next = () => this.run(first, second, i + 1, channel, event, args);
        return result.then(next, (error) => {
          this.report(error, channel);
          return next();
        });
      }
    }
  }

  private report(error: unknown, channel: string): void {
    if (this.errorListeners.length === 0) {
      // Never silent: with no listener the failure still reaches the process's warning stream.
      process.emitWarning(`event handler on "${channel}" threw: ${error instanceof Error ? error.stack : String(error)}`);
      return;
    }
    for (const listener of this.errorListeners) {
      try {
        listener(error, channel);
      } catch {
        // An error listener that throws has nobody left to tell.
      }
    }
  }
}
