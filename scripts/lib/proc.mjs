// Process bookkeeping shared by the runners: every child that a script starts is registered here
// and stopped on every way out (normal end, error, timeout, SIGINT/SIGTERM/SIGHUP, process exit).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const cleanups = new Set();
const groups = new Set(); // pids of detached children = their process-group ids
let handlersInstalled = false;
let cleaning = null;

/** Run `fn` on the way out. Returns a function that unregisters it. */
export function onCleanup(fn) {
  installHandlers();
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Run every registered cleanup once (latest first); safe to call more than once. */
export function cleanup() {
  if (!cleaning) {
    cleaning = (async () => {
      for (const fn of [...cleanups].reverse()) {
        cleanups.delete(fn);
        try { await fn(); } catch (err) { console.error(`cleanup: ${err?.message ?? err}`); }
      }
    })().finally(() => { cleaning = null; });
  }
  return cleaning;
}

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const bySignal = (sig, code) => process.on(sig, () => {
    console.error(`\n${sig}: stopping everything this run started...`);
    const hard = setTimeout(() => process.exit(code), 10_000); hard.unref();
    cleanup().finally(() => process.exit(code));
  });
  bySignal('SIGINT', 130);
  bySignal('SIGTERM', 143);
  bySignal('SIGHUP', 129);
  // Last resort, synchronous: whatever is still registered dies with us.
  process.on('exit', () => { for (const pgid of groups) killGroup(pgid, 'SIGKILL'); });
}

function killGroup(pgid, signal) {
  try { process.kill(-pgid, signal); return true; } catch { return false; }
}

function groupAlive(pgid) {
  try { process.kill(-pgid, 0); } catch { return false; }
  // kill(0) succeeds on zombies; a group whose members are all zombies is dead for our purpose.
  for (const pid of pidsOf((p) => p.pgid === pgid)) if (procState(pid) !== 'Z') return true;
  return false;
}

function procState(pid) {
  try { return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0]; } catch { return 'Z'; }
}

function pidsOf(pred) {
  const out = [];
  let entries = [];
  try { entries = readdirSync('/proc'); } catch { return out; }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const rest = readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      if (pred({ pid: Number(name), ppid: Number(rest[1]), pgid: Number(rest[2]) })) out.push(Number(name));
    } catch { /* gone */ }
  }
  return out;
}

/**
 * Spawn a child in a process group of its own, registered for cleanup. `child.stop()` sends
 * SIGTERM to the whole group, then SIGKILL after `graceMs`.
 */
export function spawnManaged(command, args, options = {}, { graceMs = 3000 } = {}) {
  installHandlers();
  const child = spawn(command, args, { ...options, detached: true });
  const pgid = child.pid;
  if (pgid) groups.add(pgid);
  let stopping = null;
  child.stop = () => {
    if (!pgid) return Promise.resolve();
    stopping ??= (async () => {
      killGroup(pgid, 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      if (groupAlive(pgid)) killGroup(pgid, 'SIGKILL');
      groups.delete(pgid);
    })();
    return stopping;
  };
  const unregister = onCleanup(() => child.stop());
  child.once('exit', () => { if (!groupAlive(pgid)) { groups.delete(pgid); unregister(); } });
  return child;
}

/**
 * Kill every process whose environment carries `NAME=value` (Linux /proc). A backstop for
 * descendants that left our process groups (e.g. a worker the extension spawned detached).
 * Returns the pids it signalled; `described`, if given, gets each as "pid (command line)".
 */
export function killByEnvMarker(name, value, described = []) {
  const hit = [];
  for (const pid of findByEnvMarker(name, value)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      process.kill(pid, 'SIGKILL');
      hit.push(pid);
      described.push(`${pid} (${cmd.length > 160 ? `${cmd.slice(0, 160)}…` : cmd})`);
    } catch { /* gone */ }
  }
  return hit;
}

/** The live processes whose environment carries `NAME=value` (Linux /proc). */
export function findByEnvMarker(name, value) {
  const needle = Buffer.from(`${name}=${value}\0`);
  const found = [];
  let entries = [];
  try { entries = readdirSync('/proc'); } catch { return found; }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) continue;
      if (readFileSync(`/proc/${entry}/environ`).includes(needle)) found.push(Number(entry));
    } catch { /* gone or not ours */ }
  }
  return found;
}
