// At most one call per `ms`, the last request always honoured: for UI that follows events.
export function throttle(fn: () => void, ms: number): { schedule(): void; flush(): void; dispose(): void; readonly pending: boolean } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;
  let pending = false;
  const run = () => {
    timer = undefined;
    pending = false;
    last = Date.now();
    fn();
  };
  return {
    get pending() {
      return pending;
    },
    schedule() {
      if (pending) return;
      pending = true;
      const wait = Math.max(0, last + ms - Date.now());
      timer = setTimeout(run, wait);
    },
    flush() {
      if (timer) clearTimeout(timer);
      if (pending) run();
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = false;
    },
  };
}
