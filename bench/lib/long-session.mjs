// A long past session on disk, for the benchmark and the UI scenario of issue 24 (Open Log and
// Resume of a 100,000-event session): a real session of the demo worker, written by the host's
// own history, then its turns repeated until the file holds `n` events. Each copy is the real
// lines with their own times, turn numbers and tool calls, so the log folds it as a long
// conversation of real events, not as one event repeated. The copies go back in time: the newest
// is the real session as it ended, so its end and last write stay the real ones, and the record
// (turns, events, start, the dropped events) is made to say what the file then holds, as the
// session's writer would have.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Repeats the turns of session `id` in history directory `dir` until it has `n` events, and
 * says so in its record (`dropped`: events its record says the size bound evicted; `lost`: events
 * it says never reached the disk, with the writer's last error `lastError`).
 * Returns the events file's bytes.
 */
export function inflateSession(dir, id, n, { dropped = 0, lost = 0, lastError = null } = {}) {
  const file = path.join(dir, `${id}.jsonl`);
  const template = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  if (!template.length) throw new Error(`session ${id} has no events to repeat`);
  const turns = Math.max(1, ...template.map((e) => e.turn?.index ?? 0));
  const span = template.at(-1).timestamp - template[0].timestamp + 1000;
  // The worker exits once, at the end: its exit is not repeated.
  const body = template.filter((e) => e.type !== 'worker_exit');
  const exits = template.filter((e) => e.type === 'worker_exit');
  // Enough copies for n events; copy k of them is shifted `copies - 1 - k` spans back.
  const copies = Math.ceil((n - exits.length) / body.length);
  const back = (k) => (copies - 1 - k) * span;
  const copy = (e, k) => {
    const c = structuredClone(e);
    c.timestamp -= back(k);
    if (c.turn) c.turn.index += k * turns;
    if (typeof c.raw?.params?.timestamp === 'number') c.raw.params.timestamp -= back(k);
    return k ? JSON.stringify(c).replace(/"(tool_call_id|toolCallId|id)":"([^"]+)"/g, `"$1":"$2-${k}"`) : JSON.stringify(c);
  };
  const out = [];
  for (let k = 0; k < copies; k++) for (const e of body) out.push(copy(e, k));
  for (const e of exits) out.push(copy(e, copies - 1));
  // The newest n: a session whose oldest events went, as a long one's do.
  const text = out.slice(-n).join('\n') + '\n';
  writeFileSync(file, text);
  const metaFile = path.join(dir, `${id}.meta.json`);
  const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
  // As the writer records them: every event written (the dropped ones too), the worker's own turn
  // count (each copy's turns, numbered on), a start before the oldest event, the eviction when the
  // session reached its bound (at the oldest event kept, when the dropped ones went).
  const oldestKept = JSON.parse(out.at(-n)).timestamp;
  meta.events = n + dropped;
  meta.turns = copies * turns;
  meta.startedAt = Math.min(meta.startedAt - back(0), oldestKept) - Math.ceil(dropped / body.length) * span;
  if (lost) Object.assign(meta, { lost, lastError });
  meta.evictedEvents = dropped ? { events: dropped, bytes: dropped * Math.round(text.length / n), times: 1, firstAt: oldestKept, lastAt: oldestKept } : null;
  writeFileSync(metaFile, JSON.stringify(meta) + '\n');
  return Buffer.byteLength(text);
}

/** A real session of the demo worker (τ dialect) in `dir`, ended: its id. */
export async function demoSession(core, dir, demoWorker, prompts) {
  const host = core.createSupervisor({ historyDir: dir });
  try {
    const started = await host.start({ name: 'Demo worker', dialect: 'tau', command: process.execPath, args: [demoWorker], cwd: dir });
    if (started.status !== 'started') throw new Error(started.error);
    const id = host.history.sessionOf(started.workerId);
    for (const text of prompts) {
      const settled = new Promise((resolve) => {
        const off = host.onEvent((w, e) => {
          if (w === started.workerId && e.type === 'agent_settled') {
            off();
            resolve();
          }
        });
      });
      const r = await host.prompt(started.workerId, text);
      if (r.status !== 'accepted') throw new Error(`the demo worker did not take "${text}": ${r.error ?? r.status}`);
      await settled;
    }
    await host.stop(started.workerId);
    return id;
  } finally {
    await host.dispose();
  }
}
