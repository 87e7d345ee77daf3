// The watchdog's own program (see watchdog.ts for what it does and the host's side of it).
// The program is a string run with `node -e` (passed in the environment, so that `ps` shows a
// short line), so at run time it needs no file of its own next to whichever bundle embeds the
// core (dist/core.js, dist/extension.js) or the sources under test.
/** The watchdog program: argv = its name, the host's pid and start stamp, the poll interval (ms). */
export const WATCHDOG_SOURCE = String.raw`
'use strict';
const fs = require('fs');
const { execFileSync } = require('child_process');
process.title = 'rpc-workers-watchdog';
const hostPid = Number(process.argv[2]);
const hostStart = process.argv[3];
const pollMs = Number(process.argv[4]) || 250;
const stateFile = process.env.RPC_WORKERS_WATCHDOG_STATE || '';
const linux = process.platform === 'linux';

function readStat(pid) {
  try {
    const s = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { pid: pid, ppid: Number(f[1]), pgid: Number(f[2]), start: f[19], dead: f[0] === 'Z' || f[0] === 'X' };
  } catch (e) {
    return null;
  }
}
function table() {
  if (linux) {
    const out = [];
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const p = readStat(Number(name));
      if (p) out.push(p);
    }
    return out;
  }
  const text = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,lstart='], { encoding: 'utf8' });
  return text.split('\n').filter(Boolean).map(function (line) {
    const f = line.trim().split(/\s+/);
    return { pid: Number(f[0]), ppid: Number(f[1]), pgid: Number(f[2]), start: f.slice(4).join(' '), dead: f[3][0] === 'Z' };
  });
}
const self = readStat(process.pid);
const host = readStat(hostPid);
// Never signalled: init's and no group, this watchdog's, and the host's (which may hold others).
const spared = new Set([0, 1, process.pid, hostPid, self ? self.pgid : -1, host ? host.pgid : -1]);

// Per watched worker (by root pid): its start stamp, every live process seen in its tree
// ("pid:start" -> {pid, start, pgid}) and every process group seen there (pgid -> the group
// leader's start stamp, or null when the leader was not seen). Key -1 holds processes found
// only through a recorded group.
const workers = new Map();
const keyOf = function (p) { return p.pid + ':' + p.start; };
function same(p, byPid) {
  const now = byPid.get(p.pid);
  return !!now && !now.dead && now.start === p.start;
}
function record(w, p, byPid) {
  w.members.set(keyOf(p), { pid: p.pid, start: p.start, pgid: p.pgid });
  if (!w.groups.has(p.pgid)) {
    const leader = byPid.get(p.pgid);
    w.groups.set(p.pgid, leader && leader.pgid === leader.pid ? leader.start : null);
  }
}
function snapshot(only) {
  const all = table();
  const byPid = new Map();
  const byParent = new Map();
  for (const p of all) {
    byPid.set(p.pid, p);
    const list = byParent.get(p.ppid);
    if (list) list.push(p); else byParent.set(p.ppid, [p]);
  }
  const list = only || Array.from(workers.values());
  for (const w of list) {
    const root = w.root;
    for (const [k, p] of w.members) if (!same(p, byPid)) w.members.delete(k);
    const queue = [];
    const r = byPid.get(root);
    if (r && !r.dead && r.start === w.start && root !== undefined) queue.push(r);
    // The commands the host runs for it: their trees are the worker's too.
    if (w.adopted) {
      for (const [pid, start] of w.adopted) {
        const a = byPid.get(pid);
        if (a && !a.dead && a.start === start) queue.push(a);
        else w.adopted.delete(pid);
      }
    }
    for (const p of w.members.values()) queue.push(byPid.get(p.pid));
    const seen = new Set();
    while (queue.length) {
      const p = queue.shift();
      if (!p || seen.has(p.pid) || spared.has(p.pid)) continue;
      seen.add(p.pid);
      if (!p.dead) record(w, p, byPid);
      for (const c of byParent.get(p.pid) || []) queue.push(c);
    }
  }
  if (stateFile) writeState();
  return byPid;
}
// What it knows, for a test that must wait until it knows a tree (RPC_WORKERS_WATCHDOG_STATE).
function writeState() {
  const pids = [];
  for (const w of workers.values()) for (const p of w.members.values()) pids.push(p.pid);
  try {
    fs.writeFileSync(stateFile + '.tmp', JSON.stringify({ pids: pids }));
    fs.renameSync(stateFile + '.tmp', stateFile);
  } catch (e) { /* a test aid only */ }
}
// A recorded group is still the one recorded while it has members, unless its leader's pid now
// belongs to another process (then the id may have been reused).
function sameGroup(pgid, leaderStart, byPid) {
  if (spared.has(pgid)) return false;
  const leader = byPid.get(pgid);
  if (!leader || leader.dead) return true;
  return leaderStart !== null && leader.start === leaderStart;
}
function signal(target, sig) {
  try { process.kill(target, sig); } catch (e) { /* gone */ }
}
function hostAlive() {
  if (!linux) { try { process.kill(hostPid, 0); return true; } catch (e) { return false; } }
  const now = readStat(hostPid);
  return !!now && !now.dead && now.start === hostStart;
}

// Freezes what is known of the given workers (each process, and each recorded group, which also
// holds what was forked after the last reading), reads again under it until nothing new
// appears, then SIGKILLs it all; and kills their cgroups, which hold what escaped both.
function endWorkers(ws) {
  const frozen = new Map();
  const frozenGroups = new Set();
  const strays = { root: undefined, start: null, members: new Map(), groups: new Map() };
  const all = ws.concat([strays]);
  let byPid = new Map();
  for (let round = 0; round < 10; round++) {
    byPid = snapshot(all);
    let fresh = 0;
    for (const w of all) {
      for (const [g, leaderStart] of w.groups) {
        if (frozenGroups.has(g) || !sameGroup(g, leaderStart, byPid)) continue;
        frozenGroups.add(g);
        fresh++;
        signal(-g, 'SIGSTOP');
      }
    }
    for (const p of byPid.values()) {
      if (!p.dead && frozenGroups.has(p.pgid) && !spared.has(p.pid)) record(strays, p, byPid);
    }
    for (const w of all) {
      for (const [k, p] of w.members) {
        if (frozen.has(k)) continue;
        frozen.set(k, p);
        fresh++;
        signal(p.pid, 'SIGSTOP');
      }
    }
    if (fresh === 0) break;
  }
  for (const g of frozenGroups) signal(-g, 'SIGKILL');
  for (const p of frozen.values()) if (same(p, byPid)) signal(p.pid, 'SIGKILL');
  for (const w of ws) if (w.cgroup) { try { fs.writeFileSync(w.cgroup + '/cgroup.kill', '1'); } catch (e) { /* gone, or before 5.14 */ } }
  return Array.from(frozen.values());
}
// A SIGKILL lands when its target next runs: calls back once none of them is alive (or after 2 s).
function whenGone(procs, then) {
  const until = Date.now() + 2000;
  (function check() {
    const left = procs.filter(function (p) { const now = readStat(p.pid); return !!now && !now.dead && now.start === p.start; });
    if (left.length && Date.now() < until) return setTimeout(check, 10);
    then();
  })();
}

let finishing = false;
function finish() {
  if (finishing) return;
  finishing = true;
  clearInterval(timer);
  if (workers.size === 0) process.exit(0);
  const ws = Array.from(workers.values());
  endWorkers(ws);
  // A killed cgroup empties as its processes are reaped; only then can it be removed.
  const until = Date.now() + 2000;
  const left = ws.filter(function (w) { return w.cgroup; }).map(function (w) { return w.cgroup; });
  const roots = new Set(left.map(function (c) { return c.slice(0, c.lastIndexOf('/')); }));
  (function sweep() {
    for (let i = left.length - 1; i >= 0; i--) {
      try { fs.rmdirSync(left[i]); left.splice(i, 1); } catch (e) { if (e.code === 'ENOENT') left.splice(i, 1); }
    }
    if (left.length && Date.now() < until) return setTimeout(sweep, 10);
    for (const r of roots) { try { fs.rmdirSync(r); } catch (e) { /* another worker's, or busy */ } }
    process.exit(0);
  })();
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', function (chunk) {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf('\n')) !== -1) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    let m;
    try { m = JSON.parse(line); } catch (e) { continue; }
    if (typeof m.watch === 'number') {
      const known = workers.get(m.watch);
      if (!known || known.start !== String(m.start)) workers.set(m.watch, { root: m.watch, start: String(m.start), cgroup: typeof m.cgroup === 'string' ? m.cgroup : null, members: new Map(), groups: new Map() });
      snapshot();
    } else if (typeof m.adopt === 'number') {
      const w = workers.get(m.owner);
      if (w) {
        if (!w.adopted) w.adopted = new Map();
        w.adopted.set(m.adopt, String(m.start));
        snapshot([w]);
      }
    } else if (typeof m.end === 'number') {
      // Stop: end everything ever seen of this worker (a job whose shell exited is out of its
      // tree by now, but still recorded, and still in its group), then forget it. Under another
      // start the pid is another worker's now, which this Stop does not end.
      const w = workers.get(m.end);
      const mine = !!w && (m.start === undefined || w.start === String(m.start));
      const killed = mine ? endWorkers([w]) : [];
      if (mine) workers.delete(m.end);
      if (stateFile) writeState();
      const ended = m.end;
      whenGone(killed, function () { reply({ ended: ended }); });
    } else if (typeof m.forget === 'number') {
      const w = workers.get(m.forget);
      if (w && (m.start === undefined || w.start === String(m.start))) workers.delete(m.forget);
      if (stateFile) writeState();
    }
  }
});
function reply(message) {
  try { process.stdout.write(JSON.stringify(message) + '\n'); } catch (e) { /* the host is gone */ }
}
process.stdout.on('error', function () {});
process.stdin.on('end', finish);
process.stdin.on('error', finish);
process.on('SIGINT', function () {});
process.on('SIGHUP', function () {});
const timer = setInterval(function () {
  if (!hostAlive()) return finish();
  if (workers.size > 0) snapshot();
}, pollMs);
`;
