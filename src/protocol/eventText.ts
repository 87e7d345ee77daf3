// The text a person reads in an event's payload, whatever the dialect's shape: a tool result (τ's
// and ACP's {output}, pi's content blocks, a preview the host kept of one too big), a message's
// text or thinking. One reader for the Event Log's page and the Markdown export (core/export):
// here, since the page may import the protocol and not the core.

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const obj = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The names of the options a question offers: a pi dialog's strings, an ACP permission's options' `name`s. */
export function optionNames(options: unknown): string[] {
  if (!Array.isArray(options)) return [];
  return options.map((o) => str(o) ?? str(obj(o)?.name)).filter((n): n is string => n !== null);
}

/** The readable text of a tool result in any dialect's shape (a string, τ's and ACP's {output}, pi's {content:[{text}]}), as the log shows it. */
export function resultText(result: unknown): string {
  if (result === undefined || result === null) return '';
  if (typeof result === 'string') return result;
  const o = obj(result);
  if (o) {
    if (o.truncated === true && typeof o.preview === 'string') return previewText(o.preview, typeof o.chars === 'number' ? o.chars : null);
    if (typeof o.output === 'string') return o.output;
    if (Array.isArray(o.content)) {
      const texts = o.content.map((c) => str(obj(c)?.text)).filter((t): t is string => t !== null);
      if (texts.length) return texts.join('\n');
    }
    if (typeof o.text === 'string') return o.text;
  }
  try {
    return JSON.stringify(result, null, 2);
  } catch {
    return String(result);
  }
}

/**
 * The readable text in the preview of a result too big to send whole: the preview is the
 * start of the result's JSON, cut anywhere. The text of its first output or text field is
 * decoded (escapes and all), so a big tool output reads as output, not as escaped JSON.
 */
export function previewText(preview: string, chars: number | null): string {
  const m = /"(output|text|stdout|content)"\s*:\s*"/.exec(preview);
  if (!m) return preview;
  const more = chars !== null && chars > preview.length ? `\n[… ${chars - preview.length} more characters not shown]` : '\n[… the rest is not shown]';
  let out = '';
  const ESC: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };
  for (let i = m.index + m[0].length; i < preview.length; i++) {
    const c = preview[i];
    if (c === '"') return out;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = preview[i + 1];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = preview.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 5;
    } else {
      out += ESC[next] ?? next;
      i++;
    }
  }
  return out + more;
}

/** A message's text or thinking: its string content, or its blocks of that kind run together. */
export function messageText(message: unknown, kind: 'text' | 'thinking'): string {
  const m = obj(message);
  if (!m) return '';
  if (typeof m.content === 'string') return kind === 'text' ? m.content : '';
  if (!Array.isArray(m.content)) return '';
  return m.content.map((c) => {
    const b = obj(c);
    if (!b) return '';
    if (kind === 'text' && b.type === 'text') return str(b.text) ?? '';
    if (kind === 'thinking' && b.type === 'thinking') return str(b.thinking) ?? str(b.text) ?? '';
    return '';
  }).join('');
}

/**
 * A tool result or a message's content as the Markdown export says it: a content list's text
 * blocks run together, an image marked `[image]`; any other result as `resultText` reads it.
 */
export function contentText(value: unknown): string {
  const content = Array.isArray(value) ? value : obj(value)?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'string' ? c : str(obj(c)?.text) ?? (obj(c)?.type === 'image' ? '[image]' : ''))).join('');
  return resultText(value);
}
