// Small DOM helpers. Text only ever enters the page as textContent: nothing a worker says is
// parsed as HTML.
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: { class?: string; text?: string; title?: string; attrs?: Record<string, string> } = {}, ...children: (Node | null | undefined | false)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.title) el.title = props.title;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  for (const c of children) if (c) el.appendChild(c);
  return el;
}

/** A codicon's class list (an icon drawn already changes by it). */
export function iconClass(name: string, extra = ''): string {
  return `codicon codicon-${name}${extra ? ` ${extra}` : ''}`;
}

export function icon(name: string, extra = ''): HTMLElement {
  return h('span', { class: iconClass(name, extra), attrs: { 'aria-hidden': 'true' } });
}

export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}
