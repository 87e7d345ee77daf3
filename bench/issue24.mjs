// Issue 24's table ("the editor never stutters"), read from the figures the benchmarks produced
// in this run: each row finds its figures by name, so it measures nothing of its own and follows
// the benchmarks as they grow (a row whose figures are not in the run says which benchmark makes
// them). Beside each figure: its baseline measured in the same run (the bare reader for the
// event path), the goal, whether it is met, and the load average when its benchmark began.
//   node bench/run.mjs --only issue24     the benchmarks the table needs, then the table
//   node bench/run.mjs                    every benchmark, the full table, then this one

/** The benchmarks the table reads, and what of each it needs (startup: activation only). */
export const NEEDS = ['events', 'stall', 'acp', 'memory', 'startup', 'pastlog', 'hostactivation'];
export const OVERRIDES = { startup: { fakeCount: 1, realPi: false } };

const main = "main thread's CPU µs/event, host vs bare reader";
const ratio = (f) => f.ratio?.median;
const median = (f) => f.product?.median;

const floorName = "floor (the product's framer and codec alone";
const paced = (f) => f.name.includes('one line per write');
/**
 * Under a CPU row, the same run's floor (bench/events.mjs, and bench/acp.mjs at ACP agents' pace):
 * the product's framer and codec alone, delivering nothing, over the bare reader. A floor above
 * the goal shows the goal cannot be met while the host frames and validates every event as it
 * does; below it, how much is left for the rest.
 */
function floorRow(stream, kind, goal, from = kind === 'pace' ? 'events, acp' : 'events') {
  return {
    what: '  its floor: framer + codec alone, nothing delivered, ÷ bare reader', from,
    goal: goal === null ? 'none set (what the rest of the host costs beside it)' : `< ${goal}× leaves room; above it, the goal cannot be met while the host validates as it does`,
    find: (f) => (f.bench === 'events' || f.bench === 'acp') && stream.test(f.name) && f.name.includes(floorName) && (kind === 'pace') === paced(f), value: ratio, ok: goal === null ? null : (v) => v < goal, unit: '×',
  };
}

const storeFloorName = 'floor with the store (';
/**
 * Under a floor, the same run's floor with the store: the framer and codec, plus the product's
 * event store keeping every event as a worker's does (the event log opens on what it holds), still
 * no turn stamp or delivery. Above the goal, the goal cannot be met while the host validates and
 * keeps its events as it does.
 */
function storeFloorRow(stream, kind, goal, from = kind === 'pace' ? 'events, acp' : 'events') {
  return {
    what: '  its floor with the store: framer + codec + event store alone, nothing delivered, ÷ bare reader', from,
    goal: goal === null ? 'none set' : `< ${goal}× leaves room; above it, the goal cannot be met while the host validates and keeps its events as it does`,
    find: (f) => (f.bench === 'events' || f.bench === 'acp') && stream.test(f.name) && f.name.includes(storeFloorName) && (kind === 'pace') === paced(f), value: ratio, ok: goal === null ? null : (v) => v < goal, unit: '×',
  };
}

/**
 * Activation of the minified bundle in one kind of window, load and activate() summed to the goal:
 * in plain Node under the vscode stub (bench/startup.mjs), or in code-server's extension host,
 * timed by VS Code's own marks (bench/hostactivation.mjs).
 */
function activationRow(what, window, bench = 'startup') {
  const prefix = bench === 'startup' ? `activation, minified extension.js (.vsix), ${window}` : 'activation in a real extension host';
  return {
    what, goal: '≤ 10 ms', from: bench,
    find: (f) => f.bench === bench && f.name.startsWith(prefix) && f.name.includes(window) && !f.name.includes('its floor'), value: median, ok: null, unit: 'ms', sum: (v) => v <= 10, label: (f) => f.name.split(': ').at(-1),
  };
}

/**
 * The rows, each CPU row with its floor. `find`: the figures of the row (by benchmark and name); `value`: what is held
 * to the goal (a ratio to the baseline, or the product's own median); `ok`: the goal.
 */
