// Arrow keys along a role="toolbar" (the filter chips, the composer's buttons). A screen reader
// says "toolbar", and its users move along one with the arrows (the WAI-ARIA toolbar pattern);
// without this the arrows did nothing there. Tab still stops at each control, as before.

/**
 * Where `key` moves the focus from control `from` (Left/Right wrap, Home/End), skipping those
 * that cannot take it (a greyed-out button); null: the key is not the toolbar's.
 */
export function toolbarTarget(key: string, from: number, usable: readonly boolean[]): number | null {
  const n = usable.length;
  if (key === 'Home' || key === 'End') {
    const order = [...usable.keys()];
    if (key === 'End') order.reverse();
    return order.find((i) => usable[i]) ?? null;
  }
  const step = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : 0;
  if (!step) return null;
  for (let i = 1; i < n; i++) {
    const j = (((from + step * i) % n) + n) % n;
    if (usable[j]) return j;
  }
  return null;
}

/** The arrows move the focus along `bar`'s buttons. A key with a modifier is left to VS Code (Alt+Left goes back). */
export function arrowKeys(bar: HTMLElement): void {
  bar.addEventListener('keydown', (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    const items = Array.from(bar.querySelectorAll('button'));
    const from = items.indexOf(document.activeElement as HTMLButtonElement);
    if (from < 0) return;
    const to = toolbarTarget(ev.key, from, items.map((b) => !b.disabled && !b.hidden));
    if (to === null || to === from) return;
    ev.preventDefault();
    items[to].focus();
  });
}
