// A tool call's row in the Sessions tree is addressed by its call id, not by its place in its
// turn's list: a long turn's list is trimmed from the front (MAX_TOOLS_PER_TURN in
// core/worker/turns.ts), and a row addressed by place would then show another call, its
// selection and TreeItem.id moving with the place. No vscode import, so the tests use it as is.
import type { TurnSummary } from '../../core/api';

type Tool = TurnSummary['tools'][number];

export interface ToolKeys {
  /** Each call's key, in the list's order. */
  keys: string[];
  /** The place of the call with this key now. */
  at: Map<string, number>;
}

// One per list: a state's lists are new on each change, and a turn of a thousand calls is
// asked for each of its rows.
const made = new WeakMap<readonly Tool[], ToolKeys>();

/**
 * The keys of a turn's calls: a call's id (`#n` added to the n-th repeat of an id in the list);
 * a call the worker gave no id, by its place (there is nothing else to tell it by).
 */
export function toolKeys(tools: readonly Tool[]): ToolKeys {
  const known = made.get(tools);
  if (known) return known;
  const repeats = new Map<string, number>();
  const keys = tools.map((t, i) => {
    if (t.toolCallId === null) return `at:${i}`;
    const n = repeats.get(t.toolCallId) ?? 0;
    repeats.set(t.toolCallId, n + 1);
    // Encoded, so that no id (one with a `#` of its own) can be another's repeat key.
    const id = `id:${encodeURIComponent(t.toolCallId)}`;
    return n ? `${id}#${n}` : id;
  });
  const out = { keys, at: new Map(keys.map((k, i) => [k, i])) };
  made.set(tools, out);
  return out;
}