export const ROWS = [
  { what: 'host CPU per event ÷ bare reader, τ flood', goal: '≤ 1.45×', from: 'events',
    find: (f) => f.bench === 'events' && /^τ 3/.test(f.name) && f.name.endsWith(main) && !f.name.includes('as recorded'), value: ratio, ok: (v) => v <= 1.45, unit: '×' },
  floorRow(/^τ 3/, 'flood', 1.45),
  storeFloorRow(/^τ 3/, 'flood', 1.45),
  { what: 'the same, pi flood', goal: '≤ 1.35×', from: 'events',
    find: (f) => f.bench === 'events' && /^pi 1/.test(f.name) && f.name.endsWith(main) && !f.name.includes('as recorded'), value: ratio, ok: (v) => v <= 1.35, unit: '×' },
  floorRow(/^pi 1/, 'flood', 1.35),
  storeFloorRow(/^pi 1/, 'flood', 1.35),
  // ACP's member of the flood rows: the issue sets it no goal of its own.
  { what: 'the same, ACP flood (claude-agent-acp 0.101.0 recorded)', goal: 'none set', from: 'acp',
    find: (f) => f.bench === 'acp' && !paced(f) && f.name.endsWith('host vs bare reader') && !f.name.includes('as recorded'), value: ratio, ok: null, unit: '×' },
  floorRow(/^ACP/, 'flood', null, 'acp'),
  storeFloorRow(/^ACP/, 'flood', null, 'acp'),
  // τ's with the issue's goal; ACP's (90 B chunks) joins it, as the issue asks of every row.
  { what: 'the same, with history on: τ, and ACP', goal: '≤ 1.60×', from: 'events, acp',
    find: (f) => ((f.bench === 'events' && /^τ/.test(f.name)) || f.bench === 'acp') && f.name.includes('incl. the history') && f.name.includes('host with history'), value: ratio, ok: (v) => v <= 1.6, unit: '×' },
  { what: '  its floor with the history: framer + codec + history store alone, nothing delivered, ÷ bare reader', goal: '< 1.60× leaves room; above it, the goal cannot be met while the host validates and writes as it does', from: 'events, acp',
    find: (f) => ((f.bench === 'events' && /^τ/.test(f.name)) || f.bench === 'acp') && f.name.includes('floor with the history'), value: ratio, ok: (v) => v < 1.6, unit: '×' },
  // The host with a history keeps every event in the event store too.
  { what: '  its floor with the store and the history: framer + codec + event store + history store alone, nothing delivered, ÷ bare reader', goal: '< 1.60× leaves room; above it, the goal cannot be met while the host validates, keeps and writes its events as it does', from: 'events, acp',
    find: (f) => ((f.bench === 'events' && /^τ/.test(f.name)) || f.bench === 'acp') && f.name.includes('floor with the store and the history'), value: ratio, ok: (v) => v < 1.6, unit: '×' },
  // The least the host must do beyond it for each event: a turn stamp and a listener (bench/events.mjs, FLOOR_DELIVERY_NAME).
  { what: '  its floor with the store, the history and delivery: the same + a turn stamp + one listener, ÷ bare reader', goal: '< 1.60× leaves room; above it, the goal cannot be met while the host validates, keeps, writes and delivers its events as it does', from: 'events, acp',
    find: (f) => ((f.bench === 'events' && /^τ/.test(f.name)) || f.bench === 'acp') && f.name.includes('floor with the store, the history and delivery'), value: ratio, ok: (v) => v < 1.6, unit: '×' },
  { what: 'longest event-loop stall, one full-speed flood', goal: '≤ 20 ms', from: 'stall',
    find: (f) => f.bench === 'stall' && f.name.endsWith('longest event-loop stall, one flood'), value: median, ok: (v) => v <= 20, unit: 'ms' },
  { what: 'event-loop delay p99, eight floods at once', goal: '≤ 10 ms', from: 'stall',
    find: (f) => f.bench === 'stall' && f.name.endsWith('event-loop delay p99, eight floods'), value: median, ok: (v) => v <= 10, unit: 'ms' },
  { what: 'event-loop delay max, eight floods at once', goal: '≤ 50 ms', from: 'stall',
    find: (f) => f.bench === 'stall' && f.name.endsWith('event-loop delay max, eight floods'), value: median, ok: (v) => v <= 50, unit: 'ms' },
  { what: 'real τ / pi / ACP streaming at their own pace: main thread ÷ bare reader', goal: '≤ 1.2×', from: 'events, acp',
    find: (f) => (f.bench === 'events' || f.bench === 'acp') && paced(f) && f.name.endsWith(main), value: ratio, ok: (v) => v <= 1.2, unit: '×' },
  floorRow(/./, 'pace', 1.2),
  storeFloorRow(/./, 'pace', 1.2),
  { what: 'Open Log / Resume of a 100,000-event past session', goal: 'first page ≤ 300 ms, no task over 50 ms', from: 'pastlog',
    find: (f) => f.bench === 'pastlog', value: median, ok: null, unit: 'ms', label: (f) => f.name.replace(/^Open Log(?: of a [\d,]+-event past session)?, /, '') },
  // A window's first activation of a build compiles the bundle; later windows run it from V8's code cache (src/ui/boot.ts).
  activationRow('activation (load + activate()), minified bundle, a later window (code cache)', 'later windows'),
  activationRow('  the same, the first window of a build (no code cache yet)', 'a first window'),
  activationRow('  the same in a real extension host (code-server), a later window', 'later windows', 'hostactivation'),
  activationRow('  the same in a real extension host (code-server), the first window of a build', 'a first window', 'hostactivation'),
  // What VS Code itself takes for what ours asks of it at activation (bench/lib/host-activation-floor.cjs).
  { what: '  its floor in that host: an extension asking VS Code for the same at activation, nothing else', goal: '< 10 ms leaves room; above it, the goal cannot be met while the extension registers what it does', from: 'hostactivation',
    find: (f) => f.bench === 'hostactivation' && f.name.includes('its floor'), value: median, ok: (v) => v < 10, unit: 'ms', label: (f) => f.name.split(', minified, ')[1].split(':')[0] },
  // memory.mjs's own bytes-per-event figure where it makes one (beside the worker's line bytes), else its store's MB over the events it holds.
  { what: 'store, bytes per stored event', goal: '≤ 600 B', from: 'memory',
    find: [(f) => f.bench === 'memory' && f.name.startsWith('event store: bytes per stored event'), (f) => f.bench === 'memory' && f.name.startsWith('event store at its bound')],
    value: (f) => (f.unit === 'B' ? median(f) : perStoredEvent(f)), ok: (v) => v <= 600, unit: 'B' },
];

/** The event store's bytes per event: its MB (MiB) over the raw reader, for the events its name says it holds. */
function perStoredEvent(f) {
  const held = Number(/\(([\d,]+) events\)/.exec(f.name)?.[1]?.replace(/,/g, ''));
  return held ? (median(f) * 1024 * 1024) / held : NaN;
}

const fmt = (v, unit) => (Number.isFinite(v) ? `${Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en') : Math.round(v * 100) / 100}${unit === '×' ? '×' : ` ${unit}`}` : '–');
const trio = (s) => (s ? `${s.median} (${s.min}–${s.p95})` : '–');

/** The table's lines: one per figure a row found, or one saying what would measure it. */
export function issue24Rows(results) {
  const out = [];
  const load = results.loads ?? {};
  for (const row of ROWS) {
    // A row may name its figures in order of preference: the first that finds any is used.
    const finders = Array.isArray(row.find) ? row.find : [row.find];
    const found = finders.map((find) => results.figures.filter(find)).find((fs) => fs.length) ?? [];
    if (!found.length) {
      const ran = row.from.split(', ').filter((b) => results.seconds?.[b] !== undefined);
      const why = ran.length ? `bench/${ran[0]}.mjs made no such figure in this run` : `not run (node bench/run.mjs --only ${row.from.split(', ')[0]})`;
      out.push([row.what, why, '', '', row.goal, '', '']);
      continue;
    }
    const values = found.map((f) => row.value(f));
    found.forEach((f, i) => {
      const met = row.ok ? row.ok(values[i]) : row.sum ? null : f.met;
      const which = row.label ? row.label(f) : f.name.split(':')[0];
      out.push([i ? '' : row.what, `${which}: ${fmt(values[i], row.unit)}`, `${trio(f.product)} ${f.unit}`, f.baseline ? `${trio(f.baseline)} (${f.baselineName})` : '–',
        i ? '' : row.goal, met === null || met === undefined ? '' : met ? 'yes' : 'NO', load[f.bench] ?? '']);
    });
    if (row.sum) {
      const total = values.reduce((a, b) => a + b, 0);
      out.push(['', `load + activate(), medians summed: ${fmt(total, 'ms')}`, '', '', '', row.sum(total) ? 'yes' : 'NO', '']);
    }
  }
  return out;
}

export function issue24Table(results, { markdown = false } = {}) {
  const head = ['issue 24: what', 'measured (held to the goal)', 'product median (min–p95)', 'baseline, same run', 'goal', 'met', 'load avg'];
  const rows = issue24Rows(results).map((r) => r.map(String));
  const machine = `main thread's CPU where the row says so (Linux /proc), not the process's; load average at each benchmark's start; ${results.machine.cpus} CPUs, load ${results.machine.loadavg.join(' ')} at the end`;
  if (markdown) {
    const esc = (c) => c.replace(/\|/g, '\\|');
    return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`), '', machine].join('\n');
  }
  const widths = head.map((h, i) => Math.min(70, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (r) => r.map((c, i) => (c.length > widths[i] ? c.slice(0, widths[i] - 1) + '…' : c.padEnd(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line), machine].join('\n');
}
